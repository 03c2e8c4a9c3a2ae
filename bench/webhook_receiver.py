"""What the webhook benches share (bench/webhook_delivery.py, bench/load_test.py
--webhooks): the settings that let a bench's endpoint on 127.0.0.1 through, a local HTTP
receiver that verifies every delivery with the ``standardwebhooks`` package and records
its arrival, and one app whose endpoint its users' events reach.

``BENCH_ENV`` must be in the environment of every process that registers or sends
(this one before ``django.setup()``, the web tier and the workers): plain http, and
127.0.0.1 let through the forbidden-address check (games/webhooks/addresses.py), for
benches only; production leaves both off. Django must be set up before ``register_app``
is called.
"""

from __future__ import annotations

import secrets
import threading
import time
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from infra.low_priority import lower_this_thread

#: the bench's receiver on loopback passes the SSRF check (never set in production)
BENCH_ENV = {"WEBHOOK_HTTP_URLS": "true", "WEBHOOK_ALLOWED_ADDRESSES": "127.0.0.1"}




class Receiver:
    """A ThreadingHTTPServer on 127.0.0.1 (a free port) in a daemon thread: each POST is
    verified with the endpoint's secret (``secret``, set once registered) and answered
    204; ``arrivals`` holds (payload, time.time() at arrival) of the verified ones,
    ``bad`` the errors of the others; ``cpu_seconds`` the CPU its threads spent on them.

    A real receiver is another party's machine. On a bench machine it shares the cores
    with the service under test, so with ``niceness`` (19 by default) its threads run at
    the lowest priority (on Linux a thread's own: infra/low_priority.py): what the bench
    measures is the service's cost of sending, not a receiver's of verifying. 0 keeps the
    receiver at the bench's own priority."""

    def __init__(self, niceness: int = 19) -> None:
        self.secret: str | None = None
        self.arrivals: list[tuple[dict, float]] = []
        self.bad: list[str] = []
        self.cpu_seconds = 0.0
        self.lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            # keeps connections open as a real receiver's server does (nginx, any
            # HTTP/1.1 framework): a drain's batch reuses them (games/webhooks/keepalive.py)
            protocol_version = "HTTP/1.1"

            def setup(self):
                lower_this_thread(niceness)  # one thread per connection, started here
                super().setup()

            def handle_one_request(self):
                started = time.thread_time()
                super().handle_one_request()
                spent = time.thread_time() - started
                with receiver.lock:
                    receiver.cpu_seconds += spent

            def do_POST(self):  # noqa: N802
                body = self.rfile.read(int(self.headers["Content-Length"]))
                at = time.time()
                receiver.received(body, {k.lower(): v for k, v in self.headers.items()}, at)
                self.send_response(204)  # no body, no length: the connection stays usable
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_port}/"
        threading.Thread(target=self._serve, args=(niceness,), daemon=True).start()

    def _serve(self, niceness: int) -> None:
        lower_this_thread(niceness)  # the accepting thread too
        self.server.serve_forever()

    def received(self, body: bytes, headers: dict, at: float) -> None:
        from standardwebhooks.webhooks import Webhook

        try:
            payload = Webhook(self.secret).verify(body, headers)
        except Exception as error:  # noqa: BLE001 - counted, printed
            with self.lock:
                self.bad.append(repr(error))
            return
        with self.lock:
            self.arrivals.append((payload, at))

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def register_app(owner_name: str, users, url: str, event_types: list[str]):
    """One app owned by ``owner_name`` (created if need be) with one endpoint at ``url``
    taking ``event_types``, serving ``users``: each gets an access token of the app with
    the events' scope (games.webhooks.selectors.apps_serving), as a user who connected
    the app would. (app, endpoint); deleting the app removes the rest."""
    from django.utils import timezone
    from oauth2_provider.models import get_access_token_model

    from accounts.apps_oauth.models import App
    from accounts.models import User
    from games.webhooks import services as webhook_services
    from games.webhooks.selectors import EVENT_SCOPE

    owner = User.objects.filter(username=owner_name).first() or \
        User.objects.create_user(username=owner_name, password=secrets.token_urlsafe(16))
    app = App.objects.create(user=owner, name="bench", redirect_uris="https://b.example/cb")
    endpoint = webhook_services.create_endpoint(app, url=url, event_types=event_types)
    expires = timezone.now() + timedelta(hours=6)
    get_access_token_model().objects.bulk_create(
        get_access_token_model()(user=user, application=app, token=secrets.token_urlsafe(32),
                                 scope=EVENT_SCOPE, expires=expires)
        for user in users)
    return app, endpoint
