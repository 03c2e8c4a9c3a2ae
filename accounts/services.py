"""Writes on accounts: registration and API tokens. Views only parse and render."""

from __future__ import annotations

from django.contrib.auth import authenticate
from django.db import IntegrityError, transaction
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from rest_framework.authtoken.models import Token
from rest_framework.exceptions import ErrorDetail, ValidationError

from accounts import failed_logins
from accounts.models import User
from infra.api_errors import ApiError


class InvalidCredentials(ApiError):
    status_code = 400
    default_code = "invalid_credentials"
    default_detail = _("Unable to log in with the provided username and password.")


@transaction.atomic
def register_user(*, username: str, password: str, email: str = "") -> tuple[User, Token]:
    """Create a user (password already validated by the caller) and its API token.
    A username taken meanwhile (regardless of case: the database constraint) is the same
    ``unique`` field error the serializer gives, not a 500."""
    try:
        with transaction.atomic():
            user = User.objects.create_user(username=username, email=email, password=password)
    except IntegrityError as exc:
        raise ValidationError(
            {"username": [ErrorDetail(gettext("A user with that username already exists."),
                                      code="unique")]}
        ) from exc
    token = Token.objects.create(user=user)
    return user, token


def issue_token(*, username: str, password: str, address: str, request=None) -> Token:
    """The user's API token, created on first use. One token per user (DRF authtoken):
    issuing again returns the same key until it is revoked. ``address`` is the caller's
    (infra.throttles.client_address): failed logins hold it back per account
    (accounts/failed_logins.py), before the password is even checked."""
    failed_logins.check(username, address)
    user = authenticate(request, username=username, password=password)
    if user is None:
        failed_logins.record_failure(username, address)
        # Same answer for an unknown user, a wrong password and an inactive account, so the
        # endpoint does not reveal which usernames exist.
        raise InvalidCredentials()
    failed_logins.record_success(username, address)
    token, _ = Token.objects.get_or_create(user=user)
    return token


def revoke_token(token: Token) -> None:
    token.delete()
