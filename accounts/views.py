"""Accounts REST endpoints: register, issue/revoke a token, who am I, erase my account
(the export of everything held on a person is games-level: games/api/leaving/views.py)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.authentication import SessionAuthentication
from rest_framework.authtoken.models import Token
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from accounts import erasure, services
from accounts.apps_oauth.bearer_auth import BearerAuthentication
from accounts.serializers import (
    EraseAccountSerializer,
    RegistrationResponseSerializer,
    RegistrationSerializer,
    TokenRequestSerializer,
    TokenResponseSerializer,
    UserSerializer,
)
from accounts.token_auth import NarrowTokenAuthentication
from infra.api_errors import ErrorSerializer
from infra.api_views import PUBLIC, ApiView
from infra.throttles import client_address


class RegisterView(ApiView):
    throttle_scope = "auth"  # strict: infra/throttles.py
    required_scopes = {"POST": PUBLIC}
    # No authentication: a stale token or session cookie must not block signing up.
    authentication_classes: list = []
    permission_classes = [AllowAny]

    @extend_schema(summary="Sign up: a new user and its API token", operation_id="register",
                   request=RegistrationSerializer,
                   responses={201: RegistrationResponseSerializer, 400: ErrorSerializer})
    def post(self, request: Request) -> Response:
        serializer = RegistrationSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        user, token = services.register_user(**serializer.validated_data)
        body = {"user": UserSerializer(user).data, "token": token.key}
        return Response(body, status=status.HTTP_201_CREATED)


class TokenView(ApiView):
    throttle_scope = "auth"  # strict, against password guessing: infra/throttles.py
    required_scopes = {"POST": PUBLIC, "DELETE": "account:write"}
    # Token auth only: DELETE revokes the token the request came with, and POST is reachable
    # by scripts without the session's CSRF dance.
    authentication_classes = [NarrowTokenAuthentication]

    def get_authenticators(self):
        # Logging in needs no token: a client still sending its revoked or stale token
        # must get a new one, not a 401 "Invalid token." (found by fuzzing).
        if self.request is not None and self.request.method == "POST":
            return []
        return super().get_authenticators()

    def get_permissions(self):
        if self.request.method == "DELETE":
            return [IsAuthenticated()]
        return [AllowAny()]

    @extend_schema(summary="Log in: your API token (the same one on every call)",
                   operation_id="get_token", request=TokenRequestSerializer,
                   responses={200: TokenResponseSerializer, 400: ErrorSerializer,
                              429: ErrorSerializer})
    def post(self, request: Request) -> Response:
        serializer = TokenRequestSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        token = services.issue_token(request=request, address=client_address(request.META),
                                     **serializer.validated_data)
        return Response({"token": token.key, "user": UserSerializer(token.user).data})

    @extend_schema(summary="Log out: revoke the token this request carries",
                   operation_id="revoke_token", request=None,
                   responses={204: None, 401: ErrorSerializer})
    def delete(self, request: Request) -> Response:
        assert isinstance(request.auth, Token)  # guaranteed: token auth only + IsAuthenticated
        services.revoke_token(request.auth)
        return Response(status=status.HTTP_204_NO_CONTENT)


class MeView(ApiView):
    authentication_classes = [NarrowTokenAuthentication, BearerAuthentication,
                              SessionAuthentication]
    permission_classes = [IsAuthenticated]
    required_scopes = {"GET": "account:read", "DELETE": "account:write"}

    @property
    def throttle_scope(self) -> str | None:
        # erasing checks a password: strict, as logging in is (infra/throttles.py)
        request = getattr(self, "request", None)
        return "auth" if request is not None and request.method == "DELETE" else None

    @extend_schema(summary="The signed-in user", operation_id="get_me",
                   responses={200: UserSerializer, 401: ErrorSerializer})
    def get(self, request: Request) -> Response:
        return Response(UserSerializer(request.user).data)

    @extend_schema(
        summary="Erase your account (confirmed with your password)",
        description="Your username becomes a tombstone (`deleted-` and 12 hex digits), your "
        "email and password go, your token is revoked and your open sockets close; pending "
        "invitations and quick-match requests are withdrawn, open matches left, your seats "
        "in running matches handed to a bot. Matches, records and ratings stay, showing the "
        "tombstone. Download your data first: `GET /api/v1/me/export`. docs/api.md.",
        operation_id="erase_me", request=EraseAccountSerializer,
        responses={204: None, 400: ErrorSerializer, 401: ErrorSerializer,
                   403: ErrorSerializer, 429: ErrorSerializer})
    def delete(self, request: Request) -> Response:
        serializer = EraseAccountSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        erasure.confirm_password(request.user, serializer.validated_data.get("password"),
                                 address=client_address(request.META))
        erasure.erase_account(request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
