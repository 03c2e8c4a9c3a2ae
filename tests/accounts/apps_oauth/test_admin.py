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
