"""Moving ratings after a match: the only writer of ``Rating`` and ``RatingChange``.

``rate_match`` runs inside the scoring service's transaction (``games.matches
.scoring.score_match``), with the match row locked, through ``rate_change``, which
games/apps.py connects to every change of a match (``games.matches.changes``, inside the
writer's transaction) and which acts on a scoring's change: a match's results and its
rating changes commit together or not at all. It rates a match
once: a second call (a retried task, an admin's re-scoring) finds the match's changes and
does nothing, and the unique (match, user) constraint of ``RatingChange`` would refuse a
second set anyway.

Which matches are rated (docs/ratings.md): finished (never aborted), every seat taken,
at least one person seated. Bot seats play under one rated account per bot kind
(``bot:<kind>``, made by ``accounts.bots``), so each bot level earns a rating from the
people it meets. A seat that timed out, resigned or forfeited is a loss for its player
(ranked last), even when a bot played it to the end.
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone
from openskill.models import PlackettLuce

from accounts.bots import bot_account
from games.dispatch import RATED_ANALYSIS_TASK, enqueue
from games.matches.changes import MatchChanged
from games.matches.clock_selectors import incident_rows
from games.matches.incidents import FORFEIT_KINDS, IncidentKind
from games.matches.models import Match, MatchStatus, Result
from games.matches.outcome import apply_forfeits
from games.matches.seat_players import player_of
from games.ratings.models import Rating, RatingChange

logger = logging.getLogger(__name__)

#: openskill's defaults (mu 25, sigma 25/3, beta 25/6, tau 25/300); one model for all games
MODEL = PlackettLuce()

#: incidents after which a seat's player lost, whatever the seat's score
LOSS_KINDS = (*FORFEIT_KINDS, IncidentKind.TIMEOUT)


def is_rated(match: Match, seats: list, incidents: list) -> bool:
    """A match counts for ratings: finished, every seat taken, at least one person (also
    one whose seat a bot finished)."""
    return (
        match.status == MatchStatus.FINISHED
        and len(seats) == match.players
        and any(player_of(seat, incidents) is not None for seat in seats)
    )


def _locked_ratings(user_ids: list[int], game: str) -> dict[int, Rating]:
    """The ratings of ``user_ids`` in ``game``, created at openskill's prior if missing,
    locked in user id order (two matches sharing players never deadlock). Players rated
    before (the usual case) cost one statement; the first match of a player two more."""
    wanted = sorted(set(user_ids))
    locked = _lock_ratings(wanted, game)
    missing = [user_id for user_id in wanted if user_id not in locked]
    if missing:
        # ignore_conflicts: a concurrent scoring may create the same row first
        Rating.objects.bulk_create(
            [Rating(user_id=user_id, game=game, mu=MODEL.mu, sigma=MODEL.sigma,
                    ordinal=MODEL.rating().ordinal()) for user_id in missing],
            ignore_conflicts=True)
        locked = _lock_ratings(wanted, game)
    return locked


def _lock_ratings(user_ids: list[int], game: str) -> dict[int, Rating]:
    rows = Rating.objects.select_for_update().filter(user_id__in=user_ids, game=game)
    return {rating.user_id: rating for rating in rows.order_by("user_id")}


def _rated_holder(seat, incidents) -> int:
    """Who a seat's result counts for: its player (games.matches.seat_players), also when a
    bot finished the game for them; the bot kind's account for a seat a bot held from the
    start."""
    person = player_of(seat, incidents)
    return person if person is not None else bot_account(seat.bot_kind).pk


def _ranks_with_losses(ranks: dict[int, int], incidents, players: int) -> dict[int, int]:
    """The result's ranks, with every seat that timed out, resigned or forfeited ranked
    last (first to go lowest), as the stored result already does for resignations and
    forfeits: a timeout counts as a loss even when a bot then played the seat well."""
    losers: list[int] = []
    for incident in incidents:
        if incident.kind in LOSS_KINDS and incident.seat not in losers:
            losers.append(incident.seat)
    redone = apply_forfeits({"ranks": [ranks[seat] for seat in range(players)]}, losers,
                            players)
    return dict(enumerate(redone["ranks"]))


@transaction.atomic(savepoint=False)  # all or nothing with the caller's results
def rate_match(match: Match, ranks: dict[int, int] | None = None) -> bool:
    """Move the ratings of ``match``'s players by its results, once. The caller holds the
    match row's lock (the scoring service). ``ranks``: each seat's stored rank, when the
    caller has just written them (else they are read). The seats and incidents come from
    the match's prefetch cache when the caller loaded them with it
    (``games.matches.guards.lock_match_to_play``). Returns True when ratings changed."""
    if RatingChange.objects.filter(match=match).exists():
        return False
    seats = list(match.seats.all())
    incidents = incident_rows(match)
    if not is_rated(match, seats, incidents):
        return False
    if ranks is None:
        ranks = dict(Result.objects.filter(match=match).values_list("seat", "rank"))
    if len(ranks) != match.players:
        logger.error("match %s is finished without a result per seat", match.pk)
        return False
    seats.sort(key=lambda seat: seat.position)
    holders = [_rated_holder(seat, incidents) for seat in seats]
    ranks = _ranks_with_losses(ranks, incidents, match.players)
    ratings = _locked_ratings(holders, match.game)
    # A bot kind holding several seats plays them all at its current rating but is not
    # moved: one account cannot be rated against itself.
    movable = {holder for holder in holders if holders.count(holder) == 1}
    teams = [[MODEL.rating(mu=ratings[holder].mu, sigma=ratings[holder].sigma)]
             for holder in holders]
    seat_ranks = [ranks[seat.position] for seat in seats]
    updated = MODEL.rate(teams, ranks=seat_ranks)
    now = timezone.now()
    changes, moved = [], []
    for seat, holder, rank, (new,) in zip(seats, holders, seat_ranks, updated, strict=True):
        if holder not in movable:
            continue
        rating = ratings[holder]
        changes.append(RatingChange(
            match=match, user_id=holder, game=match.game, seat=seat.position, rank=rank,
            mu_before=rating.mu, sigma_before=rating.sigma, mu_after=new.mu,
            sigma_after=new.sigma,
        ))
        rating.mu, rating.sigma, rating.ordinal = new.mu, new.sigma, new.ordinal()
        rating.rated_matches += 1
        rating.rated_wins += int(rank == 1)  # ties share rank 1 (rulings Q1, H12)
        rating.updated_at = now  # an UPDATE by hand does not stamp auto_now fields
        moved.append(rating)
    _store(moved)
    RatingChange.objects.bulk_create(changes)
    return bool(changes)


def rate_change(event: MatchChanged) -> None:
    """A receiver of every change of a match, inside its transaction (connected in
    games/apps.py): when the change is a scoring that stored results (``event.ranks``),
    move the match's ratings, and when they moved and ``ANALYSE_RATED_MATCHES`` is on,
    ask for its analysis once the scoring commits (docs/analysis.md)."""
    if event.ranks is None:
        return
    match = event.match
    rated = rate_match(match, event.ranks)
    if rated and settings.ANALYSE_RATED_MATCHES:
        transaction.on_commit(lambda: enqueue(RATED_ANALYSIS_TASK, match.pk), robust=True)


#: what a rating change writes to its ``Rating`` row
STORED_FIELDS = ("mu", "sigma", "ordinal", "rated_matches", "rated_wins", "updated_at")


def _store(moved: list[Rating]) -> None:
    """Write the moved ratings: one UPDATE per row, sent together (psycopg's executemany
    pipelines them: one round trip). Django's ``bulk_update`` compiled a CASE per field
    and row, about 2 ms of the worker's CPU per match scored, more than the rest of the
    rating (bench/match_life.py; docs/capacity.md, session 12)."""
    if not moved:
        return
    meta = Rating._meta
    quote = connection.ops.quote_name
    assignments = ", ".join(f"{quote(meta.get_field(name).column)} = %s"
                            for name in STORED_FIELDS)
    with connection.cursor() as cursor:
        cursor.executemany(
            f"UPDATE {quote(meta.db_table)} SET {assignments} "
            f"WHERE {quote(meta.pk.column)} = %s",
            [(*(getattr(rating, name) for name in STORED_FIELDS), rating.pk)
             for rating in moved])
