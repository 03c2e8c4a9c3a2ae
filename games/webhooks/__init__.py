"""Signed webhooks for registered apps (issue 42, docs/webhooks.md).

An app's owner registers endpoints subscribed to event types; what happens to the app's
users (their turn, a match started or finished, an invitation) is posted to them, signed
by the Standard Webhooks specification, by a Celery task that retries with exponential
back-off for a bounded time and then disables the endpoint. Every URL is checked against
server-side request forgery at registration and at every send (``addresses``).

One job per module: ``models`` (endpoints, deliveries), ``addresses`` (which hosts may be
called), ``sending`` (one signed POST to a checked address), ``events`` (what a change or
an invitation becomes), ``services`` (the writes), ``selectors`` (the reads), ``tasks``.
"""
