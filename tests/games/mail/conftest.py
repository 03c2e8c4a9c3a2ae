"""Fixtures of the mail tests: a real SMTP server with Django's SMTP backend pointed at
it, and a player with a confirmed address."""

from __future__ import annotations

import pytest
from django.utils import timezone
from django_redis import get_redis_connection

from games.mail import looks
from games.mail.mailable import anyone_mailable
from games.mail.models import MailAddress
from infra.background_sends import wait_until_sent
from tests.games.mail.smtp_server import running_smtp_server
from tests.games.support import eager_celery


@pytest.fixture
def smtp(settings):
    """The inbox of a real SMTP server that Django's SMTP backend sends to (pytest-django
    puts the in-memory backend in place: this takes it away again)."""
    with running_smtp_server() as (inbox, port):
        settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
        settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", port
        settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
        settings.MAIL_SITE_URL = "http://testserver"
        inbox.port = port
        yield inbox


@pytest.fixture
def eager():
    with eager_celery():
        yield


@pytest.fixture(autouse=True)
def _no_looks_remembered():
    """Match and user ids repeat from test to test: what a reader saw is forgotten, and
    whether anyone is mailable is asked again (games/mail/mailable.py)."""
    wait_until_sent()
    looks.forget_process_memory()
    anyone_mailable.forget()
    client = get_redis_connection("default")
    for key in client.scan_iter("mail:seen:*"):
        client.delete(key)
    yield


@pytest.fixture
def verified(db):
    """Give ``user`` a confirmed address (``language``: the mails' language)."""
    def factory(user, language: str = "en") -> MailAddress:
        return MailAddress.objects.create(
            user=user, address=f"{user.username}@example.org", language=language,
            verified_at=timezone.now())
    return factory
