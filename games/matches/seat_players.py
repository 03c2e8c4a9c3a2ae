"""Who played a seat: the one answer that ratings, profiles, the records export,
rematches and the feed share (docs/ratings.md "Which matches count").

A seat's player is the user who holds it or, when a bot holds it now, the person it was
taken from: the first incident on the seat that names a player (a timeout, an admin's
hand-over, a resignation or a forfeit, after which a bot plays it out). A seat a bot held
from the start has no player. Only the person a seat was taken from can take it back
(games.matches.claims), so the incidents of one seat never name two people.

``player_of`` answers for seats and incidents already loaded; ``seats_played_by`` asks
the database the same question, for reads over many matches (profiles, exports).
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import BigIntegerField, Exists, OuterRef, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce

from games.matches.incidents import Incident
from games.matches.models import Seat


def player_of(seat, incidents: Iterable) -> int | None:
    """The user id of the person who played ``seat`` (``incidents``: the match's, in log
    order); None for a seat bots held from the start."""
    if seat.user_id is not None:
        return seat.user_id
    for incident in incidents:
        if incident.seat == seat.position and incident.user_id is not None:
            return incident.user_id
    return None


def players_by_seat(seats: Iterable, incidents: Iterable) -> dict[int, int]:
    """Position -> user id, for each seat a person played (bots' own seats left out)."""
    incidents = list(incidents)
    players = {seat.position: player_of(seat, incidents) for seat in seats}
    return {position: user_id for position, user_id in players.items() if user_id is not None}


def seats_played_by(user) -> QuerySet[Seat]:
    """The seats ``user`` played, in every match: ``player_of`` in SQL."""
    on_seat = Incident.objects.filter(match=OuterRef("match"), seat=OuterRef("position"),
                                      user__isnull=False)
    first_player = Subquery(on_seat.order_by("id").values("user_id")[:1],
                            output_field=BigIntegerField())
    # The Exists keeps the scan to the user's own seats and incidents (both indexed); the
    # Coalesce is the rule itself.
    return (Seat.objects
            .filter(Q(user=user) | Q(Exists(on_seat.filter(user=user)), user__isnull=True))
            .annotate(player=Coalesce("user_id", first_player, output_field=BigIntegerField()))
            .filter(player=user.pk))
