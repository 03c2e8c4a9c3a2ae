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
restarted empty, games/worker_steps.py re-enqueues the lost work from the database.
"""

from __future__ import annotations

from celery.worker.consumer import Consumer as CeleryConsumer


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
