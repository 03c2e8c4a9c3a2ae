#!/usr/bin/env bash
# Development server: migrate, seed, then the web tier (scripts/serve_web.sh: uvicorn, one
# process per core, HTTP + websockets) and a Celery worker with embedded beat (both queues,
# CELERY_WORKER_CONCURRENCY threads), both in the foreground. Ctrl-C (or TERM) stops both.
# `make run` installs the venv and starts the services first; this script expects that.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
BIN="$ROOT/.venv/bin"
HOST="${HOST:-127.0.0.1}"
PORT="${PORT:-8000}"
# Local development only: DEBUG defaults to off everywhere else (config/settings.py).
export DEBUG="${DEBUG:-true}"

"$BIN/python" manage.py migrate --noinput
"$BIN/python" manage.py seed_dev

mkdir -p .var/celery
pids=()

stop_all() {
    trap - INT TERM EXIT
    echo "[run] stopping web server and worker"
    local pid
    for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
    # Celery's warm shutdown finishes running tasks; give it a moment, then insist.
    for _ in $(seq 100); do
        local alive=0
        for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null && alive=1; done
        [ "$alive" -eq 0 ] && break
        sleep 0.1
    done
    for pid in "${pids[@]}"; do kill -KILL "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
}
trap stop_all INT TERM EXIT

# One ASGI process per core (WEB_PROCESSES), the same command as production.
HOST="$HOST" PORT="$PORT" "$ROOT/scripts/serve_web.sh" &
pids+=($!)
"$BIN/celery" -A config worker -B -l info \
    --schedule "$ROOT/.var/celery/beat-schedule" &
pids+=($!)

echo "[run] http://$HOST:$PORT/  (API docs /api/v1/docs/, admin /admin/ as admin/admin)"
# Whichever stops first (crash or Ctrl-C) takes the other one down with it.
wait -n || true
