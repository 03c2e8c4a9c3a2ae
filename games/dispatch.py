"""Handing follow-up work (bot turns, final scoring, deadlines, pairing) to Celery.

Tasks are sent by their name (``send_task``): this module imports no task module, so a
service can enqueue a task whose module imports that service without an import circle.
The names are the tasks' wire names (``name=`` on each task); they never change, since
messages already queued carry them.

Services call these from ``transaction.on_commit``. Two things make that safe:

- a broker that is down is logged, never raised: the move is committed already, and the
  periodic sweep (``games.tasks.sweep_stalled_matches``) re-enqueues what was lost;
- an outage costs a move little: the first failed send pauses this process's sends
  (each skipped task is logged; the database knows what waits) until a probe, every
  ``BROKER_PROBE_SECONDS``, gets one sweep of every waiting match through: bot turns and
  scorings resume within a second of the broker's return, without waiting for beat. Only
  the move whose send found the outage waits for it: two connection attempts (refused at
  once by a stopped Redis; the broker's ``socket_connect_timeout``, 1 s, each against an
  unanswering one: docs/operations.md "Redis goes away: the API");
- with ``CELERY_TASK_ALWAYS_EAGER`` (tests, the ``play_bots`` command) tasks run inline.
  A bot-only match would then nest one bot turn inside the commit of the previous one,
  hundreds deep; instead the first enqueue drains a queue in a loop (a trampoline), so
  the stack stays flat whatever the length of the game.

Sends go from this process's sender thread (infra/background_sends.py), in order, so the
thread that committed never waits for the broker: a socket's ack, a REST answer or a bot
worker's next move go on while kombu sends. A bot task that plays on in the same task says
so to the move service (``submit_move(bot_plays_on=True)``), which then sends no task for
that seat's next turn (games/matches/bot_moves.py).
"""

from __future__ import annotations

import contextvars
import logging
import threading
import time
from collections import deque
from datetime import timedelta
from functools import partial

from celery import current_app
from django.conf import settings
from django.utils import timezone

from infra.background_sends import send_in_background

logger = logging.getLogger(__name__)

BOT_TURN_TASK = "games.tasks.play_bot_turn"
SCORING_TASK = "games.tasks.score_match"
SWEEP_TASK = "games.tasks.sweep_stalled_matches"
DEADLINE_TASK = "games.clocks.tasks.enforce_deadlines"
CLOCK_SWEEP_TASK = "games.clocks.tasks.sweep_expired_clocks"
PAIRING_TASK = "games.quickmatch.tasks.pair_waiting"
ANALYSIS_TASK = "games.analysis.tasks.analyse_match"
RATED_ANALYSIS_TASK = "games.analysis.tasks.analyse_rated_match"

#: a broker hiccup: the publish is tried once more at once before it is given up (logged)
_RETRY_POLICY = {"max_retries": 1, "interval_start": 0}
#: after a failed send, this process sends nothing until a probe this often gets through
BROKER_PROBE_SECONDS = 1.0

_local = threading.local()


def _run_inline(task_name: str, args: tuple) -> None:
    """Eager mode: run the task here, after any task already running on this stack."""
    app = current_app._get_current_object()
    # The task modules are found by the app's autodiscovery (config/celery.py), which a
    # worker runs at start; an eager process runs it here, once, on first use.
    app.loader.import_default_modules()
    task = app.tasks[task_name]
    pending = getattr(_local, "pending", None)
    if pending is not None:  # already draining further up this stack: queue it
        pending.append((task, args))
        return
    _local.pending = pending = deque([(task, args)])
    try:
        while pending:
            queued_task, queued_args = pending.popleft()
            queued_task.apply(args=queued_args, throw=app.conf.task_eager_propagates)
    finally:
        _local.pending = None


def enqueue(task_name: str, *args) -> None:
    """Send task ``task_name`` with ``args``; never raises."""
    app = current_app._get_current_object()
    if app.conf.task_always_eager:
        _run_inline(task_name, args)
        return
    _send(task_name, args, "the sweep will retry it")


def _send(task_name: str, args: tuple, fallback: str, **options) -> None:
    """Hand the send to this process's sender thread (infra/background_sends.py), in the
    caller's context: the task's message carries the request id of the request that sent
    it (infra/observability)."""
    context = contextvars.copy_context()
    send_in_background(partial(context.run, _send_now, task_name, args, fallback, **options))


def _send_now(task_name: str, args: tuple, fallback: str, **options) -> None:
    """Send unless an outage paused sending; a failure starts the pause. ``fallback``
    says in the log what catches the task instead."""
    if _outage.pausing():
        logger.warning("broker unreachable: %s%r not sent; %s", task_name, args, fallback)
        return
    try:
        current_app.send_task(task_name, args=args, retry=True, retry_policy=_RETRY_POLICY,
                              **options)
    except Exception:  # noqa: BLE001 - the sweeps re-enqueue what is lost here
        logger.exception("could not enqueue %s%r; %s", task_name, args, fallback)
        _outage.begin()


