"""One error shape for the whole API:

    {"error": {"code": "invalid_input", "message": "...", "details": {...}}}

`code` is stable and machine-readable; `message` is for humans and may change; `details`
carries structured context (per-field errors for invalid input). Raise `ApiError` (or a
subclass) from services and views for domain errors; DRF's own exceptions are mapped here.
"""

from __future__ import annotations

import logging
import sys
from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404, JsonResponse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import exceptions, serializers, status
from rest_framework.serializers import as_serializer_error
from rest_framework.views import exception_handler as drf_exception_handler

from infra.outages import UNAVAILABLE, database_busy, which

logger = logging.getLogger(__name__)

#: how long a client is asked to wait before retrying a 503 (Retry-After)
RETRY_AFTER_SECONDS = 5
#: ... and a 503 ``database_busy``: a lock or statement timeout passes in a second or two
BUSY_RETRY_AFTER_SECONDS = 1


class ApiError(exceptions.APIException):
    """Base for domain errors with a stable code. Subclass with class attributes::

        class StalePly(ApiError):
            status_code = 409
            default_code = "stale_ply"
            default_detail = _("The match has moved on since you looked.")

    and raise ``StalePly(details={"expected_ply": 3, "current_ply": 4})``; any of message,
    code, details and status can also be given per instance.
    """

    status_code = status.HTTP_400_BAD_REQUEST
    default_code = "error"
    default_detail = _("The request could not be processed.")

    def __init__(
        self,
        message: str | None = None,
        *,
        code: str | None = None,
        details: dict[str, Any] | None = None,
        status: int | None = None,
    ) -> None:
        super().__init__(detail=message or self.default_detail, code=code or self.default_code)
        self.code = code or self.default_code
        self.message = str(message or self.default_detail)
        self.details = details or {}
        if status is not None:
            self.status_code = status


class MalformedJsonBody(ApiError):
    """A REST body that is not JSON under infra/parsers.py's rules: our message in the
    reader's language and where it broke in ``details`` (never Python's parser's text)."""

    default_code = "malformed_json"
    default_detail = _("The body is not valid JSON.")


class ServiceUnavailable(ApiError):
    """The database or Redis is unreachable for a moment (a restart, a failover): retry
    later. The driver's own message (host, port, role) goes to the log only."""

    status_code = status.HTTP_503_SERVICE_UNAVAILABLE
    default_code = "service_unavailable"
    default_detail = _("The service is briefly unavailable; retry in a few seconds.")
    retry_after = RETRY_AFTER_SECONDS


class DatabaseBusy(ServiceUnavailable):
    """A statement or lock timeout of the runtime role (DATABASE_STATEMENT_TIMEOUT_MS,
    DATABASE_LOCK_TIMEOUT_MS): the row was held by another writer, or the statement ran too
    long. The transaction was rolled back: nothing was written; retry shortly."""

    default_code = "database_busy"
    default_detail = _("The database is busy with this item; nothing was changed. Retry in "
                       "a second.")
    retry_after = BUSY_RETRY_AFTER_SECONDS


def as_unavailable(exc: BaseException) -> ServiceUnavailable:
    """The 503 an unreachable or busy database (or Redis) answers."""
    return DatabaseBusy() if database_busy(exc) else ServiceUnavailable()


#: an error's details: an object whose keys depend on the code (docs/api.md, "Errors"); the
#: keys several codes share are named, so a generated client reads them typed
ERROR_DETAILS_SCHEMA = {
    "type": "object",
    "description": "Facts about the error, by code (docs/api.md, \"Errors\"); {} when none. "
    "A refused body (invalid_input) maps each field to its errors.",
    "properties": {
        "retry_after_seconds": {"type": "integer",
                                "description": "throttled: seconds until the limit resets."},
        "field": {"type": "string", "description": "The request field concerned."},
    },
    "additionalProperties": True,
}


@extend_schema_field(ERROR_DETAILS_SCHEMA)
class ErrorDetailsField(serializers.JSONField):
    """An error's details (ERROR_DETAILS_SCHEMA)."""


class ErrorBodySerializer(serializers.Serializer):
    code = serializers.CharField()
    message = serializers.CharField()
    details = ErrorDetailsField()


class ErrorSerializer(serializers.Serializer):
    """The error shape, for the OpenAPI schema of every app's endpoints."""

    error = ErrorBodySerializer()


# DRF's own codes are already stable; these few get clearer names.
_RENAMED_CODES = {
    "parse_error": "malformed_json",
    "invalid": "invalid_input",
}


def error_body(code: str, message: str, details: dict[str, Any] | None = None) -> dict:
    return {"error": {"code": code, "message": message, "details": details or {}}}


