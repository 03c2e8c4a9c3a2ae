"""A new channel is reachable at once in the process that made it (review finding: a
confirmed mail address waited for the cached "nobody reachable" to expire, up to
NOTIFICATION_REACH_CHECK_SECONDS, before its owner's events reached the fan-out; a push
subscription did too). Here the period is an hour: only the mark can make the next
match's events go to the fan-out."""

from __future__ import annotations

import pytest
from django.test import Client

from games.mail import services as mail_services
from games.mail import tokens
from games.matches import services as match_services
from games.notifications import fanout
from tests.games.notifications.push_receiver import running_push_service
from tests.games.notifications.test_push import vapid_key  # noqa: F401 (fixture)
from tests.games.support import API, queued_tasks

pytestmark = pytest.mark.django_db(transaction=True)


def _started_events(ann, bob) -> list:
    match = match_services.create_match(user=ann, game="hansa", players=2)
    match_services.join_match(user=bob, match_id=match.pk)
    return [args for name, args in queued_tasks()
            if name == fanout.FAN_OUT_TASK and args[2]["match_id"] == match.pk]


@pytest.fixture
def nobody_reachable_for_an_hour(settings):
    settings.NOTIFICATION_REACH_CHECK_SECONDS = 3600
    assert fanout.anyone_reachable.refresh() is False
    yield
    fanout.anyone_reachable.forget()


def test_confirming_an_address_makes_its_owner_reachable_at_once(
        queues, nobody_reachable_for_an_hour, make_user):
    ann, bob = make_user(), make_user()
    assert _started_events(ann, bob) == []  # nobody reachable: no task
    mail_services.set_address(bob, "bob@example.org", "en")
    assert _started_events(ann, bob) == []  # unconfirmed: still nobody
    token = tokens.confirmation_token(bob.pk, "bob@example.org")
    assert Client().post(f"/mail/confirm/{token}/").status_code == 200  # the mail's page
    assert [args[0] for args in _started_events(ann, bob)][:1] == ["match_started"]


def test_subscribing_a_browser_makes_its_owner_reachable_at_once(
        queues, nobody_reachable_for_an_hour, vapid_key, make_user,  # noqa: F811
        make_auth_client):
    ann, bob = make_user(), make_user()
    with running_push_service() as browser:
        assert make_auth_client(bob).post(f"{API}/me/push-subscriptions/",
                                          browser.subscription(),
                                          format="json").status_code == 201
    assert [args[0] for args in _started_events(ann, bob)][:1] == ["match_started"]
