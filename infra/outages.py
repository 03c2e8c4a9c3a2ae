"""What counts as an outage of the service's own infrastructure, as opposed to a bug.

The API answers these with 503 ``service_unavailable`` (infra/api_errors.py, the GraphQL
views), and the parts that can work without Redis catch its errors to degrade instead
(infra/counters.py). The driver's text (host, port, role) goes to the log only.
"""

from __future__ import annotations

from django.db import InterfaceError as DatabaseInterfaceError
from django.db import OperationalError as DatabaseOperationalError
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

#: the database cannot be reached (down, restarting, connections refused)
DATABASE_UNAVAILABLE = (DatabaseOperationalError, DatabaseInterfaceError)
#: Redis cannot be reached (refused, timed out, still loading its data)
REDIS_UNAVAILABLE = (RedisConnectionError, RedisTimeoutError)
#: either: the API answers 503, not 500
UNAVAILABLE = DATABASE_UNAVAILABLE + REDIS_UNAVAILABLE


#: SQLSTATEs of the runtime role's own bounds (docs/operations.md "Database roles"):
#: statement_timeout (query_canceled) and lock_timeout (lock_not_available). The database
#: is up but busy: the API answers 503 ``database_busy``, retry after a second.
DATABASE_BUSY_STATES = frozenset({"57014", "55P03"})


def database_busy(exc: BaseException) -> bool:
    """Whether ``exc`` (Django's wrapper or psycopg's own error) is a statement or lock
    timeout: the transaction was rolled back, nothing was written."""
    for error in (exc, getattr(exc, "__cause__", None)):
        if getattr(error, "sqlstate", None) in DATABASE_BUSY_STATES:
            return True
    return False


def which(exc: BaseException) -> str:
    """"Redis" or "database", for the log."""
    return "Redis" if isinstance(exc, REDIS_UNAVAILABLE) else "database"
