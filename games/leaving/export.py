"""Everything the service holds on a person, as one JSON document (``GET /api/v1/me/export``,
GraphQL ``myData``): their right to a copy of their data (issue 25).

- ``profile``: the account's own fields (what ``/api/v1/me`` shows, and the names, the last
  login);
- ``ratings`` and ``rating_history``: every game's rating and every change of it;
- ``records``: the game record of every finished match they played (private ones too, and
  those a bot finished for them), exactly as ``/api/v1/matches/{id}/record/`` gives it,
  so each verifies through ``/api/v1/records/verify/``; oldest first, all of them unless
  a page is asked for (``records_after``, ``records_limit``: GraphQL's cost cap allows
  ``MAX_GRAPHQL_RECORDS`` at once), and ``records_next_after`` to ask for the next page
  (null at the end);
- ``matches``: every other match they sit in or played (open, running, being scored,
  aborted): its public summary, and in a running one the view of their own seat, the
  same ``engine.view`` the match detail gives them: nothing of another seat's hidden
  cards, no seed before the end;
- ``invitations`` (received and sent) and ``quick_match_requests``;
- ``chat_messages``: every chat message they wrote, oldest first, with its text as
  written even when they deleted it or a moderator hid it (games.chat.selectors);
- ``chat_mutes``: whom they muted in chat, and when, oldest first (games.chat.mutes);
- ``mail``: their e-mail address and choices (games/mail/), null when none.

Only the person's own data is read: the caller is the signed-in user, never a name from
the request. Records are replayed to build (as every record export is), so an export of
a long history takes a while: about 16 ms per 134-ply match (docs/capacity.md).
"""

from __future__ import annotations

import json

from django.core.serializers.json import DjangoJSONEncoder
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from games.chat.mutes import mutes_of
from games.chat.selectors import messages_written_by
from games.lobby.models import Invitation
from games.lobby.selectors import invitation_row
from games.mail import selectors as mail_selectors
from games.matches import parsing
from games.matches import selectors as match_selectors
from games.matches.models import Match, MatchStatus
from games.matches.seat_players import seats_played_by
from games.quickmatch.models import QuickMatchRequest
from games.quickmatch.selectors import request_row
from games.ratings.models import Rating, RatingChange
from games.ratings.selectors import rating_row
from games.records import selectors as record_selectors

FORMAT_NAME = "han-hansa-personal-data"
FORMAT_VERSION = 1
#: records one GraphQL ``myData`` may carry (each is a replay: games/graphql/field_weights.py;
#: seven keep the default page under the cost cap with the weights measured under
#: contention, issue 39)
MAX_GRAPHQL_RECORDS = 7


def personal_data(user, *, records_after=None, records_limit=None,
                  max_records: int | None = None) -> dict:
    """The document of the module's docstring for ``user``, as plain JSON values. With
    ``records_limit`` (1 to ``max_records``, all when not given) only that many records
    after the match id ``records_after``. Raises InvalidRequest (400) for a bad page."""
    after, limit = _records_page(records_after, records_limit, max_records)
    played = Match.objects.filter(Exists(seats_played_by(user).filter(match=OuterRef("pk"))))
    finished = list(played.filter(status=MatchStatus.FINISHED, pk__gt=after).order_by("pk")
                    .values_list("pk", flat=True))
    page = finished if limit is None else finished[:limit]
    document = {
        "format": FORMAT_NAME,
        "format_version": FORMAT_VERSION,
        "exported_at": timezone.now(),
        "profile": _profile(user),
        "ratings": [rating_row(rating) for rating in
                    Rating.objects.filter(user=user).order_by("game")],
        "rating_history": [_rating_change(change) for change in
                           RatingChange.objects.filter(user=user).order_by("created_at", "pk")],
        "records": _records(page),
        "records_next_after": page[-1] if len(page) < len(finished) else None,
        "matches": _other_matches(user, played.exclude(status=MatchStatus.FINISHED)),
        "invitations": [invitation_row(invitation) for invitation in
                        Invitation.objects.filter(Q(invitee=user) | Q(inviter=user))
                        .select_related("match", "inviter", "invitee").order_by("pk")],
        "quick_match_requests": [request_row(request) for request in
                                 QuickMatchRequest.objects.filter(user=user).order_by("pk")],
        "chat_messages": messages_written_by(user),
        "chat_mutes": mutes_of(user),
        "mail": mail_selectors.settings_row(user),
    }
    # one encoding for REST and GraphQL: dates as ISO 8601 strings
    return json.loads(json.dumps(document, cls=DjangoJSONEncoder))


def _records_page(after, limit, most: int | None) -> tuple[int, int | None]:
    after_id = parsing.parse_number(after, "records_after", low=0, high=parsing.MAX_OFFSET,
                                    default=0)
    if limit is None or limit == "":
        return after_id, most
    top = most or record_selectors.MAX_EXPORT
    return after_id, parsing.parse_number(limit, "records_limit", low=1, high=top)


def _profile(user) -> dict:
    return {"id": user.pk, "username": user.username, "email": user.email,
            "first_name": user.first_name, "last_name": user.last_name,
            "date_joined": user.date_joined, "last_login": user.last_login,
            "is_staff": user.is_staff}


def _rating_change(change: RatingChange) -> dict:
    return {"match_id": change.match_id, "game": change.game, "seat": change.seat,
            "rank": change.rank, "mu_before": change.mu_before,
            "sigma_before": change.sigma_before, "mu_after": change.mu_after,
            "sigma_after": change.sigma_after, "created_at": change.created_at}


def _records(ids: list[int]) -> list[dict]:
    chunk, records = record_selectors.EXPORT_CHUNK, []
    for start in range(0, len(ids), chunk):  # a few statements per chunk of matches
        records.extend(record_selectors.records_of(ids[start:start + chunk]))
    return records


def _other_matches(user, matches) -> list[dict]:
    rows = []
    for match in (matches.select_related("created_by")
                  .prefetch_related(match_selectors.SEATS_WITH_USERS).order_by("pk")):
        row = match_selectors.match_summary(match, user)
        if match.status == MatchStatus.ACTIVE:
            row["your_view"] = match_selectors.view_for(match, user)
        rows.append(row)
    return rows
