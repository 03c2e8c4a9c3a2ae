"""What the runtime database role may do to the webhooks' tables beyond SELECT, INSERT and
UPDATE (infra/database_roles.py finds this module beside games/webhooks/models.py).

- DELETE of endpoints (their deliveries go with them, by cascade): an app's owner
  removes one (games.webhooks.services.delete_endpoint).
"""

from __future__ import annotations

from infra.database_roles import RuntimePrivileges


def runtime_privileges() -> RuntimePrivileges:
    from games.webhooks.models import Delivery, Endpoint

    return RuntimePrivileges(deletable=frozenset({Endpoint._meta.db_table,
                                                  Delivery._meta.db_table}))
