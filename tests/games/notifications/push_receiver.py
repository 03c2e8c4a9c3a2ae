"""A local push service for the tests: a real HTTP server on 127.0.0.1 standing in for a
browser's push service, holding the browser's side of the subscription (a P-256 key pair
and an auth secret made here with ``cryptography``). It decrypts every payload with
``http_ece`` (RFC 8291's receiving side, not the service's code), checks the VAPID
signature's key is the server's, and answers ``status`` (201, or 410 for a gone one)."""

from __future__ import annotations

import base64
import json
import os
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


@dataclass
class Arrival:
    message: dict | None
    headers: dict
    error: str = ""


@dataclass
class PushService:
    url: str
    status: int
    private_key: ec.EllipticCurvePrivateKey
    auth_secret: bytes
    arrivals: list[Arrival] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def subscription(self) -> dict:
        """The browser's ``PushSubscription.toJSON()``."""
        public = self.private_key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
        return {"endpoint": self.url, "keys": {"p256dh": b64url(public),
                                               "auth": b64url(self.auth_secret)}}

    def receive(self, body: bytes, headers: dict) -> None:
        try:
            plain = http_ece.decrypt(body, private_key=self.private_key,
                                     auth_secret=self.auth_secret, version="aes128gcm")
            arrival = Arrival(json.loads(plain), headers)
        except Exception as error:  # noqa: BLE001 - recorded: the test says what failed
            arrival = Arrival(None, headers, f"{type(error).__name__}: {error}")
        with self._lock:
            self.arrivals.append(arrival)

    def wait_for(self, count: int, timeout: float = 20.0) -> list[Arrival]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._lock:
                if len(self.arrivals) >= count:
                    return list(self.arrivals)
            time.sleep(0.05)
        raise AssertionError(f"the push service saw only {self.arrivals}")


@contextmanager
def running_push_service(status: int = 201):
    state: dict = {}

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):  # noqa: N802 - http.server's name
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            state["service"].receive(body, {k.lower(): v for k, v in self.headers.items()})
            self.send_response(state["service"].status)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    path = b64url(os.urandom(12))
    state["service"] = PushService(
        url=f"http://127.0.0.1:{server.server_port}/push/{path}", status=status,
        private_key=ec.generate_private_key(ec.SECP256R1()), auth_secret=os.urandom(16))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield state["service"]
    finally:
        server.shutdown()
        server.server_close()
