"""The health check while sixteen clients send an aliased GraphQL query (issue 39).

    eval "$(scripts/services.sh env)"    # with your PG_PORT and REDIS_PORT
    .venv/bin/python bench/graphql_alias_flood.py [--clients 16] [--seconds 8] \\
        [--query records3] [--keep]

The outside report sent three aliases of ``matchRecord``, priced under the threshold
that gives an operation a concurrency slot (games/graphql/concurrency.py), from sixteen
clients: nothing refused them, each ran two to three times its estimate, and
``/api/v1/health`` went from 5 ms to 1.1-1.6 s. This bench replays that against the
production web tier (scripts/serve_web.sh, two processes of two threads, the pause after
slotted operations as in production) with the rate limits out of reach, as a
distributed attack from many addresses would have them, and prints the health check's
latency idle and under the flood, with what the clients were answered.

``--query``: ``records3`` (the report's: three aliases of the record of the longest
finished match), ``under`` (about the costliest operation under the slot threshold,
built from replays and views: what a client may send without a slot) or a GraphQL
document.
The figures of a run are in docs/capacity.md; this is a bench, not a test: the latency
depends on the machine's load.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT))  # tests/health_monitor.py, shared with the abuse tests
from bench_env import prepare  # noqa: E402 - bench/ is the script folder

prepare()

import django  # noqa: E402

django.setup()

import graphql_cost_data as cost_data  # noqa: E402
from django.conf import settings  # noqa: E402
from graphql import parse  # noqa: E402
from rest_framework.authtoken.models import Token  # noqa: E402

from games.graphql.cost_estimate import estimate  # noqa: E402
from games.graphql.field_weights import UNIT_MS  # noqa: E402
from games.graphql.schema import schema  # noqa: E402
from tests.health_monitor import health_ms  # noqa: E402

#: the rate limits out of reach, the pause after slotted operations as in production
SERVER_ENV = {**{f"THROTTLE_{scope}": "1000000/min"
                 for scope in ("ANON_READ", "USER_READ", "MOVE", "AUTH")},
              "GRAPHQL_EXPENSIVE_SHARE": "0.5", "WEB_PROCESSES": "2", "DEBUG": "false",
              "LOG_LEVEL": "WARNING", "CELERY_TASK_ALWAYS_EAGER": "1"}


def aliases(count: int, selection: str) -> str:
    return "{ " + " ".join(f"a{i}: {selection}" for i in range(count)) + " }"


def together(selections: list[str]) -> str:
    return "{ " + " ".join(f"a{i}: {s}" for i, s in enumerate(selections)) + " }"


def cost_of(query: str) -> int:
    return estimate(schema._schema, parse(query), None, None).cost


def the_query(name: str, data: cost_data.CostData) -> str:
    if name == "records3":
        return aliases(3, f"matchRecord(matchId: {data.longest})")
    if name == "under":  # the fillers' aliases, costliest first, just under a slot
        fillers = (f"replay(matchId: {data.longest}) {{ ply }}",
                   f"match(id: {data.longest}) {{ id view }}", "me { username }")
        chosen: list[str] = []
        for filler in fillers:
            while (len(chosen) < 20
                   and cost_of(together([*chosen, filler])) < settings.GRAPHQL_EXPENSIVE_COST):
                chosen.append(filler)
        return together(chosen)
    return name


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def request(address: str, path: str, body: dict | None = None,
            token: str | None = None) -> tuple[int, dict]:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Token {token}"
    sent = urllib.request.Request(f"http://{address}{path}", headers=headers,
                                  data=json.dumps(body).encode() if body else None,
                                  method="POST" if body else "GET")
    try:
        with urllib.request.urlopen(sent, timeout=30) as response:
            return response.status, json.loads(response.read() or b"{}")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"{}")


def start_server(log) -> tuple[subprocess.Popen, str]:
    port = free_port()
    env = {**os.environ, **SERVER_ENV, "HOST": "127.0.0.1", "PORT": str(port),
           "SECRET_KEY": secrets.token_urlsafe(32),
           "UVICORN": str(Path(sys.executable).with_name("uvicorn"))}
    server = subprocess.Popen([str(ROOT / "scripts" / "serve_web.sh")], cwd=ROOT, env=env,
                              stdout=subprocess.DEVNULL, stderr=log, start_new_session=True)
    address = f"127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if server.poll() is not None:
            log.seek(0)
            raise RuntimeError(log.read().decode(errors="replace")[-2000:])
        try:
            if request(address, "/api/v1/health")[0] == 200:
                return server, address
        except OSError:
            pass
        time.sleep(0.3)
    stop_server(server)
    raise RuntimeError("the web tier did not answer in 60 s")


def stop_server(server: subprocess.Popen) -> None:
    server.terminate()
    try:
        server.wait(timeout=10)
    except subprocess.TimeoutExpired:
        os.killpg(server.pid, signal.SIGKILL)  # its own session: uvicorn and its workers
        server.wait(timeout=5)




def flood(address: str, query: str, tokens: list[str], seconds: float
          ) -> tuple[list[float], Counter, list[float]]:
    """Health latencies while each token's client sends ``query`` as fast as it can;
    what the clients were answered; the answered queries' times."""
    stop, outcomes, answered, lock = threading.Event(), Counter(), [], threading.Lock()

    def client(token: str) -> None:
        while not stop.is_set():
            started = time.perf_counter()
            status, body = request(address, "/graphql/", {"query": query}, token)
            elapsed = (time.perf_counter() - started) * 1000
            errors = body.get("errors") or []
            code = errors[0].get("extensions", {}).get("code") if errors else status
            with lock:
                outcomes[code] += 1
                if not errors:
                    answered.append(elapsed)

    threads = [threading.Thread(target=client, args=(token,)) for token in tokens]
    for thread in threads:
        thread.start()
    try:
        time.sleep(0.5)  # every client under way
        latencies = health_ms(address, seconds)
    finally:
        stop.set()
        for thread in threads:
            thread.join(timeout=60)
    return latencies, outcomes, answered


