"""A local HTTP receiver of webhooks for the tests: a real server on 127.0.0.1 that checks
every request with the ``standardwebhooks`` package (the receiving side's own library,
not the service's code) and answers 500 to the first ``failures`` arrivals of each
``webhook-id``, then 200. With ``keep_alive`` it speaks HTTP/1.1 and keeps connections
open, counting them (``connections``): a batch's reuse is seen where it lands."""

from __future__ import annotations

import json
import threading
import time
from collections import Counter
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from standardwebhooks.webhooks import Webhook, WebhookVerificationError


@dataclass
class Arrival:
    message_id: str
    verified: bool
    payload: dict
    answered: int
    at: float


@dataclass
class Receiver:
    url: str
    failures: int = 0
    secret: str | None = None
    arrivals: list[Arrival] = field(default_factory=list)
    connections: int = 0
    #: called with each arrival before it is answered (the sender waits meanwhile)
    on_arrival: Callable[[Arrival], None] | None = None
    _seen: Counter = field(default_factory=Counter)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def wait_for(self, predicate, timeout: float = 30.0) -> list[Arrival]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._lock:
                arrivals = list(self.arrivals)
            if predicate(arrivals):
                return arrivals
            time.sleep(0.1)
        raise AssertionError(f"the receiver saw only {self.arrivals}")


@contextmanager
def running_receiver(failures: int = 0, keep_alive: bool = False, delay: float = 0.0):
    """``delay``: seconds each answer waits (a slow receiver)."""
    state: dict = {}

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1" if keep_alive else "HTTP/1.0"

        def setup(self):  # once per accepted connection
            super().setup()
            with state["receiver"]._lock:
                state["receiver"].connections += 1

        def do_POST(self):  # noqa: N802 - http.server's name
            receiver = state["receiver"]
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            headers = {name.lower(): value for name, value in self.headers.items()}
            try:
                Webhook(receiver.secret).verify(body, headers)
                verified = True
            except (WebhookVerificationError, TypeError, ValueError):
                verified = False
            message_id = headers.get("webhook-id", "")
            with receiver._lock:
                receiver._seen[message_id] += 1
                answer = 500 if receiver._seen[message_id] <= receiver.failures else 200
                arrival = Arrival(message_id, verified, json.loads(body or b"{}"), answer,
                                  time.monotonic())
                receiver.arrivals.append(arrival)
            if receiver.on_arrival is not None:
                receiver.on_arrival(arrival)
            time.sleep(delay)
            self.send_response(answer)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    state["receiver"] = Receiver(url=f"http://127.0.0.1:{server.server_port}/hooks",
                                 failures=failures)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield state["receiver"]
    finally:
        server.shutdown()
        server.server_close()
