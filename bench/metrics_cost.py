"""What metrics and request ids add to a request and to a move, in CPU microseconds.

    .venv/bin/python bench/metrics_cost.py [--calls 20000]

Runs in prometheus-client's multiprocess mode, as the service does (a fresh
PROMETHEUS_MULTIPROC_DIR of its own), and times, best of seven rounds of ``--calls``:

- the two middlewares every HTTP request passes (infra/observability/): route latency and
  status (django-prometheus), and the request id, around a view that does nothing; and
  the access line (access_log.py), formatted as JSON and written to /dev/null;
- what a committed move adds (its counter, through ``transaction.on_commit``);
- what a play-socket message adds (serving it under a request id, and carrying that
  context into the hub's thread).

A move costs milliseconds (bench/rest_bench.py, docs/capacity.md): quote these beside that.
"""

from __future__ import annotations

import argparse
import contextvars
import logging
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
# before prometheus_client is imported anywhere
os.environ["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(prefix="metrics-cost-")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.http import HttpResponse  # noqa: E402
from django.test import RequestFactory  # noqa: E402
from django.urls import resolve  # noqa: E402

from infra.observability import metrics, request_id  # noqa: E402
from infra.observability.access_log import AccessLogMiddleware  # noqa: E402
from infra.observability.http_metrics import RouteMetricsMiddleware  # noqa: E402
from infra.observability.json_logs import JsonLinesFormatter  # noqa: E402
from infra.observability.request_id import RequestIdMiddleware  # noqa: E402


def best_of(function, calls: int, rounds: int = 7) -> float:
    """Microseconds per call, the best round's (the least disturbed by other jobs)."""
    best = float("inf")
    for _ in range(rounds):
        started = time.perf_counter()
        for _ in range(calls):
            function()
        best = min(best, (time.perf_counter() - started) / calls * 1e6)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=20_000)
    calls = parser.parse_args().calls

    route, answer = resolve("/api/v1/matches/1/moves/"), HttpResponse(status=201)

    def view(request):
        request.resolver_match = route
        return answer

    request = RequestFactory().post("/api/v1/matches/1/moves/")
    both = RouteMetricsMiddleware(RequestIdMiddleware(view))
    bare = best_of(lambda: view(request), calls)
    with_both = best_of(lambda: both(request), calls)
    print(f"HTTP request, both middlewares:   {with_both - bare:6.1f} us")
    route_only = RouteMetricsMiddleware(view)  # built once, as a process builds it
    print(f"  route latency and status only:  "
          f"{best_of(lambda: route_only(request), calls) - bare:6.1f} us")
    access = logging.getLogger("access")
    access.handlers, access.propagate = [], False
    devnull = logging.StreamHandler(open(os.devnull, "w"))  # noqa: SIM115 - for the run
    devnull.setFormatter(JsonLinesFormatter())
    access.addHandler(devnull)
    access.setLevel(logging.INFO)
    logged, unlogged = RequestIdMiddleware(AccessLogMiddleware(view)), RequestIdMiddleware(view)
    access_us = best_of(lambda: logged(request), calls) - best_of(lambda: unlogged(request), calls)
    print(f"  the access line (JSON):         {access_us:6.1f} us")
    print(f"committed move, its counter:      "
          f"{best_of(lambda: metrics.move_committed('han', by_bot=False), calls):6.1f} us")

    def socket_message():
        with request_id.serving(None):
            contextvars.copy_context().run(int)

    print(f"play-socket message, its id:      {best_of(socket_message, calls):6.1f} us")


if __name__ == "__main__":
    main()
