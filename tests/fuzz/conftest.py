"""The server the fuzzers attack: the production web tier (scripts/serve_web.sh, one
uvicorn process) on a free port, against the test database, its log kept so a test can
check that no request raised in the server. Per-socket message limits (issue 39) are
raised far out of reach: a fuzzer sends hundreds of frames on one socket on purpose."""

from __future__ import annotations

import pytest

from tests.games.graphql.asgi_server import running_web_tier
from tests.games.graphql.support import make_player, start_match

#: far above what one fuzzing socket sends; harmless where the limits do not exist yet
RAISED_LIMITS = {"PLAY_MESSAGES_PER_SECOND": "1000000", "PLAY_MESSAGE_BURST": "1000000",
                 "PLAY_MAX_SOCKETS_PER_USER": "0", "PLAY_MAX_SOCKETS_PER_ADDRESS": "0"}


class FuzzServer:
    def __init__(self, address: str, log_path) -> None:
        self.address, self.log_path = address, log_path
        self._offset = 0

    def mark_log(self) -> None:
        """From here on is this test's part of the log."""
        self._offset = self.log_path.stat().st_size if self.log_path.exists() else 0

    def log_since_mark(self) -> str:
        with open(self.log_path, "rb") as log:
            log.seek(self._offset)
            return log.read().decode(errors="replace")


@pytest.fixture(scope="module")
def fuzz_server(django_db_setup, django_db_blocker, tmp_path_factory):
    log_path = tmp_path_factory.mktemp("fuzz") / "server.log"
    with django_db_blocker.unblock():
        with running_web_tier(processes=1, extra_env=RAISED_LIMITS,
                              log_path=log_path) as address:
            yield FuzzServer(address, log_path)


@pytest.fixture
def fuzz_match(make_user):
    """Two players (the first fuzzes) and an active match between them."""
    players = [make_player(make_user) for _ in range(2)]
    return players, start_match("han", players)
