"""What the runtime database role may do to the feed's table beyond SELECT, INSERT and
UPDATE (infra/database_roles.py finds this module beside games/feed/models.py and grants
it after every ``migrate``).

- DELETE of feed events: an erased account's feed goes with it
  (games.feed.services, called by games.leaving).
"""

from __future__ import annotations

from infra.database_roles import RuntimePrivileges


def runtime_privileges() -> RuntimePrivileges:
    from games.feed.models import FeedEvent

    return RuntimePrivileges(deletable=frozenset({FeedEvent._meta.db_table}))
