"""Request bodies over ``DATA_UPLOAD_MAX_MEMORY_SIZE`` answered 413 ``payload_too_large`` in
the API's error shape (issue 9, defect 3).

Django refuses an oversized body with ``RequestDataTooBig`` (a SuspiciousOperation) while a
view reads it, which it renders as an HTML 400, or the debug page with DEBUG on. We refuse
a declared ``Content-Length`` over the cap before anything reads the body, and catch the
exception for bodies that turn out too big while being read (no or a lying length)."""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import JsonResponse
from django.utils.translation import gettext

from infra.api_errors import error_body


def _is_graphql(request) -> bool:
    return request.path.startswith("/graphql")


def payload_too_large(request) -> JsonResponse:
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    message = gettext("The request body is larger than the %(limit)s bytes this service "
                      "accepts.") % {"limit": limit}
    if _is_graphql(request):  # GraphQL clients read GraphQL's error shape
        body = {"errors": [{"message": message, "extensions": {
            "code": "payload_too_large", "details": {"max_bytes": limit}}}]}
    else:
        body = error_body("payload_too_large", message, {"max_bytes": limit})
    return JsonResponse(body, status=413)


def _declared_length(request) -> int:
    try:
        return int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return 0  # Django reads such a body as empty


class PayloadTooLargeMiddleware:
    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request):
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        if limit is not None and _declared_length(request) > limit:
            return payload_too_large(request)
        return self.get_response(request)

    def process_exception(self, request, exception):
        if isinstance(exception, RequestDataTooBig):
            return payload_too_large(request)
        return None