def sending_paused() -> bool:
    """Whether this process skips its sends, a broker outage being known."""
    return _outage.pausing()


def broker_reachable() -> None:
    """The broker is known to answer again (a worker has just connected to it, and sends
    the sweep itself: games/matches/worker_steps.py): send at once again, owing no sweep."""
    _outage.end()


class _BrokerOutage:
    """This process's view of a broker outage: whether sends are skipped, and the one
    thread that, every ``BROKER_PROBE_SECONDS``, tries to send the sweep that makes up for
    what was skipped (``SWEEP_TASK`` with ``idle_seconds=0``: every match waiting on a bot
    or on scoring, at once; the tasks are idempotent, so a match that was not stalled gets
    a no-op). Only that thread waits on the dead broker: requests skip their sends."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._down = False
        self._outage = 0  # numbers the outages: a prober serves its own only

    def pausing(self) -> bool:
        return self._down

    def begin(self) -> None:
        with self._lock:
            if self._down:
                return
            self._down = True
            self._outage += 1
            threading.Thread(target=self._probe, args=(self._outage,), daemon=True,
                             name="broker-outage").start()

    def end(self) -> None:
        with self._lock:
            self._down = False

    def _still(self, outage: int) -> bool:
        return self._down and self._outage == outage

    def _probe(self, outage: int) -> None:
        while True:
            probe_at = time.monotonic() + BROKER_PROBE_SECONDS
            while (left := probe_at - time.monotonic()) > 0 and self._still(outage):
                time.sleep(min(left, 0.1))
            if not self._still(outage):  # ended meanwhile (broker_reachable): nothing owed
                return
            try:
                current_app.send_task(SWEEP_TASK, kwargs={"idle_seconds": 0}, retry=True,
                                      retry_policy=_RETRY_POLICY)
            except Exception:  # noqa: BLE001 - still down: try again
                continue
            logger.warning("broker reachable again: sweep of waiting matches enqueued")
            with self._lock:
                if self._outage == outage:
                    self._down = False
            return


_outage = _BrokerOutage()


def enqueue_bot_turn(match_id: int, seat: int, ply: int) -> None:
    enqueue(BOT_TURN_TASK, match_id, seat, ply)


def enqueue_scoring(match_id: int) -> None:
    enqueue(SCORING_TASK, match_id)


def enqueue_pairing() -> None:
    enqueue(PAIRING_TASK)


def eta_horizon() -> timedelta:
    """How far ahead a task may be sent with an ETA: half the broker's visibility timeout
    (``CELERY_VISIBILITY_TIMEOUT``). A worker holds an ETA task unacknowledged until it is
    due, and Redis hands a message unacknowledged for longer than the visibility timeout
    to another worker (one more copy per timeout), so no ETA may lie further ahead. The one
    place that horizon is decided: the clocks' deadlines and their sweep read it here."""
    return timedelta(seconds=settings.CELERY_VISIBILITY_TIMEOUT / 2)


def enqueue_at(task_name: str, eta, *args) -> None:
    """Send task ``task_name`` to run at ``eta`` (an aware datetime) if ``eta`` lies within
    ``eta_horizon``; never raises. An ``eta`` further ahead is not sent at all (sent early
    instead, the task would have to send itself again every half visibility timeout until
    due: a deadline 49 minutes ahead, some 200 times); whoever asks must come back once it
    is within the horizon, as ``games.clocks.services.sweep_expired_clocks`` does for
    deadlines.

    Run eagerly (tests, ``play_bots``) only what is due already: a task for a deadline still
    ahead would find nothing to do, and the clock sweep (``CLOCK_SWEEP_TASK``) is what
    catches deadlines there (as it catches lost tasks in production)."""
    app = current_app._get_current_object()
    now = timezone.now()
    if app.conf.task_always_eager:
        if eta <= now:
            enqueue(task_name, *args)
        return
    if eta - now > eta_horizon():
        return
    _send(task_name, args, f"the clock sweep catches it (due {eta.isoformat()})", eta=eta)


def enqueue_after(task_name: str, seconds: float, *args, fallback: str) -> None:
    """Send task ``task_name`` to run ``seconds`` from now (a retry's wait, well within
    ``eta_horizon``); never raises (``fallback`` says in the log what makes up for a send
    that failed). Eager mode (tests) runs it at once: a retry's wait is no deadline, and a
    test sees its retries."""
    app = current_app._get_current_object()
    if app.conf.task_always_eager:
        _run_inline(task_name, args)
        return
    _send(task_name, args, fallback, countdown=seconds)


def enqueue_deadline_check(match_id: int, due) -> None:
    enqueue_at(DEADLINE_TASK, due, match_id, due.isoformat())