def summary(latencies: list[float]) -> str:
    p90 = latencies[int(len(latencies) * 0.9)]
    return (f"median {statistics.median(latencies):.1f} ms, p90 {p90:.1f} ms, "
            f"max {latencies[-1]:.1f} ms ({len(latencies)} checks)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=8)
    parser.add_argument("--query", default="records3",
                        help="records3, under, or a GraphQL document")
    parser.add_argument("--matches", type=int, default=7,
                        help="finished matches of the bench player (7: a five-seat Han)")
    parser.add_argument("--keep", action="store_true", help="keep the data for the next run")
    args = parser.parse_args()
    data = cost_data.build(args.matches)
    users = [cost_data._user(f"{cost_data.PREFIX}flood-{index}")[0]
             for index in range(args.clients)]
    tokens = [Token.objects.get_or_create(user=user)[0].key for user in users]
    query = the_query(args.query, data)
    found = estimate(schema._schema, parse(query), None, None)
    print(f"query: {query[:160]}{'...' if len(query) > 160 else ''}")
    print(f"estimate {found.cost} (about {found.cost * UNIT_MS:.0f} ms); a slot from "
          f"{settings.GRAPHQL_EXPENSIVE_COST}: "
          f"{'takes one' if found.cost >= settings.GRAPHQL_EXPENSIVE_COST else 'none'}")
    with tempfile.TemporaryFile() as log:
        server, address = start_server(log)
        try:
            alone = []
            for _ in range(5):
                started = time.perf_counter()
                status, body = request(address, "/graphql/", {"query": query}, tokens[0])
                alone.append((time.perf_counter() - started) * 1000)
                time.sleep(0.3)  # past the pause a slotted operation leaves
            codes = ", ".join(error["extensions"]["code"] for error in body.get("errors", []))
            print(f"the query alone: median {statistics.median(alone):.1f} ms "
                  f"(answer {status}, {codes or 'no error'})")
            print(f"health idle: {summary(health_ms(address, 1.5))}")
            latencies, outcomes, answered = flood(address, query, tokens, args.seconds)
            print(f"health under {args.clients} clients: {summary(latencies)}")
            print(f"the clients' answers: {dict(outcomes)}")
            if answered:
                print(f"answered queries: median {statistics.median(answered):.1f} ms, "
                      f"max {max(answered):.1f} ms")
        finally:
            stop_server(server)
    if not args.keep:
        cost_data.delete()


if __name__ == "__main__":
    main()
