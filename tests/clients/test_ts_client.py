"""The TypeScript client (clients/ts) tested with node's own test runner:

- its unit tests (a small fake server: reconnection, back-off, close codes, timeouts);
- its tests against the real server (clients/ts/test/server/): the production web tier
  (uvicorn, two processes) serving config.asgi, two users with tokens; the node tests
  create matches over typed REST, play a whole Hansa match over the play socket with two
  seats, check acks after the commit, refusals with REST's codes, and a lost connection
  that resyncs exactly the missed moves and feed events.

The client is built with its committed package-lock.json (`npm ci` when needed) and tsc.
"""

from __future__ import annotations

import pytest

from tests.clients.node import ensure_installed, run
from tests.games.graphql.asgi_server import running_web_tier
from tests.games.graphql.support import make_player


@pytest.fixture(scope="module")
def built_client():
    ensure_installed()
    run(["npm", "run", "build"])
    run(["npm", "run", "build:test"])


def test_unit_tests_pass(built_client):
    result = run(["node", "--test", "build/test/unit/"], timeout=300)
    assert "# fail 0" in result.stdout, result.stdout[-4000:]


@pytest.fixture(scope="module")
def web_tier(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock(), running_web_tier(processes=2) as address:
        yield f"http://{address}"


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_the_client_against_the_real_server(built_client, web_tier, make_user):
    tokens = [make_player(make_user).token for _ in range(2)]
    result = run(["node", "--test", "--test-concurrency=1", "build/test/server/"],
                 env={"HANHANSA_URL": web_tier, "HANHANSA_TOKENS": ",".join(tokens)},
                 timeout=600)
    assert "# fail 0" in result.stdout and "# skipped 0" in result.stdout, result.stdout[-4000:]
    print(result.stdout)
