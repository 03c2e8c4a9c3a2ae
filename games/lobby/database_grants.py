"""What the runtime database role may do to this capability's tables (infra/database_roles.py
finds this module beside games/lobby/models.py and grants it after every ``migrate``):
SELECT, INSERT and UPDATE, as every table; nothing here is deleted by the code, so no
DELETE."""

from __future__ import annotations

from infra.database_roles import RuntimePrivileges


def runtime_privileges() -> RuntimePrivileges:
    return RuntimePrivileges()
