"""Browsers' Web Push subscriptions: registered by their user (validated, the push
service's URL checked against server-side request forgery by the webhooks' own check,
games/webhooks/addresses.py), listed, removed; and the server's VAPID key.

Web Push is on when WEBPUSH_VAPID_PRIVATE_KEY is set (docs/notifications.md says how to
make one); without it subscribing answers 503 ``push_unavailable``."""

from __future__ import annotations

import base64
import binascii
from functools import lru_cache

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from django.utils.translation import gettext_lazy as _
from py_vapid import Vapid

from games.notifications import reach
from games.notifications.models import PushSubscription
from games.webhooks.addresses import UrlRefused, check_url
from infra.api_errors import ApiError


class PushUnavailable(ApiError):
    status_code = 503
    default_code = "push_unavailable"
    default_detail = _("Web Push is not configured on this server.")


class InvalidSubscription(ApiError):
    default_code = "invalid_push_subscription"
    default_detail = _("A push subscription is {\"endpoint\": URL, \"keys\": {\"p256dh\", "
                       "\"auth\"}} as the browser's PushSubscription.toJSON() gives it.")


class EndpointRefused(ApiError):
    """The push service's URL may not be called: its code says why, as the webhooks'
    check decided (``push_endpoint_not_https``, ``push_endpoint_forbidden_address``...)."""

    default_code = "push_endpoint_refused"
    default_detail = _("The push endpoint URL is refused.")


class SubscriptionNotFound(ApiError):
    status_code = 404
    default_code = "push_subscription_not_found"
    default_detail = _("No such push subscription of yours.")


def enabled() -> bool:
    return bool(settings.WEBPUSH_VAPID_PRIVATE_KEY)


@lru_cache(maxsize=4)
def _vapid(private_key: str) -> Vapid:
    return Vapid.from_string(private_key)


def vapid() -> Vapid:
    """The server's VAPID key; PushUnavailable without one."""
    if not enabled():
        raise PushUnavailable()
    return _vapid(settings.WEBPUSH_VAPID_PRIVATE_KEY)


def public_key() -> str:
    """The ``applicationServerKey`` a browser subscribes with: the VAPID public key,
    uncompressed point, base64url without padding."""
    raw = vapid().public_key.public_bytes(serialization.Encoding.X962,
                                          serialization.PublicFormat.UncompressedPoint)
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _b64url(value: object, field: str) -> bytes:
    if not isinstance(value, str) or not 0 < len(value) <= 120:
        raise InvalidSubscription(details={"field": field})
    try:
        return base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError) as error:
        raise InvalidSubscription(details={"field": field}) from error


def parse_subscription(body: object) -> tuple[str, str, str]:
    """``(endpoint, p256dh, auth)`` of a browser's subscription, or InvalidSubscription:
    p256dh must be a point of P-256 (65 bytes, uncompressed), auth 16 bytes."""
    if not isinstance(body, dict):
        raise InvalidSubscription()
    endpoint, keys = body.get("endpoint"), body.get("keys")
    if not isinstance(endpoint, str) or not 0 < len(endpoint) <= 1000:
        raise InvalidSubscription(details={"field": "endpoint"})
    if not isinstance(keys, dict):
        raise InvalidSubscription(details={"field": "keys"})
    p256dh = _b64url(keys.get("p256dh"), "keys.p256dh")
    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), p256dh)
    except ValueError as error:
        raise InvalidSubscription(details={"field": "keys.p256dh"}) from error
    if len(p256dh) != 65 or len(_b64url(keys.get("auth"), "keys.auth")) != 16:
        raise InvalidSubscription(details={"field": "keys.p256dh" if len(p256dh) != 65
                                           else "keys.auth"})
    return endpoint, keys["p256dh"], keys["auth"]


def check_endpoint(endpoint: str):
    """The checked target of a push service's URL (games/webhooks/addresses.py), or
    EndpointRefused with the check's reason in the code."""
    try:
        return check_url(endpoint)
    except UrlRefused as error:
        raise EndpointRefused(
            code=error.default_code.replace("webhook_url", "push_endpoint"),
            message=str(error.default_detail)) from error


def subscribe(user, body: object, language: str) -> PushSubscription:
    """Register (or renew) a browser's subscription for ``user``; nothing is written
    unless push is on and the subscription and its URL pass. A URL registered before,
    by whichever user, is the same browser: it now serves ``user``."""
    vapid()
    endpoint, p256dh, auth = parse_subscription(body)
    check_endpoint(endpoint)
    subscription, _created = PushSubscription.objects.update_or_create(
        endpoint=endpoint, defaults={"user": user, "p256dh": p256dh, "auth": auth,
                                     "language": language})
    reach.mark_reachable_after_commit()  # this process pushes to it from now on
    return subscription


def subscriptions_of(user):
    """A user's (or a user id's) subscriptions, oldest first."""
    return PushSubscription.objects.filter(user=user).order_by("id")


def unsubscribe(user, subscription_id: int) -> None:
    deleted, _rows = PushSubscription.objects.filter(user=user, pk=subscription_id).delete()
    if not deleted:
        raise SubscriptionNotFound()


def forget(user) -> None:
    """An erased account's subscriptions go (games/leaving/services.py)."""
    PushSubscription.objects.filter(user=user).delete()


def users_with_subscriptions(user_ids: list[int]) -> list[int]:
    return list(PushSubscription.objects.filter(user_id__in=user_ids)
                .values_list("user_id", flat=True).distinct())
