#!/usr/bin/env bash
# Backups of the PostgreSQL cluster with PostgreSQL's own tools: base backups
# (pg_basebackup) plus continuous WAL archiving, so scripts/restore.sh can bring the
# database back to any moment covered by the archive (point-in-time recovery). Why this
# and not pg_dump, and what is lost at worst: docs/operations.md "Backups".
#
#   scripts/backup.sh enable    turn WAL archiving on (ALTER SYSTEM; restart PostgreSQL
#                               once afterwards if it says so)
#   scripts/backup.sh [base]    take a base backup now (daily, from cron or a timer), then
#                               keep the newest BACKUP_KEEP and the WAL they need
#   scripts/backup.sh wal       archive the WAL written so far now (before a planned stop;
#                               otherwise PostgreSQL does it every ARCHIVE_TIMEOUT_S)
#   scripts/backup.sh disable   turn WAL archiving off again
#
# BACKUP_DIR (.var/backups) holds base/<UTC time>/ (base.tar.gz, pg_wal.tar.gz,
# backup_manifest, start_wal) and wal/ (the archive, <segment>.gz). Keep it on another disk or machine
# than the cluster, and copy it off-site. The cluster is reached as libpq says: PGHOST,
# PGPORT, PGUSER (a role with REPLICATION; by default this checkout's cluster from
# scripts/services.sh: its socket, PG_PORT, the superuser postgres).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=scripts/pg_common.sh
source "$ROOT/scripts/pg_common.sh"

BACKUP_DIR="${BACKUP_DIR:-$ROOT/.var/backups}"
BACKUP_KEEP="${BACKUP_KEEP:-7}"
ARCHIVE_TIMEOUT_S="${ARCHIVE_TIMEOUT_S:-60}"  # the most a lost disk loses (docs/capacity.md)
export PGHOST="${PGHOST:-$(pg_checkout_socket_dir "$ROOT")}"
export PGPORT="${PGPORT:-${PG_PORT:-54329}}"
export PGUSER="${PGUSER:-postgres}"
export PGDATABASE="${PGDATABASE:-postgres}"

say() { printf '[backup] %s\n' "$*"; }
die() { printf '[backup] ERROR: %s\n' "$*" >&2; exit 1; }

PG_BIN="$(find_pg_bindir)" || die "PostgreSQL's binaries not found (scripts/services.sh start installs them)"
sql() { "$PG_BIN/psql" -X -q -A -t -v ON_ERROR_STOP=1 -c "$1"; }

# PostgreSQL's archive_command (run by /bin/sh as PostgreSQL's user) for each finished WAL
# segment, archiving into DIR gzip-compressed as <segment>.gz: written under a temporary
# name first, so a crash never leaves half a segment under the real name; a segment
# already archived with the same bytes counts as done (PostgreSQL retries a segment whose
# archiving it did not see finish), different bytes fail. gzip, because every Debian (and
# the postgres image) has it and scripts/restore.sh's restore_command reads it back; a
# 16 MB segment closed early by archive_timeout is mostly zeros and shrinks to a few
# hundred KB (docs/capacity.md "WAL archive"). Plain sh, not this script: PostgreSQL's user
# may not be allowed into the checkout. docker-compose.yml gives the same command.
archive_command() {
    local dir="$1"
    printf '%s' "if [ -f '$dir/%f.gz' ]; then gzip -dc '$dir/%f.gz' | cmp -s - '%p'; else gzip -c '%p' > '$dir/%f.gz.part' && mv '$dir/%f.gz.part' '$dir/%f.gz'; fi"
}

enable() {
    mkdir -p "$BACKUP_DIR/wal"
    local owner
    owner="$(pg_service_user)"
    [ -n "$owner" ] && chown "$owner" "$BACKUP_DIR" "$BACKUP_DIR/wal"
    sql "ALTER SYSTEM SET archive_mode = 'on'"
    sql "ALTER SYSTEM SET archive_command = '$(archive_command "$BACKUP_DIR/wal" | sed "s/'/''/g")'"
    sql "ALTER SYSTEM SET archive_timeout = '${ARCHIVE_TIMEOUT_S}s'"
    sql "SELECT pg_reload_conf()" >/dev/null
    if [ "$(sql "SHOW archive_mode")" != on ]; then
        say "archiving configured into $BACKUP_DIR/wal: restart PostgreSQL once to turn archive_mode on"
        say "(this checkout's cluster: scripts/services.sh stop pg && scripts/services.sh start pg)"
    else
        say "archiving on, into $BACKUP_DIR/wal"
    fi
}

