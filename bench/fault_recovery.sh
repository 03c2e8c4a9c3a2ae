#!/usr/bin/env bash
# Recovery times after faults: runs the fault tests (tests/fault/, they stop and restart
# this checkout's own PostgreSQL and Redis and kill workers) and prints their figures.
#
#   PG_PORT=... REDIS_PORT=... bench/fault_recovery.sh [runs]
#
# Each run prints lines such as "[recovery] Redis restart -> first move: 1.9 s".
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
runs="${1:-1}"
make --no-print-directory install services >/dev/null
for run in $(seq "$runs"); do
    echo "== run $run"
    .venv/bin/pytest -q -s -p no:cacheprovider tests/fault 2>&1 | grep -E '^\[(recovery|outage)\]|passed|failed'
done
