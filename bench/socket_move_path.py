"""A socket move's critical path at a human pace (issue 45): many two-player Han matches,
each seat a person on a play socket of their own who, when the pushed ``legal_moves`` say
it must act, thinks ``--think`` seconds and sends one of them with ``expected_ply``. Timed
per move, on the mover's socket: from sending ``move`` to its ``ack``, and to the mover's
own ``update`` of the ply it made (the peer bench's "move resolves": the mover's socket
holds the new state). Printed: p50 / p95 / p99 of both, and how many moves. A finished
match is replaced by a new one for the same two people.

    .venv/bin/python bench/socket_move_path.py [--tree DIR] [--matches 60] [--seconds 60]
        [--think 1.5 2.5] [--web-processes 2] [--port 8960]

``--tree`` serves another checkout of the service (the same database) for an A/B: e.g. a
``git worktree`` of the commit before a change. It needs the services and a migrated
database (DATABASE_URL, REDIS_URL as for the tests) and makes its own users. Scoring runs
inline (CELERY_TASK_ALWAYS_EAGER), so no worker is needed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import secrets
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bench_env import RAISED_THROTTLES  # noqa: E402
from bench.percentiles import percentile  # noqa: E402
from bench.process_groups import stop_process_groups  # noqa: E402
from bench.socket_memory import _http, _tokens, wait_live  # noqa: E402


def _percentiles(values: list[float]) -> str:
    if len(values) < 2:
        return "-"
    p50, p95, p99 = (percentile(values, share) for share in (0.5, 0.95, 0.99))
    return f"{p50:.2f} / {p95:.2f} / {p99:.2f} ms"


class Seat:
    """One person's socket: moves when its seat must act, times each move."""

    def __init__(self, ws, think: tuple[float, float], timings: dict) -> None:
        self.ws, self.think, self.timings = ws, think, timings
        self.match: str | None = None
        self.sent_at: float | None = None
        self.acked_ply: int | None = None
        self.ended = asyncio.Event()

    async def play(self, deadline: float, measuring_from: float) -> None:
        mover: asyncio.Task | None = None
        while time.monotonic() < deadline:
            try:
                frame = json.loads(await asyncio.wait_for(self.ws.recv(), 5))
            except TimeoutError:
                continue
            now = time.perf_counter()
            op = frame["op"]
            if op == "ack" and self.sent_at is not None:
                self.acked_ply = frame["ply"]
                if time.monotonic() >= measuring_from:
                    self.timings["ack"].append((now - self.sent_at) * 1000)
            elif op in ("refused", "error"):
                self.timings["refused"].append(frame)
                self.sent_at = self.acked_ply = None
            elif op in ("sync", "update") and frame.get("match") == self.match:
                if self.acked_ply is not None and frame["ply"] >= self.acked_ply:
                    if time.monotonic() >= measuring_from:
                        self.timings["update"].append((now - self.sent_at) * 1000)
                    self.sent_at = self.acked_ply = None
                if frame["status"] != "active":
                    self.ended.set()
                elif frame.get("legal_moves") and self.sent_at is None and (
                        mover is None or mover.done()):
                    mover = asyncio.create_task(self._move(frame))
        if mover is not None:
            mover.cancel()

    async def _move(self, frame: dict) -> None:
        await asyncio.sleep(random.uniform(*self.think))
        self.sent_at = time.perf_counter()
        await self.ws.send(json.dumps({"op": "move", "match": self.match,
                                       "move": random.choice(frame["legal_moves"]),
                                       "expected_ply": frame["ply"]}))


async def _pair(port: int, tokens: tuple[str, str], args, timings: dict, deadline: float,
                measuring_from: float) -> None:
    import websockets

    seats = []
    for token in tokens:
        ws = await websockets.connect(f"ws://127.0.0.1:{port}/play/", max_size=None)
        await ws.send(json.dumps({"op": "hello", "token": token}))
        seats.append(Seat(ws, tuple(args.think), timings))
    players = [asyncio.create_task(seat.play(deadline, measuring_from)) for seat in seats]
    while time.monotonic() < deadline:
        match = await asyncio.to_thread(_http, port, "POST", "/api/v1/matches/", tokens[0],
                                        {"game": "han", "players": 2, "take_seat": True})
        await asyncio.to_thread(_http, port, "POST", f"/api/v1/matches/{match['id']}/join/",
                                tokens[1], {})
        for seat in seats:
            seat.match, seat.sent_at, seat.acked_ply = str(match["id"]), None, None
            seat.ended.clear()
            await seat.ws.send(json.dumps({"op": "subscribe", "match": seat.match}))
        ended = [asyncio.create_task(seat.ended.wait()) for seat in seats]
        await asyncio.wait(ended, timeout=max(0.1, deadline - time.monotonic()),
                           return_when=asyncio.FIRST_COMPLETED)
        for waiter in ended:
            waiter.cancel()
        for seat in seats:
            await seat.ws.send(json.dumps({"op": "unsubscribe", "match": seat.match}))
    await asyncio.gather(*players)
    for seat in seats:
        await seat.ws.close()


async def _run(port: int, tokens: list[str], args) -> dict:
    timings = {"ack": [], "update": [], "refused": []}
    start = time.monotonic()
    deadline = start + args.warmup + args.seconds
    pairs = [(tokens[2 * n], tokens[2 * n + 1]) for n in range(args.matches)]
    await asyncio.gather(*(_pair(port, pair, args, timings, deadline, start + args.warmup)
                           for pair in pairs))
    return timings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tree", type=Path, default=ROOT)
    parser.add_argument("--matches", type=int, default=60)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--warmup", type=float, default=10)
    parser.add_argument("--think", type=float, nargs=2, default=(1.5, 2.5))
    parser.add_argument("--web-processes", type=int, default=2)
    parser.add_argument("--port", type=int, default=8960)
    args = parser.parse_args()
    tree = args.tree.resolve()
    env = {**os.environ, "PORT": str(args.port), "WEB_PROCESSES": str(args.web_processes),
           "DEBUG": "false", "LOG_LEVEL": "WARNING", "WEB_ACCESS_LOG": "false",
           "CELERY_TASK_ALWAYS_EAGER": "1", "PYTHONPATH": str(tree),
           "SECRET_KEY": "movepath-" + secrets.token_hex(24),
           "RECORD_SIGNING_KEYS": os.environ.get("RECORD_SIGNING_KEYS") or
           __import__("base64").b64encode(os.urandom(32)).decode(),
           "PLAY_MAX_SOCKETS_PER_ADDRESS": str(4 * args.matches + 100), **RAISED_THROTTLES}
    tokens = _tokens(2 * args.matches)
    web = subprocess.Popen([str(tree / "scripts" / "serve_web.sh")], cwd=tree, env=env,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                           start_new_session=True)
    try:
        wait_live(args.port, web)
        timings = asyncio.run(_run(args.port, tokens, args))
    finally:
        stop_process_groups([web], timeout=20)
    print(f"tree {tree.name}: {len(timings['update'])} moves in {args.seconds:.0f} s "
          f"({args.matches} matches, think {args.think[0]}-{args.think[1]} s, "
          f"{args.web_processes} web processes), {len(timings['refused'])} refused")
    print(f"  move -> ack p50 / p95 / p99:         {_percentiles(timings['ack'])}")
    print(f"  move -> own update p50 / p95 / p99:  {_percentiles(timings['update'])}")
    for refusal in timings["refused"][:3]:
        print("  refused:", json.dumps(refusal)[:200])


if __name__ == "__main__":
    main()
