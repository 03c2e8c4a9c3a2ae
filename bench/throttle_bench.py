"""What a rate-limit check costs per request (infra/throttles.py: one Redis ADD and INCR).

    eval "$(scripts/services.sh env)"; .venv/bin/python bench/throttle_bench.py [--n 2000]

Times ``throttles.hit`` against the configured cache (REDIS_URL / CACHE_REDIS_URL) for one
caller, median and p99 in microseconds, and the same for a GET of the game list through
DRF's test client with throttling on and off, so the share of the check is visible. Its
counters live in the development cache under the scope ``bench`` and expire in a minute.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.test.utils import override_settings, setup_test_environment  # noqa: E402
from rest_framework.settings import api_settings  # noqa: E402
from rest_framework.test import APIClient  # noqa: E402

from infra import throttles  # noqa: E402


def timed(call, n: int) -> list[float]:
    samples = []
    for _ in range(n):
        started = time.perf_counter()
        call()
        samples.append((time.perf_counter() - started) * 1e6)
    return sorted(samples)


def report(name: str, samples: list[float]) -> None:
    p99 = samples[int(len(samples) * 0.99) - 1]
    print(f"{name:38s} median {statistics.median(samples):8.0f} us   p99 {p99:8.0f} us")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=2000)
    n = parser.parse_args().n
    setup_test_environment()  # the test client's host, no real server needed
    rates = {**api_settings.DEFAULT_THROTTLE_RATES, "bench": "100000000/min"}
    with override_settings(REST_FRAMEWORK={**django.conf.settings.REST_FRAMEWORK,
                                           "DEFAULT_THROTTLE_RATES": rates}):
        report("throttles.hit (Redis ADD + INCR)", timed(lambda: throttles.hit("bench", "b"), n))
        client = APIClient()
        high = {scope: "100000000/min" for scope in rates}
        with override_settings(REST_FRAMEWORK={**django.conf.settings.REST_FRAMEWORK,
                                               "DEFAULT_THROTTLE_RATES": high}):
            report("GET /api/v1/games/ throttled", timed(lambda: client.get("/api/v1/games/"), n))
        off = {scope: None for scope in rates}
        with override_settings(REST_FRAMEWORK={**django.conf.settings.REST_FRAMEWORK,
                                               "DEFAULT_THROTTLE_RATES": off}):
            report("GET /api/v1/games/ limits off", timed(lambda: client.get("/api/v1/games/"), n))


if __name__ == "__main__":
    main()
