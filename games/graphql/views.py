"""The GraphQL HTTP endpoint at /graphql/: token or session auth as in REST, GraphiQL
only when DEBUG is on."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.decorators import method_decorator
from django.views.decorators.csrf import csrf_exempt
from strawberry.django.views import GraphQLView

from games.graphql.auth import CredentialsRefused, authenticate_http_request
from games.graphql.context import GraphQLContext


# CSRF is checked by DRF's SessionAuthentication for session users only; token clients
# (third-party frontends) carry no cookie, so there is nothing to forge.
@method_decorator(csrf_exempt, name="dispatch")
class GameGraphQLView(GraphQLView):
    def __init__(self, **kwargs):
        kwargs.setdefault("graphql_ide", "graphiql" if settings.DEBUG else None)
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
        return super().dispatch(request, *args, **kwargs)

    def get_context(self, request: HttpRequest, response: HttpResponse) -> GraphQLContext:
        return GraphQLContext(
            request=request, response=response, user=request.graphql_user,
            auth=request.graphql_auth,
        )
