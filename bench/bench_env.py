"""The environment of a bench that drives the service (rest_bench, replay_bench, bot_throughput):
call ``prepare()`` before ``django.setup()``."""

from __future__ import annotations

import os

#: the rate limits a bench's one user and one address would hit (the scopes of
#: infra/throttles.py): hundreds of moves from one user in a minute
RAISED_THROTTLES = {f"THROTTLE_{scope}": "1000000/min"
                    for scope in ("ANON_READ", "USER_READ", "MOVE", "AUTH", "SOCKET_AUTH")}


def prepare() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    # Hundreds of moves from one user in a minute: the rate limits would stop the bench (the
    # cost of a limit check is bench/throttle_bench.py's figure, not these).
    for name, rate in RAISED_THROTTLES.items():
        os.environ.setdefault(name, rate)
    # The benches delete the matches they made, which the runtime role may not
    # (docs/operations.md): connect as the owner role when one is configured
    # (`eval "$(scripts/services.sh env)"` sets it).
    if os.environ.get("DATABASE_OWNER_URL"):
        os.environ["DATABASE_URL"] = os.environ["DATABASE_OWNER_URL"]
