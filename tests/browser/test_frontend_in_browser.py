"""A real browser (headless Chromium, driven by Playwright) uses the service as a
third-party frontend would, and loads the docs pages; every request it makes is recorded
and must go to one of the two local servers.

- tests/browser/frontend_page.html, served from a second origin (its own little HTTP
  server, http://localhost:<port>), registers, creates a match against a bot, subscribes
  to matchUpdates over the GraphQL websocket (graphql-transport-ws), plays its first legal
  move over REST and receives the push: CORS preflights, the token header, and the
  websocket origin check all happen for real.
- Swagger UI, ReDoc and GraphiQL are loaded from the server and must render with nothing
  from another host (the assets are ours: sidecar and games/static/graphiql/).

Chromium comes from Debian (`scripts/chromium.sh` installs it; Playwright cannot download
its own browsers here). Without it the test is skipped, except under CI, where it fails.
"""

from __future__ import annotations

import contextlib
import http.server
import os
import shutil
import threading
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests.games.graphql.asgi_server import running_daphne

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True), pytest.mark.slow]

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu",
                 "--disable-background-networking", "--disable-component-update",
                 "--no-first-run", "--disable-dev-shm-usage"]
PAGE = (Path(__file__).parent / "frontend_page.html").read_bytes()
TIMEOUT_MS = 90_000  # a loaded 2-core machine: daphne, bots and rendering share it


def _chromium_or_skip() -> str:
    if Path(CHROMIUM).exists() or shutil.which(CHROMIUM):
        return CHROMIUM
    message = f"no Chromium at {CHROMIUM}: run scripts/chromium.sh (apt-get install chromium)"
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


@contextlib.contextmanager
def second_origin(page: bytes = PAGE):
    """The test frontend (``page``) on its own origin: http://localhost:<free port>/."""

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(page)))
            self.end_headers()
            self.wfile.write(page)

        def log_message(self, *args):  # quiet
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://localhost:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="module")
def servers(django_db_setup, django_db_blocker):
    """One daphne and one frontend server for the module (each start costs seconds)."""
    with second_origin() as frontend, pytest.MonkeyPatch.context() as patch:
        # daphne inherits the environment: the frontend's origin is the one allowed
        patch.setenv("CORS_ALLOWED_ORIGINS", frontend)
        with django_db_blocker.unblock(), running_daphne() as address:
            yield frontend, f"http://{address}"


@pytest.fixture  # per test: Playwright's loop must be gone before the database is flushed
def browser():
    executable = _chromium_or_skip()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=executable, headless=True,
                                              args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


class Recorder:
    """Every request of a browser context that reaches the network (each passes through
    the route handler), and its websockets; anything not local is recorded and blocked.
    A request the page's own Content-Security-Policy refuses never leaves the browser:
    it is noted apart (``refused``), and must be all that a page attempted elsewhere."""

    def __init__(self, context, allowed_hosts: set[str]):
        self.allowed = allowed_hosts
        self.urls: list[str] = []
        self.blocked: list[str] = []
        self.errors: list[str] = []
        self.attempted: list[str] = []
        self.refused: list[str] = []
        context.route("**/*", self._route)
        context.on("request", lambda request: self.attempted.append(request.url))
        context.on("requestfailed", self._failed)

    def _route(self, route):
        url = route.request.url
        self.urls.append(url)
        if url.startswith("data:") or urlsplit(url).netloc in self.allowed:
            route.continue_()
        else:
            self.blocked.append(url)
            route.abort()

    def _failed(self, request):
        if "csp" in (request.failure or "").lower():
            self.refused.append(request.url)

    def watch(self, page):
        page.on("websocket", lambda ws: self.urls.append(ws.url))
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        page.set_default_timeout(TIMEOUT_MS)
        return page

    def assert_local_only(self):
        assert self.urls, "nothing was recorded"
        foreign = [url for url in self.urls
                   if not url.startswith("data:") and urlsplit(url).netloc not in self.allowed]
        assert not foreign and not self.blocked, (foreign, self.blocked)
        elsewhere = [url for url in self.attempted
                     if not url.startswith("data:") and urlsplit(url).netloc not in self.allowed]
        assert set(elsewhere) <= set(self.refused), (elsewhere, self.refused)


def test_a_frontend_on_another_origin_plays_a_move_and_gets_the_push(servers, browser):
    frontend, api = servers
    context = browser.new_context()
    recorder = Recorder(context, {urlsplit(frontend).netloc, urlsplit(api).netloc})
    page = recorder.watch(context.new_page())
    page.goto(f"{frontend}/?api={api}")
    result = page.evaluate("window.result")
    log = page.inner_text("#log")
    assert "error" not in result, (result, log)
    assert result["pushedPly"] >= result["movedTo"] >= 1, (result, log)
    recorder.assert_local_only()
    # it really crossed origins: the API was called from the frontend's origin
    api_calls = [url for url in recorder.urls if url.startswith(api)]
    assert any("/api/v1/auth/register/" in url for url in api_calls)
    assert any(url.startswith(api.replace("http", "ws")) for url in recorder.urls)
    assert not recorder.errors, recorder.errors
    context.close()


@pytest.mark.parametrize("path, rendered", [
    ("/api/v1/docs/", ".swagger-ui .opblock"),
    ("/api/v1/redoc/", "h1:has-text('Han and The Queen of Hansa game service')"),
    ("/graphql/", ".graphiql-container .graphiql-editor"),
], ids=["swagger-ui", "redoc", "graphiql"])
def test_the_docs_pages_render_from_our_server_alone(servers, browser, path, rendered):
    _, api = servers
    context = browser.new_context()
    recorder = Recorder(context, {urlsplit(api).netloc})
    page = recorder.watch(context.new_page())
    page.goto(api + path)
    page.wait_for_selector(rendered, state="visible")
    page.wait_for_load_state("networkidle")
    recorder.assert_local_only()
    assert not recorder.errors, recorder.errors
    context.close()
