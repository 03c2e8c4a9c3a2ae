"""Reads of matches that several callers need (REST, GraphQL, admin, the bots' tasks).

Every function that returns game information returns it *as the given reader may see it*:
the reader's own seat view for a seated user, the spectator view otherwise, and
everything only once the match has ended. ``engine.view``, ``engine.redact_move`` and
``engine.redact_event`` are the only redaction used; nothing here strips hidden fields by
itself.
"""

from __future__ import annotations

from typing import Any

from django.contrib.postgres.expressions import ArraySubquery
from django.db.models import Count, Exists, F, OuterRef, Prefetch, Q, QuerySet
from django.utils.translation import gettext as _

from games.matches import clock_selectors, errors
from games.matches.incidents import Incident
from games.matches.models import ENDED_STATUSES, Match, MatchStatus, Move, Result, Seat
from games.matches.parsing import parse_match_id, parse_ply
from games.matches.played_rules import engine_of, replayable
from games.matches.replay import replay_state
from games.matches.rows import load_match
from games.matches.seat_players import player_of
from games.matches.setup_checks import engine_for

#: seats with their users in one query (instead of one for seats and one for users)
SEATS_WITH_USERS = Prefetch("seats", queryset=Seat.objects.select_related("user"))
#: incidents with the users they name (a taken-over seat names its player: ``seats_of``)
INCIDENTS_WITH_USERS = Prefetch("incidents",
                                queryset=Incident.objects.select_related("user").order_by("id"))



# -- finding matches --------------------------------------------------------------------------
def get_match(match_id: Any) -> Match:
    """The match with ``match_id`` (int or digit string), creator, seats and incidents
    loaded.
    Raises MatchNotFound (404)."""
    pk = parse_match_id(match_id)
    match = load_match(pk)  # one statement: creator, seats, incidents (games/matches/rows.py)
    if match is None:
        raise errors.MatchNotFound(details={"match_id": pk})
    return match


def filter_matches(
    *,
    user=None,
    game: str | None = None,
    status: str | None = None,
    mine: bool = False,
    open_seats: bool | None = None,
    my_turn: bool | None = None,
) -> QuerySet[Match]:
    """Matches newest first, private ones included (a list shown to someone goes through
    ``games.lobby.selectors.list_matches``), filtered by ``game``, ``status``, ``mine``
    (``user`` holds a seat or created it), ``open_seats`` (True: open matches with a free
    seat; False: the others) and ``my_turn`` (True: active matches where ``user``'s seat
    owes a decision now; False: the others). Raises InvalidRequest for an unknown status,
    UnknownGame (400) for an unknown game."""
    matches = Match.objects.select_related("created_by").prefetch_related(
        SEATS_WITH_USERS, INCIDENTS_WITH_USERS)
    if game is not None:
        engine_for(game, unknown_status=400)
        matches = matches.filter(game=game)
    if status is not None:
        if status not in MatchStatus.values:
            raise errors.InvalidRequest(
                _("status must be one of %(values)s.") % {"values": ", ".join(MatchStatus.values)},
                details={"status": list(MatchStatus.values)},
            )
        matches = matches.filter(status=status)
    if mine:
        if user is None or not user.is_authenticated:
            return matches.none()
        matches = matches.filter(
            Q(created_by=user) | Exists(Seat.objects.filter(match=OuterRef("pk"), user=user))
        )
    if open_seats is not None:
        with_free_seat = Q(status=MatchStatus.OPEN) & Q(taken__lt=F("players"))
        matches = matches.annotate(taken=Count("seats", distinct=True))
        matches = matches.filter(with_free_seat if open_seats else ~with_free_seat)
    if my_turn is not None:
        matches = matches.filter(my_turn_q(user) if my_turn else ~my_turn_q(user))
    return matches.order_by("-created_at", "-id")


