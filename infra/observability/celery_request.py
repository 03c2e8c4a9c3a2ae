"""Celery's own "received" line under the request id that enqueued the task (issue 40).

The worker logs ``Task ... received`` as it reads the message, in its consumer thread,
before any signal we could hook (``task_received`` comes just after the line), so the id
the task message carries (celery_signals.py stamps it into the headers) is set while
Celery builds its request object for the message, and cleared at ``task_received``.
Celery's ``succeeded``/``failed``/``retry`` lines are written while the task runs, under
the id ``celery_signals._started`` sets. config/celery.py makes every task use this
request class (``task_cls``)."""

from __future__ import annotations

from celery import Task, signals
from celery.worker.request import Request

from infra.observability import request_id
from infra.observability.celery_signals import REQUEST_ID_HEADER


class RequestWithId(Request):
    def __init__(self, message, *args, **kwargs) -> None:
        super().__init__(message, *args, **kwargs)
        # a message without one (a beat sweep) clears the previous message's
        request_id._current.set(request_id.sane(self._request_dict.get(REQUEST_ID_HEADER)))


class TaskWithRequestId(Task):
    Request = f"{__name__}:RequestWithId"


@signals.task_received.connect
def _received_logged(**_kwargs) -> None:
    """The received line is out: the consumer thread serves no request any more."""
    request_id._current.set(None)
