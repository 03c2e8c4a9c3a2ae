"""The notifications' lists answer the one envelope, page by page (tests/games/api/
test_list_envelope.py's walk): a player's push subscriptions and their waiting games."""

from __future__ import annotations

import pytest

from games.notifications.models import PushSubscription
from tests.games.api.test_list_envelope import assert_bounds_checked, walk
from tests.games.notifications.test_waiting_games import _match_waiting_for
from tests.games.support import API

pytestmark = pytest.mark.django_db


def test_push_subscriptions_page_by_page(user, auth_client):
    for number in range(3):
        PushSubscription.objects.create(user=user, endpoint=f"https://push.example.org/{number}",
                                        p256dh="x", auth="y")
    rows = walk(auth_client, f"{API}/me/push-subscriptions/", 3)
    assert [row["endpoint"] for row in rows] == [f"https://push.example.org/{n}"
                                                 for n in range(3)]
    assert_bounds_checked(auth_client, f"{API}/me/push-subscriptions/")


def test_waiting_games_page_by_page(user, auth_client, make_user):
    other = make_user()
    created = {_match_waiting_for(user, other, "none").pk for _ in range(3)}
    rows = walk(auth_client, f"{API}/me/waiting-games/", 3)
    assert {row["match_id"] for row in rows} == created
    assert_bounds_checked(auth_client, f"{API}/me/waiting-games/")
