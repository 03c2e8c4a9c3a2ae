"""Notification preferences over REST and GraphQL: the documented defaults until a player
chooses, ``allows`` answering what was chosen, and bad input a 400 with a stable code
that stores nothing."""

from __future__ import annotations

import pytest

from games.notifications.models import Preference
from games.notifications.preferences import DEFAULTS, allowed_users, allows
from tests.games.graphql.support import gql, make_player
from tests.games.support import API, assert_api_error

pytestmark = pytest.mark.django_db

URL = f"{API}/me/notification-preferences/"


def test_a_new_player_gets_the_documented_defaults(user, auth_client):
    answer = auth_client.get(URL)
    assert answer.status_code == 200
    assert answer.json() == {
        "push": {"your_turn": True, "invitation": True, "match_started": False,
                 "match_finished": True, "reminder": True, "chat_message": False},
        "email": {"your_turn": True, "invitation": True, "match_started": False,
                  "match_finished": False, "reminder": True, "chat_message": False},
    }
    assert allows(user.pk, "push", "your_turn") and not allows(user.pk, "email",
                                                                "chat_message")


def test_a_change_is_stored_and_allows_follows_it(user, auth_client, make_user):
    other = make_user()
    answer = auth_client.patch(URL, {"push": {"your_turn": False},
                                     "email": {"match_finished": True}}, format="json")
    assert answer.status_code == 200, answer.content
    assert answer.json()["push"]["your_turn"] is False
    assert answer.json()["email"]["match_finished"] is True
    assert auth_client.get(URL).json() == answer.json()
    assert not allows(user.pk, "push", "your_turn")
    assert allows(user.pk, "email", "match_finished")
    assert allows(other.pk, "push", "your_turn")  # another player keeps the default
    assert allowed_users([user.pk, other.pk], "push", "your_turn") == [other.pk]
    # switched back on: the same row, changed
    auth_client.patch(URL, {"push": {"your_turn": True}}, format="json")
    assert allows(user.pk, "push", "your_turn")
    assert Preference.objects.filter(user=user).count() == 2


def test_unknown_channel_or_event_is_never_allowed():
    assert not allows(1, "sms", "your_turn") and not allows(1, "push", "tournament")


@pytest.mark.parametrize("body, code", [
    ({"sms": {"your_turn": True}}, "unknown_notification_channel"),
    ({"push": {"tournament_round": True}}, "unknown_notification_event"),
    ({"push": {"your_turn": True}, "fax": {}}, "unknown_notification_channel"),
    ({"push": {"your_turn": "yes"}}, "invalid_input"),
    ({"push": ["your_turn"]}, "invalid_input"),
    ([], "invalid_input"),
    ({}, "invalid_input"),
])
def test_bad_input_is_a_400_and_stores_nothing(body, code, auth_client):
    assert_api_error(auth_client.patch(URL, body, format="json"), 400, code)
    assert not Preference.objects.exists()


def test_anonymous_callers_are_refused(api_client):
    assert api_client.get(URL).status_code == 401
    assert api_client.patch(URL, {"push": {"reminder": False}}, format="json").status_code == 401


def test_graphql_reads_and_sets_the_same_preferences(make_user):
    player = make_player(make_user)
    read = gql("{ myNotificationPreferences { push { yourTurn reminder } email { reminder } } }",
               token=player.token)
    assert read["data"]["myNotificationPreferences"] == {
        "push": {"yourTurn": DEFAULTS["push"]["your_turn"], "reminder": True},
        "email": {"reminder": True}}
    changed = gql("""mutation { setNotificationPreferences(email: {reminder: false}) {
        preferences { email { reminder yourTurn } } errors { code } } }""", token=player.token)
    payload = changed["data"]["setNotificationPreferences"]
    assert payload["errors"] == []
    assert payload["preferences"]["email"] == {"reminder": False, "yourTurn": True}
    assert not allows(player.user.pk, "email", "reminder")
    empty = gql("mutation { setNotificationPreferences { errors { code } } }",
                token=player.token)
    assert [e["code"] for e in empty["data"]["setNotificationPreferences"]["errors"]] == [
        "invalid_input"]
    anonymous = gql("mutation { setNotificationPreferences(push: {yourTurn: false}) "
                    "{ errors { code } } }")
    assert [e["code"] for e in anonymous["data"]["setNotificationPreferences"]["errors"]] == [
        "not_authenticated"]
