"""``GET /api/v1/stream/``: the caller's feed as newline-delimited JSON, kept open.

An asynchronous Django view (not DRF: DRF views are synchronous and would hold a worker
thread per open stream). It authenticates with the API token itself and answers errors
in the API's one error shape before the stream starts.
"""

from __future__ import annotations

import json

from channels.db import database_sync_to_async
from django.http import JsonResponse, StreamingHttpResponse
from rest_framework.authtoken.models import Token
from rest_framework.exceptions import AuthenticationFailed

from accounts.apps_oauth.credentials import authenticate_key
from accounts.revocation import AccessCheck
from games.api.toolkit.errors import error_response
from games.feed.selectors import resume_point
from games.feed.stream import follow
from games.matches import errors
from infra import credential_scopes
from infra.api_errors import error_body
from infra.text_inputs import CONTROL_CHARACTERS, ControlCharacters, find_control_characters


class _Credential:
    """What the stream keeps of its credential: the key (for the re-check) and the user."""

    def __init__(self, key: str, user) -> None:
        self.key, self.user, self.user_id = key, user, user.pk


def _token_of(header: str) -> _Credential | None:
    """The valid credential of an ``Authorization: Token <key>`` header (a first-party
    key) or ``Authorization: Bearer <token>`` (an app's or a personal access token:
    accounts/apps_oauth/credentials.py), its active user loaded; else None."""
    kind, _, key = header.partition(" ")
    key = key.strip()
    # a key with a control character is no key (and PostgreSQL takes no NUL byte)
    if kind.lower() not in ("token", "bearer") or not key or CONTROL_CHARACTERS.search(key):
        return None
    if kind.lower() == "token":
        token = Token.objects.select_related("user").filter(key=key).first()
        if token is None or not token.user.is_active:
            return None
        return _Credential(token.key, token.user)
    try:
        user, _credential = authenticate_key(key)
    except AuthenticationFailed:
        return None
    return _Credential(key, user)


_token_of_async = database_sync_to_async(_token_of)
#: what the stream needs of a credential, declared as every REST view declares it
#: (infra/api_views.py): the feed is the player's own
REQUIRED_SCOPE = "account:read"
_resume_point = database_sync_to_async(resume_point)


async def stream_view(request):
    """Your events (your turn, match started or finished, invitation received, matched by
    quick match), one JSON object per line: first those after ``last_event_id`` (query
    string, or the ``Last-Event-ID`` header), then each new one as it happens; an empty
    line at once and after every 20 seconds of silence. Needs ``Authorization: Token <key>``
    (or ``Bearer <token>``: an app's or a personal access token);
    ends when that token is revoked (accounts/revocation.py)."""
    if request.method != "GET":
        return JsonResponse(error_body("method_not_allowed", "Use GET."), status=405)
    token = await _token_of_async(request.headers.get("Authorization", ""))
    if token is None:
        return error_response(errors.AuthenticationRequired(
            "The stream needs Authorization: Token <key> or Bearer <token>."))
    if credential_scopes.lacks(token.user, token, REQUIRED_SCOPE):
        return error_response(credential_scopes.InsufficientScope(REQUIRED_SCOPE))
    bad = find_control_characters(dict(request.GET.items()), "")
    if bad is not None:  # the API's rule for every text input (infra/text_inputs.py)
        return error_response(ControlCharacters(bad))
    try:
        last = await _resume_point(token.user, request.GET.get(
            "last_event_id", request.headers.get("Last-Event-ID")))
    except errors.GameServiceError as exc:
        return error_response(exc)
    user, access = token.user, AccessCheck(token.key, token.user_id)

    async def lines():
        # An empty line at once: some servers (daphne) send the headers only with the
        # first bytes of the body, and a client with nothing to replay would otherwise
        # wait for the first event or keep-alive to learn that its stream is open.
        yield b"\n"
        async for event in follow(user, last, access=access):
            yield b"\n" if event is None else (json.dumps(event) + "\n").encode()

    response = StreamingHttpResponse(lines(), content_type="application/x-ndjson")
    response["Cache-Control"] = "no-store"
    response["X-Accel-Buffering"] = "no"  # a buffering proxy would hold the lines back
    return response


stream_view.required_scopes = {"GET": REQUIRED_SCOPE}
