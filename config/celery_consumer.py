"""The worker's consumer (settings.CELERY_WORKER_CONSUMER): celery's own, made to survive
the loss of its Redis broker while a task runs.

celery 5.7.0's ``Consumer.on_connection_error_after_connected`` first "collects" the
broken connection (kombu detaches the transport: ``transport.client = None``) and then
closes it again. If the task channel was waiting on BRPOP when Redis went away, the first
close failed half-way and left the channel open; the second close tries to put the
channel's unacknowledged messages back in the queue, builds a new Redis pool from the
detached transport and raises ``AttributeError: 'NoneType' object has no attribute
'hostname'`` (kombu/transport/redis.py, ``Channel._connparams``). That is not a
connection error, so the worker logs "Unrecoverable error" and exits (issue 9). Seen
with one task running on a prefork worker: the main process is then polling for more.

Restoring cannot work at that moment anyway (Redis is unreachable), so the broken
connection's channels skip it. The messages stay in Redis's ``unacked`` set and come back
after the visibility timeout (settings.CELERY_BROKER_TRANSPORT_OPTIONS); if Redis itself
restarted empty, games/matches/worker_steps.py re-enqueues the lost work from the database.

The same detached transport kills the worker a second way with the thread pool (whose
running tasks cannot be cancelled at the loss): a task that was running during the outage
ends after the reconnection and acknowledges its message on the old channel, which raises
``AttributeError: 'NoneType' object has no attribute 'client'``. A delivery tag belongs to
its channel; once the channel is gone there is nothing to acknowledge, so such tasks are
marked acknowledged at the loss (their message's fate is the visibility timeout's).
"""

from __future__ import annotations

from celery.worker.consumer import Consumer as CeleryConsumer
from celery.worker.state import active_requests


class Consumer(CeleryConsumer):
    def on_connection_error_after_connected(self, exc):
        connection = self.connection
        if connection is not None:
            transport = connection.__dict__.get("_transport")
            channels = list(getattr(transport, "channels", None) or [])
            default = connection.__dict__.get("_default_channel")
            for channel in [*channels, default]:
                if channel is not None:
                    channel.do_restore = False  # kombu's switch for restore-on-close
        super().on_connection_error_after_connected(exc)
        for request in tuple(active_requests):
            request.acknowledged = True  # no ack or reject on the dead channel
