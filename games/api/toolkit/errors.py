"""The API's one error shape (infra/api_errors.py) answered by a view that is not DRF's
(the feed's NDJSON stream: DRF views are synchronous), where no exception handler renders
the refusal for it."""

from __future__ import annotations

from django.http import JsonResponse

from infra.api_errors import error_body


def error_response(refusal) -> JsonResponse:
    """``refusal`` (an ``ApiError``, or a refusal such as ``ControlCharacters`` with the same
    ``code``, ``message``, ``details`` and ``status_code``) as its JSON answer."""
    return JsonResponse(error_body(refusal.code, refusal.message, refusal.details),
                        status=refusal.status_code)
