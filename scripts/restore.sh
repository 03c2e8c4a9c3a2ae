#!/usr/bin/env bash
# Restores a base backup of scripts/backup.sh into a new PostgreSQL cluster and replays the
# archived WAL on top (point-in-time recovery), then starts it, promoted and writable, on
# its own port. The old cluster is never touched: point the service at the new one
# (DATABASE_URL) or move its data directory into place once you have checked it.
#
#   scripts/restore.sh --data DIR --port PORT [--base NAME] [--until TIME]
#
#   --data DIR     the new cluster's data directory (must not exist, or be empty)
#   --port PORT    where it listens (127.0.0.1, and a socket in DIR)
#   --base NAME    a folder of $BACKUP_DIR/base (default: the newest)
#   --until TIME   stop replaying at this moment ('2026-12-01 16:40:00+00'); default: replay
#                  everything the archive holds
#
# BACKUP_DIR as for scripts/backup.sh (.var/backups). RESTORE_TIMEOUT_S (1800): how long
# replaying may take. Prints the seconds it took. docs/operations.md "Backups".
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=scripts/pg_common.sh
source "$ROOT/scripts/pg_common.sh"

BACKUP_DIR="${BACKUP_DIR:-$ROOT/.var/backups}"
say() { printf '[restore] %s\n' "$*"; }
die() { printf '[restore] ERROR: %s\n' "$*" >&2; exit 1; }
usage() { sed -n '7,14p' "$0" >&2; exit 2; }

DATA="" PORT="" BASE="" UNTIL=""
while [ $# -gt 0 ]; do
    case "$1" in
        --data) DATA="$2"; shift 2 ;;
        --port) PORT="$2"; shift 2 ;;
        --base) BASE="$2"; shift 2 ;;
        --until) UNTIL="$2"; shift 2 ;;
        *) usage ;;
    esac
done
[ -n "$DATA" ] && [ -n "$PORT" ] || usage
[ -n "$BASE" ] || BASE="$(ls -1 "$BACKUP_DIR/base" 2>/dev/null | grep -v '\.part$' | sort | tail -1)"
[ -n "$BASE" ] && [ -f "$BACKUP_DIR/base/$BASE/base.tar.gz" ] || die "no base backup $BASE in $BACKUP_DIR/base"
[ ! -e "$DATA" ] || [ -z "$(ls -A "$DATA")" ] || die "$DATA is not empty: restore into a new directory"
(exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null && die "port $PORT is in use"

PG_BIN="$(find_pg_bindir)" || die "PostgreSQL's binaries not found"
SVC_USER="$(pg_service_user)"
as_svc() { if [ -n "$SVC_USER" ]; then (cd / && runuser -u "$SVC_USER" -- "$@"); else "$@"; fi; }

started=$SECONDS
mkdir -p "$DATA"
DATA="$(cd "$DATA" && pwd)"
say "restoring $BACKUP_DIR/base/$BASE into $DATA"
tar -xzf "$BACKUP_DIR/base/$BASE/base.tar.gz" -C "$DATA"
mkdir -p "$DATA/pg_wal"
tar -xzf "$BACKUP_DIR/base/$BASE/pg_wal.tar.gz" -C "$DATA/pg_wal"

# Recovery settings, after everything the backup brought (postgresql.auto.conf is read
# last). The restored cluster archives nothing: it must not write into the archive of the
# cluster it came from. Turn archiving on for it (scripts/backup.sh enable) and take a new
# base backup once it serves.
{
    echo "# --- scripts/restore.sh, $(date -u +%FT%TZ): recovery from $BASE"
    # scripts/backup.sh archives <segment>.gz; a segment archived before compression came
    # is read as it is
    echo "restore_command = 'if [ -f \"$BACKUP_DIR/wal/%f.gz\" ]; then gzip -dc \"$BACKUP_DIR/wal/%f.gz\" > \"%p\"; else cp \"$BACKUP_DIR/wal/%f\" \"%p\"; fi'"
    echo "recovery_target_action = 'promote'"
    [ -n "$UNTIL" ] && echo "recovery_target_time = '$UNTIL'"
    echo "archive_mode = 'off'"
} >>"$DATA/postgresql.auto.conf"
touch "$DATA/recovery.signal"
chmod 700 "$DATA"
: >"$DATA.log"
[ -n "$SVC_USER" ] && chown -R "$SVC_USER" "$DATA" "$DATA.log"

as_svc "$PG_BIN/pg_ctl" -D "$DATA" -l "$DATA.log" -w -t 600 \
    -o "-p $PORT -k '$DATA' -c listen_addresses=127.0.0.1" start >/dev/null \
    || { tail -20 "$DATA.log" >&2; die "PostgreSQL did not start (log: $DATA.log)"; }

# pg_ctl returns once the cluster is consistent and reads; it writes once the replay has
# reached its target and promoted it.
deadline=$((SECONDS + ${RESTORE_TIMEOUT_S:-1800}))
until [ "$("$PG_BIN/psql" -X -A -t -h "$DATA" -p "$PORT" -U postgres -d postgres \
            -c 'SELECT pg_is_in_recovery()' 2>/dev/null)" = f ]; do
    [ "$SECONDS" -lt "$deadline" ] || die "still recovering after ${RESTORE_TIMEOUT_S:-1800} s (log: $DATA.log)"
    sleep 0.2
done
replayed="$(grep -o 'last completed transaction was at log time .*' "$DATA.log" | tail -1 || true)"
say "restored and promoted on 127.0.0.1:$PORT in $((SECONDS - started)) s${replayed:+ ($replayed)}"
say "stop it with: $PG_BIN/pg_ctl -D $DATA stop${SVC_USER:+ (as $SVC_USER)}"
