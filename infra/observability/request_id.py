"""The request id: one per HTTP request or play-socket message, in every log line written
while it is served (infra/observability/json_logs.py), in the Celery tasks it enqueues
(infra/observability/celery_signals.py) and in the socket pushes it causes (games/play/).

A caller may send its own as ``X-Request-Id`` (a proxy or a client that logs it too):
taken if it is 1-100 characters of letters, digits and ``-_.:@``, else replaced by a new
one (a header is never written into a log line unchecked). The response says which one
was used, in the same header.

A websocket (the play socket) is one connection of many messages: the handshake's id
(taken the same way, or new) names the connection, returned in the handshake's answer,
and each message is served under that id with its number appended (``message_id``)."""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

HEADER = "X-Request-Id"
_META_KEY = "HTTP_X_REQUEST_ID"
_SANE = re.compile(r"[A-Za-z0-9\-_.:@]{1,100}")

_current: ContextVar[str | None] = ContextVar("request_id", default=None)


def current() -> str | None:
    """The id of the request being served here, if any."""
    return _current.get()


def new_id() -> str:
    return uuid.uuid4().hex


def sane(candidate: object) -> str | None:
    """``candidate`` if it may serve as a request id, else None."""
    if isinstance(candidate, str) and _SANE.fullmatch(candidate):
        return candidate
    return None


#: a socket's id leaves room for its messages' numbers (``message_id``) within 100
_CONNECTION_ID_MAX = 88


def of_handshake(scope: dict) -> str:
    """A websocket's connection id: its handshake's ``X-Request-Id`` if sane (and short
    enough to number its messages under), else a new one."""
    for name, value in scope.get("headers", []):
        if name.lower() == b"x-request-id":
            chosen = sane(value.decode("latin1"))
            if chosen and len(chosen) <= _CONNECTION_ID_MAX:
                return chosen
    return new_id()


def message_id(connection_id: str, number: int) -> str:
    """The id of a socket's ``number``-th message: its connection's id, a dot, the number,
    so ``grep CONNECTION_ID`` finds the socket's whole life."""
    return f"{connection_id}.{number}"


@contextmanager
def serving(request_id: str | None) -> Iterator[str]:
    """Within this block, ``current()`` is ``request_id`` (a new one if None)."""
    chosen = request_id or new_id()
    token = _current.set(chosen)
    try:
        yield chosen
    finally:
        _current.reset(token)


class RequestIdMiddleware:
    """Takes or makes the request's id (module doc), and returns it as ``X-Request-Id``."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        with serving(sane(request.META.get(_META_KEY))) as chosen:
            request.request_id = chosen
            response = self.get_response(request)
        response[HEADER] = chosen
        return response