disable() {
    sql "ALTER SYSTEM RESET archive_mode"
    sql "ALTER SYSTEM RESET archive_command"
    sql "ALTER SYSTEM RESET archive_timeout"
    sql "SELECT pg_reload_conf()" >/dev/null
    say "archiving turned off (archive_mode takes effect at the next restart)"
}

base() {
    [ "$(sql "SHOW archive_mode")" = on ] \
        || say "WARNING: WAL archiving is off: this backup restores to its own end only (scripts/backup.sh enable)"
    local stamp target started
    stamp="$(date -u +%Y%m%dT%H%M%SZ)"
    target="$BACKUP_DIR/base/$stamp"
    mkdir -p "$BACKUP_DIR/base"
    started=$SECONDS
    # tar + gzip; the WAL written during the backup is streamed into it (-X stream), so a
    # base backup restores on its own even without the archive
    "$PG_BIN/pg_basebackup" -D "$target.part" -F tar -z -X stream --checkpoint=fast \
        --label "game-$stamp" --no-password
    # the first WAL segment this backup needs: older archived segments serve older
    # backups only (pruned below)
    local start_lsn
    start_lsn="$(grep -o '"Start-LSN": "[0-9A-F/]*"' "$target.part/backup_manifest" | head -1 | cut -d'"' -f4)"
    [ -n "$start_lsn" ] || die "no Start-LSN in $target.part/backup_manifest"
    sql "SELECT pg_walfile_name('$start_lsn')" >"$target.part/start_wal"
    mv "$target.part" "$target"
    say "base backup $target ($(du -sh "$target" | cut -f1), $((SECONDS - started)) s)"
    prune
}

prune() {
    local bases=() old oldest
    mapfile -t bases < <(ls -1 "$BACKUP_DIR/base" | grep -v '\.part$' | sort)
    if [ "${#bases[@]}" -gt "$BACKUP_KEEP" ]; then
        for old in "${bases[@]:0:${#bases[@]}-BACKUP_KEEP}"; do
            rm -rf "${BACKUP_DIR:?}/base/$old"
            say "removed the old base backup $old"
        done
    fi
    oldest="$(ls -1 "$BACKUP_DIR/base" | grep -v '\.part$' | sort | head -1)"
    if [ -n "$oldest" ] && [ -d "$BACKUP_DIR/wal" ] && [ -s "$BACKUP_DIR/base/$oldest/start_wal" ]; then
        # every segment older than the oldest kept base backup's first: compressed ones
        # (-x .gz) and those archived uncompressed before compression came
        local first before
        first="$(cat "$BACKUP_DIR/base/$oldest/start_wal")"
        before="$(ls -1 "$BACKUP_DIR/wal" | wc -l)"
        "$PG_BIN/pg_archivecleanup" -x .gz "$BACKUP_DIR/wal" "$first"
        "$PG_BIN/pg_archivecleanup" "$BACKUP_DIR/wal" "$first"
        say "WAL archive: $((before - $(ls -1 "$BACKUP_DIR/wal" | wc -l))) files older than $first removed, $(du -sh "$BACKUP_DIR/wal" | cut -f1) kept"
    fi
}

# Closes the current WAL segment and waits until the archive holds it.
wal() {
    local segment _
    segment="$(sql "SELECT pg_walfile_name(pg_switch_wal())")"
    for _ in $(seq 600); do
        if [ "$(sql "SELECT coalesce(last_archived_wal >= '$segment', false) FROM pg_stat_archiver")" = t ]; then
            say "WAL up to $segment archived"
            return 0
        fi
        sleep 0.1
    done
    die "WAL segment $segment not archived within 60 s (see PostgreSQL's log)"
}

case "${1:-base}" in
    base) base ;;
    enable) enable ;;
    disable) disable ;;
    wal) wal ;;
    *) echo "usage: $0 [base|enable|disable|wal]" >&2; exit 2 ;;
esac
