"""The endpoints' REST API: bad input is a 4xx with a stable code and writes nothing; only
the app's owner, with a first-party credential, sees or changes its endpoints; the secret
is shown once; an attempt feeds the metrics (counted in this process's registry)."""

from __future__ import annotations

import pytest
from prometheus_client import REGISTRY
from rest_framework.test import APIClient

from games.webhooks import services
from games.webhooks.models import Delivery, Endpoint
from tests.games.webhooks.receiver import running_receiver
from tests.games.webhooks.support import make_app, register

pytestmark = pytest.mark.django_db

GOOD_URL = "https://203.0.113.7/hooks"  # TEST-NET-3: not global, so refused below


@pytest.mark.parametrize("body, code", [
    ({"url": "not a url", "event_types": ["your_turn"]}, "invalid_input"),
    ({"url": "https://hooks.example/x", "event_types": []}, "invalid_input"),
    ({"url": "https://hooks.example/x", "event_types": ["moon_landing"]}, "invalid_input"),
    ({"url": "https://hooks.example/x"}, "invalid_input"),
    ({"url": "ftp://hooks.example/x", "event_types": ["your_turn"]}, "webhook_url_not_https"),
    ({"url": "https://user:pw@hooks.example/x", "event_types": ["your_turn"]},
     "webhook_url_refused"),
    ({"url": GOOD_URL, "event_types": ["your_turn"]}, "webhook_url_forbidden_address"),
])
def test_bad_input_is_a_400_with_its_code_and_writes_nothing(body, code, user, auth_client,
                                                             settings):
    settings.WEBHOOK_ALLOWED_ADDRESSES = []
    response = auth_client.post(f"/api/v1/apps/{make_app(user).pk}/webhooks/", body,
                                format="json")
    assert response.status_code == 400, response.content
    assert response.json()["error"]["code"] == code
    assert not Endpoint.objects.exists()


def test_only_the_owner_sees_and_changes_its_endpoints(user, auth_client, make_user,
                                                       make_auth_client):
    app = make_app(user)
    created = register(auth_client, app, "http://127.0.0.1:9/hooks")
    assert created.status_code == 201
    endpoint_url = f"/api/v1/apps/{app.pk}/webhooks/{created.json()['id']}/"
    stranger = make_auth_client(make_user())
    assert stranger.get(endpoint_url).status_code == 404
    assert stranger.get(f"/api/v1/apps/{app.pk}/webhooks/").status_code == 404
    assert stranger.delete(endpoint_url).status_code == 404
    assert auth_client.get(f"/api/v1/apps/{app.pk}/webhooks/x/").status_code == 404
    assert Endpoint.objects.count() == 1

    page = auth_client.get(f"/api/v1/apps/{app.pk}/webhooks/").json()
    assert page["count"] == 1 and "secret" not in page["results"][0]
    refused = auth_client.patch(endpoint_url, {"event_types": ["nope"]}, format="json")
    assert refused.status_code == 400
    assert Endpoint.objects.get().event_types == sorted(
        ["your_turn", "match_started", "match_finished", "invitation"])
    assert auth_client.delete(endpoint_url).status_code == 204
    assert not Endpoint.objects.exists()


def test_a_personal_token_may_not_register_endpoints(user, auth_client):
    """A token (a personal one here, an app's alike) would manage the owner's endpoints
    and see their secrets: first-party credentials only, as for the app itself."""
    app = make_app(user)
    key = auth_client.post("/api/v1/account/tokens/", {"name": "narrow",
                                                       "scopes": ["account:write"]},
                           format="json").json()["token"]
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {key}")
    response = register(client, app, "http://127.0.0.1:9/hooks")
    assert response.status_code == 403, response.content
    assert response.json()["error"]["code"] == "first_party_only"
    assert not Endpoint.objects.exists()


def _sample(name: str, **labels) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


def test_an_attempt_counts_in_the_metrics(user):
    before = {"success": _sample("webhook_attempts_total", outcome="success"),
              "delivered": _sample("webhook_deliveries_total", outcome="delivered"),
              "latency": _sample("webhook_attempt_seconds_count")}
    with running_receiver() as receiver:
        endpoint = services.create_endpoint(make_app(user), url=receiver.url,
                                            event_types=["your_turn"])
        receiver.secret = endpoint.secret
        delivery = Delivery.objects.create(endpoint=endpoint, message_id="msg_metrics",
                                           event_type="your_turn", payload={"type": "x"})
        assert services.attempt(delivery.pk) is None
    assert [arrival.verified for arrival in receiver.arrivals] == [True]
    assert _sample("webhook_attempts_total", outcome="success") == before["success"] + 1
    assert _sample("webhook_deliveries_total", outcome="delivered") == before["delivered"] + 1
    assert _sample("webhook_attempt_seconds_count") == before["latency"] + 1
