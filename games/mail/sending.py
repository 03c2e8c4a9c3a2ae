"""Handing one mail to Django's e-mail backend (EMAIL_BACKEND: SMTP in production), timed
and counted (games/mail/metrics.py)."""

from __future__ import annotations

import logging
import time

from django.core.mail import EmailMultiAlternatives

from games.mail import metrics

logger = logging.getLogger(__name__)


def send(message: EmailMultiAlternatives, kind: str) -> str | None:
    """Send ``message``; None when the backend took it, else the error (never raised: the
    caller keeps the mail for a later try)."""
    started = time.perf_counter()
    try:
        message.send(fail_silently=False)
    except Exception as error:  # noqa: BLE001 - SMTP, DNS, TLS, timeouts: all a retry
        metrics.counted(kind, "failed")
        # the address is personal data: the log names the kind and error only
        logger.warning("mail: %s not sent: %s", kind, type(error).__name__)
        return f"{type(error).__name__}: {error}"[:200]
    finally:
        metrics.SEND_SECONDS.observe(time.perf_counter() - started)
    metrics.counted(kind, "sent")
    return None
