"""A frontend on another origin polls instead of subscribing (issue 22, item 1), in
headless Chromium against daphne: ETag polling of a match and its legal moves
(If-None-Match answers 304 while nothing changed, 200 with a new ETag once it did) and the
NDJSON feed /api/v1/stream/, dropped and resumed with Last-Event-ID. Every call crosses
origins, so the preflights must allow If-None-Match and Last-Event-ID and the answers
must expose ETag. The server runs with DEBUG on and no CORS_ALLOWED_ORIGINS: the page's
origin (http://localhost:<port>) is allowed as a loopback origin, the development rule.

tests/browser/polling_page.html is the page; the launch helpers are the other browser
tests' (Debian's Chromium, Playwright)."""

from __future__ import annotations

import contextlib
import http.server
import threading
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests.browser.test_frontend_in_browser import Recorder, browser  # noqa: F401
from tests.games.graphql.asgi_server import running_daphne

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True), pytest.mark.slow]

PAGE = (Path(__file__).parent / "polling_page.html").read_bytes()


@contextlib.contextmanager
def page_origin():
    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(PAGE)))
            self.end_headers()
            self.wfile.write(PAGE)

        def log_message(self, *args):  # quiet
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://localhost:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def test_another_origin_polls_with_etags_and_resumes_the_feed(browser):  # noqa: F811
    development = {"DEBUG": "true", "CORS_ALLOWED_ORIGINS": ""}
    with page_origin() as frontend, running_daphne(development) as address:
        api = f"http://{address}"
        context = browser.new_context()
        recorder = Recorder(context, {urlsplit(frontend).netloc, address})
        page = recorder.watch(context.new_page())
        page.goto(f"{frontend}/?api={api}")
        result = page.evaluate("window.result")
        log = page.inner_text("#log")
        context.close()
    assert "error" not in result, (result, log)
    # ETags: read by the page (exposed), 304 while unchanged, 200 with a new one after
    assert result["firstStatus"] == 200 and result["etag"], log
    assert result["unchangedStatus"] == 304 and result["unchangedBody"] is None, log
    assert result["legalAgainStatus"] == 304, log
    assert result["changedStatus"] == 200 and result["changedEtag"] != result["etag"], log
    assert result["changedPly"] >= 1
    # the feed: NDJSON, and a resumed stream starts right after the last event seen
    assert result["feedType"].startswith("application/x-ndjson")
    feed = result["feed"]
    assert [event["kind"] for event in feed[:2]] == ["match_started", "your_turn"], log
    assert result["lastSeen"] == feed[0]["id"]
    assert result["resumed"] and result["resumed"][0] == feed[1], log
    recorder.assert_local_only()
    assert not recorder.errors, recorder.errors
