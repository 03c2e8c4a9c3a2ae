"""The writes of webhooks: endpoints registered, changed and removed by their app's
owner; deliveries attempted, given up (the endpoint disabled, its
status saying why), sent again. The tasks (``tasks``) only call these."""

from __future__ import annotations

import base64
import json
import logging
import secrets
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.dispatch import enqueue
from games.webhooks import metrics, sending
from games.webhooks.addresses import UrlRefused, check_url
from games.webhooks.models import Delivery, Endpoint
from infra.api_errors import ApiError

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
    """``attempt`` of a pending row already in hand with its endpoint."""
    endpoint = delivery.endpoint
    if not endpoint.active:
        _finish(delivery, Delivery.Status.FAILED, "dropped")
        return None
    verdict = record_outcome(delivery, send_row(delivery))
    delivery.save(update_fields=ATTEMPT_FIELDS)
    if verdict == Delivery.Status.PENDING:
        return backoff_seconds(delivery.attempts)
    if verdict == Delivery.Status.FAILED:
        disable_endpoint(endpoint, give_up_reason(delivery))
    return None


def send_row(delivery: Delivery, connections=None) -> sending.Outcome:
    """One signed POST of ``delivery`` to its endpoint, the URL checked again first (DNS
    may say otherwise now); over ``connections`` (keepalive.Connections) when given, a
    new connection otherwise. Touches no database: a batch's threads call it."""
    endpoint = delivery.endpoint
    body = json.dumps(delivery.payload, separators=(",", ":"))
    try:
        target = check_url(endpoint.url)
    except UrlRefused as error:
        metrics.ATTEMPTS.labels("refused").inc()
        return sending.Outcome(False, None, f"refused: {error.default_code}", 0.0)
    headers = sending.webhook_headers(endpoint.secret, delivery.message_id, body)
    post = sending.post_bytes if connections is None else connections.post
    outcome = post(target, body.encode(), headers)
    metrics.LATENCY.observe(outcome.latency_seconds)
    metrics.ATTEMPTS.labels("success" if outcome.ok else
                            "http_error" if outcome.status_code else "network").inc()
    return outcome


def record_outcome(delivery: Delivery, outcome: sending.Outcome) -> str:
    """Write ``outcome`` into the row in memory (the caller saves it, alone or in bulk):
    the status it now has. ``failed`` means attempts are exhausted: the caller disables
    the endpoint; ``pending`` means a retry after ``backoff_seconds(attempts)``."""
    delivery.attempts += 1
    delivery.last_status_code = outcome.status_code
    delivery.last_error = outcome.error
    delivery.last_latency_ms = round(outcome.latency_seconds * 1000)
    if outcome.ok:
        _mark(delivery, Delivery.Status.DELIVERED, "delivered")
    elif delivery.attempts >= settings.WEBHOOK_MAX_ATTEMPTS:
        _mark(delivery, Delivery.Status.FAILED, "failed")
    else:  # its deliver task is due then; the overdue sweep's mark (overdue.py)
        delivery.next_attempt_at = timezone.now() + timedelta(
            seconds=backoff_seconds(delivery.attempts))
        metrics.RETRIES.inc()
    return delivery.status


def give_up_reason(delivery: Delivery) -> str:
    return (f"{delivery.attempts} failed attempts of delivery {delivery.pk}: "
            f"{delivery.last_error}")[:200]


#: what an attempt changes in a row
ATTEMPT_FIELDS = ["status", "finished", "attempts", "last_status_code", "last_error",
                   "last_latency_ms", "next_attempt_at"]


def _mark(delivery: Delivery, status: str, outcome: str) -> None:
    delivery.status = status
    delivery.finished = timezone.now()
    delivery.next_attempt_at = None
    metrics.DELIVERIES.labels(outcome).inc()


def _finish(delivery: Delivery, status: str, outcome: str) -> None:
    _mark(delivery, status, outcome)
    delivery.save(update_fields=ATTEMPT_FIELDS)


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
        last_status_code=None, last_latency_ms=None, next_attempt_at=timezone.now())
    transaction.on_commit(lambda: enqueue(DELIVER_TASK, delivery.pk))
    delivery.refresh_from_db()
    return delivery
