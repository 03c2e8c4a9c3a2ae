"""The apps in Django admin: listed, registered with their origins, suspended by an action
(whose save refuses the app's tokens and ends its connections, like any other path)."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.apps_oauth import origins
from accounts.apps_oauth.models import App
from tests.accounts.apps_oauth.support import make_app

pytestmark = pytest.mark.django_db(transaction=True)  # the origins' bump runs on commit


@pytest.fixture
def staff(make_user):
    client = Client()
    client.force_login(make_user(is_staff=True, is_superuser=True))
    return client


def test_staff_register_an_app_whose_origin_is_served_at_once(staff, make_user):
    owner = make_user()
    assert not origins.registered("https://admin-made.example")
    response = staff.post("/admin/apps_oauth/app/add/", {
        "name": "Admin made", "user": owner.pk, "homepage": "https://admin-made.example",
        "redirect_uris": "https://admin-made.example/cb",
        "allowed_origins": "https://admin-made.example", "rate_tier": "", "active": "on"})
    assert response.status_code == 302, response.content[:3000]
    app = App.objects.get(name="Admin made")
    assert app.client_type == "public" and app.client_secret == ""
    assert origins.registered("https://admin-made.example")  # this process: at once
    assert staff.get("/admin/apps_oauth/app/").status_code == 200


def test_the_suspend_action_suspends(staff):
    app = make_app(origins="https://suspended.example")
    assert origins.registered("https://suspended.example")
    response = staff.post("/admin/apps_oauth/app/", {"action": "suspend",
                                                    "_selected_action": [app.pk]})
    assert response.status_code == 302
    app.refresh_from_db()
    assert app.active is False
    assert not origins.registered("https://suspended.example")


def test_the_app_page_shows_its_requests_errors_and_moves(staff):
    """The per-app metrics (requests, errors, moves by app label) read back on the app's
    admin page; another app's counts are not mixed in."""
    from infra.observability import metrics
    from infra.observability.app_counts import app_counts

    app, other = make_app(name="Counted"), make_app(name="Other")
    before = app_counts(app.pk)
    for failed in (False, False, True):
        metrics.app_request(str(app.pk), metrics.REST, failed=failed)
    metrics.app_request(str(app.pk), metrics.PLAY)
    metrics.app_move(str(app.pk))
    metrics.app_request(str(other.pk), metrics.REST, failed=True)
    assert app_counts(app.pk) == {"requests": before["requests"] + 4,
                                  "errors": before["errors"] + 1,
                                  "moves": before["moves"] + 1}
    page = staff.get(f"/admin/apps_oauth/app/{app.pk}/change/").content.decode()
    expected = (f"{before['requests'] + 4} requests, {before['errors'] + 1} errors, "
                f"{before['moves'] + 1} moves")
    assert expected in page
    assert staff.get("/admin/apps_oauth/app/add/").status_code == 200
