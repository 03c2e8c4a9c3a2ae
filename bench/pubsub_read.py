"""What reading one Pub/Sub message costs a play hub's process, two ways.

    .venv/bin/python bench/pubsub_read.py [--messages 5000] [--gap-ms 0.3] [--rounds 3]

A play hub hears each move of the matches its sockets follow on its Pub/Sub connection.
Under the load test the messages come one at a time, each waking the event loop. This
times the CPU of the reading process per message (``time.process_time``; the publisher is
another process), with messages of a Hansa move's pushes' size (15 KB) sent ``--gap-ms``
apart:

- ``redis-py``: ``PubSub.get_message(timeout=1.0)`` in a loop, as the hub read before
  session 14;
- ``subscriber``: infra/pubsub_subscriber.py, as the hub reads now (each message handed to
  a callback as it is parsed).

Both on uvloop, as the web processes run. Uses the development Redis (REDIS_URL).
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

import redis  # noqa: E402
import redis.asyncio  # noqa: E402
import uvloop  # noqa: E402

from infra import pubsub  # noqa: E402
from infra.pubsub_subscriber import Subscriber  # noqa: E402

MESSAGE = b'{"type":"play_pushes","frames":{"0":"' + b"x" * 15_000 + b'"}}'


def _publish(channel: str, count: int, gap_s: float) -> None:
    client = redis.Redis.from_url(pubsub.redis_url())
    time.sleep(0.2)  # the reader is waiting by then
    for _ in range(count):
        client.publish(channel, MESSAGE)
        time.sleep(gap_s)


def _publisher(channel: str, count: int, gap_s: float) -> multiprocessing.Process:
    process = multiprocessing.Process(target=_publish, args=(channel, count, gap_s))
    process.start()
    return process


async def _with_redis_py(count: int, gap_s: float) -> float:
    client = redis.asyncio.Redis.from_url(pubsub.redis_url(), socket_timeout=None,
                                          health_check_interval=30)
    reader = client.pubsub(ignore_subscribe_messages=True)
    await reader.subscribe("bench-pubsub-read-a")
    publisher = _publisher("bench-pubsub-read-a", count, gap_s)
    heard, started = 0, None
    while heard < count:
        message = await reader.get_message(ignore_subscribe_messages=True, timeout=1.0)
        if message is not None and message["type"] == "message":
            if started is None:
                started = time.process_time()
            heard += 1
    spent = time.process_time() - started
    publisher.join()
    await reader.aclose()
    await client.aclose()
    return spent / (count - 1)


async def _with_subscriber(count: int, gap_s: float) -> float:
    done = asyncio.get_running_loop().create_future()
    heard = 0
    started = None

    def on_message(channel: bytes, data: bytes) -> None:
        nonlocal heard, started
        if started is None:
            started = time.process_time()
        heard += 1
        if heard == count:
            done.set_result(time.process_time())

    subscriber = await Subscriber.open(pubsub.redis_url(), ["bench-pubsub-read-b"],
                                       on_message)
    publisher = _publisher("bench-pubsub-read-b", count, gap_s)
    ended = await done
    publisher.join()
    subscriber.close()
    return (ended - started) / (count - 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--messages", type=int, default=5000)
    parser.add_argument("--gap-ms", type=float, default=0.3)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    gap_s = args.gap_ms / 1000
    figures: dict[str, list[float]] = {"redis-py": [], "subscriber": []}
    for _ in range(args.rounds):  # alternated, so the machine's drift touches both
        figures["redis-py"].append(uvloop.run(_with_redis_py(args.messages, gap_s)))
        figures["subscriber"].append(uvloop.run(_with_subscriber(args.messages, gap_s)))
    print(f"CPU of the reading process per message ({args.messages} messages of "
          f"{len(MESSAGE) // 1000} KB, {args.gap_ms} ms apart, {args.rounds} rounds):")
    for name, values in figures.items():
        shown = ", ".join(f"{value * 1e6:.0f}" for value in values)
        print(f"  {name:<11} median {statistics.median(values) * 1e6:5.0f} us  ({shown})")


if __name__ == "__main__":
    main()
