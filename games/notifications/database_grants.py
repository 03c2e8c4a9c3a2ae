"""What the runtime database role may do to the notifications' tables beyond SELECT,
INSERT and UPDATE (infra/database_roles.py finds this module beside models.py).

- DELETE of push subscriptions: their owner removes one, and a push service that answers
  404 or 410 says the browser dropped it (games.notifications.push).
"""

from __future__ import annotations

from infra.database_roles import RuntimePrivileges


def runtime_privileges() -> RuntimePrivileges:
    from games.notifications.models import PushSubscription

    return RuntimePrivileges(deletable=frozenset({PushSubscription._meta.db_table}))
