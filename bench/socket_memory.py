"""Memory per open play socket, alone (issue 45): one web process (scripts/serve_web.sh,
WEB_PROCESSES=1), warmed up, then N sockets opened, each signed in (hello with a token)
and following a match (subscribe, its sync read), and held open. Printed: the web tier's
RSS and PSS (bench/process_memory.py) before and with the sockets open, and the
difference per socket. bench/load_test.py --socket gives the same figure under play
(socket_checks.py); this one takes a minute and no load client.

    .venv/bin/python bench/socket_memory.py --sockets 400 [--port 8950] [--rounds 2]

It needs the services and a migrated database (DATABASE_URL, REDIS_URL as for the tests)
and makes its own users.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bench_env import RAISED_THROTTLES  # noqa: E402
from bench.process_groups import stop_process_groups  # noqa: E402
from bench.process_memory import rollup  # noqa: E402
from bench.process_tree import tree  # noqa: E402

USERS = 20  # sockets spread over this many users (a user holds at most 10 by default)


def _http(port: int, method: str, path: str, token: str | None = None, body=None):
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}", method=method,
        data=json.dumps(body).encode() if body is not None else None,
        headers={"Content-Type": "application/json",
                 **({"Authorization": f"Token {token}"} if token else {})})
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read() or b"null")


def wait_live(port: int, web) -> None:
    """Until the web tier ``web`` (a Popen) answers /health/live on ``port``: two minutes
    at most, and not after it has ended."""
    deadline = time.monotonic() + 120
    while True:
        try:
            _http(port, "GET", "/health/live")
            return
        except OSError:
            if time.monotonic() > deadline or web.poll() is not None:
                raise SystemExit("the web tier did not start") from None
            time.sleep(0.5)


def _tokens(count: int) -> list[str]:
    """Users made directly in the database (the registration's rate limit would refuse
    this many from one address)."""
    code = (
        "import django, json, secrets; django.setup()\n"
        "from django.contrib.auth import get_user_model\n"
        "from rest_framework.authtoken.models import Token\n"
        "tokens = []\n"
        f"for n in range({count}):\n"
        "    user = get_user_model().objects.create_user('sockmem-' + secrets.token_hex(6))\n"
        "    tokens.append(Token.objects.create(user=user).key)\n"
        "print(json.dumps(tokens))\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True,
                         capture_output=True, text=True,
                         env={**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings",
                              "DEBUG": "true"})
    return json.loads(out.stdout.strip().splitlines()[-1])


def _memory(roots: list[int]) -> tuple[float, float]:
    """(RSS, PSS) in MiB of the trees."""
    rss = pss = 0.0
    for root in roots:
        for pid in tree([root]):
            found = rollup(pid) or {}
            rss += found.get("Rss", 0)
            pss += found.get("Pss", 0)
    return rss, pss


async def _open(port: int, token: str, match_id: int, held: list):
    import websockets

    ws = await websockets.connect(f"ws://127.0.0.1:{port}/play/", max_size=None)
    await ws.send(json.dumps({"op": "hello", "token": token}))
    await ws.send(json.dumps({"op": "subscribe", "match": str(match_id)}))
    while (frame := json.loads(await ws.recv()))["op"] != "sync":
        if frame["op"] == "error":
            raise RuntimeError(frame)
    held.append(ws)


async def _round(port: int, tokens: list[str], match_ids: list[int], count: int,
                 roots: list[int]) -> float:
    held: list = []
    warm: list = []
    for number in range(20):  # every code path a socket takes, loaded before measuring
        await _open(port, tokens[number % len(tokens)], match_ids[number % len(match_ids)],
                    warm)
    for ws in warm:
        await ws.close()
    await asyncio.sleep(2)
    before = _memory(roots)
    for start in range(0, count, 50):
        await asyncio.gather(*(
            _open(port, tokens[n % len(tokens)], match_ids[n % len(match_ids)], held)
            for n in range(start, min(count, start + 50))))
    await asyncio.sleep(2)
    after = _memory(roots)
    per_socket = (after[0] - before[0]) * 1024 / count
    print(f"web tier RSS {before[0]:.1f} -> {after[0]:.1f} MiB, PSS {before[1]:.1f} -> "
          f"{after[1]:.1f} MiB with {count} sockets: {per_socket:.1f} KiB RSS, "
          f"{(after[1] - before[1]) * 1024 / count:.1f} KiB PSS per open socket")
    for ws in held:
        await ws.close()
    await asyncio.sleep(3)
    return per_socket


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sockets", type=int, default=400)
    parser.add_argument("--port", type=int, default=8950)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    env = {**os.environ, "PORT": str(args.port), "WEB_PROCESSES": "1", "DEBUG": "false",
           "LOG_LEVEL": "WARNING", "SECRET_KEY": "sockmem-" + secrets.token_hex(24),
           "RECORD_SIGNING_KEYS": os.environ.get("RECORD_SIGNING_KEYS") or
           __import__("base64").b64encode(os.urandom(32)).decode(),
           "PLAY_MAX_SOCKETS_PER_ADDRESS": str(args.sockets + 100),
           "PLAY_MAX_SOCKETS_PER_USER": str(args.sockets), **RAISED_THROTTLES}
    tokens = _tokens(USERS)
    web = subprocess.Popen([str(ROOT / "scripts" / "serve_web.sh")], cwd=ROOT, env=env,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                           start_new_session=True)
    try:
        wait_live(args.port, web)
        match_ids = []
        for pair in range(USERS // 2):
            match = _http(args.port, "POST", "/api/v1/matches/", tokens[2 * pair],
                          {"game": "han", "players": 2, "take_seat": True})
            _http(args.port, "POST", f"/api/v1/matches/{match['id']}/join/",
                  tokens[2 * pair + 1], {})
            match_ids.append(match["id"])
        figures = [asyncio.run(_round(args.port, tokens, match_ids, args.sockets, [web.pid]))
                   for _ in range(args.rounds)]
        print(f"per open socket, RSS: {' / '.join(f'{f:.1f}' for f in figures)} KiB")
    finally:
        stop_process_groups([web], timeout=20)


if __name__ == "__main__":
    main()
