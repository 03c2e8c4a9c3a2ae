"""The writes of webhooks: endpoints registered, changed and removed by their app's
owner; deliveries queued for an event, attempted, given up (the endpoint disabled, its
status saying why), sent again. The tasks (``tasks``) only call these."""

from __future__ import annotations

import base64
import json
import logging
import secrets
from collections.abc import Iterable

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.dispatch import enqueue
from games.webhooks import metrics, selectors, sending
from games.webhooks.addresses import UrlRefused, check_url
from games.webhooks.models import Delivery, Endpoint
from infra.api_errors import ApiError
from infra.timestamps import utc_iso

logger = logging.getLogger(__name__)

DELIVER_TASK = "games.webhooks.tasks.deliver"


class EndpointDisabled(ApiError):
    status_code = 409
    default_code = "webhook_endpoint_disabled"
    default_detail = _("This webhook endpoint is disabled: enable it before sending again.")


def new_secret() -> str:
    """A Standard Webhooks signing secret: ``whsec_`` and 32 random bytes in base64."""
    return "whsec_" + base64.b64encode(secrets.token_bytes(32)).decode()


def create_endpoint(app, *, url: str, event_types: list[str]) -> Endpoint:
    check_url(url)  # refused (400) before anything is written
    return Endpoint.objects.create(app=app, url=url, event_types=sorted(set(event_types)),
                                   secret=new_secret())


def update_endpoint(endpoint: Endpoint, **fields) -> Endpoint:
    """Change the URL, the event types or ``active``; enabling it again clears why it was
    disabled. A new URL is checked as at registration."""
    if "url" in fields:
        check_url(fields["url"])
    if "event_types" in fields:
        fields["event_types"] = sorted(set(fields["event_types"]))
    if fields.get("active"):
        fields["disabled_reason"] = ""
    for name, value in fields.items():
        setattr(endpoint, name, value)
    endpoint.save()
    return endpoint


def delete_endpoint(endpoint: Endpoint) -> None:
    endpoint.delete()


def queue_event(event_type: str, user_ids: Iterable[int], data: dict) -> list[Delivery]:
    """A delivery to every endpoint subscribed to ``event_type`` of every app serving one
    of ``user_ids`` (selectors.apps_serving), one per user: the stored rows, their
    endpoints loaded, each to be sent by ``attempt``. ``data`` holds ids and public facts
    only: each user's copy adds their own id."""
    serving = selectors.apps_serving(list(dict.fromkeys(user_ids)))
    if not serving:
        return []
    now = utc_iso(timezone.now())  # the one timestamp format (infra/timestamps.py)
    rows = [Delivery(endpoint=endpoint, event_type=event_type,
                     message_id=f"msg_{secrets.token_hex(16)}",
                     payload={"type": event_type, "timestamp": now,
                              "data": {**data, "user_id": user_id}})
            for endpoint in selectors.subscribed_endpoints(serving, event_type)
            for user_id in sorted(serving[endpoint.app_id])]
    return Delivery.objects.bulk_create(rows)


def backoff_seconds(attempts: int) -> float:
    """The wait after the ``attempts``-th failed attempt: doubling from
    WEBHOOK_BACKOFF_BASE_SECONDS, capped by WEBHOOK_BACKOFF_MAX_SECONDS (kept below the
    broker's visibility timeout: a retry waits unacked in the worker)."""
    return min(settings.WEBHOOK_BACKOFF_BASE_SECONDS * 2 ** (attempts - 1),
               settings.WEBHOOK_BACKOFF_MAX_SECONDS)


def attempt(delivery_id: int) -> float | None:
    """Try ``delivery_id`` once if it still waits: the seconds to wait before the next
    try, or None when it is done (delivered, given up, or not pending any more: a
    redelivered task message is a no-op)."""
    delivery = Delivery.objects.select_related("endpoint").filter(pk=delivery_id).first()
    if delivery is None or delivery.status != Delivery.Status.PENDING:
        return None
    return attempt_row(delivery)


def attempt_row(delivery: Delivery) -> float | None:
    """``attempt`` of a pending row already in hand with its endpoint (the one
    ``queue_event`` has just stored: read again, it would say the same)."""
    endpoint = delivery.endpoint
    if not endpoint.active:
        _finish(delivery, Delivery.Status.FAILED, "dropped")
        return None
    body = json.dumps(delivery.payload, separators=(",", ":"))
    try:
        target = check_url(endpoint.url)  # again at every send: DNS may say otherwise now
    except UrlRefused as error:
        outcome = sending.Outcome(False, None, f"refused: {error.default_code}", 0.0)
        metrics.ATTEMPTS.labels("refused").inc()
    else:
        outcome = sending.post(target, endpoint.secret, delivery.message_id, body)
        metrics.LATENCY.observe(outcome.latency_seconds)
        metrics.ATTEMPTS.labels("success" if outcome.ok else
                                "http_error" if outcome.status_code else "network").inc()
    delivery.attempts += 1
    delivery.last_status_code = outcome.status_code
    delivery.last_error = outcome.error
    delivery.last_latency_ms = round(outcome.latency_seconds * 1000)
    if outcome.ok:
        _finish(delivery, Delivery.Status.DELIVERED, "delivered")
        return None
    if delivery.attempts >= settings.WEBHOOK_MAX_ATTEMPTS:
        _finish(delivery, Delivery.Status.FAILED, "failed")
        disable_endpoint(endpoint, _give_up_reason(delivery))
        return None
    delivery.save(update_fields=["attempts", "last_status_code", "last_error",
                                 "last_latency_ms"])
    metrics.RETRIES.inc()
    return backoff_seconds(delivery.attempts)


def _give_up_reason(delivery: Delivery) -> str:
    return (f"{delivery.attempts} failed attempts of delivery {delivery.pk}: "
            f"{delivery.last_error}")[:200]


def _finish(delivery: Delivery, status: str, outcome: str) -> None:
    delivery.status = status
    delivery.finished = timezone.now()
    delivery.save(update_fields=["status", "finished", "attempts", "last_status_code",
                                 "last_error", "last_latency_ms"])
    metrics.DELIVERIES.labels(outcome).inc()


def disable_endpoint(endpoint: Endpoint, reason: str) -> None:
    """Stop sending to ``endpoint``. Its owner is told by the endpoint itself: ``active``
    false and ``disabled_reason`` in every read of it (API, admin). Not a feed event: the
    feed's kinds are a published schema of a player's games (docs/feed.md), and an
    owner's endpoints are not part of it."""
    changed = Endpoint.objects.filter(pk=endpoint.pk, active=True).update(
        active=False, disabled_reason=reason)
    if changed:
        metrics.ENDPOINTS_DISABLED.inc()
        logger.warning("webhook endpoint %s of app %s disabled: %s", endpoint.pk,
                       endpoint.app_id, reason)


def send_again(delivery: Delivery) -> Delivery:
    """Send ``delivery`` again from its first attempt, with the same ``webhook-id`` (a
    receiver that handled it already can tell); refused while its endpoint is disabled."""
    if not delivery.endpoint.active:
        raise EndpointDisabled()
    Delivery.objects.filter(pk=delivery.pk).update(
        status=Delivery.Status.PENDING, attempts=0, finished=None, last_error="",
        last_status_code=None, last_latency_ms=None)
    transaction.on_commit(lambda: enqueue(DELIVER_TASK, delivery.pk))
    delivery.refresh_from_db()
    return delivery
