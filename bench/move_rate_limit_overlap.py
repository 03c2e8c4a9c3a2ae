"""A socket move's service call in one process, with and without the rate limit's count
overlapping the match's lock and read (issue 45, docs/capacity.md "Fewer round trips on a
socket move"): ``before`` counts first and then calls ``submit_move`` (what
games/play/operations.py did), ``after`` is ``operations.play_move`` (the count sent
first, read after the lock). Interleaved in rounds of 150 moves over two-player Han
matches of two fresh users, no socket and no event loop, so the figure is the path's own.
Printed: p50 / p90 / p99 of each, in ms.

    SECRET_KEY=... RECORD_SIGNING_KEYS=... .venv/bin/python bench/move_rate_limit_overlap.py

(DEBUG off, as served: DEBUG=true logs every query and blurs the figures.)

It needs the services and a migrated database (DATABASE_URL, REDIS_URL as for the tests).
"""

from __future__ import annotations

import argparse
import secrets
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import bench_env  # noqa: E402
from bench.percentiles import percentile  # noqa: E402

bench_env.prepare()

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402

from games.matches import selectors, services  # noqa: E402
from games.play import operations  # noqa: E402
from infra import throttles  # noqa: E402


def _before(user, ident, match_id, move, ply) -> None:
    throttles.check(throttles.MOVE, ident)
    services.submit_move(match_id=match_id, move=move, user=user, expected_ply=ply)


VARIANTS = {"before": _before, "after": operations.play_move}


def _new_match(users) -> int:
    match = services.create_match(user=users[0], game="han", players=2)
    services.join_match(user=users[1], match_id=match.pk)
    return match.pk


def _play(users, variant, moves: int) -> list[float]:
    times = []
    match_id = _new_match(users)
    while len(times) < moves:
        match = selectors.get_match(match_id)
        to_act = selectors.to_act_of(match)
        if not to_act or match.status != "active":
            match_id = _new_match(users)
            continue
        user = users[to_act[0]]
        move = selectors.legal_moves_for(match, user)["moves"][0]
        started = time.perf_counter()
        variant(user, f"user:{user.pk}", match_id, move, match.ply)
        times.append((time.perf_counter() - started) * 1000)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=6)
    args = parser.parse_args()
    users = [get_user_model().objects.create_user(f"overlap-{secrets.token_hex(6)}")
             for _ in range(2)]
    results: dict[str, list[float]] = {name: [] for name in VARIANTS}
    for _ in range(args.rounds):
        for name, variant in VARIANTS.items():
            results[name] += _play(users, variant, 150)
    for name, times in results.items():
        p50, p90, p99 = (percentile(times, share) for share in (0.5, 0.9, 0.99))
        print(f"{name:7s} {len(times)} moves: p50 {p50:.3f} / p90 {p90:.3f} / p99 {p99:.3f} ms")


if __name__ == "__main__":
    main()
