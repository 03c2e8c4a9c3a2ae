"""The signed links of a mail (django.core.signing, keyed by SECRET_KEY): a confirmation
names the user and the address it confirms and expires (MAIL_CONFIRM_MAX_AGE_HOURS); an
unsubscribe names the user and an event type (or ``all``, or ``digest``) and does not
expire: RFC 8058 asks that a mail's link keep working, and it can only ever turn mail off
(or the digest, whose events are then mailed as they happen)."""

from __future__ import annotations

from django.conf import settings
from django.core import signing

_CONFIRM_SALT = "games.mail.confirm"
_UNSUBSCRIBE_SALT = "games.mail.unsubscribe"
#: an unsubscribe link's scope that turns off every mail
ALL = "all"
#: a digest's own link: the daily digest off (its events are then mailed as they happen)
DIGEST = "digest"


def confirmation_token(user_id: int, address: str) -> str:
    return signing.dumps({"u": user_id, "a": address}, salt=_CONFIRM_SALT, compress=True)


def read_confirmation(token: str) -> tuple[int, str] | None:
    """(user id, address), or None when forged, mangled or expired."""
    try:
        body = signing.loads(token, salt=_CONFIRM_SALT,
                             max_age=settings.MAIL_CONFIRM_MAX_AGE_HOURS * 3600)
    except signing.BadSignature:  # SignatureExpired is one
        return None
    if not isinstance(body, dict) or not isinstance(body.get("u"), int):
        return None
    return body["u"], str(body.get("a", ""))


def unsubscribe_token(user_id: int, scope: str) -> str:
    return signing.dumps({"u": user_id, "t": scope}, salt=_UNSUBSCRIBE_SALT, compress=True)


def read_unsubscribe(token: str) -> tuple[int, str] | None:
    """(user id, event type or ``all``), or None when forged or mangled."""
    try:
        body = signing.loads(token, salt=_UNSUBSCRIBE_SALT)
    except signing.BadSignature:
        return None
    if not isinstance(body, dict) or not isinstance(body.get("u"), int):
        return None
    return body["u"], str(body.get("t", ""))


def link(kind: str, token: str) -> str:
    """The absolute URL of a mail's page (config/urls.py: /mail/<kind>/<token>/)."""
    return f"{settings.MAIL_SITE_URL}/mail/{kind}/{token}/"
