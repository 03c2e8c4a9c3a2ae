"""The sweep of deliveries whose ``deliver`` task was lost (a broker outage: games/
dispatch.py logs the send it skipped), run by beat every WEBHOOK_OVERDUE_SWEEP_SECONDS.

Every pending delivery waiting for a task carries ``next_attempt_at``: when its retry is
due, or when it was handed to a task (services.record_outcome, batches.py, send again).
One more than WEBHOOK_OVERDUE_MARGIN_SECONDS late has no task coming: it is sent a new
one, and marked due now, so each is sent again at most once per margin. The margin
exceeds the broker's visibility timeout, so a task a dead worker held is redelivered
before the sweep would double it; a doubled attempt carries the same ``webhook-id``.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from games.dispatch import enqueue
from games.webhooks.models import Delivery
from games.webhooks.services import DELIVER_TASK

#: the most deliveries one sweep sends again (the next sweep takes the rest)
SWEEP_LIMIT = 1000


def resend_overdue() -> int:
    """Send a ``deliver`` task for each overdue pending delivery: how many."""
    now = timezone.now()
    cutoff = now - timedelta(seconds=settings.WEBHOOK_OVERDUE_MARGIN_SECONDS)
    overdue = list(Delivery.objects.filter(status=Delivery.Status.PENDING,
                                           next_attempt_at__lt=cutoff)
                   .order_by("next_attempt_at").values_list("pk", flat=True)[:SWEEP_LIMIT])
    if not overdue:
        return 0
    Delivery.objects.filter(pk__in=overdue).update(next_attempt_at=now)
    for pk in overdue:
        enqueue(DELIVER_TASK, pk)
    return len(overdue)
