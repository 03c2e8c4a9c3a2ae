"""The database side of the play socket (games/play/connection.py) and of its hub
(games/play/hub.py), run in the hub's threads (games/play/threads.py): a socket's
operations each check their rate limit, then call the services and selectors REST uses;
the hub reads what its followers are sent."""

from __future__ import annotations

import logging
from typing import Any

from accounts.apps_oauth import credentials
from games.chat import services as chat_services
from games.graphql.auth import InvalidToken, credential_for_token
from games.live import frames
from games.mail import looks
from games.matches import selectors, services
from games.matches.models import Match, Seat
from infra import throttles
from infra.observability import move_phases

logger = logging.getLogger(__name__)


def authenticate_credential(token: Any, ident: str):
    """The token's user, their password hash now (anonymous: None) and the credential
    itself, whose scopes bound what the socket may do (games/play/scopes.py).

    A hello presents a token already issued (no password to guess), so it counts in its
    own limit (``socket_auth``), not the sign-in one: every socket behind one address
    reconnects at once after a rolling restart. A refused token counts as a failed
    sign-in too (``auth``), so trying tokens is no faster here than trying passwords."""
    throttles.check(throttles.SOCKET_AUTH, ident)
    try:
        user, credential = credential_for_token(token)
    except InvalidToken:
        throttles.hit(throttles.AUTH, ident)
        raise
    return user, (user.password if user.is_authenticated else None), credential


def subscription(match_id: int, since: int | None, user, ident: str) -> dict:
    throttles.check(throttles.read_scope(user), ident)
    match = selectors.get_match(match_id)
    start = frames.since_for(match, since)
    if start < match.ply:
        match, state, moves = frames.load_since(match_id, start)
    else:
        state, moves = selectors.state_of(match), []
    body = frames.match_body(match, state, moves, user, start)
    if body["seat"] is not None:  # a player looked: "your turn" by mail waits for it
        looks.saw(user.pk, match_id, body["ply"])  # (games/mail/looks.py)
    return body


class _OverTheLimit(Exception):
    """The move's rate limit refused it after the lock: roll back (``play_move``). Not an
    ApiError, so the move metrics do not count it as a refusal of the rules, as they do
    not when the limit refuses before the service is called. (A refusal the service makes
    before the lock, a malformed move or a match the caller has no seat in, is counted as
    the rules' though the answer is ``throttled``: only the first attempt over the limit
    in a window can be, since ``known_over`` refuses the later ones first.)"""


def play_move(user, ident: str, match_id: int, move: Any, expected: int | None) -> int:
    """Submit the move; returns the ply it brought the match to. Its change goes out as
    every change does once it commits (games/live/fanout.py): this process's followers get
    their frames at once (the mover's own held until its ack: games/play/sending.py), the
    other processes over Pub/Sub, and the tasks it owes from the sender thread, so the
    ack waits for neither Redis nor the broker.

    The ``move`` rate limit's count is sent to Redis first and its answer read once the
    match is locked and read (``after_lock``): the two round trips overlap instead of
    following each other (docs/capacity.md "Fewer round trips on a socket move"). Over the
    limit, the transaction rolls back before anything is written, and ``throttled`` wins
    over any other answer, as when the limit was checked before the service.

    A caller this process already found over the limit in this window is counted and
    refused before the service, as before the overlap: a flooder's every attempt would
    otherwise take the match's lock (and hold it while a slow Redis answers), making the
    other seat's moves and the bots wait."""
    if throttles.known_over(throttles.MOVE, ident):
        throttles.check(throttles.MOVE, ident)  # raises Throttled unless a new window began
        return services.submit_move(match_id=match_id, move=move, user=user,
                                    expected_ply=expected).match.ply
    limit = throttles.PendingHit(throttles.MOVE, ident)
    move_phases.mark("rate_limit_sent")

    def refuse_if_over() -> None:
        if limit.wait() is not None:
            raise _OverTheLimit

    try:
        submitted = services.submit_move(match_id=match_id, move=move, user=user,
                                         expected_ply=expected, after_lock=refuse_if_over)
    except BaseException:
        limit.check()  # raises Throttled if over; else the service's own answer stands
        raise
    finally:
        limit.wait()  # read in any case: the connection goes back to Redis's pool
    return submitted.match.ply


def send_chat(user, match_id: int, room: str, text: str) -> dict:
    """Send a chat message as REST's POST does (games.chat.services: the room's rules, the
    text's, the chat's own rate limit); the message as the room lists it."""
    return chat_services.send_message(match_id, room, user, text)


# -- what the hub reads for its followers (games/play/hub.py) --------------------------------
def access_now(tokens: set[str]) -> dict[str, str]:
    """Each token (first-party, an app's or a personal one) that still opens the API,
    with its user's password hash now."""
    return credentials.standing(tokens)


def plies_statuses_and_holders(match_ids: list[int]) -> dict[int, tuple[int, str, dict]]:
    """Each match's ply, status and who holds which seat (``frames.holders``'s shape), in
    two statements whatever their number."""
    now = {pk: (ply, status, {}) for pk, ply, status in
           Match.objects.filter(pk__in=match_ids).values_list("pk", "ply", "status")}
    for match_id, user_id, position in (Seat.objects.filter(match_id__in=now,
                                                             user_id__isnull=False)
                                        .values_list("match_id", "user_id", "position")):
        now[match_id][2][str(user_id)] = position
    return now


def bodies_from_database(match_id: int, readers) -> dict:
    """Each reader's ``update`` from one read of the match and its moves since the oldest
    ply any of them was sent."""
    oldest = min(since for _socket, _user, since in readers)
    try:
        match, state, moves = frames.load_since(match_id, oldest)
    except Exception:  # noqa: BLE001 - the match vanished (deleted by an admin)
        logger.info("match %s could not be read for its followers", match_id, exc_info=True)
        return {}
    bodies = {}
    for socket, user, since in readers:
        since = min(since, match.ply)
        shown = [move for move in moves if move.ply >= since]
        bodies[socket] = frames.match_body(match, state, shown, user, since)
    return bodies
