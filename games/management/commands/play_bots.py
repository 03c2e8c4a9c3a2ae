"""Play a whole match between bots, synchronously, through the same services as the API.

    python manage.py play_bots --game han --players 4 [--options '{"map": "..."}']
                               [--bot greedy] [--seed X]

Celery tasks run inline (eager) for the duration of the command, so no broker or worker
is needed: ``create_match`` seats the bots, starts the match, and each move's on-commit
follow-up plays the next bot turn, then scoring, exactly as workers would.
"""

from __future__ import annotations

import json
import logging
import time

from celery import current_app as celery_app
from django.core.management.base import BaseCommand, CommandError

from games.matches import errors, selectors
from games.matches import services as match_services
from games.matches.models import Match
from rules.bots import BOT_KINDS


class Command(BaseCommand):
    help = "Play a whole match between bots through the services and print the result."

    def add_arguments(self, parser):
        parser.add_argument("--game", default="han", help='"han" or "hansa"')
        parser.add_argument("--players", type=int, default=4)
        parser.add_argument("--options", default="{}", help="game options as JSON")
        parser.add_argument(
            "--bot", default="greedy", help=f"bot kind for every seat ({', '.join(BOT_KINDS)}),"
            " or a comma-separated kind per seat",
        )
        parser.add_argument(
            "--seed", default=None,
            help="match seed (default: a fresh secret one); same seed + same bots = same game",
        )

    def handle(self, *args, **opts):
        try:
            options = json.loads(opts["options"])
        except json.JSONDecodeError as exc:
            raise CommandError(f"--options is not JSON: {exc}") from None
        kinds = [kind.strip() for kind in opts["bot"].split(",")]
        if len(kinds) == 1:
            kinds = kinds * max(opts["players"], 1)
        bot_seats = dict(enumerate(kinds))

        # Inline tasks would log one "Task ... succeeded" line per bot move.
        logging.getLogger("celery.app.trace").setLevel(logging.WARNING)
        previous = (celery_app.conf.task_always_eager, celery_app.conf.task_eager_propagates)
        celery_app.conf.task_always_eager = True
        celery_app.conf.task_eager_propagates = True
        started = time.perf_counter()
        try:
            match = self._play(opts, options, bot_seats)
        except errors.GameServiceError as exc:
            raise CommandError(f"{exc.code}: {exc.message}") from None
        finally:
            celery_app.conf.task_always_eager, celery_app.conf.task_eager_propagates = previous
        elapsed = time.perf_counter() - started

        match = selectors.get_match(match.pk)
        self.stdout.write(
            f"match #{match.pk}: {match.game}, {match.players} players, options "
            f"{json.dumps(match.options)}, {match.ply} moves in {elapsed:.2f}s, "
            f"status {match.status}"
        )
        if match.status != "finished":
            raise CommandError(f"the match did not finish (status {match.status})")
        result = selectors.match_result(match)
        for row in result["results"]:
            kind = bot_seats.get(row["seat"])
            self.stdout.write(
                f"  seat {row['seat']} ({kind}): {row['score']} points, rank {row['rank']}"
            )
        self.stdout.write(f"winners: seats {result['winners']}; seed {result['seed']} "
                          f"(commitment {match.seed_commitment})")

    def _play(self, opts, options, bot_seats) -> Match:
        return match_services.create_match(
            user=None, game=opts["game"], players=opts["players"], options=options,
            bot_seats=bot_seats, take_seat=False, seed=opts["seed"],
        )
