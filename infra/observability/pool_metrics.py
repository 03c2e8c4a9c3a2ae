"""Database pool use, sampled: each process's psycopg pools (config/settings.py, DB_POOL)
are read every ``SAMPLE_SECONDS`` by one daemon thread and written to the pool gauges
(summed over the live processes by the exporter). Sampling costs nothing per request;
a gauge is at most that old."""

from __future__ import annotations

import logging
import os
import threading
import time

from django.db import connections

from infra.observability import metrics

logger = logging.getLogger(__name__)

SAMPLE_SECONDS = 5.0
_started = threading.Lock()
_thread: threading.Thread | None = None
#: in a forkserver (config/preforked_app.py): the sampler is held until the fork
_held_for_forks = False
_asked = False


def sample_once() -> None:
    """Write the pools' sizes now (the sum over this process's database aliases)."""
    in_use = idle = most = waiting = 0
    waited_ms = 0
    for alias in connections:
        wrapper = connections[alias]
        if not wrapper.settings_dict.get("OPTIONS", {}).get("pool"):
            continue
        stats = wrapper.pool.pop_stats()  # the counters since the last call, and the sizes
        size, available = stats.get("pool_size", 0), stats.get("pool_available", 0)
        in_use += size - available
        idle += available
        most += stats.get("pool_max", 0)
        waiting += stats.get("requests_waiting", 0)
        waited_ms += stats.get("requests_wait_ms", 0)
    metrics.DB_POOL_CONNECTIONS.labels("in_use").set(in_use)
    metrics.DB_POOL_CONNECTIONS.labels("idle").set(idle)
    metrics.DB_POOL_MAX.set(most)
    metrics.DB_POOL_WAITING.set(waiting)
    if waited_ms:
        metrics.DB_POOL_WAITS.inc(waited_ms / 1000)


def _sample_forever() -> None:
    while True:
        try:
            sample_once()
        except Exception:  # noqa: BLE001 - a gauge left stale is no reason to stop
            logger.warning("could not sample the database pools", exc_info=True)
        time.sleep(SAMPLE_SECONDS)


def start_sampling() -> None:
    """Start this process's sampler (once; later calls do nothing)."""
    global _thread, _asked
    with _started:
        if _held_for_forks:
            _asked = True
            return
        if _thread is None or not _thread.is_alive():
            _thread = threading.Thread(target=_sample_forever, daemon=True,
                                       name="db-pool-metrics")
            _thread.start()


def start_in_forked_processes() -> None:
    """This process only loads what others are forked from (config/preforked_app.py): no
    sampler here (a fork while it held a pool's lock would leave that lock held in the
    child), but one in each forked process that asked for it as it loaded."""
    global _held_for_forks
    _held_for_forks = True
    os.register_at_fork(after_in_child=_start_after_fork)


def _start_after_fork() -> None:
    global _held_for_forks, _thread
    _held_for_forks, _thread = False, None
    if _asked:
        start_sampling()
