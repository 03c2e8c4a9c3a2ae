"""One Web Push message to one subscription: the payload encrypted to the browser's keys
(RFC 8291, aes128gcm, by pywebpush), signed for the push service with the server's VAPID
key (RFC 8292), POSTed through the webhooks' pinned, SSRF-checked way out
(games/webhooks/sending.py) to an address checked again now. A push service's 404 or 410
says the browser dropped the subscription: it is removed."""

from __future__ import annotations

import json
import logging
import time
from urllib.parse import urlsplit

from django.conf import settings
from pywebpush import WebPusher

from games.notifications import metrics, push
from games.notifications.models import PushSubscription
from games.webhooks import sending

logger = logging.getLogger(__name__)

#: the push service's answers that mean the subscription is gone for good
GONE = (404, 410)
#: a VAPID signature's life (RFC 8292 allows at most 24 hours)
VAPID_LIFETIME_SECONDS = 12 * 3600


def _vapid_headers(endpoint: str) -> dict[str, str]:
    parts = urlsplit(endpoint)
    claims = {"sub": settings.WEBPUSH_VAPID_SUBJECT, "aud": f"{parts.scheme}://{parts.netloc}",
              "exp": int(time.time()) + VAPID_LIFETIME_SECONDS}
    return push.vapid().sign(claims)


def send(subscription: PushSubscription, message: dict) -> str:
    """Push ``message`` (JSON) to ``subscription``; the outcome (metrics.PUSH_OUTCOMES).
    Never raises for what the push service or the network does."""
    try:
        target = push.check_endpoint(subscription.endpoint)
    except push.EndpointRefused:
        metrics.PUSHES.labels("refused").inc()
        return "refused"
    info = {"endpoint": subscription.endpoint,
            "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth}}
    body = WebPusher(info).encode(json.dumps(message).encode(), "aes128gcm")["body"]
    headers = {"Content-Type": "application/octet-stream", "Content-Encoding": "aes128gcm",
               "TTL": str(settings.WEBPUSH_TTL_SECONDS), "Urgency": "normal",
               "User-Agent": "game-service-push/1", **_vapid_headers(subscription.endpoint)}
    outcome = sending.post_bytes(target, body, headers)
    metrics.PUSH_LATENCY.observe(outcome.latency_seconds)
    if outcome.ok:
        result = "sent"
    elif outcome.status_code in GONE:
        result = "gone"
        if PushSubscription.objects.filter(pk=subscription.pk).delete()[0]:
            metrics.SUBSCRIPTIONS_REMOVED.inc()
    else:
        result = "http_error" if outcome.status_code else "network"
        logger.warning("push to subscription %s failed: %s", subscription.pk, outcome.error)
    metrics.PUSHES.labels(result).inc()
    return result
