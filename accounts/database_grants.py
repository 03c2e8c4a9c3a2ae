"""What the runtime database role may do to the tables of signing in: the users, their
tokens, sessions, groups and permissions (infra/database_roles.py finds this module beside
accounts/models.py and grants it after every ``migrate``). Tables are named by their models'
``Meta`` (through the app registry), so a renamed table keeps its rules.

- accounts_user: UPDATE of ``password`` and ``last_login`` only: what the service
  changes after registration (a password change, a hash upgraded at login, a session
  login), never ``is_superuser``, ``is_staff``, ``is_active`` or a name; and no INSERT of
  a staff user or a superuser (a row-level policy): who holds power is the owner's to say
  (``createsuperuser`` and the like, run as the owner);
- tokens: created and deleted (revoke), never changed;
- DELETE of sessions (logout, expired sessions), tokens (revoke), and the admin's group
  and permission links;
- EXECUTE on ``accounts_erase_user`` (accounts/migrations/0003), the owner's function that
  turns an account into a tombstone: the one change of a username, an email or
  ``is_active`` the runtime can make (accounts/erasure.py).
"""

from __future__ import annotations

from django.apps import apps

from infra.database_roles import InsertCheck, RuntimePrivileges

#: the only columns of accounts_user the code updates (checked against the code):
#: set_password + save(update_fields=["password"]) in the admin's password changes and
#: Django's hash upgrade at login; update_last_login on a session login. Registration
#: and the bot accounts insert whole rows.
USER_UPDATABLE = ("password", "last_login")


def runtime_privileges() -> RuntimePrivileges:
    """The tables' rules (their models loaded: call from ``ready``)."""
    user_model = apps.get_model("accounts", "User")
    user = user_model._meta.db_table
    token = apps.get_model("authtoken", "Token")._meta.db_table
    return RuntimePrivileges(
        updatable_columns={user: USER_UPDATABLE},
        no_update=frozenset({token}),
        deletable=frozenset({
            apps.get_model("sessions", "Session")._meta.db_table,  # logout, expired ones
            token,  # accounts.services.revoke_token
            # the admin editing a user's groups and permissions
            user_model.groups.through._meta.db_table,
            user_model.user_permissions.through._meta.db_table,
            apps.get_model("auth", "Group").permissions.through._meta.db_table,
        }),
        functions=("accounts_erase_user(bigint, text)",),
        insert_checks={user: InsertCheck(everyone="every_role_every_user",
                                         name="runtime_makes_no_staff",
                                         check="NOT is_superuser AND NOT is_staff")},
    )
