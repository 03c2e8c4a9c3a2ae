"""Push through a real Celery worker (a subprocess, tests/workers.py): the web process
commits a match's start and sends one ``fan_out`` task per event; the worker asks the
preferences and pushes; the local push service decrypts what arrives. And the move's
path: while nobody can be reached, a change sends no task at all."""

from __future__ import annotations

import pytest
from django.utils import timezone
from py_vapid import Vapid
from py_vapid.utils import b64urlencode

from games.mail.models import MailAddress
from games.matches import services as match_services
from games.notifications import fanout
from tests.games.notifications.push_receiver import running_push_service
from tests.games.support import API, queued_tasks
from tests.workers import start_worker, stop_worker

pytestmark = [pytest.mark.django_db(transaction=True)]


def _key() -> str:
    key = Vapid()
    key.generate_keys()
    return b64urlencode(key.private_key.private_numbers().private_value.to_bytes(32, "big"))


@pytest.mark.celery_worker
@pytest.mark.slow
def test_a_worker_pushes_the_start_and_the_turn(settings, tmp_path, make_user,
                                                 make_auth_client):
    settings.WEBPUSH_VAPID_PRIVATE_KEY = _key()
    ann, bob = make_user(), make_user()
    process = start_worker(tmp_path / "worker.log", "test-push",
                           env={"WEBPUSH_VAPID_PRIVATE_KEY": settings.WEBPUSH_VAPID_PRIVATE_KEY})
    try:
        with running_push_service() as browser:
            client = make_auth_client(bob)
            client.patch(f"{API}/me/notification-preferences/",
                         {"push": {"match_started": True}}, format="json")
            assert client.post(f"{API}/me/push-subscriptions/", browser.subscription(),
                               format="json").status_code == 201
            match = match_services.create_match(user=ann, game="hansa", players=2)
            match_services.join_match(user=bob, match_id=match.pk)
            match.refresh_from_db()
            bob_acts = 1 in match.to_act  # bob joined into seat 1
            arrivals = browser.wait_for(2 if bob_acts else 1, timeout=60)
    finally:
        stop_worker(process)
    types = sorted(arrival.message["type"] for arrival in arrivals)
    assert types == (["match_started", "your_turn"] if bob_acts else ["match_started"])
    assert all(arrival.error == "" for arrival in arrivals)


def test_no_task_while_nobody_can_be_reached(queues, make_user, settings):
    settings.NOTIFICATION_REACH_CHECK_SECONDS = 0
    settings.WEBHOOK_ENDPOINTS_CHECK_SECONDS = 0
    ann, bob = make_user(), make_user()
    assert not fanout.anyone_reachable()
    match = match_services.create_match(user=ann, game="hansa", players=2)
    match_services.join_match(user=bob, match_id=match.pk)
    assert not [name for name, _args in queued_tasks() if name == fanout.FAN_OUT_TASK]
    # one confirmed mail address among the users (games/mail/: the runtime role may not
    # write accounts_user.email): the next change sends its events to the fan-out
    MailAddress.objects.create(user=bob, address="bob@example.org",
                               verified_at=timezone.now())
    other = match_services.create_match(user=ann, game="hansa", players=2)
    match_services.join_match(user=bob, match_id=other.pk)
    sent = [args for name, args in queued_tasks() if name == fanout.FAN_OUT_TASK]
    assert ["match_started", [ann.pk, bob.pk], {"match_id": other.pk, "game": "hansa"}] in sent
