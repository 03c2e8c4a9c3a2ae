import pytest

from tests.games.graphql.asgi_server import running_web_tier
from tests.games.graphql.support import make_player


@pytest.fixture
def players(make_user):
    return [make_player(make_user) for _ in range(3)]


@pytest.fixture(scope="module")
def web_tier(django_db_setup, django_db_blocker):
    """The production web tier (uvicorn, two processes), started once per module: a
    socket lands on either process, so pushes cross processes as in production."""
    with django_db_blocker.unblock():
        with running_web_tier(processes=2) as address:
            yield address


@pytest.fixture
def nobody_mailable(settings):
    """This process knows, freshly, that nobody has a confirmed mail address
    (games/mail/mailable.py): a seated socket's look records nothing and asks nothing,
    so a hub can deliver without an event loop or a database."""
    from games.mail.mailable import anyone_mailable

    settings.MAIL_LOOKS_CHECK_SECONDS = 3600
    anyone_mailable.set(False)
    yield
    anyone_mailable.forget()
