"""The worker's consumer (settings.CELERY_WORKER_CONSUMER): celery's own, made to survive
the loss of its Redis broker while a task runs, and without the steps the service does not
use.

**No gossip, mingle or heartbeat events** (issue 21), whatever the command line says:

- Gossip consumes the other workers' events (for elections and node join/leave
  callbacks, which nothing here uses). At every reconnection it logged ``Error on
  restarting Gossip: AttributeError("'NoneType' object has no attribute
  'connection_errors'")``: celery 5.7's ``on_connection_error_after_connected`` sets
  ``self.connection = None`` before the restart stops the steps, and Gossip's stop closes
  its channel through ``kombu.common.ignore_errors(c.connection, channel.close)``; the close
  tries to remove the gossip queue's binding (SREM) on the dead Redis, and the handler's
  ``except conn.connection_errors`` on ``None`` raises. The rest of that close was skipped
  (the old channel's client and binding were left behind); the restart went on.
- Mingle asks the other workers for their revoked task ids and logical clock at every
  start and reconnection and waits a second for answers before consuming: a second added
  to every recovery, for task revocation, which the service never uses.
- Heartbeat sends a ``worker-heartbeat`` event every 2 s through Redis, and with gossip
  every worker read every other worker's: only a monitor (flower) needs them, and none runs.

Remote control (``celery inspect ping``, docker-compose.yml's health check) is a separate
step and stays. ``-E`` (task events) still turns the event dispatcher on for a monitor.

**Reconnecting every second.** kombu's ladder waits 2, 4, 6 ... up to 30 s between
attempts, so a worker came back up to 8 s after a 10 s Redis outage (and up to 30 s after
a long one) while the web processes were serving again: bot turns waited for it. A worker
tries every ``RECONNECT_EVERY_SECONDS`` instead: one connection attempt a second, and one
log line each.

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
marked acknowledged at the loss (their message's fate is the visibility timeout's). A
third way, found by the fault suite (issue 21): with the thread pool a finished task's ack
is handed to the consumer's event loop, so a task that ended just before the loss had its
ack still waiting, and the loop ran it after the reconnection, on the old channel, with
the same ``AttributeError``. So the broken connection's channels also drop every ack and
reject made on them after the loss.
"""

from __future__ import annotations

import functools

from celery.worker.consumer import Consumer as CeleryConsumer
from celery.worker.state import active_requests

#: the worker options forced on, as if the command line gave --without-gossip,
#: --without-mingle and --without-heartbeat (module doc)
WITHOUT_UNUSED_STEPS = {"without_gossip": True, "without_mingle": True,
                        "without_heartbeat": True}
#: how often a worker that lost its broker tries to connect again (module doc)
RECONNECT_EVERY_SECONDS = 1.0


def let_channels_go(connection) -> None:
    """The channels of ``connection``, which was lost, neither restore their unacknowledged
    messages when closed nor ack or reject anything any more (module doc)."""
    transport = connection.__dict__.get("_transport")
    channels = list(getattr(transport, "channels", None) or [])
    default = connection.__dict__.get("_default_channel")
    for channel in [*channels, default]:
        if channel is not None:
            channel.do_restore = False  # kombu's switch for restore-on-close
            channel.basic_ack = channel.basic_reject = _channel_gone


def _channel_gone(*args, **kwargs) -> None:
    """An ack or reject on a channel of a lost connection: nothing left to do."""


class Consumer(CeleryConsumer):
    def __init__(self, *args, worker_options=None, **kwargs):
        super().__init__(*args, worker_options={**(worker_options or {}),
                                                **WITHOUT_UNUSED_STEPS}, **kwargs)

    def ensure_connected(self, conn):
        conn.ensure_connection = functools.partial(
            conn.ensure_connection, interval_start=RECONNECT_EVERY_SECONDS, interval_step=0,
            interval_max=RECONNECT_EVERY_SECONDS)
        return super().ensure_connected(conn)

    def on_connection_error_after_connected(self, exc):
        if self.connection is not None:
            let_channels_go(self.connection)
        super().on_connection_error_after_connected(exc)
        for request in tuple(active_requests):
            request.acknowledged = True  # no ack or reject on the dead channel
