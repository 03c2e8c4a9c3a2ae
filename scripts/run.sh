#!/usr/bin/env bash
# Development server: migrate, seed, then three processes in the foreground, each
# restarted if it crashes (a worker that dies must not take the web server with it):
#
#   web     scripts/serve_web.sh: uvicorn, one process per core, HTTP + websockets (the
#           production command)
#   worker  Celery worker (both queues, CELERY_WORKER_CONCURRENCY threads)
#   analyst Celery worker of the analysis queue alone, one analysis at a time
#           (docs/analysis.md: analyses never share a worker with bot turns)
#   beat    Celery beat (the periodic sweeps), its own process
#
# Ctrl-C (or TERM) stops all four. `make run` installs the venv and starts the services
# first; this script expects that.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
BIN="$ROOT/.venv/bin"
HOST="${HOST:-127.0.0.1}"
PORT="${PORT:-8000}"
export HOST PORT  # read by scripts/serve_web.sh
# Local development only: DEBUG defaults to off everywhere else (config/settings.py).
export DEBUG="${DEBUG:-true}"

# The processes, one function each: changing how one runs is a one-line change here.
run_web()    { exec "$ROOT/scripts/serve_web.sh"; }
run_worker() { exec "$BIN/celery" -A config worker -l info; }
run_analyst() { exec "$BIN/celery" -A config worker -Q "${CELERY_ANALYSIS_QUEUE:-analysis}" --concurrency=1 -n "analyst@%h" -l info; }
run_beat()   { exec "$BIN/celery" -A config beat -l info --schedule "$ROOT/.var/celery/beat-schedule"; }
NAMES=(web worker analyst beat)

# Migrations and seeding run as the database owner when DATABASE_OWNER_URL is set
# (scripts/services.sh prints both URLs); the four processes connect as DATABASE_URL.
# Seeding makes the superuser admin, which the runtime role may not (docs/operations.md).
if [ -n "${DATABASE_OWNER_URL:-}" ]; then
    DATABASE_URL="$DATABASE_OWNER_URL" "$BIN/python" manage.py migrate --noinput
    DATABASE_URL="$DATABASE_OWNER_URL" "$BIN/python" manage.py seed_dev
else
    "$BIN/python" manage.py migrate --noinput
    "$BIN/python" manage.py seed_dev
fi
# The service itself never sees the owner's credentials.
unset DATABASE_OWNER_URL

mkdir -p .var/celery
declare -A PID STARTED
stopping=0

start() {
    local name="$1"
    "run_$name" &
    PID[$name]=$!
    STARTED[$name]=$SECONDS
    echo "[run] $name started (pid ${PID[$name]})"
}

stop_all() {
    trap - INT TERM EXIT
    stopping=1
    echo "[run] stopping ${NAMES[*]}"
    local name pid
    for name in "${NAMES[@]}"; do kill -TERM "${PID[$name]:-}" 2>/dev/null || true; done
    # Celery's warm shutdown finishes running tasks; give it a moment, then insist.
    for _ in $(seq 100); do
        local alive=0
        for pid in "${PID[@]}"; do kill -0 "$pid" 2>/dev/null && alive=1; done
        [ "$alive" -eq 0 ] && break
        sleep 0.1
    done
    for pid in "${PID[@]}"; do kill -KILL "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    exit 0
}
trap stop_all INT TERM EXIT

for name in "${NAMES[@]}"; do start "$name"; done
echo "[run] http://$HOST:$PORT/  (API docs /api/v1/docs/, admin /admin/ as admin/admin)"

# Supervise: whichever process exits is started again; one that keeps crashing right after
# its start is restarted with a growing pause (1, 2, 4 ... 30 s) so its log stays readable.
declare -A PAUSE
while [ "$stopping" -eq 0 ]; do
    wait -n || true
    for name in "${NAMES[@]}"; do
        kill -0 "${PID[$name]}" 2>/dev/null && continue
        rc=0
        wait "${PID[$name]}" 2>/dev/null || rc=$?
        lived=$((SECONDS - STARTED[$name]))
        pause=1
        if [ "$lived" -lt 10 ]; then
            pause=$(( ${PAUSE[$name]:-0} * 2 ))
            if [ "$pause" -lt 1 ]; then pause=1; elif [ "$pause" -gt 30 ]; then pause=30; fi
        fi
        PAUSE[$name]=$pause
        echo "[run] $name exited (status $rc after ${lived}s); restarting in ${PAUSE[$name]}s"
        sleep "${PAUSE[$name]}" & wait $! || true
        start "$name"
    done
done
