"""A raw key -> the user and credential it stands for, whichever kind of token it is.

REST's ``Authorization: Bearer`` (bearer_auth.py), GraphQL's and the play socket's token
(games/graphql/auth.py), and the re-checks of open connections (accounts/revocation.py,
the play hub) all come here, so every transport accepts and refuses the same keys:

- an app's access token or a personal access token (``hqa_``/``hqp_``, tokens.py): found
  by its checksum; refused when unknown, expired, revoked (deleted), its app suspended or
  its user inactive;
- anything else: a first-party key, DRF's ``Token`` (accounts/token_auth.py).

Refusals are DRF's ``AuthenticationFailed`` (401 ``not_authenticated``), as today's
invalid token. Nothing is cached: a revoked token or a suspended app is refused at once.

Each use of an OAuth token is noted (``PersonalToken.last_used``, ``AppUse``) at most once
a minute per token and process: a write per request would cost more than the check.
"""

from __future__ import annotations

import logging
import time
from functools import cache

from django.contrib.auth import get_user_model
from django.db import IntegrityError, connection
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from oauth2_provider.models import get_access_token_model, get_application_model
from rest_framework.exceptions import AuthenticationFailed

from accounts.apps_oauth import tokens
from accounts.narrow_users import user_attnames, user_fields
from accounts.token_auth import USER_FIELDS, NarrowTokenAuthentication
from infra.prepared import prepared_cursor
from infra.text_inputs import CONTROL_CHARACTERS

logger = logging.getLogger(__name__)

#: how often one process writes a token's last use
USE_NOTE_SECONDS = 60.0
_noted: dict[int, float] = {}


#: the access token's columns a request reads (``scopes_of`` reads ``scope``; the last-use
#: note the ids); the rest load on first access, as deferred fields do
TOKEN_FIELDS = ("id", "user", "application", "scope", "expires")


@cache
def _token_fields(token_model) -> tuple:
    """``TOKEN_FIELDS`` in the model's own field order (``Model.from_db`` takes them so)."""
    return tuple(field for field in token_model._meta.concrete_fields
                 if field.name in TOKEN_FIELDS)


@cache
def _statement(token_model, app_model, user_model) -> str:
    """One fixed statement: the token by its checksum, its app's ``active`` and its user's
    columns (as accounts/token_auth.py reads them for first-party keys). Building the
    ORM's query cost ten times the database's answer (measured: docs/capacity.md)."""
    token, app, user = token_model._meta, app_model._meta, user_model._meta
    token_columns = ", ".join(f't."{field.column}"' for field in _token_fields(token_model))
    user_columns = ", ".join(f'u."{field.column}"' for field in user_fields(USER_FIELDS))
    return (
        f'SELECT a."{app.get_field("active").column}", {token_columns}, {user_columns} '
        f'FROM "{token.db_table}" t '
        f'JOIN "{user.db_table}" u ON u."{user.pk.column}" = t."{token.get_field("user").column}" '
        f'LEFT JOIN "{app.db_table}" a '
        f'ON a."{app.pk.column}" = t."{token.get_field("application").column}" '
        f'WHERE t."{token.get_field("token_checksum").column}" = %s'
    )


def authenticate_key(key: str):
    """``(user, credential)`` for a raw key: the ``AccessToken`` for an OAuth key (its
    ``TOKEN_FIELDS`` loaded), DRF's ``Token`` for a first-party one.
    ``AuthenticationFailed`` when refused."""
    if not tokens.is_oauth_key(key):
        return NarrowTokenAuthentication().authenticate_credentials(key)
    if CONTROL_CHARACTERS.search(key):
        raise AuthenticationFailed(_("Invalid token."))
    token_model, user_model = get_access_token_model(), get_user_model()
    with prepared_cursor() as cursor:
        cursor.execute(_statement(token_model, get_application_model(), user_model),
                       [tokens.checksum(key)])
        row = cursor.fetchone()
    if row is None:
        raise AuthenticationFailed(_("Invalid token."))
    app_active, *values = row
    count = len(_token_fields(token_model))
    token = token_model.from_db(connection.alias,
                                tuple(field.attname for field in _token_fields(token_model)),
                                values[:count])
    user = user_model.from_db(connection.alias, user_attnames(USER_FIELDS), values[count:])
    token.user = user
    refusal = _refusal(token, app_active, user)
    if refusal is not None:
        raise AuthenticationFailed(refusal)
    _note_use(token)
    return user, token


def _refusal(token, app_active, user):
    if token.is_expired():
        return _("The token has expired.")
    if token.application_id is not None and not app_active:
        return _("The app of this token is suspended.")
    if not user.is_active:
        return _("User inactive or deleted.")
    return None


def standing(keys: set[str]) -> dict[str, str]:
    """Each of ``keys`` that still opens the API, with its user's password hash now (the
    play hub's periodic check of its sockets: one query per kind, whatever their number)."""
    oauth = {tokens.checksum(key): key for key in keys if tokens.is_oauth_key(key)}
    first_party = [key for key in keys if not tokens.is_oauth_key(key)]
    now: dict[str, str] = {}
    if first_party:
        from rest_framework.authtoken.models import Token

        now.update(Token.objects.filter(key__in=first_party, user__is_active=True)
                   .values_list("key", "user__password"))
    if oauth:
        from django.db.models import Q

        rows = (get_access_token_model().objects
                .filter(token_checksum__in=oauth, user__is_active=True,
                        expires__gt=timezone.now())
                .filter(Q(application__isnull=True) | Q(application__active=True))
                .values_list("token_checksum", "user__password"))
        now.update({oauth[checksum]: password for checksum, password in rows})
    return now


def _note_use(token) -> None:
    moment = time.monotonic()
    if moment - _noted.get(token.pk, -USE_NOTE_SECONDS) < USE_NOTE_SECONDS:
        return
    _noted[token.pk] = moment
    if len(_noted) > 100_000:  # bounded: forget all, at worst one more write each
        _noted.clear()
    from accounts.apps_oauth.models import AppUse, PersonalToken

    when = timezone.now()
    try:
        if token.application_id is None:
            PersonalToken.objects.filter(access_token_id=token.pk).update(last_used=when)
        else:
            AppUse.objects.update_or_create(user_id=token.user_id, app_id=token.application_id,
                                            defaults={"last_used": when})
    except IntegrityError:  # two processes noting the first use at once: one wins
        pass
    except Exception:  # noqa: BLE001 - a last-use note never refuses a request
        logger.warning("could not note the use of token %s", token.pk, exc_info=True)
