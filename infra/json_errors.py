"""Never an HTML error page under /api/ or /graphql, with DEBUG on or off.

DRF views and the GraphQL view answer their own errors in JSON, but some errors are made by
Django before or around them: an unknown URL (the debug 404 page with DEBUG on), an
unhandled exception (the debug traceback page with DEBUG on, the 500 handler with it off),
a CSRF failure, a suspicious request. This middleware replaces any non-JSON error response
on an API path with the API's error shape and the same status: ``{"error": {...}}`` under
/api/ (infra/api_errors.py), GraphQL's ``{"errors": [...]}`` under /graphql. Django has
already logged the failure when the response reaches us; the replaced body never carries a
traceback or a debug page.
"""

from __future__ import annotations

from django.http import HttpResponse, JsonResponse
from django.utils.translation import gettext

from infra.api_errors import error_body
from infra.url_policy import is_api_path

_CODE_OF_STATUS = {
    400: "invalid_request",
    401: "not_authenticated",
    403: "permission_denied",
    404: "not_found",
    405: "method_not_allowed",
    413: "payload_too_large",
    415: "unsupported_media_type",
    429: "throttled",
}


def _message(request, status: int, response: HttpResponse) -> str:
    if status == 404:
        return gettext("No API endpoint at %(path)s.") % {"path": request.path}
    if status == 405:
        allowed = response.get("Allow", "")
        values = {"method": request.method, "path": request.path, "allowed": allowed}
        if allowed:
            return gettext("Method %(method)s not allowed at %(path)s; allowed: %(allowed)s.") \
                % values
        return gettext("Method %(method)s not allowed at %(path)s.") % values
    if status >= 500:
        return gettext("Internal server error.")
    return gettext("The request could not be processed.")


def _is_json(response: HttpResponse) -> bool:
    return "json" in response.get("Content-Type", "")


def json_error_response(request, status: int, response: HttpResponse) -> JsonResponse:
    code = _CODE_OF_STATUS.get(status, "server_error" if status >= 500 else "invalid_request")
    message = _message(request, status, response)
    if request.path_info.startswith("/graphql"):
        body = {"errors": [{"message": message, "extensions": {"code": code}}]}
    else:
        body = error_body(code, message)
    replacement = JsonResponse(body, status=status)
    for header in ("Allow", "Retry-After"):
        if header in response:
            replacement[header] = response[header]
    return replacement


class JsonApiErrorsMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if (
            response.status_code >= 400
            and is_api_path(request.path_info)
            and not _is_json(response)
            and not getattr(response, "streaming", False)
        ):
            return json_error_response(request, response.status_code, response)
        return response
