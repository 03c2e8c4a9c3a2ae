"""The TypeScript client's example page (clients/ts/example/) in headless Chromium, served
from another origin (its own little HTTP server, http://localhost:<port>) against the real
server (daphne serving config.asgi, the play socket included): it reads the match over
typed REST, signs in on the play socket with a token, subscribes, shows the legal moves
as buttons, and plays a few moves of a match against a bot by clicking them; then chats
over the same socket (its message pushed back, one sent over REST too, an empty one
refused with REST's code). CORS and the
websocket's origin check happen for real; every request must stay on the two local
servers.

The page loads the built client (clients/ts/dist/, `npm run build`) and openapi-fetch from
clients/ts/node_modules as ES modules: nothing from a CDN.
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import threading
from urllib.parse import urlsplit

import pytest

from tests.browser.test_frontend_in_browser import TIMEOUT_MS, Recorder, browser  # noqa: F401
from tests.clients.node import CLIENT, ensure_installed, run
from tests.games.graphql.asgi_server import http_json, running_daphne

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True), pytest.mark.slow]

MOVES = 4  # of the page's seat


@contextlib.contextmanager
def serving_the_client():
    """clients/ts as static files on http://localhost:<free port>/ (the example at
    /example/, the built client at /dist/)."""

    class Handler(http.server.SimpleHTTPRequestHandler):
        extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                          ".js": "text/javascript", ".mjs": "text/javascript",
                          ".map": "application/json"}

        def log_message(self, *args):  # quiet
            pass

    handler = functools.partial(Handler, directory=str(CLIENT))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://localhost:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="module")
def servers(django_db_setup, django_db_blocker):
    ensure_installed()
    run(["npm", "run", "build"])
    with serving_the_client() as frontend, pytest.MonkeyPatch.context() as patch:
        # the server inherits the environment: the example's origin is the one allowed
        patch.setenv("CORS_ALLOWED_ORIGINS", frontend)
        with django_db_blocker.unblock(), running_daphne() as address:
            yield frontend, address


def test_the_example_page_plays_a_match_from_another_origin(servers, browser):  # noqa: F811
    frontend, address = servers
    api = f"http://{address}"
    # over REST (Playwright's event loop runs in this thread: no ORM here)
    status, user = http_json(address, "POST", "/api/v1/auth/register/",
                             {"username": "example-page", "password": "a-long-passphrase-42"})
    assert status == 201, user
    token = user["token"]
    status, match = http_json(address, "POST", "/api/v1/matches/",
                              {"game": "han", "players": 2, "bot_seats": {"1": "random"}},
                              token=token)
    assert status == 201 and match["status"] == "active", match

    context = browser.new_context()
    recorder = Recorder(context, {urlsplit(frontend).netloc, address})
    page = recorder.watch(context.new_page())
    page.goto(f"{frontend}/example/?api={api}&token={token}&match={match['id']}"
              "&autostart=1")
    page.wait_for_function("window.example && window.example.connected")
    for played in range(MOVES):
        page.wait_for_selector("#moves button.move:not([disabled])")
        before = page.evaluate("window.example.ply")
        page.locator("#moves button.move").first.click()
        page.wait_for_function(f"window.example.acks.length === {played + 1}")
        acked = page.evaluate("window.example.acks")[-1]
        assert acked == before + 1, (before, acked, page.inner_text("#log"))
    example = page.evaluate("window.example")
    log = page.inner_text("#log")
    assert example["errors"] == [], log
    assert len(example["acks"]) == MOVES and example["acks"] == sorted(example["acks"]), log
    assert "signed in as example-page" in log
    assert page.inner_text("#seat") == "0"
    assert page.inner_text("#view") != "{}"
    # the bot's moves reached the page too: plies it did not play itself, pushed
    _, detail = http_json(address, "GET", f"/api/v1/matches/{match['id']}/", token=token)
    assert detail["ply"] > MOVES, detail["ply"]
    page.wait_for_function(f"window.example.ply >= {detail['ply']}")
    # the chat: sent over the page's socket, pushed back to it; one sent over REST too
    page.fill("#chattext", "good luck, bot")
    page.click("#chatsend")
    page.wait_for_function("window.example.chats.length === 1")
    status, said = http_json(address, "POST", f"/api/v1/matches/{match['id']}/chat/spectators/",
                             {"text": "over REST"}, token=token)
    assert status == 201, said
    page.wait_for_function("window.example.chats.length === 2")
    assert page.evaluate("window.example.chats") == [
        {"room": "players", "author": "example-page", "text": "good luck, bot"},
        {"room": "spectators", "author": "example-page", "text": "over REST"}]
    assert "[players] example-page: good luck, bot" in page.inner_text("#chatlog")
    page.fill("#chattext", "   ")
    page.click("#chatsend")
    page.wait_for_function("window.example.errors.length === 1")
    assert page.evaluate("window.example.errors")[0].startswith("chat_text_empty (400)")
    recorder.assert_local_only()
    # it really crossed origins: REST and the play socket from the page's origin
    assert any(url.startswith(f"{api}/api/v1/matches/") for url in recorder.urls)
    assert f"ws://{address}/play/" in recorder.urls, recorder.urls
    assert not recorder.errors, recorder.errors
    context.close()
