"""Chat moderation end to end, in a real browser (headless Chromium) against the running
server (docs/chat.md "Moderation"): a player reports a message over the API; a moderator
signs in to the admin, opens the queue, opens the report and sees the message in its
context, times its author out (the author's next send over the API is refused with
``chat_timed_out`` and when it ends), then clears it on appeal (the next send works),
and the moderation log shows each step with who and why."""

from __future__ import annotations

import pytest

from tests.browser.test_frontend_in_browser import TIMEOUT_MS, browser  # noqa: F401
from tests.browser.test_oauth_app_in_browser import _make_staff, _orm, _wait_for_url
from tests.games.graphql.asgi_server import http_json, running_daphne

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True), pytest.mark.slow]

PASSWORD = "a-long-passphrase-42"


@pytest.fixture(scope="module")
def server(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock(), running_daphne() as address:
        yield address


def _register(address: str, username: str) -> str:
    status, user = http_json(address, "POST", "/api/v1/auth/register/",
                             {"username": username, "password": PASSWORD})
    assert status == 201, user
    return user["token"]


def _say(address: str, match_id: str, token: str, text: str) -> tuple[int, dict]:
    return http_json(address, "POST", f"/api/v1/matches/{match_id}/chat/players/",
                     {"text": text}, token=token)


def _moderate(page, action: str, reason: str, length: str | None = None) -> None:
    page.select_option("#id_action", action)
    if length:
        page.select_option("#id_length", length)
    page.fill("#id_reason", reason)
    with page.expect_navigation():
        page.click("#moderate input[type=submit]")
    done = page.locator("ul.messagelist li.success")
    assert done.count() == 1, page.inner_text("body")[:3000]


def test_a_moderator_times_a_reported_author_out_and_clears_it_on_appeal(server, browser):  # noqa: F811
    api = f"http://{server}"
    author, reader = _register(server, "rude-author"), _register(server, "reporter")
    _register(server, "moderator")  # the server hashes the password its own way
    _orm(lambda: _make_staff("moderator"))
    status, match = http_json(server, "POST", "/api/v1/matches/",
                              {"game": "han", "players": 2}, token=author)
    assert status == 201, match
    status, joined = http_json(server, "POST", f"/api/v1/matches/{match['id']}/join/",
                               token=reader)
    assert status == 200, joined
    for text in ("hello", "good luck", "you play like a potato", "rude", "anyway"):
        who = author if text != "good luck" else reader
        assert _say(server, match["id"], who, text)[0] == 201
    status, page_of = http_json(server, "GET", f"/api/v1/matches/{match['id']}/chat/players/",
                                token=reader)
    reported = next(row for row in page_of["results"] if row["text"] == "you play like a "
                    "potato")
    status, report = http_json(
        server, "POST",
        f"/api/v1/matches/{match['id']}/chat/players/{reported['id']}/report/",
        {"reason": "abuse", "note": "an insult"}, token=reader)
    assert status == 201 and report["status"] == "open", report

    context = browser.new_context()
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(f"{api}/admin/login/?next=/admin/games/chatreport/")
    page.fill("#id_username", "moderator")
    page.fill("#id_password", PASSWORD)
    page.click("input[type=submit]")
    _wait_for_url(page, f"{api}/admin/games/chatreport/")

    # the queue: the open report, then its page with the message in context
    row = page.locator("#result_list tbody tr").first
    assert "you play like a potato" in row.inner_text() and "rude-author" in row.inner_text()
    row.locator("a").first.click()
    _wait_for_url(page, f"{api}/admin/games/chatreport/{report['id']}/change/")
    lines = page.locator("#context tbody tr").all_inner_texts()
    assert [line for line in lines if "potato" in line][0].rstrip().endswith("reported")
    for text in ("hello", "good luck", "rude", "anyway"):  # before and after it
        assert any(text in line for line in lines), (text, lines)
    assert page.inner_text("#report-author") == "rude-author"

    # a time-out: the author's next send is refused, saying until when
    _moderate(page, "time_out", "insulted the other player", length="1h")
    assert "time-out" in page.inner_text("#sanctions")
    status, refused = _say(server, match["id"], author, "sorry")
    assert status == 403 and refused["error"]["code"] == "chat_timed_out", refused
    assert refused["error"]["details"]["until"], refused

    # the appeal upheld: cleared, the next send works
    _moderate(page, "clear", "appeal cleared: apologised")
    assert page.inner_text("#sanctions").strip() == "None."
    status, sent = _say(server, match["id"], author, "sorry")
    assert status == 201, sent

    # the log shows each step, who and why
    steps = page.inner_text("#report-log")
    assert "timed the author out" in steps and "insulted the other player" in steps, steps
    assert "cleared a time-out or ban" in steps and "appeal cleared" in steps, steps
    page.goto(f"{api}/admin/games/moderationaction/")
    log = page.locator("#result_list tbody tr").all_inner_texts()
    assert len(log) == 2, log
    assert "moderator" in log[0] and "appeal cleared" in log[0], log  # newest first
    assert "insulted the other player" in log[1] and "rude-author" in log[1], log
    context.close()
