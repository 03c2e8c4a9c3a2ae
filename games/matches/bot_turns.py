"""How a bot seat thinks inside a worker: the level's own search, which ends at its
iteration budget (the level), or at its own wall-clock backstop on a badly overloaded
worker (counted and logged by rules.bots.ismcts); Celery's soft time limit
(settings.BOT_TURN_SOFT_TIME_LIMIT) is the last resort.

A search that overruns even that is interrupted by ``SoftTimeLimitExceeded``; the turn then
plays the best move the search had found so far, or the greedy bot's (milliseconds) if the
limit struck before the first iteration, so a bot seat always moves and never stalls its
match. ``settings.BOT_SEARCH_ITERATION_CAP`` caps every search level's iterations (tests
and slow machines); unset, the levels play at their catalogue budgets.
"""

from __future__ import annotations

import logging
import time

from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings

from infra.observability import metrics
from rules.bots import choose_bot_move
from rules.bots.ismcts import best_move_so_far
from rules.engine import Engine

logger = logging.getLogger(__name__)


def think_bot_move(kind: str, engine: Engine, view: dict, legal_moves: list[dict], seat: int, *,
          match_key: object, ply: int) -> dict:
    """The move of the ``kind`` bot at ``seat``; if the search is interrupted, its best
    move so far (greedy's when it had none yet)."""
    cap = getattr(settings, "BOT_SEARCH_ITERATION_CAP", None)
    started = time.perf_counter()
    try:
        return choose_bot_move(kind, engine, view, legal_moves, seat, match_key=match_key,
                               ply=ply, iteration_cap=cap)
    except SoftTimeLimitExceeded as overrun:
        best = best_move_so_far(overrun)
        if best is not None:
            logger.warning("bot %s at seat %s overran the soft time limit at ply %s; "
                           "playing the search's best move so far", kind, seat, ply)
            return best
        logger.warning("bot %s at seat %s overran the soft time limit at ply %s; "
                       "playing greedy", kind, seat, ply)
        return choose_bot_move("greedy", engine, view, legal_moves, seat,
                               match_key=match_key, ply=ply)
    finally:
        metrics.BOT_THINK_SECONDS.labels(kind).observe(time.perf_counter() - started)
