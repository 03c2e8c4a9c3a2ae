"""``LOG_LEVEL`` holds for uvicorn's own lines too (scripts/serve_web.sh ``--log-level``):
at WARNING a websocket opened writes nothing, where uvicorn alone would write two INFO
lines for it ("[accepted]", "connection open"), whatever the operator asked for."""

from __future__ import annotations

import time

import pytest
from websockets.sync.client import connect

from tests.games.graphql.asgi_server import running_web_tier

pytestmark = pytest.mark.django_db(transaction=True)


def _log_after_one_socket(tmp_path, level: str) -> str:
    log_path = tmp_path / f"web-{level}.log"
    with running_web_tier(processes=1, extra_env={"LOG_LEVEL": level},
                          log_path=log_path) as address:
        with connect(f"ws://{address}/play/") as socket:
            socket.send('{"op": "ping", "ref": 1}')
            socket.recv(timeout=10)
        time.sleep(0.3)  # the server writes its line after the handshake
    return log_path.read_text()


@pytest.mark.parametrize(("level", "written"), [("WARNING", False), ("INFO", True)])
def test_uvicorns_lines_follow_log_level(tmp_path, level, written):
    log = _log_after_one_socket(tmp_path, level)
    assert ('"connection open"' in log) is written, log[-2000:]
