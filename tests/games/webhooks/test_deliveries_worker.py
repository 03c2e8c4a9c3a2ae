"""Webhooks end to end against real parts: the service's web code registers the endpoint,
a real Celery worker (tests/workers.py) sends the deliveries, a local HTTP receiver
verifies every one with the ``standardwebhooks`` package and answers 500 first: it sees
the retries (same ``webhook-id``, growing waits), the log says what happened, and an
endpoint that keeps failing is disabled (its status tells the owner why), and "send
again" works once it is enabled."""

from __future__ import annotations

import time
from collections import Counter

import pytest

from games.lobby import services as lobby
from games.matches import services as match_services
from games.webhooks.models import Delivery, Endpoint
from tests.games.matches.test_celery_worker import worker  # noqa: F401 (fixture)
from tests.games.webhooks.receiver import running_receiver
from tests.games.webhooks.support import connect, make_app, register

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.celery_worker,
              pytest.mark.slow]

#: what a payload's data may hold: ids and public facts (games/webhooks/events.py)
PUBLIC_KEYS = {"match_id", "game", "ply", "seat", "status", "invitation_id", "user_id"}


def _wait(condition, what: str, timeout: float = 60.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = condition()
        if found:
            return found
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")


def test_every_delivery_is_signed_retried_after_500s_and_logged(
        worker, make_user, make_auth_client):  # noqa: F811
    owner, ann, bob = make_user(), make_user(), make_user()
    app = make_app(owner)
    connect(ann, app)
    connect(bob, app, scope="match:play")  # no account:read: the app hears nothing of bob
    owner_client = make_auth_client(owner)
    with running_receiver(failures=2) as receiver:
        created = register(owner_client, app, receiver.url)
        assert created.status_code == 201, created.content
        receiver.secret = created.json()["secret"]
        assert receiver.secret.startswith("whsec_")
        assert "secret" not in owner_client.get(
            f"/api/v1/apps/{app.pk}/webhooks/{created.json()['id']}/").json()

        lobby.create_private_match(user=bob, game="han", players=2, invite=[ann.username])
        match_services.create_match(user=ann, game="han", players=2, bot_seats={1: "greedy"})
        # bob is seated and dealt too, but never granted account:read: nothing of his goes
        match_services.create_match(user=bob, game="han", players=2, bot_seats={1: "greedy"})
        waiting = match_services.create_match(user=ann, game="han", players=2)
        match_services.abort_match(user=ann, match_id=waiting.pk)  # ended: match_finished

        def three_each(arrivals):
            seen = Counter(arrival.message_id for arrival in arrivals)
            kinds = {arrival.payload["type"] for arrival in arrivals}
            return ({"invitation", "match_started", "your_turn", "match_finished"} <= kinds
                    and all(count >= 3 for count in seen.values()))

        arrivals = receiver.wait_for(three_each, timeout=90)

    assert all(arrival.verified for arrival in arrivals)
    by_id: dict[str, list] = {}
    for arrival in arrivals:
        by_id.setdefault(arrival.message_id, []).append(arrival)
    for tries in by_id.values():
        assert [arrival.answered for arrival in tries[:3]] == [500, 500, 200]
        first_wait, second_wait = tries[1].at - tries[0].at, tries[2].at - tries[1].at
        assert first_wait >= 0.15 and second_wait >= 0.35, (first_wait, second_wait)
        data = tries[0].payload["data"]
        assert data["user_id"] == ann.pk
        assert set(data) <= PUBLIC_KEYS, data
        if tries[0].payload["type"] == "match_finished":
            assert (data["match_id"], data["status"]) == (waiting.pk, "aborted")

    endpoint_id = created.json()["id"]
    log = owner_client.get(f"/api/v1/apps/{app.pk}/webhooks/{endpoint_id}/deliveries/")
    assert log.status_code == 200
    rows = log.json()["results"]
    assert {row["message_id"] for row in rows} == set(by_id)
    for row in rows:
        assert (row["status"], row["attempts"], row["last_status_code"]) == ("delivered", 3, 200)
        assert row["last_latency_ms"] is not None


def test_an_endpoint_that_keeps_failing_is_disabled_with_its_reason_and_sent_again(
        worker, make_user, make_auth_client):  # noqa: F811
    owner, ann = make_user(), make_user()
    app = make_app(owner)
    connect(ann, app)
    owner_client = make_auth_client(owner)
    with running_receiver(failures=1000) as receiver:
        created = register(owner_client, app, receiver.url, event_types=["match_started"])
        receiver.secret = created.json()["secret"]
        endpoint_url = f"/api/v1/apps/{app.pk}/webhooks/{created.json()['id']}/"
        match_services.create_match(user=ann, game="han", players=2, bot_seats={1: "greedy"})

        _wait(lambda: not Endpoint.objects.get().active, "the endpoint disabled")
        delivery = Delivery.objects.get()
        assert (delivery.status, delivery.attempts) == ("failed", 4)  # WEBHOOK_MAX_ATTEMPTS
        assert len(receiver.arrivals) == 4
        shown = owner_client.get(endpoint_url).json()
        assert shown["active"] is False and "4 failed attempts" in shown["disabled_reason"]
        listed = owner_client.get(f"/api/v1/apps/{app.pk}/webhooks/").json()["results"]
        assert [(row["id"], row["active"]) for row in listed] == [(created.json()["id"], False)]

        again_url = endpoint_url + f"deliveries/{delivery.pk}/send-again/"
        refused = owner_client.post(again_url)
        assert refused.status_code == 409
        assert refused.json()["error"]["code"] == "webhook_endpoint_disabled"

        assert owner_client.patch(endpoint_url, {"active": True}, format="json").json()[
            "disabled_reason"] == ""
        receiver.failures = 0
        assert owner_client.post(again_url).status_code == 202
        _wait(lambda: Delivery.objects.get().status == "delivered", "the delivery sent again")
    assert [arrival.message_id for arrival in receiver.arrivals] == [delivery.message_id] * 5
    assert receiver.arrivals[-1].answered == 200 and receiver.arrivals[-1].verified
