"""Web Push end to end against a local push service (tests/games/notifications/
push_receiver.py) that decrypts every payload with the browser's keys made in the test:
a match's change reaches the player's browser in the language it subscribed in; a 410
removes the subscription; a malformed subscription or a forbidden URL is a 400 that
writes nothing; without a VAPID key subscribing is 503."""

from __future__ import annotations

import base64
import json

import pytest
from prometheus_client import REGISTRY
from py_vapid import Vapid
from py_vapid.utils import b64urlencode

from games.matches import services as match_services
from games.notifications.models import PushSubscription
from tests.games.notifications.push_receiver import running_push_service
from tests.games.support import API, assert_api_error, eager_celery

pytestmark = pytest.mark.django_db(transaction=True)

URL = f"{API}/me/push-subscriptions/"


@pytest.fixture
def vapid_key(settings) -> str:
    key = Vapid()
    key.generate_keys()
    settings.WEBPUSH_VAPID_PRIVATE_KEY = b64urlencode(
        key.private_key.private_numbers().private_value.to_bytes(32, "big"))
    return settings.WEBPUSH_VAPID_PRIVATE_KEY


def _metric(name: str, **labels) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


def _jwt_claims(authorization: str) -> tuple[dict, str]:
    """The VAPID header's JWT claims and its ``k`` (the server's public key)."""
    scheme, _, rest = authorization.partition(" ")
    assert scheme == "vapid"
    parts = dict(part.split("=", 1) for part in rest.split(","))
    payload = parts["t"].split(".")[1]
    return json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4))), parts["k"]


def _start_two_player_match(first, second) -> int:
    match = match_services.create_match(user=first, game="hansa", players=2)
    match_services.join_match(user=second, match_id=match.pk)
    return match.pk


def test_a_change_reaches_the_browser_decrypted_in_its_language(
        vapid_key, user, auth_client, make_user, api_client):
    other = make_user()
    server_key = api_client.get(f"{API}/push/key/").json()["public_key"]
    auth_client.patch(f"{API}/me/notification-preferences/",
                      {"push": {"match_started": True}}, format="json")
    with running_push_service() as service:
        created = auth_client.post(f"{URL}?lang=de", service.subscription(), format="json")
        assert created.status_code == 201, created.content
        assert created.json()["language"] == "de" and "keys" not in created.json()
        with eager_celery():
            match_id = _start_two_player_match(other, user)
        arrivals = service.wait_for(1)
    assert all(arrival.error == "" for arrival in arrivals), arrivals
    started = [a.message for a in arrivals if a.message["type"] == "match_started"]
    assert len(started) == 1
    assert started[0]["title"] == "Partie begonnen"
    assert started[0]["body"] == f"Ihre Partie {match_id} von Die Königin der Hanse hat begonnen."
    assert started[0]["data"] == {"match_id": match_id, "game": "hansa"}
    claims, key = _jwt_claims(arrivals[0].headers["authorization"])
    assert key == server_key and claims["aud"] == service.url.rsplit("/push/", 1)[0]
    assert arrivals[0].headers["content-encoding"] == "aes128gcm"
    assert _metric("webpush_sends_total", outcome="sent") >= 1
    assert _metric("webpush_send_seconds_count") == _metric("webpush_sends_total",
                                                             outcome="sent")


def test_a_gone_subscription_is_removed(vapid_key, user, auth_client, make_user):
    with running_push_service(status=410) as service:
        assert auth_client.post(URL, service.subscription(), format="json").status_code == 201
        auth_client.patch(f"{API}/me/notification-preferences/",
                          {"push": {"match_started": True}}, format="json")
        with eager_celery():
            _start_two_player_match(make_user(), user)
        service.wait_for(1)
    assert not PushSubscription.objects.exists()
    assert _metric("webpush_subscriptions_removed_total") == 1
    assert _metric("webpush_sends_total", outcome="gone") == 1


def test_a_push_the_player_turned_off_is_not_sent(vapid_key, user, auth_client, make_user):
    auth_client.patch(f"{API}/me/notification-preferences/",
                      {"push": {"your_turn": False, "match_started": False}}, format="json")
    with running_push_service() as service:
        auth_client.post(URL, service.subscription(), format="json")
        with eager_celery():
            _start_two_player_match(make_user(), user)
        assert service.arrivals == []


def _good(service_url: str = "https://push.example.org/x") -> dict:
    with running_push_service() as service:
        body = service.subscription()
    return {**body, "endpoint": service_url}


