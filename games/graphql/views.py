"""The GraphQL HTTP endpoint at /graphql/: token or session auth as in REST, GraphiQL
unless GRAPHIQL is off (settings).

Requests that never reach execution (a body that is not JSON, not an object, nested too
deeply, a wrong content type, a subscription sent over plain HTTP) are answered here in
GraphQL's error shape with a stable ``extensions.code``, like every other error: strawberry
would answer them as plain text, or crash on them (a body of ``null`` or ``1``, or JSON
nested thousands deep, used to be a 500 HTML page). A body is decoded by REST's rules
(infra/parsers.py ``decode_json``): anything they refuse is 400 ``malformed_json``."""

from __future__ import annotations

from typing import Any

from cross_web import HTTPException
from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.decorators import method_decorator
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from graphql import GraphQLError, OperationDefinitionNode, OperationType, parse
from strawberry.django.views import GraphQLView

from games.graphql.auth import CredentialsRefused, authenticate_http_request
from games.graphql.context import GraphQLContext
from games.graphql.errors import coded
from games.graphql.limits import MAX_TOKENS, query_too_large
from infra.api_errors import RETRY_AFTER_SECONDS, ServiceUnavailable
from infra.observability import metrics
from infra.outages import UNAVAILABLE
from infra.parsers import MalformedJson, decode_json


class RequestRefused(HTTPException):
    """A request refused before execution, with its stable code."""

    def __init__(self, status_code: int, code: str, reason: str,
                 details: dict | None = None) -> None:
        super().__init__(status_code, reason)
        self.code = code
        self.details = details or {}


# strawberry's own refusals carry only a status and a text: codes by status (the REST ones)
_CODE_OF_STATUS = {400: "invalid_request", 404: "not_found", 405: "method_not_allowed"}


def _error_response(status: int, code: str, message: str,
                    details: dict | None = None) -> JsonResponse:
    # extensions as a resolver's errors have them (games/graphql/errors.py): code, details
    return JsonResponse({"errors": [{"message": message, "extensions": {
        "code": code, "details": details or {}}}]}, status=status)


def _subscribes(query: Any, operation_name: Any) -> bool:
    """Whether the operation to run is a subscription (only served over the websocket)."""
    if not isinstance(query, str):
        return False
    try:
        document = parse(query, max_tokens=MAX_TOKENS)
    except GraphQLError:
        return False  # strawberry reports the syntax error itself
    operations = [d for d in document.definitions if isinstance(d, OperationDefinitionNode)]
    if operation_name is not None:
        operations = [op for op in operations if op.name and op.name.value == operation_name]
    return len(operations) == 1 and operations[0].operation == OperationType.SUBSCRIPTION


# CSRF is checked by DRF's SessionAuthentication for session users only; token clients
# (third-party frontends) carry no cookie, so there is nothing to forge.
@method_decorator(csrf_exempt, name="dispatch")
class GameGraphQLView(GraphQLView):
    def __init__(self, **kwargs):
        # GraphiQL (games/templates/graphql/graphiql.html) runs on our own static files
        # and only sends what any client may send: served unless GRAPHIQL=false.
        kwargs.setdefault("graphql_ide", "graphiql" if settings.GRAPHIQL else None)
        super().__init__(**kwargs)

    def dispatch(self, request: HttpRequest, *args, **kwargs) -> HttpResponse:
        try:
            request.graphql_user, request.graphql_auth = authenticate_http_request(request)
        except CredentialsRefused as exc:
            return JsonResponse(
                {"errors": [{"message": exc.message, "extensions": {
                    "code": exc.code, "details": {"reason": exc.reason}}}]},
                status=exc.http_status,
            )
        except UNAVAILABLE:  # resolvers' own database or Redis errors: errors.py
            response = _error_response(503, ServiceUnavailable.default_code,
                                       ServiceUnavailable.default_detail)
            response["Retry-After"] = str(RETRY_AFTER_SECONDS)
            return response
        # counted for the app whose token asked (its errors: process_result)
        request.graphql_app = metrics.app_label(request.graphql_user, request.graphql_auth)
        metrics.app_request(request.graphql_app, metrics.GRAPHQL)
        try:
            return self.run(request=request)
        except RequestRefused as exc:
            return _error_response(exc.status_code, exc.code, exc.reason, exc.details)
        except HTTPException as exc:
            if exc.reason == "Unsupported content type":
                return _error_response(415, "unsupported_media_type",
                                       _("Send the operation as application/json."))
            if exc.reason == "Unable to parse request body as JSON":
                return _error_response(400, "malformed_json", _("The body is not valid JSON."))
            code = _CODE_OF_STATUS.get(exc.status_code, "invalid_request")
            return _error_response(exc.status_code, code, exc.reason)

    def decode_json(self, data: str | bytes) -> object:
        # REST's rules (infra/parsers.py): invalid UTF-8, NaN or a 5,000-digit number was
        # a 500 here (strawberry catches only JSONDecodeError)
        try:
            decoded = decode_json(data)
        except MalformedJson as exc:
            raise RequestRefused(400, "malformed_json", exc.message, exc.details) from None
        if not isinstance(decoded, (dict, list)):
            raise RequestRefused(400, "invalid_request",
                                 _('The body must be a JSON object: {"query", "variables"?}.'))
        return decoded

    def parse_http_body(self, request):
        try:
            data = super().parse_http_body(request)
        except UnicodeDecodeError as exc:  # strawberry's adapter decodes the body first
            refusal = MalformedJson.of(exc)
            raise RequestRefused(400, "malformed_json", refusal.message, refusal.details) from None
        if not isinstance(data, list) and (refusal := query_too_large(data.query)):
            raise RequestRefused(400, "query_too_large", refusal.message)
        if not isinstance(data, list) and _subscribes(data.query, data.operation_name):
            raise RequestRefused(
                400, "subscription_needs_websocket",
                _("Subscriptions are served over the websocket at /graphql/ "
                  "(protocol graphql-transport-ws), not over HTTP."),
            )
        return data

    def process_result(self, request: HttpRequest, result):
        # An exception raised before execution (by an extension's hook, such as the rate
        # limits') skips ServiceErrorCodes: code it here, so no driver text (host, port)
        # reaches a client, and answer 503 when the service could not even start.
        if result.errors:
            metrics.app_error(request.graphql_app, metrics.GRAPHQL)
            result.errors = [coded(error) for error in result.errors]
            unavailable = any(error.extensions.get("code") == ServiceUnavailable.default_code
                              for error in result.errors)
            if unavailable and result.data is None:
                request.graphql_response.status_code = 503
                request.graphql_response["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return super().process_result(request, result)

    def get_context(self, request: HttpRequest, response: HttpResponse) -> GraphQLContext:
        request.graphql_response = response  # process_result sets its status
        return GraphQLContext(
            request=request, response=response, user=request.graphql_user,
            auth=request.graphql_auth,
        )
