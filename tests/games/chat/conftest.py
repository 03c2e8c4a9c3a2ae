import pytest

from tests.games.graphql.asgi_server import running_web_tier
from tests.games.graphql.support import make_player


@pytest.fixture
def players(make_user):
    return [make_player(make_user) for _ in range(3)]


@pytest.fixture(scope="module")
def web_tier(django_db_setup, django_db_blocker):
    """The production web tier (uvicorn, two processes): a socket lands on either, so a
    message sent here (over REST, in this process) reaches them over Redis as in
    production."""
    with django_db_blocker.unblock():
        with running_web_tier(processes=2) as address:
            yield address
