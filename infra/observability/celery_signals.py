"""What Celery tells us about tasks, for the logs and the metrics (connected by
config/celery.py, in every process that sends or runs tasks):

- a task sent while a request is served carries the request's id in its headers, and its
  run (and every log line it writes, and every task it sends in turn: a bot's reply to a
  move, the scoring after the last one) is served under that id;
- the time from publication to start (``celery_task_wait_seconds``) and the run's time
  (``celery_task_run_seconds``), by queue: the publication time travels in a header too;
- a worker keeps Django's logging (JSON lines, settings.LOGGING) instead of installing its
  own format; ``-l`` still sets the level.
"""

from __future__ import annotations

import logging
import time

from celery import signals

from infra.observability import metrics, request_id
from infra.observability.pool_metrics import start_sampling

REQUEST_ID_HEADER = "request_id"
PUBLISHED_HEADER = "published_at"

#: task id -> (request id context token, start time); a thread pool runs several at once
_running: dict[str, tuple[object, float]] = {}


@signals.before_task_publish.connect
def _stamp(headers=None, **_kwargs) -> None:
    if headers is None:
        return
    rid = request_id.current()
    if rid:
        headers[REQUEST_ID_HEADER] = rid
    headers[PUBLISHED_HEADER] = time.time()


def _header(task, name: str):
    """A header we stamped (``_stamp``): Celery shows a message's custom headers as
    attributes of the task's request."""
    found = getattr(task.request, name, None)
    if found is None:
        found = (getattr(task.request, "headers", None) or {}).get(name)
    return found


def _queue_of(task) -> str:
    info = getattr(task.request, "delivery_info", None) or {}
    return info.get("routing_key") or info.get("exchange") or "eager"


@signals.task_prerun.connect
def _started(task_id=None, task=None, **_kwargs) -> None:
    # an eager task (tests, play_bots) runs inside its sender: it keeps the sender's id
    rid = request_id.sane(_header(task, REQUEST_ID_HEADER)) or request_id.current()
    token = request_id._current.set(rid or request_id.new_id())
    _running[task_id] = (token, time.perf_counter())
    published = _header(task, PUBLISHED_HEADER)
    if isinstance(published, (int, float)) and not task.request.is_eager:
        metrics.TASK_WAIT_SECONDS.labels(_queue_of(task), task.name).observe(
            max(0.0, time.time() - published))


@signals.task_postrun.connect
def _finished(task_id=None, task=None, state=None, **_kwargs) -> None:
    token, started = _running.pop(task_id, (None, None))
    if started is not None:
        metrics.TASK_RUN_SECONDS.labels(_queue_of(task), task.name,
                                        str(state or "UNKNOWN").lower()).observe(
            time.perf_counter() - started)
    if token is not None:
        try:
            request_id._current.reset(token)
        except ValueError:  # set in another context (cannot happen with Celery's pools)
            request_id._current.set(None)


@signals.setup_logging.connect
def _keep_django_logging(loglevel=None, **_kwargs) -> None:
    """Django has configured logging already (settings.LOGGING); the worker's ``-l``
    sets the root level."""
    if loglevel:
        logging.getLogger().setLevel(loglevel)


@signals.worker_init.connect
def _worker_started(**_kwargs) -> None:
    start_sampling()
    metrics.create_known_series()
