"""REST: a player's personal access tokens and connected apps (``/api/v1/account/...``),
an owner's registered apps (``/api/v1/apps/``). docs/apps.md."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from oauth2_provider.models import get_access_token_model
from rest_framework import status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.apps_oauth import selectors, services
from accounts.apps_oauth.serializers import (
    ConnectedAppSerializer,
    NewPersonalTokenSerializer,
    OwnedAppSerializer,
    PersonalTokenRequestSerializer,
    PersonalTokenSerializer,
)
from infra.api_errors import ApiError, ErrorSerializer
from infra.api_views import ApiView
from infra.numbers import parse_whole_number
from infra.paging import PAGE_PARAMETERS, PAGE_QUERY, page_of, paged


def _id(value: str, field: str) -> int:
    """A token's or an app's id from the path, read as every request number is
    (infra/numbers.py); one that spells no id is not found, as an unknown one is."""
    return parse_whole_number(value, field, low=1, error=lambda *args, **kwargs:
                              services.NotFound())


class FirstPartyOnly(ApiError):
    status_code = 403
    default_code = "first_party_only"
    default_detail = _("Only the player themselves (a first-party key or a signed-in "
                       "session) may do this, not an app or a personal token.")


def require_first_party(request: Request) -> None:
    """Making a token or registering an app with an app's or a personal token would let a
    credential mint a wider one than it holds: refused."""
    if isinstance(request.auth, get_access_token_model()):
        raise FirstPartyOnly()


class PersonalTokensView(ApiView):
    query_params = PAGE_QUERY
    # tokens are the account's keys: even listing them is managing them (account:write);
    # the apps a player connected or owns are read with account:read (docs/apps.md)
    required_scopes = {"GET": "account:write", "POST": "account:write"}

    permission_classes = [IsAuthenticated]

    @extend_schema(summary="Your personal access tokens (never the tokens themselves)",
                   operation_id="list_personal_tokens", parameters=PAGE_PARAMETERS,
                   responses={200: page_of(PersonalTokenSerializer), 401: ErrorSerializer})
    def get(self, request: Request) -> Response:
        rows = selectors.personal_tokens(request.user)
        return Response(paged(request, rows, lambda row: PersonalTokenSerializer(row).data))

    @extend_schema(summary="Make a personal access token with chosen scopes",
                   description="The answer's `token` is shown this once: only its checksum is "
                   "stored. Send it as `Authorization: Bearer <token>`, or as the play "
                   "socket's `hello` token.",
                   operation_id="create_personal_token", request=PersonalTokenRequestSerializer,
                   responses={201: NewPersonalTokenSerializer, 400: ErrorSerializer,
                              401: ErrorSerializer, 403: ErrorSerializer,
                              409: ErrorSerializer})
    def post(self, request: Request) -> Response:
        require_first_party(request)
        serializer = PersonalTokenRequestSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        personal, key = services.create_personal_token(request.user, **serializer.validated_data)
        body = {**PersonalTokenSerializer(personal).data, "token": key}
        return Response(body, status=status.HTTP_201_CREATED)


class PersonalTokenView(ApiView):
    required_scopes = {"DELETE": "account:write"}

    permission_classes = [IsAuthenticated]

    @extend_schema(summary="Revoke a personal access token (its open sockets close)",
                   operation_id="revoke_personal_token", request=None,
                   responses={204: None, 401: ErrorSerializer, 404: ErrorSerializer})
    def delete(self, request: Request, token_id: str) -> Response:
        services.revoke_personal_token(request.user, _id(token_id, "token_id"))
        return Response(status=status.HTTP_204_NO_CONTENT)


class ConnectedAppsView(ApiView):
    query_params = PAGE_QUERY
    required_scopes = {"GET": "account:read"}

    permission_classes = [IsAuthenticated]

    @extend_schema(summary="The apps you allowed to use your account",
                   operation_id="list_connected_apps", parameters=PAGE_PARAMETERS,
                   responses={200: page_of(ConnectedAppSerializer), 401: ErrorSerializer})
    def get(self, request: Request) -> Response:
        rows = selectors.connected_apps(request.user)
        return Response(paged(request, rows, lambda row: ConnectedAppSerializer(row).data))


class ConnectedAppView(ApiView):
    required_scopes = {"DELETE": "account:write"}

    permission_classes = [IsAuthenticated]

    @extend_schema(summary="Disconnect an app: all its tokens end, its sockets close",
                   operation_id="disconnect_app", request=None,
                   responses={204: None, 401: ErrorSerializer, 404: ErrorSerializer})
    def delete(self, request: Request, app_id: str) -> Response:
        services.disconnect_app(request.user, _id(app_id, "app_id"))
        return Response(status=status.HTTP_204_NO_CONTENT)


class OwnedAppsView(ApiView):
    query_params = PAGE_QUERY
    required_scopes = {"GET": "account:read", "POST": "account:write"}

    permission_classes = [IsAuthenticated]

    @extend_schema(summary="The apps you registered", operation_id="list_my_apps",
                   parameters=PAGE_PARAMETERS,
                   responses={200: page_of(OwnedAppSerializer), 401: ErrorSerializer})
    def get(self, request: Request) -> Response:
        return Response(paged(request, selectors.owned_apps(request.user),
                              lambda row: OwnedAppSerializer(row).data))

    @extend_schema(summary="Register an app (a public client: PKCE, no secret)",
                   operation_id="register_app", request=OwnedAppSerializer,
                   responses={201: OwnedAppSerializer, 400: ErrorSerializer,
                              401: ErrorSerializer, 403: ErrorSerializer})
    def post(self, request: Request) -> Response:
        require_first_party(request)
        serializer = OwnedAppSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        fields = {**serializer.validated_data, "active": True}
        app = services.create_app(request.user, **fields)
        return Response(OwnedAppSerializer(app).data, status=status.HTTP_201_CREATED)


class OwnedAppView(ApiView):
    required_scopes = {"GET": "account:read", "PATCH": "account:write"}

    permission_classes = [IsAuthenticated]

    def _app(self, request, app_id: str):
        app = selectors.owned_app(request.user, _id(app_id, "app_id"))
        if app is None:
            raise services.NotFound()
        return app

    @extend_schema(summary="One of your apps", operation_id="get_my_app",
                   responses={200: OwnedAppSerializer, 401: ErrorSerializer,
                              404: ErrorSerializer})
    def get(self, request: Request, app_id: str) -> Response:
        return Response(OwnedAppSerializer(self._app(request, app_id)).data)

    @extend_schema(summary="Change one of your apps; `active: false` suspends it",
                   operation_id="update_my_app", request=OwnedAppSerializer,
                   responses={200: OwnedAppSerializer, 400: ErrorSerializer,
                              401: ErrorSerializer, 403: ErrorSerializer,
                              404: ErrorSerializer})
    def patch(self, request: Request, app_id: str) -> Response:
        require_first_party(request)
        data = request.data  # the body is read (and refused when bad) before the lookup
        app = self._app(request, app_id)
        serializer = OwnedAppSerializer(app, data=data, partial=True)
        serializer.is_valid(raise_exception=True)
        app = services.update_app(app, **serializer.validated_data)
        return Response(OwnedAppSerializer(app).data)
