"""Reading a user's feed: the events after a given id, oldest first. A user reads only
their own events: every function takes the user, never a user id from a request."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games.feed.models import FeedEvent
from games.matches import errors
from infra.numbers import BIGINT_MAX, parse_whole_number
from infra.timestamps import utc_iso

#: one replay answers at most this many events (a client far behind asks again)
MAX_REPLAY = 500


def parse_last_event_id(value: Any, *, text: bool = True) -> int:
    """A last event id from a request (query string, header, argument, the socket's
    ``after``: a JSON number only when not ``text``): a whole number from 0 to bigint's
    largest, 0 by default (infra/numbers.py). Raises InvalidRequest (400)."""
    return parse_whole_number(value, "last_event_id", high=BIGINT_MAX, default=0,
                              text=text, error=errors.InvalidRequest)


class LastEventIdAhead(errors.InvalidRequest):
    """A resume point past the newest event of the reader's feed: a client that kept an id
    from another user's feed, another server or a reset database would otherwise wait in
    silence for events that never come (issue 22)."""

    default_code = "last_event_id_ahead"


def resume_point(user, value: Any) -> int:
    """The last event id a reader resumes after (``parse_last_event_id``), which must be
    0 or the id of an event of ``user``'s feed or below it: anything past their newest
    event is LastEventIdAhead (400). One indexed query, none for 0."""
    last = parse_last_event_id(value)
    if last and not FeedEvent.objects.filter(user=user, pk__gte=last).exists():
        newest = (FeedEvent.objects.filter(user=user).order_by("-pk")
                  .values_list("pk", flat=True).first())
        raise LastEventIdAhead(
            _("last_event_id %(last)s is beyond the newest event of your feed.")
            % {"last": last}, details={"last_event_id": last, "newest": newest or 0})
    return last


def event_row(event: FeedEvent) -> dict:
    return {"id": event.pk, "kind": event.kind, "created_at": utc_iso(event.created_at),
            **event.payload}


def events_after(user, last_event_id: int, *, limit: int = MAX_REPLAY) -> list[dict]:
    """``user``'s events with an id above ``last_event_id``, oldest first."""
    rows = FeedEvent.objects.filter(user=user, pk__gt=last_event_id).order_by("pk")[:limit]
    return [event_row(event) for event in rows]
