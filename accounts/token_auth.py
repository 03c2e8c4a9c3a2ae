"""DRF's token authentication in one narrow, prepared SQL statement.

Every API request authenticates, so this runs more than anything else. DRF's
``TokenAuthentication`` builds an ORM query (token joined to all 14 user columns) on every
call, and building it costs more CPU than PostgreSQL spends answering it (measured for
issue 14; docs/capacity.md). This subclass asks the same question in fixed SQL for the
columns a request uses (the user's id, username, flags and password hash; the rest load
on first access, as deferred fields do) and answers exactly as DRF does: 401 for an
unknown key or an inactive user. Nothing is cached, so a revoked token stops working at
once.

A key holding a control character is refused as an unknown key is, before any query:
PostgreSQL cannot take a NUL byte, and such a key was a 500 (issue 21). The websocket's
token check (games/graphql/auth.py) comes through here too.
"""

from __future__ import annotations

from functools import cache

from django.contrib.auth import get_user_model
from django.db import connection
from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication

from accounts.narrow_users import user_attnames, user_fields
from infra.prepared import prepared_cursor
from infra.text_inputs import CONTROL_CHARACTERS

#: the user columns a request reads (permissions, seats, display), and the password's
#: hash, which a play socket keeps from its hello to notice a password change
#: (games/play/operations.py): read here, it costs its sockets no second query
USER_FIELDS = ("id", "username", "is_active", "is_staff", "is_superuser", "password")


@cache
def _statement(token_model, user_model) -> str:
    token, user = token_model._meta, user_model._meta
    user_columns = ", ".join(f'u."{field.column}"' for field in user_fields(USER_FIELDS))
    return (
        f'SELECT t."{token.get_field("created").column}", {user_columns} '
        f'FROM "{token.db_table}" t JOIN "{user.db_table}" u '
        f'ON u."{user.pk.column}" = t."{token.get_field("user").column}" '
        f'WHERE t."{token.pk.column}" = %s'
    )


class NarrowTokenAuthentication(TokenAuthentication):
    def authenticate_credentials(self, key):
        if CONTROL_CHARACTERS.search(key):  # no key holds one; the database takes no NUL
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        token_model, user_model = self.get_model(), get_user_model()
        with prepared_cursor() as cursor:
            cursor.execute(_statement(token_model, user_model), [key])
            row = cursor.fetchone()
        if row is None:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        created, *user_values = row
        user = user_model.from_db(connection.alias, user_attnames(USER_FIELDS), user_values)
        if not user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        token = token_model.from_db(connection.alias, ("key", "user_id", "created"),
                                    (key, user.pk, created))
        token.user = user
        return (user, token)
