#!/usr/bin/env bash
# Fuzz the live API with schemathesis (tests/test_fuzz_api.py runs it in `make test`).
#
#   scripts/fuzz_api.sh            # REST (OpenAPI) then GraphQL, 60 examples per operation
#   EXAMPLES=200 SEED=7 scripts/fuzz_api.sh
#
# Needs the local services (scripts/services.sh start). It makes the database $FUZZ_DB
# afresh as the owner role (DATABASE_OWNER_URL, which migrates it and grants the runtime
# role its privileges: docs/operations.md "Database roles"), starts the production web
# server (scripts/serve_web.sh, one uvicorn process) on 127.0.0.1:$FUZZ_PORT as the
# runtime role (DATABASE_URL) with Celery tasks inline (bots move at once), makes a user
# with a token and four matches with fixed seeds (Han and Hansa, active and open), runs
# schemathesis against 127.0.0.1 only, and stops the server again. Runs are deterministic:
# the same data, and the same requests for the same SEED (schemathesis's deterministic
# generation keeps no example database between runs).
# Checks: REST not_a_server_error, response_schema_conformance, status_code_conformance,
# content_type_conformance; GraphQL coded_graphql_errors (scripts/fuzz_graphql_hooks.py);
# and no 500 or engine crash in the server's log.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
BIN="$ROOT/.venv/bin"
PG_PORT="${PG_PORT:-54329}"
REDIS_PORT="${REDIS_PORT:-63799}"
FUZZ_DB="${FUZZ_DB:-game_fuzz}"
# a free port unless given (never a fixed one: issue 39)
FUZZ_PORT="${FUZZ_PORT:-$("$BIN/python" "$ROOT/tests/ports.py" free)}"
EXAMPLES="${EXAMPLES:-60}"
SEED="${SEED:-1}"
BASE="http://127.0.0.1:$FUZZ_PORT"
OUT="${FUZZ_OUT:-$ROOT/.var/fuzz}"
# The checkout's roles (Makefile); the fuzz database replaces the database in each URL.
OWNER_URL="${DATABASE_OWNER_URL:-postgres://game_owner:game_owner@127.0.0.1:$PG_PORT/game}"
RUNTIME_URL="${DATABASE_URL:-postgres://game:game@127.0.0.1:$PG_PORT/game}"
# Its own Redis database: the fuzz server's rate-limit counters and live updates stay
# out of a development server's (db 0) and the test suite's (dbs 5 and 6).
export REDIS_URL="redis://127.0.0.1:$REDIS_PORT/8"
export DJANGO_SETTINGS_MODULE=config.settings  # the service's, never the test suite's
export CELERY_TASK_ALWAYS_EAGER=true DEBUG=false
# DEBUG off refuses the development key; the fuzz server signs nothing that outlives it.
export SECRET_KEY="${SECRET_KEY:-fuzz-only-$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')}"
# and the development record signing key: a throwaway one (32 random bytes, base64)
export RECORD_SIGNING_KEYS="${RECORD_SIGNING_KEYS:-$(head -c 32 /dev/urandom | base64)}"
# and a throwaway VAPID key: Web Push on, so subscribing answers 201 or 4xx, not 503
# push_unavailable (32 random bytes, base64url: games/notifications/push.py)
export WEBPUSH_VAPID_PRIVATE_KEY="${WEBPUSH_VAPID_PRIVATE_KEY:-$("$BIN/python" -c \
    'import base64, secrets; print(base64.urlsafe_b64encode(secrets.token_bytes(32)).decode().rstrip("="))')}"
# Thousands of requests a minute from one address: rate limits would answer most with 429.
export THROTTLE_ANON_READ=1000000/min THROTTLE_USER_READ=1000000/min
export THROTTLE_MOVE=1000000/min THROTTLE_AUTH=1000000/min
unset CACHE_REDIS_URL CELERY_BROKER_URL CHANNEL_REDIS_URL  # all from REDIS_URL above

[ -x "$BIN/schemathesis" ] || { echo "[fuzz] schemathesis missing: make install" >&2; exit 1; }
mkdir -p "$OUT"

