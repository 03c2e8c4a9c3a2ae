"""Telling the web processes' play hubs (games/play/hub.py) that a match changed, over
Redis Pub/Sub: one PUBLISH per change, read by every process subscribed to the match's
channel, and nothing kept for a process that was not listening (the hubs' resync check
reads the database for that).

Plain Pub/Sub (infra/pubsub.py) rather than the channel layer: its group send and
receive cost more CPU than the move itself.

A change is announced by match, ply and status only (``MATCH_UPDATE_TYPE``): nothing
hidden, each hub reads what its sockets may see. A move is announced instead with each
seat's push ready-made (``PLAY_PUSHES_TYPE``, games.matches.pushes.move_pushes), so no
process reads the match again: by the play socket's process for a move made over it, and
by the worker for a bot's move when some play socket follows the match
(``followed_by_play_sockets``), and by the worker for the end of such a match. Those
callers commit and publish within ``published_by_caller``.
Each seat's push goes only to that seat's sockets (games/play/hub.py): the message itself
is never shown to anyone.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from contextvars import ContextVar
from dataclasses import dataclass

import redis
from django.conf import settings

from infra import channel_messages, pubsub

logger = logging.getLogger(__name__)

#: a change known by match, ply and status (the hubs read the rest)
MATCH_UPDATE_TYPE = "match.update"
#: a move's pushes, one per seat and one for spectators
PLAY_PUSHES_TYPE = "play.pushes"

#: matches whose next change the caller announces itself (``announced_by_caller``)
_announced_by_caller: ContextVar[frozenset[int]] = ContextVar("announced_by_caller",
                                                               default=frozenset())


def play_channel(match_id: int) -> str:
    """The Pub/Sub channel of ``match_id``'s play hubs."""
    return f"{settings.PLAY_CHANNEL_PREFIX}{match_id}"


@contextmanager
def announced_by_caller(match_id: int) -> Iterator[None]:
    """Within this block, changes of ``match_id`` are not announced to the play hubs: the
    caller (a move made over a play socket) sends them each seat's push instead."""
    token = _announced_by_caller.set(_announced_by_caller.get() | {match_id})
    try:
        yield
    finally:
        _announced_by_caller.reset(token)


def is_announced_by_caller(match_id: int) -> bool:
    return match_id in _announced_by_caller.get()


@dataclass
class Publication:
    """What ``published_by_caller`` publishes when its block ends: each seat's push
    (games.matches.pushes), or None for nothing."""

    message: dict | None = None


@contextmanager
def published_by_caller(match_id: int, *, followed: bool = True) -> Iterator[Publication]:
    """A change of ``match_id`` committed in the block and published by its caller, as a
    move over a play socket, a bot's move and the end of a followed match are. Within the
    block the change is not announced by ply (``announced_by_caller``; unless not
    ``followed``: then no hub listens, and an announcement by ply costs nothing more)
    and the commit's group sends are kept back (infra/channel_messages.py ``held``).
    After it, however it ends, ``publication.message`` (set by the block, once the commit
    is done) goes out with those sends in one round trip to Redis."""
    publication, sends = Publication(), []
    try:
        with announced_by_caller(match_id) if followed else nullcontext(), \
                channel_messages.held() as sends:
            yield publication
    finally:
        if publication.message is not None or sends:
            publish_with_held(match_id, publication.message, sends)


# -- publishing --------------------------------------------------------------------------------
def publish_soon(match_id: int, message: dict) -> None:
    """PUBLISH ``message`` to the match's hubs from a thread, returning at once (the
    background loop of infra/channel_messages.py sends it; a failure is logged)."""
    pubsub.publish_soon(play_channel(match_id), message)


def publish_with_held(match_id: int, message: dict | None,
                      sends: list[tuple[str, dict]]) -> None:
    """PUBLISH ``message`` (None: nothing) to the match's hubs from a thread, with the
    group sends a move kept back (infra/channel_messages.py ``held``), in one round trip
    to Redis (infra/pubsub.py ``publish_with_held``)."""
    pubsub.publish_with_held(None if message is None else play_channel(match_id), message,
                             sends)


# -- does any play socket follow a match? ----------------------------------------------------
_sync_clients: dict[str, redis.Redis] = {}

#: a check that takes longer than this gives up: the move is then announced by ply, as a
#: REST move is (each hub reads it), and is never delayed further
FOLLOWED_CHECK_TIMEOUT_SECONDS = 0.25


def followed_by_play_sockets(match_id: int) -> bool:
    """Whether some web process's hub listens on the match's channel (PUBSUB NUMSUB, one
    round trip, or this process's answer of the last ``FOLLOWED_ANSWER_SECONDS``): only
    then is a bot's move worth building every seat's push for. Redis away: False, and the
    move is announced by ply as before (whose publish is logged and dropped; the hubs'
    resync check catches up)."""
    now = time.monotonic()
    known = _answers.get(match_id)
    if known is not None and known[0] > now:
        return known[1]
    url = pubsub.redis_url()
    client = _sync_clients.get(url)
    if client is None:
        client = _sync_clients[url] = redis.Redis.from_url(
            url, socket_timeout=FOLLOWED_CHECK_TIMEOUT_SECONDS,
            socket_connect_timeout=FOLLOWED_CHECK_TIMEOUT_SECONDS)
    try:
        counts = client.pubsub_numsub(play_channel(match_id))
    except redis.RedisError:
        logger.info("could not ask whether match %s is followed", match_id, exc_info=True)
        return False
    followed = bool(counts and counts[0][1])
    _remember(match_id, followed, now)
    return followed


#: how long a process trusts its answer for a match. Either answer is safe when stale: a
#: stale "followed" builds pushes nobody reads, a stale "not followed" announces the move
#: by ply, and the hubs that follow read it themselves (a REST move's path). What it
#: saves: a round trip to Redis per bot move of a match played over sockets (the bots of
#: a match answer every few seconds, well within it).
FOLLOWED_ANSWER_SECONDS = 30.0
#: answers kept at most; past it they are all forgotten (each is only a saved round trip)
FOLLOWED_ANSWERS_KEPT = 10_000
_answers: dict[int, tuple[float, bool]] = {}


def _remember(match_id: int, followed: bool, now: float) -> None:
    global _answers
    if len(_answers) >= FOLLOWED_ANSWERS_KEPT:
        _answers = {}  # a new dict, swapped in whole: other threads may read the old one
    _answers[match_id] = (now + FOLLOWED_ANSWER_SECONDS, followed)
