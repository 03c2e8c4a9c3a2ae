"""How long exporting and verifying a game record takes, and pairing quick-match requests.

    .venv/bin/python bench/records_bench.py [--runs 20] [--waiting 200]

Plays a 4-player Han and a 4-player Hansa match between bots through the services (inline
tasks), then times on each finished match:

- ``build_record``: read the match, replay the log with a state digest per ply;
- ``verify_record`` of that record (deal, apply and digest every move, compare the result);

then makes ``--waiting`` quick-match requests for 2-player Hansa and times the one
``pair_waiting`` run that seats them all. Uses the development database (DATABASE_URL)
and deletes what it made.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402

from config.celery import app as celery_app  # noqa: E402
from games.matches import selectors  # noqa: E402
from games.matches import services as match_services  # noqa: E402
from games.matches.models import Match  # noqa: E402
from games.quickmatch import services as quickmatch  # noqa: E402
from games.records.selectors import build_record  # noqa: E402
from games.records.services import verify_record  # noqa: E402

clock = time.perf_counter


def _median_ms(function, runs: int) -> tuple[float, float]:
    times = []
    for _ in range(runs):
        start = clock()
        function()
        times.append((clock() - start) * 1000)
    return statistics.median(times), max(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--waiting", type=int, default=200)
    args = parser.parse_args()
    logging.disable(logging.INFO)
    celery_app.conf.task_always_eager = True
    made: list[int] = []
    users = []
    try:
        for game in ("han", "hansa"):
            match = match_services.create_match(user=None, game=game, players=4, take_seat=False,
                                                bot_seats={seat: "greedy" for seat in range(4)})
            made.append(match.pk)
            match = selectors.get_match(match.pk)
            record = build_record(match)
            assert verify_record(record)["valid"]
            export = _median_ms(lambda match=match: build_record(match), args.runs)
            verify = _median_ms(lambda record=record: verify_record(record), args.runs)
            print(f"{game} 4 players, {match.ply} moves, record {len(json.dumps(record))} bytes:"
                  f" export median {export[0]:.1f} ms (max {export[1]:.1f}),"
                  f" verify median {verify[0]:.1f} ms (max {verify[1]:.1f})")
        User = get_user_model()
        celery_app.conf.task_always_eager = False
        users = [User.objects.create(username=f"bench-qm-{os.getpid()}-{i}")
                 for i in range(args.waiting)]
        for user in users:
            quickmatch.QuickMatchRequest.objects.create(
                user=user, game="hansa", players=2, options={}, rating=25.0 + (hash(user.pk) % 9),
                expires_at=quickmatch.timezone.now() + quickmatch.ttl())
        start = clock()
        counts = quickmatch.pair_waiting()
        elapsed = (clock() - start) * 1000
        print(f"pair_waiting: {counts['paired']} of {args.waiting} waiting requests seated in "
              f"{counts['matches']} matches in {elapsed:.0f} ms")
    finally:
        Match.objects.filter(pk__in=made).delete()
        for user in users:
            Match.objects.filter(seats__user=user).delete()
            user.delete()


if __name__ == "__main__":
    main()