def _validation_details(exc: exceptions.ValidationError) -> dict[str, Any]:
    # get_full_details keeps each message's own code ("required", "unique",
    # "password_too_short"...), so clients can branch per field without parsing text.
    full = exc.get_full_details()
    if isinstance(full, dict):
        return full
    return {"non_field_errors": full if isinstance(full, list) else [full]}


def _first_message(details: Any) -> str | None:
    """The first human message in nested validation details, prefixed by its field."""
    if isinstance(details, dict):
        if "message" in details and isinstance(details["message"], str):
            return details["message"]
        for field, value in details.items():
            message = _first_message(value)
            if message:
                return message if field == "non_field_errors" else f"{field}: {message}"
    if isinstance(details, list):
        for value in details:
            message = _first_message(value)
            if message:
                return message
    return None


def _describe(exc: exceptions.APIException) -> tuple[str, str, dict[str, Any]]:
    if isinstance(exc, ApiError):
        return exc.code, exc.message, exc.details
    if isinstance(exc, exceptions.ValidationError):
        details = _validation_details(exc)
        first = _first_message(details)
        message = gettext("Invalid input: %(problem)s") % {"problem": first} if first \
            else gettext("Invalid input.")
        return "invalid_input", message, details
    details: dict[str, Any] = {}
    if isinstance(exc, exceptions.Throttled) and exc.wait is not None:
        details["retry_after_seconds"] = int(exc.wait + 0.999)
    if isinstance(exc.detail, dict):
        # An APIException raised with a dict: keep the structure, take the first message.
        details.update(exc.get_full_details())
        message = _first_message(details) or str(exc.default_detail)
        code = exc.default_code
    else:
        message = str(exc.detail)
        codes = exc.get_codes()
        code = codes if isinstance(codes, str) else exc.default_code
    if isinstance(exc, exceptions.AuthenticationFailed):
        # A bad or revoked token: still "not authenticated" to the client, with the reason.
        details.setdefault("reason", code)
        code = "not_authenticated"
    return _RENAMED_CODES.get(code, code), message, details


def api_exception_handler(exc: Exception, context: dict) -> Any:
    """REST_FRAMEWORK["EXCEPTION_HANDLER"]: DRF's handler, re-shaped into the error body."""
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    elif isinstance(exc, DjangoValidationError):
        # A model-level validation error that escaped a service: still bad input, not a 500.
        exc = exceptions.ValidationError(as_serializer_error(exc))
    elif isinstance(exc, UNAVAILABLE):
        if database_busy(exc):
            logger.warning("database busy (lock or statement timeout): answered 503")
        else:
            logger.warning("%s unavailable: answered 503", which(exc), exc_info=exc)
        exc = as_unavailable(exc)
    response = drf_exception_handler(exc, context)
    if response is None:
        return None  # not an API error: Django's 500 handling (JSON under /api/, see below)
    code, message, details = _describe(exc)
    response.data = error_body(code, message, details)
    if isinstance(exc, ServiceUnavailable):
        response["Retry-After"] = str(exc.retry_after)
    return response


# ----------------------------------------------------------------- Django-level handlers
# Errors raised outside DRF views (an unknown URL, a crash) still answer in the API's shape
# under /api/. Django only uses these when DEBUG is off.


def _is_api_path(request) -> bool:
    return request.path.startswith("/api/")


def not_found_view(request, exception=None):
    if _is_api_path(request):
        return JsonResponse(
            error_body("not_found",
                       gettext("No API endpoint at %(path)s.") % {"path": request.path}),
            status=404,
        )
    from django.views.defaults import page_not_found

    return page_not_found(request, exception)


def server_error_view(request):
    # Django calls this while handling the exception: an unreachable database or Redis
    # outside a DRF view (a middleware's session lookup, say) is still a 503 under /api/.
    if _is_api_path(request) and isinstance(sys.exc_info()[1], UNAVAILABLE):
        answer = as_unavailable(sys.exc_info()[1])
        response = JsonResponse(error_body(answer.code, answer.message), status=503)
        response["Retry-After"] = str(answer.retry_after)
        return response
    if _is_api_path(request):
        return JsonResponse(error_body("server_error", gettext("Internal server error.")),
                            status=500)
    from django.views.defaults import server_error

    return server_error(request)


class Throttled(ApiError):
    """Over a rate limit: 429 ``throttled`` with the seconds to wait, REST's answer, for
    the callers that count without DRF (GraphQL operations, play-socket messages)."""

    status_code = 429
    default_code = "throttled"

    def __init__(self, seconds: int) -> None:
        super().__init__(gettext("Too many requests: try again in %(seconds)s s.")
                         % {"seconds": seconds},
                         details={"retry_after_seconds": seconds})
