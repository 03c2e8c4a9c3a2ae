#!/usr/bin/env bash
# The web tier in the foreground: uvicorn serving config.asgi (HTTP, GraphQL, websockets)
# with WEB_PROCESSES worker processes (default: one per core), forked from one process that
# loaded the app (WEB_PREFORK, default true: infra/preforked_uvicorn.py). The processes
# share nothing else but PostgreSQL and Redis: live updates reach a subscriber on any process through the
# Redis channel layer, and each process keeps its own connection pool (DB_POOL_MAX_SIZE).
# uvicorn's supervisor restarts a worker process that dies. Used by scripts/run.sh, the
# container image and the benchmarks, so all of them serve the same way.
#
#   HOST (127.0.0.1)  PORT (8000)  WEB_PROCESSES (nproc)  WEB_ACCESS_LOG (true: Django's access lines)  UVICORN
#   WEB_PREFORK (true: the processes forked from one that loaded the app; false: plain uvicorn)
#   LOG_LEVEL (INFO; uvicorn's own lines too)
#   WEB_START_TIMEOUT_S (60)
#   PROMETHEUS_MULTIPROC_DIR: where the processes write their metrics (docs/operations.md
#   "Metrics"). Given, it is the caller's (scripts/run.sh empties it and runs the exporter
#   beside the worker); unset, this script makes one of its own, empty, under .var/.
#
# kill -HUP <uvicorn's pid> replaces the processes one by one (new code, no dropped request).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# $UVICORN if set, else the checkout's venv, else PATH (the container image)
UVICORN="${UVICORN:-$ROOT/.venv/bin/uvicorn}"
[ -x "$UVICORN" ] || UVICORN="$(command -v uvicorn || true)"
[ -n "$UVICORN" ] || { echo "serve_web.sh: uvicorn not found (make install)" >&2; exit 1; }
PYTHON="${PYTHON:-$ROOT/.venv/bin/python}"
[ -x "$PYTHON" ] || PYTHON="$(command -v python3 || command -v python)"
cd "$ROOT"

if [ -z "${PROMETHEUS_MULTIPROC_DIR:-}" ]; then
    export PROMETHEUS_MULTIPROC_DIR="$ROOT/.var/prometheus-web-${PORT:-8000}"
    rm -rf "$PROMETHEUS_MULTIPROC_DIR"
fi
mkdir -p "$PROMETHEUS_MULTIPROC_DIR"

# The configuration's system checks (infra/config_checks.py: THROTTLE_*, WEB_THREADS,
# FORWARDED_ALLOW_IPS, ...) once, before any process serves: an error stops here with its
# message (a JSON log line) and status 1, instead of uvicorn starting processes that answer
# 500 or restarting ones that die. Warnings are logged and the tier starts. Celery runs the
# same checks (config/start_checks.py), migrate its own.
DJANGO_SETTINGS_MODULE="${DJANGO_SETTINGS_MODULE:-config.settings}" "$PYTHON" -c \
    'from config.start_checks import run_start_checks; run_start_checks("web")' || exit 1

args=(
    config.asgi:application
    --host "${HOST:-127.0.0.1}" --port "${PORT:-8000}"
    --workers "${WEB_PROCESSES:-$(nproc 2>/dev/null || echo 1)}"
    # Channels' router speaks no lifespan protocol; the pools open on first use.
    --lifespan off
    # websockets' sans-I/O implementation: uvicorn 0.54 deprecates its legacy one
    --loop uvloop --http httptools --ws websockets-sansio
    # no per-message compression: our frames are small and compressing each one cost more
    # CPU than the bytes saved on loopback and LAN (py-spy under the peer bench)
    --ws-per-message-deflate false
    # behind the compose entry point (nginx) the client's address comes in X-Forwarded-For
    --proxy-headers --forwarded-allow-ips "${FORWARDED_ALLOW_IPS:-127.0.0.1}"
    --timeout-graceful-shutdown 10
    # SIGHUP replaces the processes one by one (docs/operations.md "Rolling restarts"): a
    # new one must serve within this many seconds or the restart stops, keeping the old
    # ones. uvicorn's 5 s is less than loading Django takes on a busy machine. It is also
    # how long a process may leave a health ping unanswered before it counts as hung.
    --timeout-worker-healthcheck "${WEB_START_TIMEOUT_S:-60}"
    # JSON lines from the supervisor too (the workers' come from settings.LOGGING)
    --log-config "$ROOT/config/uvicorn_logging.json"
    # uvicorn's own lines (two per websocket opened) at LOG_LEVEL, as every other logger
    --log-level "$(printf '%s' "${LOG_LEVEL:-INFO}" | tr '[:upper:]' '[:lower:]')"
    # longer than a client's or load balancer's idle reuse: closing a kept-alive
    # connection just as the client reuses it drops that request (seen under load at 5 s)
    --timeout-keep-alive "${WEB_KEEP_ALIVE_S:-75}"
)
# uvicorn's access lines have no request id and no duration: Django writes one JSON access
# line per request instead (infra/observability/access_log.py; WEB_ACCESS_LOG=false: none)
args+=(--no-access-log)
# The processes are forked from one that loaded the app once, so they share its pages
# (infra/preforked_uvicorn.py; uvicorn's own --workers would start each from scratch).
# WEB_PREFORK=false: plain uvicorn, each process loading everything itself.
if [ "${WEB_PREFORK:-true}" = "false" ]; then
    exec "$UVICORN" "${args[@]}"
fi
exec "$PYTHON" -m infra.preforked_uvicorn "${args[@]}"