def my_turn_q(user) -> Q:
    """Active matches whose ``to_act`` holds ``user``'s seat (nothing for anonymous)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return Q(pk__in=[])
    own_seat = Seat.objects.filter(match=OuterRef("pk"), user=user)
    return Q(status=MatchStatus.ACTIVE) & Q(Exists(own_seat)) & Q(
        to_act__contains=ArraySubquery(own_seat.values("position"))
    )


def seat_of(match: Match, user) -> int | None:
    """The position ``user`` holds in ``match``, or None (spectator, anonymous)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    for seat in match.seats.all():  # prefetched by get_match
        if seat.user_id == user.pk:
            return seat.position
    return None


def seats_of(match: Match) -> list[dict]:
    """Every position with who holds it: ``{"position", "kind": "human"|"bot"|"open",
    "username", "bot_kind", "taken_over_from"}`` (public information; ``user``: the same
    name, deprecated, issue 41). A seat a bot took over
    from a person (a timeout, an admin's hand-over, a resignation or a forfeit) is
    ``kind: "bot"`` and still names that person, in ``user`` and in ``taken_over_from``
    (None on every other seat): a timed-out player does not disappear (issue 22)."""
    taken = {seat.position: seat for seat in match.seats.all()}
    handed = _taken_over_from(match, taken.values())
    rows = []
    for position in range(match.players):
        seat = taken.get(position)
        if seat is None:
            rows.append({"position": position, "kind": "open", "username": None,
                         "user": None, "bot_kind": None, "taken_over_from": None})
        elif seat.bot_kind:
            person = handed.get(position)
            rows.append({"position": position, "kind": "bot", "username": person,
                         "user": person,
                         "bot_kind": seat.bot_kind, "taken_over_from": person})
        else:
            rows.append({"position": position, "kind": "human",
                         "username": seat.user.username, "user": seat.user.username,
                         "bot_kind": None, "taken_over_from": None})
    return rows


def _taken_over_from(match: Match, seats) -> dict[int, str]:
    """Position -> username of the person each bot-held seat was taken from (the seat's
    player, games.matches.seat_players). The incidents are read only when a bot holds a
    seat; ``get_match`` and the lists load them with their users (INCIDENTS_WITH_USERS)."""
    bot_seats = [seat for seat in seats if seat.bot_kind]
    if not bot_seats:
        return {}
    incidents = list(match.incidents.all())
    names = {}
    for seat in bot_seats:
        person = player_of(seat, incidents)
        named = next((row for row in incidents if row.seat == seat.position
                      and row.user_id == person), None) if person is not None else None
        if named is not None:
            names[seat.position] = named.user.username
    return names


def state_of(match: Match) -> Any | None:
    """The engine state of the match's snapshot (None before the start)."""
    if match.state is None:
        return None
    return engine_of(match).from_json(match.state)


def to_act_of(match: Match) -> list[int]:
    """Seats owing a decision now (empty unless the match is active)."""
    if match.status != MatchStatus.ACTIVE or match.state is None:
        return []
    engine = engine_of(match)
    return list(engine.to_act(engine.from_json(match.state)))


def revealed_seed(match: Match) -> str | None:
    """The seed once the match has ended (finished or aborted), None before."""
    return match.seed if match.status in ENDED_STATUSES else None


def match_summary(match: Match, user=None) -> dict:
    """The public facts of a match (no game state): what list endpoints show."""
    return {
        "id": match.pk,
        "game": match.game,
        "options": match.options,
        "players": match.players,
        "status": match.status,
        "ply": match.ply,
        "to_act": list(match.to_act),
        "seats": seats_of(match),
        "your_seat": seat_of(match, user),
        "seed_commitment": match.seed_commitment,
        "seed": revealed_seed(match),
        "rules_version": match.rules_version,
        "created_by": match.created_by.username if match.created_by else None,
        "created_at": match.created_at,
        "started_at": match.started_at,
        "finished_at": match.finished_at,
        "abort_reason": match.abort_reason,
        "time_control": clock_selectors.time_control_of(match),
        "clocks": clock_selectors.clocks_of(match),
        "players_read_spectator_chat": match.players_read_spectator_chat,
    }


