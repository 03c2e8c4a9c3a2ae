"""Worker bootstep: after every broker (re)connection, resume what an outage may have lost.

When Redis goes away, the bot turns and scorings that tasks were about to enqueue are lost
(the publish fails; games/dispatch.py logs it), and a Redis restart empties the queues.
The database still knows which matches wait on a bot or on scoring, so the first thing a
worker does once connected - at start, and again after each reconnect - is to enqueue one
sweep over all such matches (idle_seconds=0). The tasks it sends are idempotent (the ply
check in services.play_bot_turn), so a match that was not stalled only gets a no-op task.
The periodic beat sweep stays as the last safety net (workers that never reconnected).
"""

from __future__ import annotations

import logging

from celery import bootsteps

from games.dispatch import SWEEP_TASK, broker_reachable

logger = logging.getLogger(__name__)


class ResumeAfterConnect(bootsteps.StartStopStep):
    """A consumer step: its start() runs each time the consumer has (re)connected."""

    requires = ("celery.worker.consumer.tasks:Tasks",)

    def start(self, c):
        # this process's own sends were paused by the outage (games/dispatch.py): the
        # broker has just answered, and the sweep's bot turns must go out at once
        broker_reachable()
        try:
            c.app.send_task(SWEEP_TASK, kwargs={"idle_seconds": 0})
        except Exception:  # noqa: BLE001 - the connection may drop again; beat's sweep remains
            logger.warning("could not enqueue the post-connect sweep", exc_info=True)
        else:
            logger.info("broker connected: sweep of waiting matches enqueued")
