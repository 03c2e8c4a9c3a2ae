"""One access line per HTTP request (issue 40: a 2xx wrote no line, and uvicorn's own
access lines had neither the request id nor a duration): logger ``access``, at INFO, with
``method``, ``path`` (never the query string, where a client may put a token), ``status``,
``duration_ms``, ``user_id`` when the request was signed in, and the request id
(json_logs.py adds it: this middleware runs inside RequestIdMiddleware).

uvicorn's access log is off (scripts/serve_web.sh): this line replaces it. Its clock spans
every middleware after RequestIdMiddleware and the view; a streamed body (the feed) is
timed to its first byte, not to its end. ``WEB_ACCESS_LOG=false`` turns the lines off."""

from __future__ import annotations

import logging
import time

from django.conf import settings
from django.utils.functional import empty

logger = logging.getLogger("access")


def signed_in_user_id(request) -> int | None:
    """The user the request was signed in as, without a query of its own: DRF's
    authentication sets ``request.user`` on the Django request; Django's lazy session
    user counts only if something already looked at it."""
    user = request.__dict__.get("user")
    if user is None or getattr(user, "_wrapped", None) is empty:
        return None
    if not getattr(user, "is_authenticated", False):
        return None
    return user.pk


class AccessLogMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response
        self.enabled = settings.WEB_ACCESS_LOG

    def __call__(self, request):
        if not self.enabled:
            return self.get_response(request)
        started = time.perf_counter()
        response = self.get_response(request)
        fields = {
            "method": request.method,
            "path": request.path,
            "status": response.status_code,
            "duration_ms": round((time.perf_counter() - started) * 1000, 1),
        }
        user_id = signed_in_user_id(request)
        if user_id is not None:
            fields["user_id"] = user_id
        logger.info("%s %s %s", fields["method"], fields["path"], fields["status"],
                    extra={"fields": fields})
        return response
