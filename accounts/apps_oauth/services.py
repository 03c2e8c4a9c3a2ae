"""The writes of apps and tokens: a player's personal tokens and connected apps, an
owner's apps. Revoking deletes access tokens; accounts/apps_oauth/revocation_triggers.py
then ends the connections they opened, whoever deleted them."""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from oauth2_provider.models import (
    get_access_token_model,
    get_grant_model,
    get_refresh_token_model,
    set_token_value,
)

from accounts.apps_oauth import tokens
from accounts.apps_oauth.models import App, AppUse, PersonalToken
from accounts.scopes import ALL_SCOPES
from infra.api_errors import ApiError

#: a personal token without an expiry lasts this long (DOT's tokens always have one)
NO_EXPIRY = timedelta(days=365 * 100)
MAX_PERSONAL_TOKENS = 50


class UnknownScope(ApiError):
    default_code = "invalid_scope"
    default_detail = _("Unknown scope.")


class TooManyTokens(ApiError):
    status_code = 409
    default_code = "too_many_tokens"
    default_detail = _("You have as many personal tokens as one account may hold: revoke one "
                       "first.")


class NotFound(ApiError):
    status_code = 404
    default_code = "not_found"
    default_detail = _("Not found.")


class SuspendedByService(ApiError):
    status_code = 403
    default_code = "app_suspended"
    default_detail = _("A suspended app is reactivated by the service's staff only.")


def check_scopes(scopes: list[str]) -> str:
    unknown = sorted(set(scopes) - ALL_SCOPES)
    if unknown or not scopes:
        raise UnknownScope(details={"unknown": unknown, "allowed": sorted(ALL_SCOPES)})
    return " ".join(sorted(set(scopes)))


@transaction.atomic
def create_personal_token(user, *, name: str, scopes: list[str],
                          expires_in_days: int | None = None) -> tuple[PersonalToken, str]:
    """The new token's row and its key (shown once: only its checksum is stored)."""
    scope = check_scopes(scopes)
    if PersonalToken.objects.filter(user=user).count() >= MAX_PERSONAL_TOKENS:
        raise TooManyTokens()
    key = tokens.personal_token()
    expires = timezone.now() + (timedelta(days=expires_in_days) if expires_in_days
                                else NO_EXPIRY)
    access = get_access_token_model()(user=user, application=None, scope=scope,
                                      expires=expires)
    set_token_value(access, key)  # hashed at rest: the checksum only (config/oauth_settings.py)
    access.save()
    return PersonalToken.objects.create(user=user, name=name, access_token=access), key


@transaction.atomic
def revoke_personal_token(user, token_id: int) -> None:
    personal = PersonalToken.objects.filter(user=user, pk=token_id).first()
    if personal is None:
        raise NotFound()
    get_access_token_model().objects.filter(pk=personal.access_token_id).delete()  # cascades


@transaction.atomic
def disconnect_app(user, app_id: int) -> None:
    """End every grant of ``app`` to ``user``: its codes, refresh tokens and access tokens
    (their connections close) and its last-use note."""
    if not App.objects.filter(pk=app_id).exists():
        raise NotFound()
    found = False
    for model in (get_grant_model(), get_refresh_token_model(), get_access_token_model()):
        deleted, _rows = model.objects.filter(user=user, application_id=app_id).delete()
        found = found or deleted > 0
    found = AppUse.objects.filter(user=user, app_id=app_id).delete()[0] > 0 or found
    if not found:
        raise NotFound()


def create_app(owner, **fields) -> App:
    app = App(user=owner, **fields)
    app.full_clean(exclude=["client_secret", "client_type", "authorization_grant_type"])
    app.save()
    return app


@transaction.atomic
def update_app(app: App, **fields) -> App:
    if fields.get("active") is True and not app.active:
        raise SuspendedByService()
    for name, value in fields.items():
        setattr(app, name, value)
    app.full_clean(exclude=["client_secret", "client_type", "authorization_grant_type"])
    app.save()  # signals: origins invalidated; a suspension ends the app's connections
    return app
