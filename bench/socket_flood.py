"""Does a flood of play-socket messages slow everyone else down? (issue 39)

    .venv/bin/python bench/socket_flood.py [--moves 200] [--flooders 4] [--processes 2]
    .venv/bin/python bench/socket_flood.py --no-limits     # the same with the rate off

Starts the production web tier (scripts/serve_web.sh: uvicorn, ``--processes`` worker
processes) on a free port against the development database and Redis (DATABASE_URL,
REDIS_URL; the REST rate limits raised as the other benches raise them), or uses a
running one (``--address host:port``). Two players then play ``--moves`` moves of Han
over two play sockets, one move at a time, each timed from its send to its ``ack`` at
the client, in ``--rounds`` rounds (3) of two phases, interleaved so that the machine's
own drift (other jobs) falls on both alike:

- ``quiet``: nobody else;
- ``flooded``: while ``--flooders`` anonymous sockets, each in a process of its own,
  send pings, malformed frames, unknown ops and unsubscribes as fast as they can
  (reading what they are sent), and open a new socket at once whenever theirs is closed.

It prints each phase's move-ack p50 and p95 over its rounds, the web tier's CPU (cores
busy, and CPU ms per move: what the flood adds to the server's own work, from /proc) in
each, the ratio of the flooded p50 to the quiet one (the issue's
target: within 10%, a ratio <= 1.10), and what the flooders did: frames sent per second,
sockets opened, how their sockets were closed (4429: flooding past the message rate, or
refused at once from the penalty box; docs/play.md "Limits"). ``--flooder-nice 19``
runs the flooders' own CPU (which an attacker spends on their machine) behind the
server's: on a 2-core machine shared with the flooders, their CPU is otherwise the
largest share of what they cost the server.

With ``--no-limits`` the tier runs with ``PLAY_MESSAGES_PER_SECOND=0`` (no message rate,
as before issue 39): the flood's cost without the limit, for comparison. Everything runs
on this machine, the flooders included: read the figures as this machine's.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import bench_env  # noqa: E402

bench_env.prepare()
os.environ.setdefault("SECRET_KEY", f"bench-{secrets.token_hex(16)}")

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402
from rest_framework.authtoken.models import Token  # noqa: E402
from websockets.asyncio.client import connect  # noqa: E402
from websockets.exceptions import ConnectionClosed, InvalidHandshake  # noqa: E402

from accounts.models import User  # noqa: E402
from games.matches import services as match_services  # noqa: E402

#: what a flooder sends, in turn: a ping, garbage, an unknown op, a cheap real op
FLOOD = ['{"op": "ping"}', "{not json", '{"op": "launch"}',
         '{"op": "unsubscribe", "match": "1"}']


# -- the web tier ----------------------------------------------------------------------------
def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_tier(processes: int, limits: bool) -> tuple[subprocess.Popen, str]:
    port = _free_port()
    env = {**os.environ, "HOST": "127.0.0.1", "PORT": str(port),
           "WEB_PROCESSES": str(processes), "DEBUG": "false", "LOG_LEVEL": "WARNING",
           "CELERY_TASK_ALWAYS_EAGER": "1",
           # the flooders name addresses of their own (X-Forwarded-For): the players'
           # sockets, from this machine's address, are not in the flooders' penalty box
           "NUM_PROXIES": "1",
           "UVICORN": str(Path(sys.executable).with_name("uvicorn"))}
    if not limits:
        env["PLAY_MESSAGES_PER_SECOND"] = "0"
    log = tempfile.TemporaryFile()  # noqa: SIM115 - a file, never an unread pipe
    process = subprocess.Popen([str(ROOT / "scripts" / "serve_web.sh")], cwd=ROOT, env=env,
                               stdout=subprocess.DEVNULL, stderr=log, start_new_session=True)
    address = f"127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            log.seek(0)
            raise SystemExit(f"the web tier exited: {log.read().decode()[-2000:]}")
        try:
            with urllib.request.urlopen(f"http://{address}/api/v1/health", timeout=2):
                return process, address
        except OSError:
            time.sleep(0.3)
    stop_tier(process)
    raise SystemExit("the web tier did not start in 60 s")


def stop_tier(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=5)


# -- the players -------------------------------------------------------------------------------
def players() -> list[tuple[User, str]]:
    found = []
    for index in range(2):
        user, _ = User.objects.get_or_create(username=f"flood-bench-{index}")
        found.append((user, Token.objects.get_or_create(user=user)[0].key))
    return found


def new_match(users: list[User]) -> int:
    match = match_services.create_match(user=users[0], game="han", players=2)
    match_services.join_match(user=users[1], match_id=match.pk)
    connection.close()  # a thread of its own each time
    return match.pk


class Seat:
    """One player's socket: the latest ``sync``/``update`` per match, and its move's answer."""

    def __init__(self, ws) -> None:
        self.ws = ws
        self.latest: dict[str, dict] = {}
        self.changed = asyncio.Event()
        self.answer: asyncio.Future | None = None

    async def read(self) -> None:
        async for text in self.ws:
            frame = json.loads(text)
            if frame["op"] in ("sync", "update"):
                self.latest[frame["match"]] = frame
                self.changed.set()
            elif frame["op"] in ("ack", "refused", "error") and self.answer is not None \
                    and not self.answer.done():
                self.answer.set_result((time.perf_counter(), frame))


async def _turn(seats: list[Seat], match: str, ply: int) -> tuple[Seat, dict] | None:
    """The seat to move at ``ply`` and its frame; None once the match is over."""
    while True:
        for seat in seats:
            body = seat.latest.get(match)
            if body is None or body["ply"] != ply:
                continue
            if body["status"] != "active":
                return None
            if body.get("legal_moves"):
                return seat, body
        for seat in seats:
            seat.changed.clear()
        await asyncio.wait([asyncio.ensure_future(seat.changed.wait()) for seat in seats],
                           timeout=10, return_when=asyncio.FIRST_COMPLETED)


async def play(address: str, tokens: list[str], users: list[User], moves: int) -> list[float]:
    """Move-ack times (ms) of ``moves`` moves, one at a time."""
    sockets = [await connect(f"ws://{address}/play/") for _ in tokens]
    seats = [Seat(ws) for ws in sockets]
    for ws, token in zip(sockets, tokens, strict=True):
        await ws.send(json.dumps({"op": "hello", "token": token}))
        assert json.loads(await ws.recv())["op"] == "welcome"
    readers = [asyncio.ensure_future(seat.read()) for seat in seats]
    times: list[float] = []
    match, ply = None, 0
    while len(times) < moves:
        if match is None:
            match = str(await asyncio.to_thread(new_match, users))
            for ws in sockets:
                await ws.send(json.dumps({"op": "subscribe", "match": match}))
            ply = 0
        turn = await _turn(seats, match, ply)
        if turn is None:
            match = None
            continue
        seat, body = turn
        seat.answer = asyncio.get_running_loop().create_future()
        sent = time.perf_counter()
        await seat.ws.send(json.dumps({"op": "move", "match": match, "ref": len(times),
                                       "move": body["legal_moves"][0],
                                       "expected_ply": body["ply"]}))
        answered, answer = await asyncio.wait_for(seat.answer, 20)
        if answer["op"] != "ack":
            raise SystemExit(f"move not acknowledged: {answer}")
        times.append((answered - sent) * 1000)
        ply = answer["ply"]
    for task in readers:
        task.cancel()
    for ws in sockets:
        await ws.close()
    return times


# -- the flooders ------------------------------------------------------------------------------
def flooder(address: str, number: int, go, stop, results, nice: int, spin: bool) -> None:
    os.nice(nice)
    if spin:
        results.put(_spin(go, stop))
    else:
        results.put(asyncio.run(_flood(address, f"10.66.0.{number + 1}", go, stop)))


def _spin(go, stop) -> dict:
    """The control (``--spin``): burn CPU while ``go``, without a byte to the server."""
    spun = 0
    while not stop.is_set():
        if not go.is_set():
            time.sleep(0.01)
            continue
        deadline = time.monotonic() + 0.01
        while time.monotonic() < deadline:
            spun += 1
    return {"sent": 0, "opened": 0, "closes": {}, "spun": spun}


async def _flood(address: str, source: str, go, stop) -> dict:
    """Flood while ``go`` is set, until ``stop``; a socket closed is replaced at once."""
    sent, opened, closes = 0, 0, Counter()
    while not stop.is_set():
        if not go.is_set():
            await asyncio.sleep(0.01)
            continue
        try:
            async with connect(f"ws://{address}/play/", open_timeout=5,
                               additional_headers={"X-Forwarded-For": source}) as ws:
                opened += 1
                drain = asyncio.ensure_future(_drain(ws))
                await ws.send('{"op": "hello", "token": null}')
                while True:
                    await ws.send(FLOOD[sent % len(FLOOD)])
                    sent += 1
                    if sent % 16 == 0:
                        await asyncio.sleep(0)  # let the drain read what it is sent
                        if not go.is_set():
                            break
                drain.cancel()
        except ConnectionClosed as closed:
            closes[closed.rcvd.code if closed.rcvd else "no close frame"] += 1
        except (OSError, TimeoutError, InvalidHandshake) as exc:
            closes[type(exc).__name__] += 1
            await asyncio.sleep(0.05)
    return {"sent": sent, "opened": opened, "closes": dict(closes)}


async def _drain(ws) -> None:
    try:
        async for _ in ws:
            pass
    except ConnectionClosed:
        pass


# -- the server's CPU --------------------------------------------------------------------------
def cpu_seconds(root: int) -> float:
    """User + system CPU of ``root`` and every process under it (the web tier)."""
    parents: dict[int, list[int]] = {}
    stats: dict[int, list[str]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as handle:
                    fields = handle.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            stats[int(entry)] = fields
            parents.setdefault(int(fields[1]), []).append(int(entry))
    total, todo = 0, [root]
    while todo:
        pid = todo.pop()
        if pid in stats:
            total += int(stats[pid][11]) + int(stats[pid][12])  # utime, stime
        todo.extend(parents.get(pid, []))
    return total / os.sysconf("SC_CLK_TCK")


# -- the run -----------------------------------------------------------------------------------
def _figures(name: str, times: list[float], cpu: float | None, wall: float) -> float:
    p50 = statistics.median(times)
    p95 = statistics.quantiles(times, n=20)[-1]
    server = (f", web tier CPU {cpu / wall:.2f} cores, {cpu * 1000 / len(times):.2f} ms "
              f"per move") if cpu is not None else ""
    print(f"{name:>8}: {len(times)} moves, move-ack p50 {p50:.2f} ms, p95 {p95:.2f} ms"
          f"{server}")
    return p50


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=60, help="moves per phase and round")
    parser.add_argument("--rounds", type=int, default=3,
                        help="rounds of a quiet phase then a flooded one")
    parser.add_argument("--flooders", type=int, default=4)
    parser.add_argument("--processes", type=int, default=2, help="web processes")
    parser.add_argument("--address", help="a running server (host:port) instead")
    parser.add_argument("--flooder-nice", type=int, default=0,
                        help="run the flooders at this niceness (19: their own CPU, the "
                             "attacker's machine in an attack, yields to the server's)")
    parser.add_argument("--spin", action="store_true",
                        help="the control: the flooder processes only burn CPU, sending "
                             "nothing (what the machine's cores alone cost the moves)")
    parser.add_argument("--no-limits", action="store_true",
                        help="start the tier without the message rate (as before issue 39)")
    args = parser.parse_args()

    found = players()
    users, tokens = [user for user, _ in found], [token for _, token in found]
    process = None
    if args.address:
        address = args.address
    else:
        process, address = start_tier(args.processes, limits=not args.no_limits)
    times = {"quiet": [], "flooded": []}
    cpu = {"quiet": 0.0, "flooded": 0.0}
    wall = {"quiet": 0.0, "flooded": 0.0}
    # forked, not spawned: a spawned flooder imports Django again (seconds of CPU that
    # would land in a flooded phase); a forked one only runs its own loop
    fork = multiprocessing.get_context("fork")
    results, go, stop = fork.Queue(), fork.Event(), fork.Event()
    flooders = [fork.Process(target=flooder, args=(address, number, go, stop, results,
                                                   args.flooder_nice, args.spin))
                for number in range(args.flooders)]
    try:
        for each in flooders:
            each.start()
        asyncio.run(play(address, tokens, users, 20))  # warm-up: every process, every path
        for _ in range(args.rounds):
            for phase in ("quiet", "flooded"):
                if phase == "flooded":
                    go.set()
                    time.sleep(1)  # the flood under way
                before = cpu_seconds(process.pid) if process else 0.0
                started = time.monotonic()
                times[phase] += asyncio.run(play(address, tokens, users, args.moves))
                wall[phase] += time.monotonic() - started
                cpu[phase] += (cpu_seconds(process.pid) if process else 0.0) - before
                go.clear()
                time.sleep(0.5)  # the flooders stopped
        stop.set()
        reports = []
        for _ in flooders:
            try:
                reports.append(results.get(timeout=15))
            except Exception:  # noqa: BLE001 - a flooder that did not report
                pass
    finally:
        stop.set()
        for each in flooders:
            each.join(timeout=5)
            if each.is_alive():
                each.kill()
        if process is not None:
            stop_tier(process)

    print(f"web tier: {args.processes} processes, message rate "
          f"{'off (--no-limits)' if args.no_limits else 'on'}; {args.flooders} "
          f"{'spinners sending nothing (--spin)' if args.spin else 'flooders'} "
          f"(nice {args.flooder_nice}); {args.rounds} rounds of {args.moves} quiet moves "
          f"then {args.moves} flooded")
    quiet = _figures("quiet", times["quiet"], cpu["quiet"] if process else None,
                     wall["quiet"])
    flooded = _figures("flooded", times["flooded"], cpu["flooded"] if process else None,
                       wall["flooded"])
    print(f"flooded p50 / quiet p50: {flooded / quiet:.3f} (target <= 1.10)")
    sent = sum(report["sent"] for report in reports)
    closes = sum((Counter(report["closes"]) for report in reports), Counter())
    print(f"flooders ({len(reports)} reported): {sent} frames sent in "
          f"{wall['flooded']:.1f} s of flooded phases "
          f"({sent / max(wall['flooded'], 0.001):.0f}/s), "
          f"{sum(r['opened'] for r in reports)} sockets opened, closed by: {dict(closes)}")


if __name__ == "__main__":
    main()