# A fresh database each run, created by the owner (the runtime role may not create one).
read -r FUZZ_OWNER_URL FUZZ_RUNTIME_URL RUNTIME_ROLE < <("$BIN/python" - "$OWNER_URL" \
        "$RUNTIME_URL" "$FUZZ_DB" <<'PY'
import sys
from urllib.parse import urlsplit

import psycopg

owner, runtime, name = sys.argv[1:]
with psycopg.connect(owner, autocommit=True) as db:
    db.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    db.execute(f'CREATE DATABASE "{name}"')
print(*(urlsplit(url)._replace(path=f"/{name}").geturl() for url in (owner, runtime)),
      urlsplit(runtime).username)
PY
)
DATABASE_URL="$FUZZ_OWNER_URL" DATABASE_RUNTIME_ROLE="$RUNTIME_ROLE" \
    "$BIN/python" manage.py migrate --noinput -v0
export DATABASE_URL="$FUZZ_RUNTIME_URL"  # everything below runs as the runtime role
# A user with a token and four matches (Han and Hansa, active and open), with fixed
# seeds: the same deals and bot moves every run, so the same requests meet the same data.
TOKEN="$("$BIN/python" manage.py shell -c "
from accounts.models import User
from games.matches.services import create_match
from rest_framework.authtoken.models import Token
user = User.objects.create_user('fuzzer')
for index, (game, players, options, bots) in enumerate([
        ('han', 2, None, {1: 'random'}), ('hansa', 2, None, {1: 'random'}),
        ('han', 3, {'map': 'border-disputes', 'variant': True}, None), ('hansa', 3, None, None)]):
    create_match(user=user, game=game, players=players, options=options, bot_seats=bots,
                 seed=f'fuzz-{index}')
print(Token.objects.create(user=user).key)" | tail -1)"

HOST=127.0.0.1 PORT="$FUZZ_PORT" WEB_PROCESSES=1 "$ROOT/scripts/serve_web.sh" \
    >"$OUT/server.log" 2>&1 &
SERVER=$!
trap 'kill "$SERVER" 2>/dev/null || true; wait "$SERVER" 2>/dev/null || true' EXIT
# up when its own server answers health: another server on FUZZ_PORT must never pass for
# it (tests/ports.py checks the port's listener is this server's; Python, not curl: a
# fresh CI machine may lack curl)
"$BIN/python" "$ROOT/tests/ports.py" wait "$FUZZ_PORT" "$SERVER" "$BASE/api/v1/health" 60 \
    || { echo "[fuzz] the server did not start on port $FUZZ_PORT"; tail -20 "$OUT/server.log"; exit 1; }
status=0
cd "$OUT"  # schemathesis writes its reports here: not in the checkout
# DELETE /auth/token/ is left out: it would revoke the token the run depends on (so are
# DELETE /me and GraphQL's deleteAccount and revokeToken: they would end the account); so
# is the feed stream (stream_feed), which stays open by design (tests/games/feed check it).
"$BIN/schemathesis" --no-color run "$BASE/api/v1/schema/?format=json" \
    -H "Authorization: Token $TOKEN" --exclude-method DELETE \
    --exclude-operation-id stream_feed \
    -c not_a_server_error,response_schema_conformance,status_code_conformance,content_type_conformance \
    -n "$EXAMPLES" --seed "$SEED" --generation-deterministic \
    -w 1 || status=1
PYTHONPATH="$ROOT/scripts" SCHEMATHESIS_HOOKS=fuzz_graphql_hooks \
"$BIN/schemathesis" --no-color run "$BASE/graphql/" \
    -H "Authorization: Token $TOKEN" --exclude-name-regex 'revokeToken|deleteAccount' \
    -c coded_graphql_errors -n "$EXAMPLES" --seed "$SEED" --generation-deterministic \
    -w 1 || status=1

if grep -q "Internal Server Error\|engine crashed\|GraphQL resolver failed" "$OUT/server.log"; then
    echo "[fuzz] the server log has 500s or engine crashes: see $OUT/server.log"
    status=1
fi
exit "$status"
