#!/usr/bin/env bash
# Development server: migrate, seed, then five processes in the foreground, each
# restarted if it crashes (a worker that dies must not take the web server with it):
#
#   web     scripts/serve_web.sh: uvicorn, one process per core, HTTP + websockets (the
#           production command)
#   worker  Celery worker (both queues, CELERY_WORKER_CONCURRENCY threads)
#   analyst Celery worker of the analysis queue alone, one analysis at a time
#           (docs/analysis.md: analyses never share a worker with bot turns)
#   beat    Celery beat (the periodic sweeps), its own process
#   metrics the metrics endpoint (infra/observability/exporter.py) on 127.0.0.1:METRICS_PORT
#           (9100): every web and worker process's metrics, never on the public port
#
# Ctrl-C (or TERM) stops them all. `make run` installs the venv and starts the services
# first; this script expects that.
set -euo pipefail

# Started in the background of a non-interactive shell (`scripts/run.sh &` in a script, a CI
# step), this shell inherits SIGINT ignored, and bash cannot trap a signal that was ignored
# on entry. Ctrl-C (SIGINT to the process group) then still stopped web, worker and beat,
# which install their own handlers, and the supervisor below started them again, forever
# (tests/fault/test_run_script.py timed out waiting for it). Start once more with SIGINT at
# its default, so the trap below always holds.
if [ -z "${RUN_SH_SIGNALS_RESET:-}" ] && env --default-signal=INT true 2>/dev/null; then
    exec env --default-signal=INT RUN_SH_SIGNALS_RESET=1 "$0" "$@"
fi

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
run_metrics() { exec "$BIN/python" -m infra.observability.exporter; }
NAMES=(web worker analyst beat metrics)

# Every process writes its metrics here (prometheus-client's multiprocess mode); what an
# earlier run left would be counted again, so its metric files go (only those: the
# directory may be the caller's).
export PROMETHEUS_MULTIPROC_DIR="${PROMETHEUS_MULTIPROC_DIR:-$ROOT/.var/prometheus}"
mkdir -p "$PROMETHEUS_MULTIPROC_DIR"
find "$PROMETHEUS_MULTIPROC_DIR" -maxdepth 1 -type f -name '*.db' -delete

# Migrations and seeding run as the database owner when DATABASE_OWNER_URL is set
# (scripts/services.sh prints both URLs); the processes connect as DATABASE_URL.
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
pausing=""  # the pid of a restart's pause, while one runs

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
    # a restart's pause (below) must not hold the exit
    [ -n "$pausing" ] && kill -TERM "$pausing" 2>/dev/null || true
    for name in "${NAMES[@]}"; do kill -TERM "${PID[$name]:-}" 2>/dev/null || true; done
    # Celery's warm shutdown finishes running tasks and uvicorn's graceful shutdown open
    # requests (at most 10 s, scripts/serve_web.sh); past STOP_TIMEOUT_S (wall clock, not a
    # count of sleeps, which a busy machine stretches), insist.
    local deadline=$((SECONDS + ${STOP_TIMEOUT_S:-15}))
    while [ "$SECONDS" -lt "$deadline" ]; do
        local alive=0
        for pid in "${PID[@]}"; do kill -0 "$pid" 2>/dev/null && alive=1; done
        [ "$alive" -eq 0 ] && break
        sleep 0.2
    done
    for pid in "${PID[@]}"; do
        # uvicorn's worker processes too, which its killed supervisor would leave behind
        pkill -KILL -P "$pid" 2>/dev/null || true
        kill -KILL "$pid" 2>/dev/null || true
    done
    wait 2>/dev/null || true
    exit 0
}
trap stop_all INT TERM EXIT

for name in "${NAMES[@]}"; do start "$name"; done
echo "[run] http://$HOST:$PORT/  (API docs /api/v1/docs/, admin /admin/ as admin/admin)"
echo "[run] metrics: http://${METRICS_HOST:-127.0.0.1}:${METRICS_PORT:-9100}/metrics"

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
        sleep "${PAUSE[$name]}" & pausing=$!
        wait "$pausing" || true
        pausing=""
        start "$name"
    done
done
