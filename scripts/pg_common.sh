# PostgreSQL helpers shared by scripts/services.sh, scripts/backup.sh and scripts/restore.sh
# (sourced, not run).

# The directory of initdb, pg_ctl and postgres: PATH first, else Debian's newest major
# version (Debian keeps the server binaries off PATH).
find_pg_bindir() {
    local candidate
    if candidate="$(command -v pg_ctl 2>/dev/null)" && [ -x "$(dirname "$(readlink -f "$candidate")")/initdb" ]; then
        dirname "$(readlink -f "$candidate")"
        return 0
    fi
    for candidate in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
        if [ -x "$candidate/initdb" ] && [ -x "$candidate/pg_ctl" ] && [ -x "$candidate/postgres" ]; then
            echo "$candidate"
            return 0
        fi
    done
    return 1
}

# PostgreSQL refuses to run as root: the unprivileged user that runs it (`postgres` if
# present, else a system user `gamesvc`, created here). Prints nothing when not root.
pg_service_user() {
    [ "$(id -u)" -eq 0 ] || return 0
    if getent passwd postgres >/dev/null; then
        echo postgres
    else
        getent passwd gamesvc >/dev/null \
            || useradd --system --no-create-home --shell /usr/sbin/nologin gamesvc
        echo gamesvc
    fi
}

# This checkout's cluster's socket directory (scripts/services.sh's layout, under
# SERVICES_DIR when set: `make test`'s own cluster).
pg_checkout_socket_dir() {
    local var="${SERVICES_DIR:-$1/.var}"
    if [ -L "$var/pg" ]; then
        echo "$(dirname "$(readlink -f "$var/pg")")/run"
    else
        echo "$var/run"
    fi
}
