"""Who is calling: the same DRF token, bearer (and, for HTTP, session) authentication as
REST.

REST and GraphQL must accept exactly the same credentials, so both transports go through
the authentication classes configured in ``REST_FRAMEWORK`` rather than a copy of them.
"""

from __future__ import annotations

from functools import cache

from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest
from django.utils.translation import gettext as _
from rest_framework.authentication import SessionAuthentication
from rest_framework.exceptions import AuthenticationFailed, PermissionDenied
from rest_framework.request import Request
from rest_framework.settings import api_settings

from accounts.apps_oauth.credentials import authenticate_key


class CredentialsRefused(Exception):
    """Credentials were sent and refused: answered as REST answers them, never downgraded
    to anonymous (a client with a revoked token should find out at once)."""

    code = "error"
    reason = "error"
    http_status = 400

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class InvalidToken(CredentialsRefused):
    """A token that is unknown, revoked, or belongs to an inactive user: REST's 401
    ``not_authenticated`` with the reason in the details."""

    code = "not_authenticated"
    reason = "authentication_failed"
    http_status = 401


class CsrfRefused(CredentialsRefused):
    """A session-authenticated POST without the CSRF token: REST's 403 permission_denied."""

    code = "permission_denied"
    reason = "csrf_failed"
    http_status = 403


@cache
def _csrf_on_django_request(cls: type[SessionAuthentication]) -> type[SessionAuthentication]:
    """``cls`` with its CSRF check run on the Django request under DRF's wrapper.

    Django's CSRF check reads ``request.POST`` (for a ``csrfmiddlewaretoken`` field) before
    the ``X-CSRFToken`` header. On DRF's Request that means parsing the body with the
    request's parsers, and the GraphQL view has none: every session-authenticated POST was
    a 500 (UnsupportedMediaType, issue 9). Django's own ``POST`` is empty for a JSON body
    and leaves the body unread for strawberry."""

    class CsrfOnDjangoRequest(cls):
        def enforce_csrf(self, request):
            super().enforce_csrf(getattr(request, "_request", request))

    return CsrfOnDjangoRequest


def _authenticator(cls: type):
    if issubclass(cls, SessionAuthentication):
        cls = _csrf_on_django_request(cls)
    return cls()


def authenticate_http_request(request: HttpRequest) -> tuple[object, object | None]:
    """``(user, auth)`` behind an HTTP request, as REST would see it: ``Authorization:
    Token ...`` (auth is the Token) or a session (with DRF's CSRF check for
    session-authenticated unsafe requests). Anonymous when no credentials are sent;
    ``CredentialsRefused`` when bad ones are."""
    authenticators = [_authenticator(cls) for cls in api_settings.DEFAULT_AUTHENTICATION_CLASSES]
    drf_request = Request(request, authenticators=authenticators)
    try:
        return drf_request.user, drf_request.auth
    except AuthenticationFailed as exc:
        raise InvalidToken(str(exc.detail)) from exc
    except PermissionDenied as exc:
        raise CsrfRefused(str(exc.detail)) from exc


def credential_for_token(key: str | None) -> tuple[object, object | None]:
    """``(user, credential)`` a bare key stands for (websockets carry no Authorization
    header): a first-party key (its ``Token``), an app's OAuth access token or a personal
    access token (its ``AccessToken``; accounts/apps_oauth/credentials.py), the raw key
    without any ``Token``/``Bearer`` keyword. ``(AnonymousUser, None)`` for no key;
    ``InvalidToken`` for a bad one: unknown, revoked, expired, its app suspended."""
    if not key:
        return AnonymousUser(), None
    if not isinstance(key, str):
        raise InvalidToken(_("The token must be a string."))
    try:
        return authenticate_key(key)
    except AuthenticationFailed as exc:
        raise InvalidToken(str(exc.detail)) from exc


def user_for_token(key: str | None):
    """The user of ``credential_for_token``."""
    return credential_for_token(key)[0]
