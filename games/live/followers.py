"""Who follows a match over the play socket: this process's own sockets (the hub that
serves them registers itself: ``register_local_hub``), and the other processes' (asked of
Redis: ``followed_by_play_sockets``). Only a followed match is worth building every seat's
frames for (games/live/fanout.py); an unfollowed one is announced by ply, which costs
nothing when nobody listens.
"""

from __future__ import annotations

import logging
import time
from typing import Protocol

import redis

from games.live.channels import play_channel
from infra import pubsub

logger = logging.getLogger(__name__)


class LocalHub(Protocol):
    """This process's play hub, as fan-out sees it (games/play/hub.py)."""

    #: marks this process's publications: its own listener drops them (it had them)
    origin: str

    def follows(self, match_id: int) -> bool:
        """Whether some socket of this process follows ``match_id`` (any thread)."""

    def deliver_threadsafe(self, message: dict) -> None:
        """Hand a change's frames to the followers here (from any thread)."""


_local_hub: LocalHub | None = None


def register_local_hub(hub: LocalHub | None) -> None:
    """The hub serving this process's play sockets (None: none any more)."""
    global _local_hub
    _local_hub = hub


def local_hub() -> LocalHub | None:
    return _local_hub


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
