"""How long replaying a full finished Han game takes.

    .venv/bin/python bench/replay_bench.py [--runs 30] [--players 4]

Plays one Han match between bots through the services (inline tasks, as
``manage.py play_bots`` does), then times, on the finished match:

- ``replay_state(match)``: read the log from PostgreSQL, ``setup`` and ``apply`` every move
  (what GET /replay/ and the admin replay page do);
- the engine alone over the same moves (no database);
and checks each replay ends on the stored snapshot. Uses the development database
(DATABASE_URL) and deletes the match afterwards.
"""

from __future__ import annotations

import argparse
import logging
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench_env import prepare  # noqa: E402 - bench/ is the script folder

prepare()

import django  # noqa: E402

django.setup()

from config.celery import app as celery_app  # noqa: E402
from games.matches import services as match_services  # noqa: E402
from games.matches.models import Match  # noqa: E402
from games.matches.replay import logged_moves, replay_state  # noqa: E402
from rules import get_engine  # noqa: E402

clock = time.perf_counter


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()

    logging.getLogger("celery.app.trace").setLevel(logging.WARNING)
    celery_app.conf.task_always_eager = True
    celery_app.conf.task_eager_propagates = True
    match = match_services.create_match(
        user=None, game="han", players=args.players, take_seat=False, seed="replay-bench",
        bot_seats={seat: "greedy" for seat in range(args.players)},
    )
    try:
        match = Match.objects.get(pk=match.pk)
        assert match.status == "finished", match.status
        engine = get_engine("han")
        moves = logged_moves(match)

        with_db, engine_only = [], []
        for _ in range(args.runs):
            started = clock()
            state = replay_state(match)
            with_db.append((clock() - started) * 1000)
            assert engine.to_json(state) == match.state

            started = clock()
            state = engine.setup(match.players, match.options, match.seed)
            for seat, move in moves:
                state, _events = engine.apply(state, seat, move)
            engine_only.append((clock() - started) * 1000)
    finally:
        Match.objects.filter(pk=match.pk).delete()

    print(f"Han, {match.players} players, {match.options['map']}: {len(moves)} moves")
    print(f"replay_state (log from PostgreSQL + setup + apply): median "
          f"{statistics.median(with_db):.2f} ms, max {max(with_db):.2f} ms (n={args.runs})")
    print(f"engine only (setup + apply):                        median "
          f"{statistics.median(engine_only):.2f} ms, max {max(engine_only):.2f} ms")


if __name__ == "__main__":
    main()