def view_for(match: Match, user=None) -> dict | None:
    """The game as ``user`` may see it now (``engine.view``): the seat's view for a seated
    user, the spectator view otherwise. None before the start, and for a match played
    under a rules version no engine here plays (rules/versions.py): its page still shows
    everything else. (After the end the full state is in ``replay_view`` and the log is
    shown whole.)"""
    if not replayable(match):
        return None
    state = state_of(match)
    if state is None:
        return None
    return engine_of(match).view(state, seat_of(match, user))


def to_act_and_view(
    match: Match, seat: int | None, state: Any | None = None
) -> tuple[list[int], dict | None]:
    """``to_act_of`` and the view of ``seat`` (``view_for``), from one parse of the state
    (none when the caller passes the engine ``state`` it holds already). Nobody to act
    and no view under a rules version no engine here plays: nobody can move there."""
    if state is None and not replayable(match):
        return [], None
    if state is None:
        state = state_of(match)
    if state is None:
        return [], None
    engine = engine_of(match)
    to_act = list(engine.to_act(state)) if match.status == MatchStatus.ACTIVE else []
    return to_act, engine.view(state, seat)


def match_detail(match: Match, user=None, *, state: Any | None = None) -> dict:
    """``match_summary`` plus ``to_act`` and the reader's ``view`` (None before the start).
    ``state``: the engine state of ``match.state`` if the caller holds it (a move just
    made), to skip parsing the JSON again."""
    detail = match_summary(match, user)
    detail["to_act"], detail["view"] = to_act_and_view(match, detail["your_seat"], state)
    rows = clock_selectors.incident_rows(match)
    detail["incidents"] = clock_selectors.incidents_of(match, rows)
    detail["reclaimable_seat"] = clock_selectors.reclaimable_seat(match, user, rows)
    return detail


def legal_moves_for(match: Match, user) -> dict:
    """``{"seat", "ply", "to_act", "moves"}``: the caller's legal moves now (empty when the
    seat owes no decision). Raises NotSeated (403) for a reader without a seat."""
    seat = seat_of(match, user)
    if seat is None:
        raise errors.NotSeated()
    state = state_of(match) if match.status == MatchStatus.ACTIVE else None
    engine = engine_of(match)
    to_act = list(engine.to_act(state)) if state is not None else []
    moves = engine.legal_moves(state, seat) if seat in to_act else []
    return {"seat": seat, "ply": match.ply, "to_act": to_act, "moves": moves}


# -- the log, replays, results ------------------------------------------------------------------
def events_for(match: Match, events: list[dict], reader: int | None) -> list[dict]:
    """``events`` of one move as ``reader`` (a seat, None for a spectator) may see them:
    through ``engine.redact_event`` while the match runs, whole after the end."""
    if match.status in ENDED_STATUSES:
        return list(events)
    engine = engine_of(match)
    return [engine.redact_event(event, reader) for event in events]


def logged_entry(match: Match, engine, logged: Move, reader: int | None) -> dict:
    ended = match.status in ENDED_STATUSES
    shown = logged.move if ended else engine.redact_move(logged.move, logged.seat, reader)
    return {"ply": logged.ply, "seat": logged.seat, "move": shown,
            "events": events_for(match, logged.events, reader),
            "created_at": logged.created_at}


def move_log(match: Match, user=None, *, since: int = 0, limit: int | None = None
             ) -> list[dict]:
    """Logged moves from ply ``since`` up to the match's ply: ``{"ply", "seat", "move",
    "events", "created_at"}``. While the match runs each move passes through
    ``engine.redact_move`` and each event through ``engine.redact_event`` for the
    reader's seat; after the end the log is shown whole.

    The log stops at ``match.ply`` as read with the match row, so it agrees with the
    snapshot, status and view read from that same row: a move committed after the row was
    read belongs to the next poll, not to this one (else a client polling with
    ``since=ply`` would get that move twice). ``limit``: at most that many moves (GraphQL
    pages the log like a list; the next page starts at ``since`` + the moves returned)."""
    engine = engine_of(match)
    reader = seat_of(match, user)
    upto = match.ply if limit is None else min(match.ply, since + limit)
    return [
        logged_entry(match, engine, logged, reader)
        for logged in Move.objects.filter(
            match_id=match.pk, ply__gte=since, ply__lt=upto
        ).order_by("ply")
    ]


