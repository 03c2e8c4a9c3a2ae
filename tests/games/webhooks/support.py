"""Helpers of the webhook tests: an app whose owner registers endpoints, and a player
connected to it (a live access token of the app with ``account:read``, as the consent
flow leaves: tests/accounts/apps_oauth/test_pkce_flow.py drives that flow itself)."""

from __future__ import annotations

import secrets
from datetime import timedelta

from django.utils import timezone
from oauth2_provider.models import get_access_token_model

from tests.accounts.apps_oauth.support import make_app


def connect(user, app, scope: str = "account:read match:play") -> None:
    get_access_token_model().objects.create(
        user=user, application=app, token=secrets.token_urlsafe(32), scope=scope,
        expires=timezone.now() + timedelta(hours=1))


def register(client, app, url: str, event_types=("your_turn", "match_started",
                                                 "match_finished", "invitation")):
    return client.post(f"/api/v1/apps/{app.pk}/webhooks/",
                       {"url": url, "event_types": list(event_types)}, format="json")


def register_your_turn(client, app, receiver) -> int:
    """A ``your_turn`` endpoint of ``app`` at the test receiver, its secret handed to the
    receiver to verify with: the endpoint's id."""
    created = register(client, app, receiver.url, event_types=["your_turn"])
    assert created.status_code == 201, created.content
    receiver.secret = created.json()["secret"]
    return created.json()["id"]


__all__ = ["connect", "make_app", "register", "register_your_turn"]
