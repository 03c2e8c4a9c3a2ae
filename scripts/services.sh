#!/usr/bin/env bash
# Project-local PostgreSQL and Redis for development and tests.
#
#   scripts/services.sh start    start both (idempotent: running it twice is fine)
#   scripts/services.sh stop     stop both
#   scripts/services.sh status   report on both (exit 0 only when both are up)
#   ... start|stop|status pg     (or redis) the one service only
#   scripts/services.sh env      print export lines for DATABASE_URL, REDIS_URL, DEBUG=true:
#                                eval "$(scripts/services.sh env)"
#
# Everything lives under $SERVICES_DIR (.var/, git-ignored) and listens on 127.0.0.1 only:
#   .var/pg      the PostgreSQL cluster (data/ and postgres.log), port $PG_PORT (54329)
#   .var/run     PostgreSQL's unix socket and Redis's pid file
#   .var/redis   Redis's working dir and log, port $REDIS_PORT (63799), no persistence
# `make test` runs a second pair of its own (SERVICES_DIR=.var/test, TEST_PG_PORT and
# TEST_REDIS_PORT), so the suite never stops or rewrites what `make run` is using.
# Roles game_owner (owns the database, runs migrations, CREATEDB for the test suite) and
# game (the runtime role the service connects as), and database game, are created on
# first start (scripts/db_roles.sql; docs/operations.md "Database roles").
#
# PostgreSQL refuses to run as root, so when run as root the cluster is owned and run by an
# unprivileged user (`postgres` if present, else a system user `gamesvc` created here).
# When that user cannot reach the checkout (e.g. a clone under /root), the cluster and its
# socket live in /var/tmp/game-service-<hash>/ instead and .var/pg is a symlink to it.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VAR="${SERVICES_DIR:-$ROOT/.var}"
PG_PORT="${PG_PORT:-54329}"
REDIS_PORT="${REDIS_PORT:-63799}"
PG_USER_NAME=game          # the runtime role: DATABASE_URL
PG_PASSWORD=game
PG_OWNER_NAME=game_owner   # owns the tables, runs migrations: DATABASE_OWNER_URL
PG_OWNER_PASSWORD=game_owner
PG_DB_NAME=game

REDIS_DIR="$VAR/redis"
REDIS_PIDFILE="$VAR/run/redis.pid"
REDIS_LOG="$REDIS_DIR/redis.log"

say() { printf '[services] %s\n' "$*"; }
die() { printf '[services] ERROR: %s\n' "$*" >&2; exit 1; }

is_root() { [ "$(id -u)" -eq 0 ]; }

# ---------------------------------------------------------------- finding the binaries

# find_pg_bindir, pg_service_user
# shellcheck source=scripts/pg_common.sh
source "$ROOT/scripts/pg_common.sh"

find_redis_server() { command -v redis-server 2>/dev/null || { [ -x /usr/bin/redis-server ] && echo /usr/bin/redis-server; }; }

