"""CPU of a webhook drain's batch per event (games/webhooks/batches.py), in this process:

    eval "$(scripts/services.sh env)"
    .venv/bin/python bench/webhook_batch_cpu.py --events 1 3 20 100 --rounds 20

For each size: ``--rounds`` batches of that many ``your_turn`` events, one per user (the
first users of the development database), each made into its delivery (one subscriptions
read, one insert, the read back), first-attempted over a keep-alive connection to a local
receiver that verifies every delivery with ``standardwebhooks``, and written back. It
prints the drain's CPU per event: ``time.thread_time`` of this thread, which runs the
whole batch (one endpoint: no sending pool), so the receiver's threads are not counted;
and the wall time per batch. The Celery task's own overhead (one per batch) is not in it.
The app it registers is deleted at the end.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from webhook_receiver import BENCH_ENV, Receiver, register_app  # noqa: E402

os.environ.update(BENCH_ENV)


def _events(users) -> list[dict]:
    """One "your turn" per user, as event_queue.push makes them."""
    return [{"id": uuid.uuid4().hex, "type": "your_turn", "users": [user.pk],
             "at": "2026-12-05T00:00:00Z",
             "data": {"match_id": 1, "game": "han", "ply": 1, "seat": 0}} for user in users]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, nargs="+", default=[1, 3, 20, 100])
    parser.add_argument("--rounds", type=int, default=20)
    options = parser.parse_args()

    import django

    django.setup()
    from django.contrib.auth import get_user_model

    from games.webhooks import batches

    users = list(get_user_model().objects.order_by("id")[:max(options.events)])
    receiver = Receiver()
    app, endpoint = register_app("bench-batch-owner", users, receiver.url, ["your_turn"])
    receiver.secret = endpoint.secret
    try:
        for size in options.events:
            batches.process(_events(users[:size]))  # warm: connections, caches
            cpu, wall = time.thread_time(), time.perf_counter()
            for _ in range(options.rounds):
                batches.process(_events(users[:size]))
            cpu, wall = time.thread_time() - cpu, time.perf_counter() - wall
            print(f"{size:4d} events per batch: {cpu / (size * options.rounds) * 1000:6.2f} ms "
                  f"CPU per event, {wall / options.rounds * 1000:7.1f} ms wall per batch",
                  flush=True)
        with receiver.lock:
            print(f"received {len(receiver.arrivals)} verified, bad signatures "
                  f"{len(receiver.bad)}")
    finally:
        receiver.stop()
        app.delete()


if __name__ == "__main__":
    main()
