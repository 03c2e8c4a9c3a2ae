"""A frontend on another origin shows a match's board (issue 22, item 5): headless
Chromium fetches ``board.svg`` cross-origin with its token, polls it again with the ETag
it was given (304), and shows the picture in an ``<img>`` whose alt is its title.
The servers and the browser are those of test_frontend_in_browser.py."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlencode, urlsplit

import pytest
from rest_framework.authtoken.models import Token

from games.matches import services as match_services
from tests.browser.test_frontend_in_browser import (  # noqa: F401 - fixtures
    Recorder,
    browser,
    second_origin,
)
from tests.games.graphql.asgi_server import running_daphne

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True), pytest.mark.slow]

PAGE = (Path(__file__).parent / "board_page.html").read_bytes()


@pytest.fixture(scope="module")
def servers(django_db_setup, django_db_blocker):
    with second_origin(PAGE) as frontend, pytest.MonkeyPatch.context() as patch:
        patch.setenv("CORS_ALLOWED_ORIGINS", frontend)
        with django_db_blocker.unblock(), running_daphne() as address:
            yield frontend, f"http://{address}"


@pytest.fixture
def seated(make_user):
    """A running match and its player's token, made before Playwright's event loop runs
    in this thread (the ORM refuses to run inside one)."""
    player = make_user("board_viewer")
    match = match_services.create_match(user=player, game="han", players=2,
                                        bot_seats={1: "random"})
    return match.pk, Token.objects.get_or_create(user=player)[0].key


def test_a_frontend_on_another_origin_shows_the_board(servers, seated, browser):  # noqa: F811
    frontend, api = servers
    match_id, token = seated
    context = browser.new_context()
    recorder = Recorder(context, {urlsplit(frontend).netloc, urlsplit(api).netloc})
    page = recorder.watch(context.new_page())
    page.goto(f"{frontend}/?" + urlencode({"api": api, "token": token, "match": match_id}))
    result = page.evaluate("window.result")
    assert "error" not in result, result
    assert result["status"] == 200 and result["type"].startswith("image/svg+xml")
    assert result["tag"] and result["again"] == 304  # the ETag was readable cross-origin
    assert result["title"].endswith("as board_viewer (seat 0) sees it")
    assert (result["width"], result["height"]) == (1370, 700)  # drawn, at the SVG's size
    assert result["ownHand"] > 0  # the token's seat: its own hand is in the picture
    assert page.get_attribute("#board", "alt") == result["title"]
    recorder.assert_local_only()
    assert not recorder.errors, recorder.errors
    context.close()
