"""What the runtime database role may do to the tables of apps and tokens
(infra/database_roles.py finds this module beside its models and grants it after every
``migrate``): SELECT, INSERT and
UPDATE as every table, and DELETE where the code deletes: an authorization code once used,
an access token revoked or rotated, a refresh token revoked (``clear_expired``), a
personal token revoked, an app deleted in the admin with what hangs on it."""

from __future__ import annotations

from django.apps import apps
from oauth2_provider.models import (
    get_access_token_model,
    get_application_model,
    get_grant_model,
    get_id_token_model,
    get_refresh_token_model,
)

from infra.database_roles import RuntimePrivileges


def runtime_privileges() -> RuntimePrivileges:
    models = (get_access_token_model(), get_refresh_token_model(), get_grant_model(),
              get_id_token_model(), get_application_model(),
              apps.get_model("apps_oauth", "PersonalToken"),
              apps.get_model("apps_oauth", "AppUse"))
    return RuntimePrivileges(deletable=frozenset(model._meta.db_table for model in models))
