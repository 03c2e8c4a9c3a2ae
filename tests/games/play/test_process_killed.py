"""A web process killed under connected play sockets: its clients reconnect (to the other
process, or to the one uvicorn starts in its place), resubscribe with the last ply they
hold, and get exactly the moves they missed: nothing lost, nothing twice."""

from __future__ import annotations

import asyncio
import os
import signal
from pathlib import Path

import pytest
from websockets.exceptions import ConnectionClosed

from bench.rolling_restart import web_processes
from games.matches.models import Move
from tests.games.graphql.asgi_server import running_web_tier
from tests.games.graphql.support import start_match
from tests.games.play.client import PlayClient

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


@pytest.fixture
def tier(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock():
        with running_web_tier(processes=2) as address:
            yield address


def _established(pid: int, port: int) -> int:
    """How many open TCP connections on local ``port`` the process ``pid`` holds."""
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[8:-1])
    count = 0
    for table in ("tcp", "tcp6"):
        for line in Path(f"/proc/{pid}/net/{table}").read_text().splitlines()[1:]:
            fields = line.split()
            local_port = int(fields[1].rsplit(":", 1)[1], 16)
            if local_port == port and fields[3] == "01" and fields[9] in inodes:
                count += 1
    return count


def _workers_of(port: int) -> list[int]:
    """The uvicorn worker processes serving ``port`` (those its supervisor's forkserver
    forked: bench/rolling_restart.py)."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            argv = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if any(b"uvicorn" in arg for arg in argv) and str(port).encode() in argv:
            return sorted(web_processes(int(entry.name)))
    return []


class Seat:
    """One player's socket on one match, reconnecting and resyncing when it drops."""

    def __init__(self, address: str, token: str, match_id: int) -> None:
        self.address, self.token, self.match_id = address, token, match_id
        self.plies: list[int] = []  # the ply of every move this seat was shown, in order
        self.ply = 0
        self.reconnects = 0
        self.client: PlayClient | None = None
        self.last: dict = {}

    async def connect(self) -> None:
        for _attempt in range(50):
            try:
                self.client = await PlayClient.open(self.address, self.token)
                since = self.ply if self.plies or self.last else None
                self._take(await self.client.subscribe(self.match_id, since=since))
                return
            except (OSError, ConnectionClosed, TimeoutError):
                await asyncio.sleep(0.2)
        raise AssertionError("could not reconnect")

    def _take(self, body: dict) -> None:
        assert body["since"] == (self.ply if self.last else body["since"]), (body, self.ply)
        self.plies += [move["ply"] for move in body["moves"]]
        self.ply, self.last = body["ply"], body

    async def catch_up(self, ply: int) -> None:
        """Read pushes until this seat holds ``ply`` (reconnecting if the socket died)."""
        while self.ply < ply:
            try:
                self._take(await self.client.next("update", timeout=5))
            except (ConnectionClosed, TimeoutError):
                self.reconnects += 1
                await self.connect()


def test_sockets_of_a_killed_process_reconnect_and_miss_nothing(tier, players, make_user):
    from tests.games.graphql.support import make_player

    people = players + [make_player(make_user) for _ in range(5)]
    matches = [start_match("han", people[2 * index:2 * index + 2]) for index in range(4)]
    port = int(tier.rsplit(":", 1)[1])

    async def play(seats: list[Seat], plies: int) -> None:
        for _ in range(plies):
            body = seats[0].last
            mover = seats[body["to_act"][0]]
            await mover.catch_up(body["ply"])
            legal = mover.last["legal_moves"]
            place = [move for move in legal if move["type"] == "place"]
            try:
                answer = await mover.client.move(mover.match_id, (place or legal)[0],
                                                 expected_ply=body["ply"])
                assert answer["op"] == "ack", answer
            except (ConnectionClosed, TimeoutError):
                mover.reconnects += 1
                await mover.connect()  # the resync says whether the move landed
                continue
            for seat in seats:
                await seat.catch_up(body["ply"] + 1)

    async def scenario():
        tables = []
        for index, match_id in enumerate(matches):
            seats = [Seat(tier, people[2 * index + position].token, match_id)
                     for position in range(2)]
            for seat in seats:
                await seat.connect()
            tables.append(seats)
        await asyncio.gather(*(play(seats, 6) for seats in tables))
        # the worker holding the most of these sockets (the kernel spreads them unevenly)
        victim = max(_workers_of(port), key=lambda pid: _established(pid, port))
        assert _established(victim, port) > 0
        os.kill(victim, signal.SIGKILL)
        await asyncio.gather(*(play(seats, 10) for seats in tables))
        return tables

    tables = asyncio.run(scenario())
    assert sum(seat.reconnects for seats in tables for seat in seats) > 0, \
        "no socket was on the killed process"
    for seats in tables:
        logged = Move.objects.filter(match_id=seats[0].match_id).count()
        for seat in seats:
            assert seat.plies == list(range(logged)), (seat.plies, logged)