def replay_view(match: Match, user, ply: Any = None) -> dict:
    """``{"ply", "seat", "view", "move", "ended"}``: the state after ``ply`` moves (the
    latest when None) as the reader may see it (their seat's view, the spectator's
    without a seat), with ``move``: the logged move that led there (None at ply 0),
    redacted like the log. Once the match has ended everything is public: also the full
    ``state`` and ``views``, every seat's view (the all-seeing picture).
    Raises InvalidPly (400), MatchNotActive (409) before the start."""
    if match.state is None:
        raise errors.MatchNotActive(_("The match has not started: there is nothing to replay."))
    ply = match.ply if ply is None else parse_ply(ply, upper=match.ply)
    engine = engine_of(match)
    state = replay_state(match, upto=ply)
    seat = seat_of(match, user)
    ended = match.status in ENDED_STATUSES
    led_here = Move.objects.filter(match_id=match.pk, ply=ply - 1).first() if ply else None
    # after the end every seat's view is shown, the reader's among them
    views = [engine.view(state, position) for position in range(match.players)] if ended \
        else None
    view = views[seat] if views is not None and seat is not None else engine.view(state, seat)
    body = {
        "ply": ply,
        "seat": seat,
        "ended": ended,
        "view": view,
        "move": logged_entry(match, engine, led_here, seat) if led_here else None,
    }
    if ended:
        body["state"] = engine.to_json(state)
        body["views"] = views
    return body


def match_result(match: Match) -> dict:
    """``{"match_id", "status", "seed", "results": [{"seat", "score", "rank",
    "breakdown"}], "winners"}``. Raises NotFinished (409) before the scores are written."""
    if match.status != MatchStatus.FINISHED:
        raise errors.NotFinished(details={"status": match.status})
    rows = list(Result.objects.filter(match_id=match.pk).order_by("seat"))
    engine, state = engine_of(match), state_of(match)
    # A game the rules ended has the engine's reason and tie-breaks; one ended because
    # every seat but one resigned or forfeited has neither ("forfeits" says who).
    final = engine.result(state) if engine.is_over(state) else {"end_reason": "ended_early"}
    tie_break = final.get("tie_break", final.get("tiebreak")) or {}
    return {
        "match_id": match.pk,
        "status": match.status,
        "seed": match.seed,
        "end_reason": final.get("end_reason"),
        "tie_break_keys": list(tie_break),
        "results": [
            {"seat": row.seat, "score": row.score, "rank": row.rank,
             "tie_break": {key: _at(values, row.seat) for key, values in tie_break.items()},
             "breakdown": row.breakdown}
            for row in rows
        ],
        "ranks": [row.rank for row in rows],
        "winners": [row.seat for row in rows if row.rank == 1],
        **clock_selectors.result_incidents(match),
    }


def _at(values: Any, seat: int) -> Any:
    """A seat's entry of a per-seat list (or a dict keyed by seat)."""
    if isinstance(values, list):
        return values[seat] if seat < len(values) else None
    if isinstance(values, dict):
        return values.get(str(seat), values.get(seat))
    return values


def match_events(match: Match, user=None, *, since: Any = 0, limit: int | None = None
                 ) -> dict:
    """For polling clients: ``{"since", "ply", "status", "to_act", "moves", "view",
    "clocks", "incidents"}`` with the (redacted) moves from ply ``since``, the reader's
    current view, the seats' clocks (no query: they live on the match row) and every
    incident so far (resignations, timeouts, takeovers: a short list, always whole, so a
    client never has to merge it).
    Raises InvalidPly (400) for a ``since`` outside [0, ply]."""
    since_ply = parse_ply(since if since is not None else 0, upper=match.ply, name="since")
    to_act, view = to_act_and_view(match, seat_of(match, user))
    return {
        "since": since_ply,
        "ply": match.ply,
        "status": match.status,
        "to_act": to_act,
        "moves": move_log(match, user, since=since_ply, limit=limit),
        "view": view,
        "clocks": clock_selectors.clocks_of(match),
        "incidents": clock_selectors.incidents_of(match),
    }
