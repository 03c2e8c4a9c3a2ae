"""The mail API's refusals, each with a stable code (infra/api_errors.py; docs/api.md)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from rest_framework import status

from infra.api_errors import ApiError


class AddressInvalid(ApiError):
    default_code = "mail_address_invalid"
    default_detail = _("That is not an e-mail address we can send to.")


class AddressMissing(ApiError):
    status_code = status.HTTP_404_NOT_FOUND
    default_code = "mail_address_missing"
    default_detail = _("You have not set an e-mail address.")


class AddressAlreadyVerified(ApiError):
    status_code = status.HTTP_409_CONFLICT
    default_code = "mail_address_already_verified"
    default_detail = _("This e-mail address is confirmed already.")


class AddressUnverified(ApiError):
    status_code = status.HTTP_409_CONFLICT
    default_code = "mail_address_unverified"
    default_detail = _("Your e-mail address is not confirmed yet: open the link we sent to it.")


class ConfirmationTooSoon(ApiError):
    status_code = status.HTTP_429_TOO_MANY_REQUESTS
    default_code = "mail_confirmation_too_soon"
    default_detail = _("A confirmation mail was sent a moment ago: wait before asking again.")



class LanguageUnknown(ApiError):
    default_code = "invalid_input"
    default_detail = _("The mails speak English (en) or German (de).")
