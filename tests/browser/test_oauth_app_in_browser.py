"""A third-party app in a real browser (headless Chromium): the TypeScript client's example
page (clients/ts/example/), served from another origin, is registered as an app in Django
admin WHILE the server runs (staff fill the add form in the browser: no restart, no
CORS_ALLOWED_ORIGINS for it), signs a player in with OAuth 2 and PKCE (the browser goes
to our sign-in page, the test types the password there and clicks Allow on the consent
page), plays a move over the play socket
with the scoped access token, is refused a scope it was not granted (it asked for
account:read and match:play; creating a match needs match:write: 403 insufficient_scope
naming it), and the player disconnecting the app (connected apps DELETE) closes its
socket (4401). Every request stays on the two local servers.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlsplit

import pytest

from accounts.apps_oauth.models import App
from tests.browser.test_frontend_in_browser import TIMEOUT_MS, Recorder, browser  # noqa: F401
from tests.browser.test_ts_client_example import serving_the_client
from tests.clients.node import ensure_installed, run
from tests.games.graphql.asgi_server import http_json, running_daphne

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True), pytest.mark.slow]

PASSWORD = "a-long-passphrase-42"


@pytest.fixture(scope="module")
def servers(django_db_setup, django_db_blocker):
    ensure_installed()
    run(["npm", "run", "build"])
    with serving_the_client() as frontend, pytest.MonkeyPatch.context() as patch:
        # the page's origin is NOT in the settings: only its registration opens it
        patch.setenv("CORS_ALLOWED_ORIGINS", "")
        with django_db_blocker.unblock(), running_daphne() as address:
            yield frontend, address


def _wait_for_url(page, pattern: str) -> None:
    """Like page.wait_for_url, but a failure says where the browser is and what it shows."""
    try:
        page.wait_for_url(pattern, timeout=20_000)
    except Exception as error:  # playwright's TimeoutError
        raise AssertionError(f"at {page.url}, not {pattern}: {page.inner_text('body')[:2000]}") \
            from error


def _orm(function):
    """Run ``function`` (ORM code) in a thread of its own: Playwright's event loop runs in
    the test's thread, where Django refuses synchronous database calls."""

    def run_and_close():
        from django.db import connection

        try:
            return function()
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(run_and_close).result()


def _make_staff(username: str) -> int:
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.get(username=username)
    user.is_staff = user.is_superuser = True
    user.save(update_fields=["is_staff", "is_superuser"])
    return user.pk


def _register_in_admin(browser, api: str, page_url: str, origin: str, owner_id: int):  # noqa: F811
    """Staff register the page as an app through the admin's add form, in a browser of
    their own (their session must not sign the player in)."""
    context = browser.new_context()
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(f"{api}/admin/login/?next=/admin/apps_oauth/app/add/")
    page.fill("#id_username", "staff-member")
    page.fill("#id_password", PASSWORD)
    page.click("input[type=submit]")
    _wait_for_url(page, f"{api}/admin/apps_oauth/app/add/")
    page.fill("#id_name", "Example Board")
    page.fill("#id_user", str(owner_id))
    page.fill("#id_homepage", page_url)
    page.fill("#id_redirect_uris", page_url)
    page.fill("#id_allowed_origins", origin)
    page.click("input[name=_save]")
    _wait_for_url(page, f"{api}/admin/apps_oauth/app/")
    context.close()


def _register(address: str, username: str) -> str:
    status, user = http_json(address, "POST", "/api/v1/auth/register/",
                             {"username": username, "password": PASSWORD})
    assert status == 201, user
    return user["token"]


def test_a_registered_app_signs_a_player_in_with_pkce_and_plays(servers, browser):  # noqa: F811
    frontend, address = servers
    api = f"http://{address}"
    page_url = f"{frontend}/example/"
    # staff register the app now, in the admin, with the server running
    _register(address, "staff-member")  # the server hashes the password its own way
    staff_id = _orm(lambda: _make_staff("staff-member"))
    _register_in_admin(browser, api, page_url, frontend, staff_id)
    app = _orm(lambda: App.objects.values("client_id", "active").get(name="Example Board"))
    assert app["active"], app
    # the player, and a match of theirs against a bot (their own first-party key)
    player = _register(address, "pkce-player")
    status, match = http_json(address, "POST", "/api/v1/matches/",
                              {"game": "han", "players": 2, "bot_seats": {"1": "random"}},
                              token=player)
    assert status == 201 and match["status"] == "active", match

    context = browser.new_context()
    recorder = Recorder(context, {urlsplit(frontend).netloc, address})
    page = recorder.watch(context.new_page())
    page.goto(f"{page_url}?api={api}&client_id={app['client_id']}&match={match['id']}"
              "&scope=account:read%20match:play&autostart=1")

    # our sign-in page, on the service's origin: the password is typed there only
    page.wait_for_url(f"{api}/oauth/login/**")
    page.fill("#id_username", "pkce-player")
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    # the consent page names the app and the scopes asked
    _wait_for_url(page, f"{api}/oauth/authorize/**")
    consent = page.inner_text("body")
    assert "Example Board" in consent and "Play moves" in consent, consent
    assert "staff-member" in consent, consent  # its owner
    assert "Create" not in consent, consent  # match:write was not asked
    page.click("button[name=allow]")

    # back on the app's page: the code redeemed with the verifier, the socket signed in
    page.wait_for_url(f"{page_url}**")
    page.wait_for_function("window.example && window.example.connected")
    example = page.evaluate("window.example")
    assert example["signedIn"] and example["errors"] == [], page.inner_text("#log")
    assert sorted(example["scopes"]) == ["account:read", "match:play"]
    assert "code=" not in page.url  # the used code is dropped from the address bar
    assert page.inner_text("#player") == "pkce-player"

    # a move over the play socket with the scoped token
    page.wait_for_selector("#moves button.move:not([disabled])")
    before = page.evaluate("window.example.ply")
    page.locator("#moves button.move").first.click()
    page.wait_for_function("window.example.acks.length === 1")
    assert page.evaluate("window.example.acks") == [before + 1], page.inner_text("#log")

    # a scope it was not granted: creating a match needs match:write
    page.click("#newmatch")
    page.wait_for_function("window.example.refused.length === 1")
    refused = page.evaluate("window.example.refused")[0]
    assert refused["status"] == 403 and refused["code"] == "insufficient_scope", refused
    assert "match:write" in str(refused["details"]), refused

    # the player disconnects the app: its socket closes (4401), the page is signed out
    status, page_of_apps = http_json(address, "GET", "/api/v1/account/apps/", token=player)
    apps = page_of_apps["results"]  # a page, as every list is
    assert status == 200 and len(apps) == 1, apps
    assert apps[0]["app"]["name"] == "Example Board", apps
    app_id = apps[0]["app"]["id"]
    status, _ = http_json(address, "DELETE", f"/api/v1/account/apps/{app_id}/", token=player)
    assert status == 204, status
    page.wait_for_function("window.example.authLost === true", timeout=TIMEOUT_MS)
    assert page.evaluate("window.example.closedWith") == 4401
    _, detail = http_json(address, "GET", f"/api/v1/matches/{match['id']}/", token=player)
    assert detail["ply"] >= before + 1

    recorder.assert_local_only()
    assert f"ws://{address}/play/" in recorder.urls, recorder.urls
    assert any(url.startswith(f"{api}/oauth/token/") for url in recorder.urls), recorder.urls
    assert not recorder.errors, recorder.errors
    context.close()
