"""Top-level URL map. Each app owns its own urls module; the API lives under /api/v1/
(games/api/urls.py gathers every REST route of games/)."""

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView

from games.graphql.schema import schema as graphql_schema
from games.graphql.views import GameGraphQLView
from infra.health import HealthView

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/v1/health", HealthView.as_view(), name="health"),
    path("graphql/", GameGraphQLView.as_view(schema=graphql_schema), name="graphql"),
    path("api/v1/", include("accounts.urls")),
    # third-party apps' OAuth 2: /oauth/..., /.well-known/oauth-authorization-server
    path("", include("accounts.apps_oauth.urls")),
    path("api/v1/", include("games.api.urls")),
    # the pages a player's mails link to: confirm, unsubscribe (signed links, no sign-in)
    path("mail/", include("games.api.mail.page_urls")),
    path("api/v1/schema/", SpectacularAPIView.as_view(), name="openapi-schema"),
    path(
        "api/v1/docs/",
        SpectacularSwaggerView.as_view(url_name="openapi-schema"),
        name="api-docs",
    ),
    path(
        "api/v1/redoc/",
        # our template: the stock one loads Google Fonts (nothing may come from elsewhere)
        SpectacularRedocView.as_view(
            url_name="openapi-schema", template_name="api_docs/redoc.html"
        ),
        name="api-redoc",
    ),
]

# JSON errors for /api/ paths that never reach a DRF view (unknown URL, unhandled crash).
handler404 = "infra.api_errors.not_found_view"
handler500 = "infra.api_errors.server_error_view"
