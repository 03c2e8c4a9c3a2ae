"""The bench's instrument of a socket move's phases (infra/observability/move_phases.py,
bench/move_phases_report.py), against the production web tier with the real PostgreSQL
and Redis: on, every accepted move is recorded once with each phase in the order of the
move's path, and the phases add up to less than the mover's own round trip (the client's
clock, an independent reader); off (the default), nothing is written."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bench.move_phases_report import ORDER, read_moves
from tests.games.graphql.asgi_server import running_web_tier
from tests.games.graphql.support import start_match
from tests.games.play.client import PlayClient

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

MOVES = 4
ROOT = Path(__file__).resolve().parents[3]


def _pick(moves: list[dict]) -> dict:
    place = [move for move in moves if move["type"] == "place"]
    return (place or moves)[0]


async def _play(address: str, players, match_id: int) -> list[float]:
    """MOVES accepted moves, alternating as the match asks; each one's round trip (ms)
    from sending ``move`` to the mover's own ``update``."""
    clients = [await PlayClient.open(address, player.token) for player in players]
    views = [await client.subscribe(match_id) for client in clients]
    took = []
    for _ in range(MOVES):
        seat = views[0]["to_act"][0]
        started = time.perf_counter()
        ack = await clients[seat].move(match_id, _pick(views[seat]["legal_moves"]),
                                       expected_ply=views[seat]["ply"])
        assert ack["op"] == "ack", ack
        views = [await client.next("update") for client in clients]
        took.append((time.perf_counter() - started) * 1000)
    for client in clients:
        await client.close()
    return took


def test_every_accepted_move_is_recorded_with_its_phases_in_order(players, tmp_path):
    match_id = start_match("han", players[:2])
    with running_web_tier(processes=1, extra_env={"MOVE_PHASES_DIR": str(tmp_path),
                                                  "MOVE_PHASES_FLUSH_EVERY": "1"}) as address:
        took = asyncio.run(_play(address, players[:2], match_id))
    moves = read_moves(tmp_path)
    assert len(moves) == MOVES
    for move, round_trip in zip(sorted(moves, key=lambda move: move["at"]), took, strict=True):
        assert list(move["phases"]) == list(ORDER)  # every mark, in the path's order
        assert all(ms >= 0 for ms in move["phases"].values()), move
        assert sum(move["phases"].values()) < round_trip


def test_off_by_default_nothing_is_kept_or_written(tmp_path):
    """Without MOVE_PHASES_DIR a process keeps no marks and writes no file, wherever it
    runs, however many moves it records."""
    probe = ("from infra.observability import move_phases as p\n"
             "p.begin(); p.mark('locked_and_read'); marks = p.finish()\n"
             "for _ in range(300): p.record('play_move', 0.0, [('start', 0.5)], 1.0)\n"
             "print(p.ON, marks)")
    env = {key: value for key, value in os.environ.items() if not key.startswith("MOVE_PHASES")}
    env["PYTHONPATH"] = str(ROOT)
    out = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, env=env,
                         capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "None"]
    assert not list(tmp_path.iterdir())