ensure_binaries() {
    local missing=()
    find_pg_bindir >/dev/null || missing+=(postgresql)
    find_redis_server >/dev/null || missing+=(redis-server)
    [ ${#missing[@]} -eq 0 ] && return 0
    if is_root && command -v apt-get >/dev/null; then
        say "installing ${missing[*]} with apt-get"
        DEBIAN_FRONTEND=noninteractive apt-get update -q
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
        find_pg_bindir >/dev/null || die "postgresql installed but initdb/pg_ctl/postgres still not found"
        find_redis_server >/dev/null || die "redis-server installed but still not found"
    else
        die "missing: ${missing[*]}. Install them, e.g. on Debian/Ubuntu: sudo apt-get install ${missing[*]}
(PostgreSQL's initdb/pg_ctl/postgres are looked for on PATH and in /usr/lib/postgresql/*/bin)"
    fi
}

# ---------------------------------------------------------------- who runs PostgreSQL, where

SVC_USER=""
PG_HOME=""     # holds data/ and postgres.log
PG_SOCKDIR=""

as_svc() {
    if [ -n "$SVC_USER" ]; then
        # From / : the service user may not be allowed into the caller's working directory.
        (cd / && runuser -u "$SVC_USER" -- "$@")
    else
        "$@"
    fi
}

choose_layout() {
    mkdir -p "$VAR/run" "$REDIS_DIR"
    PG_HOME="$VAR/pg"
    PG_SOCKDIR="$VAR/run"
    if ! is_root; then
        return 0
    fi
    SVC_USER="$(pg_service_user)"
    if [ -L "$VAR/pg" ]; then
        PG_HOME="$(readlink -f "$VAR/pg")"
        PG_SOCKDIR="$(dirname "$PG_HOME")/run"
    else
        mkdir -p "$VAR/pg"
        chown "$SVC_USER" "$VAR/pg" "$VAR/run"
        if ! runuser -u "$SVC_USER" -- test -w "$VAR/pg" -a -w "$VAR/run"; then
            # The service user cannot traverse a parent of the checkout (a home dir with mode
            # 700, say): keep the cluster outside the tree, one folder per checkout.
            local base
            # (named after the checkout, or after SERVICES_DIR when it is another's)
            local key="$ROOT"
            [ "$VAR" = "$ROOT/.var" ] || key="$VAR"
            base="/var/tmp/game-service-$(printf '%s' "$key" | sha1sum | cut -c1-12)"
            rmdir "$VAR/pg" 2>/dev/null || die "$VAR/pg is not empty but $SVC_USER cannot use it"
            chown root "$VAR/run"
            mkdir -p "$base/pg" "$base/run"
            chown "$SVC_USER" "$base" "$base/pg" "$base/run"
            ln -s "$base/pg" "$VAR/pg"
            say "$SVC_USER cannot reach $ROOT; the cluster lives in $base ($VAR/pg links there)"
            PG_HOME="$base/pg"
            PG_SOCKDIR="$base/run"
        fi
    fi
}

# ---------------------------------------------------------------- port checks

port_owner() {
    # Best effort: which process (and its working dir, the data dir for postgres) holds a port.
    local port="$1" pid
    pid="$(ss -ltnpH "sport = :$port" 2>/dev/null | grep -o 'pid=[0-9]*' | head -1 | cut -d= -f2 || true)"
    if [ -n "$pid" ]; then
        printf 'pid %s (%s, cwd %s)' "$pid" "$(tr '\0' ' ' </proc/"$pid"/cmdline 2>/dev/null | cut -c1-80)" \
            "$(readlink /proc/"$pid"/cwd 2>/dev/null || echo '?')"
    else
        printf 'an unknown process'
    fi
}

port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# ---------------------------------------------------------------- PostgreSQL

PG_BIN=""
pg() { as_svc "$PG_BIN/$1" "${@:2}"; }

pg_running() {
    [ -d "$PG_HOME/data" ] || return 1
    # pg_ctl trusts any live pid in postmaster.pid; a reused pid must not count as running.
    pg_clear_stale_pidfile
    pg pg_ctl -D "$PG_HOME/data" status >/dev/null 2>&1
}

pg_clear_stale_pidfile() {
    local pidfile="$PG_HOME/data/postmaster.pid" pid
    [ -f "$pidfile" ] || return 0
    pid="$(head -1 "$pidfile")"
    if [ -z "$pid" ] || ! [ -d "/proc/$pid" ] || ! grep -qE '^(postgres|postmaster)' "/proc/$pid/comm" 2>/dev/null; then
        say "removing stale PostgreSQL pid file (pid ${pid:-?} is not a running postgres)"
        rm -f "$pidfile"
    fi
}

pg_init() {
    [ -f "$PG_HOME/data/PG_VERSION" ] && return 0
    say "initialising a PostgreSQL cluster in $PG_HOME/data"
    as_svc mkdir -p "$PG_HOME/data"
    pg initdb -D "$PG_HOME/data" -U postgres --auth-local=trust --auth-host=scram-sha-256 \
        --encoding=UTF8 --locale=C.UTF-8 >"$PG_HOME/initdb.log" 2>&1 \
        || { cat "$PG_HOME/initdb.log" >&2; die "initdb failed"; }
    # Settings that do not depend on the port go in the cluster; port and socket are passed
    # at start so PG_PORT can change between runs. A throwaway development cluster: trade
    # crash safety for speed.
    as_svc tee -a "$PG_HOME/data/postgresql.conf" >/dev/null <<'EOF'

# --- project-local development cluster (scripts/services.sh)
listen_addresses = '127.0.0.1'
max_connections = 200
fsync = off
synchronous_commit = off
full_page_writes = off
EOF
}

pg_bootstrap_role_and_db() {
    # The owner and runtime roles and the database (scripts/db_roles.sql, idempotent; it
    # also converts a cluster from before the split, where the runtime role owned all).
    as_svc "$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 -h "$PG_SOCKDIR" -p "$PG_PORT" -U postgres \
        -d postgres -v owner="$PG_OWNER_NAME" -v owner_password="$PG_OWNER_PASSWORD" \
        -v runtime="$PG_USER_NAME" -v runtime_password="$PG_PASSWORD" -v dbname="$PG_DB_NAME" \
        -f - <"$ROOT/scripts/db_roles.sql" >/dev/null
}

pg_start() {
    pg_init
    if pg_running; then
        say "PostgreSQL already running ($PG_HOME/data)"
    else
        if port_in_use "$PG_PORT"; then
            die "port $PG_PORT is already served by $(port_owner "$PG_PORT"), not by this checkout's
cluster ($PG_HOME/data). Stop that server, or use another port: PG_PORT=<port> (and the
matching DATABASE_URL; the Makefile derives it from PG_PORT)."
        fi
        say "starting PostgreSQL on 127.0.0.1:$PG_PORT"
        pg pg_ctl -D "$PG_HOME/data" -l "$PG_HOME/postgres.log" -w -t 60 \
            -o "-p $PG_PORT -k '$PG_SOCKDIR'" start >/dev/null \
            || { tail -20 "$PG_HOME/postgres.log" >&2; die "PostgreSQL did not start"; }
    fi
    pg_bootstrap_role_and_db
}

pg_stop() {
    if pg_running; then
        say "stopping PostgreSQL"
        pg pg_ctl -D "$PG_HOME/data" -m fast -w stop >/dev/null
    else
        say "PostgreSQL not running"
    fi
}

pg_status() {
    if pg_running; then
        say "PostgreSQL: running on 127.0.0.1:$PG_PORT (data $PG_HOME/data)"
    else
        say "PostgreSQL: stopped (data $PG_HOME/data)"
        return 1
    fi
}

# ---------------------------------------------------------------- Redis

redis_ping() {
    # PING without depending on redis-cli: a raw RESP exchange over bash's /dev/tcp.
    local port="$1" reply
    # The braces keep fd 3 open afterwards but silence "connection refused" only for this.
    { exec 3<>"/dev/tcp/127.0.0.1/$port"; } 2>/dev/null || return 1
    printf 'PING\r\n' >&3
    IFS= read -r -t 2 reply <&3 || reply=""
    exec 3<&- 3>&-
    [ "${reply%$'\r'}" = "+PONG" ]
}

redis_pid() {
    local pid
    [ -f "$REDIS_PIDFILE" ] || return 1
    pid="$(cat "$REDIS_PIDFILE")"
    [ -n "$pid" ] && [ -d "/proc/$pid" ] && grep -q '^redis-server' "/proc/$pid/comm" 2>/dev/null || return 1
    echo "$pid"
}

redis_start() {
    if redis_pid >/dev/null; then
        say "Redis already running (pid $(redis_pid))"
        return 0
    fi
    if [ -f "$REDIS_PIDFILE" ]; then
        say "removing stale Redis pid file"
        rm -f "$REDIS_PIDFILE"
    fi
    if port_in_use "$REDIS_PORT"; then
        die "port $REDIS_PORT is already served by $(port_owner "$REDIS_PORT"), not by this checkout's
Redis ($REDIS_PIDFILE). Stop it, or use another port: REDIS_PORT=<port> (and the matching
REDIS_URL; the Makefile derives it from REDIS_PORT)."
    fi
    say "starting Redis on 127.0.0.1:$REDIS_PORT"
    "$(find_redis_server)" --bind 127.0.0.1 --port "$REDIS_PORT" --protected-mode yes \
        --daemonize yes --pidfile "$REDIS_PIDFILE" --logfile "$REDIS_LOG" --dir "$REDIS_DIR" \
        --save '' --appendonly no
    local _
    for _ in $(seq 50); do
        redis_ping "$REDIS_PORT" && return 0
        sleep 0.1
    done
    tail -20 "$REDIS_LOG" >&2 || true
    die "Redis did not answer PING on port $REDIS_PORT"
}

redis_stop() {
    local pid _
    if ! pid="$(redis_pid)"; then
        say "Redis not running"
        rm -f "$REDIS_PIDFILE"
        return 0
    fi
    say "stopping Redis (pid $pid)"
    kill "$pid"
    for _ in $(seq 50); do
        [ -d "/proc/$pid" ] || break
        sleep 0.1
    done
    rm -f "$REDIS_PIDFILE"
}

redis_status() {
    if redis_pid >/dev/null && redis_ping "$REDIS_PORT"; then
        say "Redis: running on 127.0.0.1:$REDIS_PORT (pid $(redis_pid))"
    else
        say "Redis: stopped"
        return 1
    fi
}

# ---------------------------------------------------------------- main

usage() { echo "usage: $0 start|stop|status [pg|redis] | env" >&2; exit 2; }

main() {
    local command="${1:-}" only="${2:-}"
    case "$only" in
        ""|pg|redis) ;;
        *) usage ;;
    esac
    case "$command" in
        env)
            # For `eval "$(scripts/services.sh env)"`: exported, quoted, and DEBUG on, since
            # the settings refuse the development key with DEBUG off (local use only).
            printf 'export PG_PORT=%q REDIS_PORT=%q\n' "$PG_PORT" "$REDIS_PORT"
            printf 'export DATABASE_URL=%q\n' "postgres://$PG_USER_NAME:$PG_PASSWORD@127.0.0.1:$PG_PORT/$PG_DB_NAME"
            printf 'export DATABASE_OWNER_URL=%q\n' "postgres://$PG_OWNER_NAME:$PG_OWNER_PASSWORD@127.0.0.1:$PG_PORT/$PG_DB_NAME"
            printf 'export REDIS_URL=%q\n' "redis://127.0.0.1:$REDIS_PORT/0"
            printf 'export DEBUG=%q\n' "${DEBUG:-true}"
            return 0 ;;
        start) ensure_binaries ;;
        stop|status) ;;
        *) usage ;;
    esac
    PG_BIN="$(find_pg_bindir || true)"
    choose_layout
    # One service only (`stop redis`): the fault tests (tests/fault/) restart one at a time.
    local want_pg=1 want_redis=1
    [ "$only" = redis ] && want_pg=0
    [ "$only" = pg ] && want_redis=0
    case "$command" in
        start)
            if [ $want_pg = 1 ]; then pg_start; fi
            if [ $want_redis = 1 ]; then redis_start; fi
            ;;
        stop)
            if [ $want_pg = 1 ] && [ -n "$PG_BIN" ]; then pg_stop; fi
            if [ $want_redis = 1 ]; then redis_stop; fi
            ;;
        status)
            local rc=0
            if [ $want_pg = 1 ]; then
                if [ -n "$PG_BIN" ]; then pg_status || rc=1; else say "PostgreSQL: not installed"; rc=1; fi
            fi
            if [ $want_redis = 1 ]; then redis_status || rc=1; fi
            return $rc
            ;;
    esac
}

main "$@"
