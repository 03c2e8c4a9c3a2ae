"""Every REST route of games/, under ``/api/v1/`` (config/urls.py): the play socket's
AsyncAPI document, then each capability's own ``urls.py`` in games/api/<capability>/.

Match ids are taken as strings and parsed by the selectors, so a malformed id answers
404 ``match_not_found`` in the API's error shape rather than Django's HTML 404.
"""

from django.urls import include, path

from games.api import asyncapi

urlpatterns = [
    # the play socket's AsyncAPI document, beside the OpenAPI schema (docs/asyncapi.yaml)
    path("asyncapi.yaml", asyncapi.AsyncApiYamlView.as_view(), name="asyncapi-yaml"),
    path("asyncapi.json", asyncapi.AsyncApiJsonView.as_view(), name="asyncapi-json"),
    path("", include("games.api.catalogue.urls")),
    path("", include("games.api.matches.urls")),
    path("", include("games.api.boards.urls")),
    path("", include("games.api.records.urls")),
    path("", include("games.api.ratings.urls")),
    path("", include("games.api.analysis.urls")),
    path("", include("games.api.lobby.urls")),
    path("", include("games.api.quickmatch.urls")),
    path("", include("games.api.leaving.urls")),
    path("", include("games.api.feed.urls")),
    path("", include("games.api.chat.urls")),
    path("", include("games.api.chat_reports.urls")),
    path("", include("games.api.webhooks.urls")),
    path("", include("games.api.mail.urls")),
    path("", include("games.api.notifications.urls")),
]
