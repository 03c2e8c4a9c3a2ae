"""The database side of the play socket (games/play/connection.py) and of its hub
(games/play/hub.py), run in the hub's threads (games/play/threads.py): a socket's
operations each check their rate limit, then call the services and selectors REST uses;
the hub reads what its followers are sent."""

from __future__ import annotations

import logging
from typing import Any

from rest_framework.authtoken.models import Token

from games import dispatch
from games.graphql.auth import user_for_token
from games.matches import play_announcements, pushes, selectors, services
from games.matches.models import Match
from infra import throttles

logger = logging.getLogger(__name__)


def authenticate(token: Any, ident: str):
    """The token's user and their password hash now (anonymous: None)."""
    throttles.check(throttles.AUTH, ident)
    user = user_for_token(token)
    return user, (user.password if user.is_authenticated else None)


def subscription(match_id: int, since: int | None, user, ident: str) -> dict:
    throttles.check(throttles.read_scope(user), ident)
    match = selectors.get_match(match_id)
    start = pushes.since_for(match, since)
    if start < match.ply:
        match, state, moves = pushes.load_since(match_id, start)
    else:
        state, moves = selectors.state_of(match), []
    return pushes.match_body(match, state, moves, user, start)


def play_move(hand_over, user, ident: str, match_id: int, move: Any, expected: int | None,
              origin: str) -> None:
    """Submit the move (committed before anything is handed over) and build its pushes,
    one per seat and one for spectators (``pushes.move_pushes``), handed over to the
    socket at once (games/play/threads.py ``run_handing_over``). Then the other web
    processes get them, instead of an announcement that would make each of them read the
    match: published here, marked with the calling hub's ``origin`` (its own listener
    drops them), in one round trip with the move's group sends (the match's subscribers,
    the next player's feed), which the commit kept back for it. The commit's tasks are
    sent last (``dispatch.sends_after``)."""
    throttles.check(throttles.MOVE, ident)
    # The tasks the commit sends (a bot's turn, the scoring) go last, after the ack and
    # the pushes: kombu's send costs as much CPU as building the pushes, and the bot's
    # reply only waits for it by the publish's round trip.
    with dispatch.sends_after(), \
            play_announcements.published_by_caller(match_id) as published:
        submitted = services.submit_move(match_id=match_id, move=move, user=user,
                                         expected_ply=expected)
        pushed = pushes.move_pushes(submitted.match, submitted.state, submitted.move)
        hand_over(pushed)
        published.message = {"origin": origin, **pushed}


# -- what the hub reads for its followers (games/play/hub.py) --------------------------------
def access_now(tokens: set[str]) -> dict[str, str]:
    """Each token that still opens the API, with its user's password hash now."""
    return dict(Token.objects.filter(key__in=tokens, user__is_active=True)
                .values_list("key", "user__password"))


def plies_and_statuses(match_ids: list[int]) -> dict[int, tuple[int, str]]:
    return {pk: (ply, status) for pk, ply, status in
            Match.objects.filter(pk__in=match_ids).values_list("pk", "ply", "status")}


def bodies_from_database(match_id: int, readers) -> dict:
    """Each reader's ``update`` from one read of the match and its moves since the oldest
    ply any of them was sent."""
    oldest = min(since for _socket, _user, since in readers)
    try:
        match, state, moves = pushes.load_since(match_id, oldest)
    except Exception:  # noqa: BLE001 - the match vanished (deleted by an admin)
        logger.info("match %s could not be read for its followers", match_id, exc_info=True)
        return {}
    bodies = {}
    for socket, user, since in readers:
        since = min(since, match.ply)
        shown = [move for move in moves if move.ply >= since]
        bodies[socket] = pushes.match_body(match, state, shown, user, since)
    return bodies
