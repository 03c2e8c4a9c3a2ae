#!/bin/sh
# PostgreSQL image init (docker-entrypoint-initdb.d, first start only): the owner and
# runtime roles and the database, as scripts/services.sh makes them (scripts/db_roles.sql).
set -eu
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname postgres \
    -v owner="$GAME_DB_OWNER" -v owner_password="$GAME_DB_OWNER_PASSWORD" \
    -v runtime="$GAME_DB_RUNTIME" -v runtime_password="$GAME_DB_RUNTIME_PASSWORD" \
    -v dbname="$GAME_DB_NAME" -f /game/db_roles.sql
