"""E-mail end to end on real parts: a match is dealt by the service's code, the
notification fan-out (games/notifications/fanout.py) hands "your turn" to
``games.mail.tasks.mail_event`` through the broker, a real Celery worker (tests/workers.py)
records it, its sweep sends it once the wait is over, over SMTP to a real aiosmtpd server;
the player who was not to act, and has no confirmed address, gets nothing."""

from __future__ import annotations

import time

import pytest
from django.utils import timezone

from games.dispatch import enqueue
from games.mail.models import Mail, MailAddress, MailStatus
from games.matches import selectors
from games.matches import services as match_services
from tests.games.mail.smtp_server import running_smtp_server
from tests.workers import purge_test_queue, start_worker, stop_worker, worker_log

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.celery_worker,
              pytest.mark.slow]


def _wait(condition, what: str, process, timeout: float = 60.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = condition()
        if found:
            return found
        if process.poll() is not None:
            raise AssertionError("the worker died:\n" + worker_log(process))
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}:\n" + worker_log(process))


def test_your_turn_goes_from_the_deal_to_the_inbox(tmp_path, make_user):
    ann, bob = make_user(), make_user()
    for user in (ann, bob):
        MailAddress.objects.create(user=user, address=f"{user.username}@example.org",
                                   verified_at=timezone.now())
    with running_smtp_server() as (inbox, port):
        purge_test_queue()
        process = start_worker(tmp_path / "worker.log", "test-mail", env={
            "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "EMAIL_HOST": "127.0.0.1", "EMAIL_PORT": str(port),
            "MAIL_YOUR_TURN_AFTER_MINUTES": "0.02", "MAIL_SITE_URL": "http://testserver"})
        try:
            match = match_services.create_match(user=ann, game="han", players=2)
            match_services.join_match(user=bob, match_id=match.pk)  # dealt: someone's turn
            match = selectors.get_match(match.pk)
            mover_id = match.seats.get(position=match.to_act[0]).user_id
            row = _wait(lambda: Mail.objects.filter(event_type="your_turn").first(),
                        "the your-turn mail recorded", process)
            assert row.user_id == mover_id
            assert row.data == {"match_id": match.pk, "game": "han", "ply": match.ply,
                                "seat": match.to_act[0]}
            time.sleep(1.5)  # the wait (0.02 minutes) is over: the sweep sends it
            enqueue("games.mail.tasks.send_due")
            (mail,) = inbox.wait_for(1, timeout=60)
            mover = ann if mover_id == ann.pk else bob
            assert mail.recipients == [f"{mover.username}@example.org"]
            assert f"match {match.pk}" in mail.text and f"match {match.pk}" in mail.html
            enqueue("games.mail.tasks.send_due")  # again: nothing more
            _wait(lambda: Mail.objects.get(pk=row.pk).status == MailStatus.SENT, "sent",
                  process)
            time.sleep(1.0)
            assert len(inbox.received) == 1
        finally:
            stop_worker(process)
