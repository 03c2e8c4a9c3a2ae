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


def which(exc: BaseException) -> str:
    """"Redis" or "database", for the log."""
    return "Redis" if isinstance(exc, REDIS_UNAVAILABLE) else "database"
