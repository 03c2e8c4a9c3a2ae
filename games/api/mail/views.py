"""REST: a player's e-mail address and choices, under ``/api/v1/mail/`` (docs/api.md,
"E-mail"). Read with ``account:read``; changed with ``account:write``, the address itself
only with a first-party credential (where your mail goes is your account's, not an app's)."""

from __future__ import annotations

from django.utils import translation
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.apps_oauth.api import require_first_party
from games.api.mail.serializers import (
    MailChoicesSerializer,
    MailSettingsSerializer,
    SetAddressSerializer,
)
from games.mail import errors, selectors, services
from infra.api_errors import ErrorSerializer
from infra.api_views import ApiView

_ERRORS = {400: ErrorSerializer, 401: ErrorSerializer, 403: ErrorSerializer,
           404: ErrorSerializer}


def _request_language() -> str:
    return "de" if (translation.get_language() or "").startswith("de") else "en"


class MailSettingsView(ApiView):
    required_scopes = {"GET": "account:read", "PUT": "account:write",
                       "PATCH": "account:write", "DELETE": "account:write"}
    permission_classes = [IsAuthenticated]

    @extend_schema(summary="Your e-mail address and what is mailed to you",
                   operation_id="get_mail_settings",
                   responses={200: MailSettingsSerializer, **_ERRORS})
    def get(self, request: Request) -> Response:
        row = selectors.address_of(request.user)
        if row is None:
            raise errors.AddressMissing()
        return Response(MailSettingsSerializer(row).data)

    @extend_schema(summary="Set your e-mail address (a confirmation link is mailed to it)",
                   description="Nothing is mailed to the address but the confirmation "
                   "until you open its link. Setting your confirmed address again changes "
                   "nothing.", operation_id="set_mail_address",
                   request=SetAddressSerializer,
                   responses={200: MailSettingsSerializer, **_ERRORS})
    def put(self, request: Request) -> Response:
        require_first_party(request)
        serializer = SetAddressSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        fields = serializer.validated_data
        row = services.set_address(request.user, fields["address"],
                                   fields.get("language") or _request_language())
        return Response(MailSettingsSerializer(row).data)

    @extend_schema(summary="Change how you are mailed: the daily digest, the language",
                   description="Which events are mailed: your notification preferences, "
                   "channel `email` (`/api/v1/me/notification-preferences/`).",
                   operation_id="update_mail_settings",
                   request=MailChoicesSerializer,
                   responses={200: MailSettingsSerializer, **_ERRORS})
    def patch(self, request: Request) -> Response:
        serializer = MailChoicesSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        row = services.update_choices(request.user, **serializer.validated_data)
        return Response(MailSettingsSerializer(row).data)

    @extend_schema(summary="Remove your e-mail address (nothing more is mailed)",
                   operation_id="remove_mail_address", request=None,
                   responses={204: None, **_ERRORS})
    def delete(self, request: Request) -> Response:
        require_first_party(request)
        services.remove_address(request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class ResendConfirmationView(ApiView):
    required_scopes = {"POST": "account:write"}
    permission_classes = [IsAuthenticated]

    @extend_schema(summary="Mail the confirmation link again",
                   operation_id="resend_mail_confirmation", request=None,
                   responses={202: MailSettingsSerializer, 409: ErrorSerializer,
                              429: ErrorSerializer, **_ERRORS})
    def post(self, request: Request) -> Response:
        row = services.resend_confirmation(request.user)
        return Response(MailSettingsSerializer(row).data, status=status.HTTP_202_ACCEPTED)


class TestMailView(ApiView):
    required_scopes = {"POST": "account:write"}
    permission_classes = [IsAuthenticated]

    @extend_schema(summary="Send a test mail to your confirmed address",
                   description="409 `mail_address_unverified` while the address is not "
                   "confirmed: nothing is ever mailed to an unconfirmed address.",
                   operation_id="send_test_mail", request=None,
                   responses={202: None, 409: ErrorSerializer, **_ERRORS})
    def post(self, request: Request) -> Response:
        services.ask_test_mail(request.user)
        return Response(status=status.HTTP_202_ACCEPTED)