@pytest.mark.parametrize("body, code", [
    ({"endpoint": "https://push.example.org/x"}, "invalid_push_subscription"),
    ({"endpoint": "https://push.example.org/x", "keys": {"p256dh": "abc", "auth": "abc"}},
     "invalid_push_subscription"),
    ("not an object", "invalid_push_subscription"),
    ({"endpoint": 5, "keys": {}}, "invalid_push_subscription"),
])
def test_a_malformed_subscription_is_a_400_and_writes_nothing(vapid_key, auth_client, body,
                                                              code):
    assert_api_error(auth_client.post(URL, body, format="json"), 400, code)
    assert not PushSubscription.objects.exists()


def test_bad_keys_are_refused(vapid_key, auth_client):
    good = _good()
    short_auth = {**good, "keys": {**good["keys"], "auth": "AAAA"}}
    not_a_point = {**good, "keys": {**good["keys"], "p256dh": "BA" + "A" * 85}}
    for body in (short_auth, not_a_point):
        assert_api_error(auth_client.post(URL, body, format="json"), 400,
                         "invalid_push_subscription")
    assert not PushSubscription.objects.exists()


@pytest.mark.parametrize("endpoint, code", [
    ("http://push.example.org/x", "push_endpoint_not_https"),
    ("https://127.0.0.1/x", "push_endpoint_forbidden_address"),
    ("https://10.1.2.3/x", "push_endpoint_forbidden_address"),
    ("https://169.254.169.254/latest", "push_endpoint_forbidden_address"),
    ("https://[::1]/x", "push_endpoint_forbidden_address"),
    ("https://localhost/x", "push_endpoint_forbidden_address"),
])
def test_a_forbidden_push_url_is_refused(vapid_key, auth_client, settings, endpoint, code):
    settings.WEBHOOK_HTTP_URLS = False  # production's rule
    settings.WEBHOOK_ALLOWED_ADDRESSES = []
    assert_api_error(auth_client.post(URL, _good(endpoint), format="json"), 400, code)
    assert not PushSubscription.objects.exists()


def test_without_a_vapid_key_push_is_unavailable(settings, auth_client, api_client):
    settings.WEBPUSH_VAPID_PRIVATE_KEY = ""
    assert_api_error(auth_client.post(URL, _good(), format="json"), 503, "push_unavailable")
    assert_api_error(api_client.get(f"{API}/push/key/"), 503, "push_unavailable")
    assert not PushSubscription.objects.exists()


def test_each_player_lists_and_removes_only_their_own(vapid_key, auth_client, make_user,
                                                      make_auth_client, api_client):
    with running_push_service() as service:
        mine = auth_client.post(URL, service.subscription(), format="json").json()
    stranger = make_auth_client(make_user())
    assert stranger.get(URL).json()["count"] == 0
    assert_api_error(stranger.delete(f"{URL}{mine['id']}/"), 404,
                     "push_subscription_not_found")
    assert_api_error(auth_client.delete(f"{URL}x/"), 404, "push_subscription_not_found")
    page = auth_client.get(URL).json()
    assert [row["id"] for row in page["results"]] == [mine["id"]]
    assert auth_client.delete(f"{URL}{mine['id']}/").status_code == 204
    assert not PushSubscription.objects.exists()
    assert api_client.get(URL).status_code == 401


def test_an_erased_account_loses_its_subscriptions(vapid_key, user, auth_client, make_user,
                                                   make_auth_client):
    from tests.conftest import DEFAULT_PASSWORD

    someone_else = make_user()
    with running_push_service() as mine, running_push_service() as theirs:
        auth_client.post(URL, mine.subscription(), format="json")
        make_auth_client(someone_else).post(URL, theirs.subscription(), format="json")
    assert auth_client.delete(f"{API}/me", {"password": DEFAULT_PASSWORD},
                              format="json").status_code == 204
    assert list(PushSubscription.objects.values_list("user_id", flat=True)) == [
        someone_else.pk]


def test_an_invitation_is_pushed_to_the_invitee(vapid_key, user, auth_client, make_user):
    from games.lobby import services as lobby

    inviter = make_user()
    with running_push_service() as browser:
        assert auth_client.post(URL, browser.subscription(), format="json").status_code == 201
        with eager_celery():
            match, _code = lobby.create_private_match(user=inviter, game="han", players=2,
                                                      invite=[user.username])
        (arrival,) = browser.wait_for(1)
    assert arrival.error == "" and arrival.message["type"] == "invitation"
    assert arrival.message["title"] == "Invitation"
    assert arrival.message["data"]["match_id"] == match.pk
    assert set(arrival.message["data"]) == {"invitation_id", "match_id", "game"}
