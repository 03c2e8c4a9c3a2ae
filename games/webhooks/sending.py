"""One signed POST of a webhook to an address ``addresses`` checked: no redirect
followed (a 3xx is a failure: following it would reach an unchecked host), a short
timeout, the Standard Webhooks headers (``webhook-id``, ``webhook-timestamp``,
``webhook-signature``) made by the ``standardwebhooks`` package itself."""

from __future__ import annotations

import functools
import http.client
import socket
import ssl
import time
from dataclasses import dataclass

from django.conf import settings
from django.utils import timezone
from standardwebhooks.webhooks import Webhook

from games.webhooks.addresses import Target


@dataclass(frozen=True)
class Outcome:
    ok: bool
    status_code: int | None
    error: str
    latency_seconds: float


@functools.cache
def _tls_context() -> ssl.SSLContext:
    """One per process: making one loads the system's CA certificates (milliseconds of
    CPU per send otherwise); a context is safe to share between threads."""
    return ssl.create_default_context()


class _PinnedHttps(http.client.HTTPSConnection):
    """https to the checked address, with the URL's host name for SNI and the
    certificate check (http.client would resolve the name again)."""

    def __init__(self, target: Target, timeout: float):
        super().__init__(target.host, target.port, timeout=timeout,
                         context=_tls_context())
        self._address = target.address

    def connect(self) -> None:
        sock = _nodelay(socket.create_connection((self._address, self.port), self.timeout))
        self.sock = self._context.wrap_socket(sock, server_hostname=self.host)


class _PinnedHttp(http.client.HTTPConnection):
    def __init__(self, target: Target, timeout: float):
        super().__init__(target.host, target.port, timeout=timeout)
        self._address = target.address

    def connect(self) -> None:
        self.sock = _nodelay(socket.create_connection((self._address, self.port), self.timeout))


def _nodelay(sock: socket.socket) -> socket.socket:
    """No Nagle: http.client sends a request's headers and body in two writes, and on a
    kept-alive connection (keepalive.py) the body then waited for the receiver's delayed
    ACK, 40 ms per delivery (measured by bench/webhook_batch_cpu.py)."""
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return sock


def signed_headers(secret: str, message_id: str, body: str) -> dict[str, str]:
    now = timezone.now()
    return {
        "webhook-id": message_id,
        "webhook-timestamp": str(int(now.timestamp())),
        "webhook-signature": Webhook(secret).sign(message_id, now, body),
    }


def webhook_headers(secret: str, message_id: str, body: str) -> dict[str, str]:
    """A webhook POST's headers: JSON, who sends it, and the Standard Webhooks signature."""
    return {"Content-Type": "application/json", "User-Agent": "game-service-webhooks/1",
            **signed_headers(secret, message_id, body)}


def post_bytes(target: Target, body: bytes, headers: dict[str, str]) -> Outcome:
    """POST ``body`` with ``headers`` once to the checked address, no redirect followed;
    never raises for what the receiver or the network does. Web Push sends through it too
    (games/notifications/push_sending.py): one pinned, SSRF-checked way out."""
    connection = open_connection(target)
    try:
        outcome, _reusable = exchange(connection, target, body, headers)
        return outcome
    finally:
        connection.close()


def open_connection(target: Target) -> http.client.HTTPConnection:
    """A connection to ``target``'s checked address (not connected until the first send)."""
    connection_class = _PinnedHttps if target.scheme == "https" else _PinnedHttp
    return connection_class(target, settings.WEBHOOK_TIMEOUT_SECONDS)


def exchange(connection: http.client.HTTPConnection, target: Target, body: bytes,
             headers: dict[str, str]) -> tuple[Outcome, bool]:
    """One POST over ``connection``: its outcome, and whether the connection may carry
    another (the answer was read whole and the receiver keeps it open: a batch's
    keep-alive, games/webhooks/keepalive.py). Never raises for the receiver or network."""
    started = time.perf_counter()
    try:
        connection.request("POST", target.path, body=body, headers=headers)
        response = connection.getresponse()
        response.read(64 * 1024)  # drained a little, never kept: only the status counts
        code = response.status
        reusable = response.isclosed() and not response.will_close
        return (Outcome(200 <= code < 300, code, "" if 200 <= code < 300 else f"HTTP {code}",
                        time.perf_counter() - started), reusable)
    except (OSError, http.client.HTTPException) as error:
        return (Outcome(False, None, f"{type(error).__name__}: {error}"[:200],
                        time.perf_counter() - started), False)
