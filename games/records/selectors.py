"""Reading records: a finished match exported as one JSON document, and every finished
match of a user one after the other (for newline-delimited export).

Only finished matches have a record: before the end the seed and other seats' moves are
hidden, and an aborted match has no result to verify (NotFinished, 409).
"""

from __future__ import annotations

from typing import Any

from django.db.models import Exists, OuterRef, Prefetch, prefetch_related_objects
from django.utils.translation import gettext as _

from games.analysis.selectors import analysis_section
from games.lobby.selectors import listed_for
from games.matches import errors, parsing, selectors
from games.matches.incidents import Incident, IncidentKind
from games.matches.models import Match, MatchStatus, Move, Result
from games.matches.outcome import forfeit_order
from games.matches.played_rules import engine_of, replayable
from games.matches.seat_players import seats_played_by
from games.matches.setup_checks import engine_for
from games.matches.time_controls import NONE
from games.records import signing
from games.records.format import FORMAT_NAME, FORMAT_VERSION, state_digest
from games.users import find_user
from infra.timestamps import utc_iso

#: bulk export: matches per page of the database cursor, and the most one request streams
EXPORT_CHUNK = 50
MAX_EXPORT = 10_000

#: the rows a record shows besides the match and its seats, each read once for a whole
#: chunk of matches (a query each per match made an export's statements grow with it); a
#: match that has them already (``get_match`` loads the incidents) is not read again
RECORD_ROWS = (
    Prefetch("moves", queryset=Move.objects.order_by("ply").only("match_id", "ply", "seat",
                                                                   "move")),
    Prefetch("results", queryset=Result.objects.order_by("seat")),
    Prefetch("incidents", queryset=Incident.objects.select_related("user").order_by("id")),
)


def _iso(moment) -> str | None:
    return utc_iso(moment)


def build_record(match: Match) -> dict:
    """The record of a finished ``match`` (seats prefetched, as ``selectors.get_match``
    gives it). Raises NotFinished (409) for any other status: nothing hidden leaves."""
    if match.status != MatchStatus.FINISHED:
        raise errors.NotFinished(_("Only a finished match has a record."),
                                 details={"status": match.status})
    prefetch_related_objects([match], *RECORD_ROWS)  # nothing to do after records_of's
    if replayable(match):
        engine = engine_of(match)  # the rules it was played under (rules/versions.py)
        state = engine.setup(match.players, match.options, match.seed)
        initial_digest = state_digest(engine.to_json(state))
        moves = []
        # every digest needs the state after its move: the replay cannot be skipped
        for logged in match.moves.all():  # in ply order (RECORD_ROWS)
            state, _events = engine.apply(state, logged.seat, logged.move)
            moves.append({"ply": logged.ply, "seat": logged.seat, "move": logged.move,
                          "state_digest": state_digest(engine.to_json(state))})
    else:
        # A rules version no engine here plays: the seed, the log and the result are
        # still facts of the match and exported, without the digests only an engine of
        # that version computes (they are optional in the format: docs/records.md).
        initial_digest = None
        moves = [{"ply": logged.ply, "seat": logged.seat, "move": logged.move,
                  "state_digest": None} for logged in match.moves.all()]
    rows = match.results.all()  # in seat order (RECORD_ROWS)
    incidents = sorted(match.incidents.all(), key=lambda row: row.pk)
    record = {
        "format": FORMAT_NAME,
        "format_version": FORMAT_VERSION,
        "game": match.game,
        "rules_version": match.rules_version,
        "players": match.players,
        "options": match.options,
        # the clock, as stored: whether a timeout or added time was possible at all
        "time_control": match.time_control or {"preset": NONE, "kind": NONE},
        "seats": [
            {key: seat[key] for key in ("position", "kind", "username", "user", "bot_kind",
                                        "taken_over_from")}
            for seat in selectors.seats_of(match)
        ],
        "seed": match.seed,
        "seed_commitment": match.seed_commitment,
        "initial_state_digest": initial_digest,
        "moves": moves,
        # ``user``: the player it happened to (informative: verification reads ply,
        # seat and kind only)
        "incidents": [{"ply": row.ply, "seat": row.seat, "kind": row.kind,
                       "username": row.user.username if row.user_id is not None else None,
                       "user": row.user.username if row.user_id is not None else None}
                      for row in incidents],
        "result": {
            "scores": [row.score for row in rows],
            "ranks": [row.rank for row in rows],
            # competition ranks: tied winners share rank 1 (rulings Q1, H12)
            "winners": [row.seat for row in rows if row.rank == 1],
            "breakdown": [row.breakdown for row in rows],
            # what the incidents made of the result: checked against them on verifying
            "forfeits": forfeit_order(incidents),
            "timeouts": [row.seat for row in incidents if row.kind == IncidentKind.TIMEOUT],
        },
        "match": {
            "id": match.pk,
            "created_at": _iso(match.created_at),
            "started_at": _iso(match.started_at),
            "finished_at": _iso(match.finished_at),
        },
    }
    # the service vouches for the incidents, which replay alone cannot (docs/records.md
    # "Signatures"); signed as it is built, so a rotation applies to every later export
    record["signature"] = signing.sign(record)
    return record


def record_of(match_id: Any, *, with_analysis: bool = False) -> dict:
    """The record of the match with ``match_id``; ``with_analysis`` adds its ``analysis``
    section. Raises MatchNotFound, NotFinished."""
    match = selectors.get_match(match_id)
    record = build_record(match)
    if with_analysis:
        record["analysis"] = analysis_section(match)
    return record


def user_record_ids(username: Any, *, viewer=None, game: Any = None, after: Any = None,
                    limit: Any = None) -> list[int]:
    """Ids of the finished matches ``username`` played (also those a bot finished for them:
    games.matches.seat_players), oldest first, for a bulk export
    (``records_of`` builds them). ``after``: a match id, to resume an export; ``limit``:
    at most this many (1 to MAX_EXPORT, default MAX_EXPORT). Everything is checked here,
    before the first record is streamed, so a bad argument is a clean 4xx rather than a
    broken stream: UserNotFound (404), UnknownGame (400), InvalidRequest (400). Private
    matches are left out unless ``viewer`` may see them listed."""
    user = find_user(username)
    if game is not None:
        engine_for(game, unknown_status=400)
    after_id = parsing.parse_number(after, "after", low=0, high=parsing.MAX_OFFSET, default=0)
    count = parsing.parse_number(limit, "limit", low=1, high=MAX_EXPORT, default=MAX_EXPORT)
    matches = listed_for(Match.objects.all(), viewer).filter(
        Exists(seats_played_by(user).filter(match=OuterRef("pk"))),
        status=MatchStatus.FINISHED, pk__gt=after_id,
    )
    if game is not None:
        matches = matches.filter(game=game)
    return list(matches.order_by("pk").values_list("pk", flat=True)[:count])


def records_of(ids: list[int], with_analysis: bool = False) -> list[dict]:
    """The records of the finished matches ``ids`` (a chunk of ``user_record_ids``), in
    that order; a match that is no longer there is skipped. Five statements whatever the
    number of matches: the matches, their seats with users, moves, results, incidents."""
    by_id = {match.pk: match for match in Match.objects.filter(pk__in=ids)
             .prefetch_related(selectors.SEATS_WITH_USERS, *RECORD_ROWS)}
    records = [build_record(by_id[match_id]) for match_id in ids if match_id in by_id]
    if with_analysis:  # two statements per match more, only when asked
        for record in records:
            record["analysis"] = analysis_section(by_id[record["match"]["id"]])
    return records
