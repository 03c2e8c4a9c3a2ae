#!/usr/bin/env bash
# Fuzz the live API with schemathesis (dev only; CI does not run it).
#
#   scripts/fuzz_api.sh            # REST (OpenAPI) then GraphQL, 60 examples per operation
#   EXAMPLES=200 SEED=7 scripts/fuzz_api.sh
#
# Needs the local services (scripts/services.sh start). It creates (once) and migrates the
# database $FUZZ_DB, starts daphne on 127.0.0.1:$FUZZ_PORT with Celery tasks inline (bots
# move at once), makes a user with a token and four matches (Han and Hansa, active and
# open), runs schemathesis against 127.0.0.1 only, and stops daphne again. schemathesis is
# installed into .venv on first use (it is not a dev extra: CI never needs it).
# Checks: REST not_a_server_error, response_schema_conformance, status_code_conformance,
# content_type_conformance; GraphQL coded_graphql_errors (scripts/fuzz_graphql_hooks.py).
# Known and accepted: daphne (twisted) answers a malformed multipart/form-data body with a
# bare 400 before the app sees it, so REST reports ST104/ST109 on a few POSTs.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
BIN="$ROOT/.venv/bin"
PG_PORT="${PG_PORT:-54329}"
FUZZ_DB="${FUZZ_DB:-game_fuzz}"
FUZZ_PORT="${FUZZ_PORT:-8765}"
EXAMPLES="${EXAMPLES:-60}"
SEED="${SEED:-1}"
BASE="http://127.0.0.1:$FUZZ_PORT"
OUT="$ROOT/.var/fuzz"
export DATABASE_URL="postgres://game:game@127.0.0.1:$PG_PORT/$FUZZ_DB"
export CELERY_TASK_ALWAYS_EAGER=true DEBUG=false
# DEBUG off refuses the development key; the fuzz server signs nothing that outlives it.
export SECRET_KEY="${SECRET_KEY:-fuzz-only-$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')}"
# Thousands of requests a minute from one address: rate limits would answer most with 429.
export THROTTLE_ANON_READ=1000000/min THROTTLE_USER_READ=1000000/min
export THROTTLE_MOVE=1000000/min THROTTLE_AUTH=1000000/min

[ -x "$BIN/schemathesis" ] || "$BIN/pip" install -q schemathesis
mkdir -p "$OUT"

"$BIN/python" - <<PY
import psycopg
with psycopg.connect("postgres://game:game@127.0.0.1:$PG_PORT/game", autocommit=True) as db:
    if not db.execute("SELECT 1 FROM pg_database WHERE datname = %s", ["$FUZZ_DB"]).fetchone():
        db.execute('CREATE DATABASE "$FUZZ_DB"')
PY
"$BIN/python" manage.py migrate --noinput -v0
TOKEN="$("$BIN/python" manage.py shell -c "
from accounts.models import User
from rest_framework.authtoken.models import Token
user, _ = User.objects.get_or_create(username='fuzzer')
print(Token.objects.get_or_create(user=user)[0].key)" | tail -1)"

"$BIN/daphne" -b 127.0.0.1 -p "$FUZZ_PORT" config.asgi:application >"$OUT/daphne.log" 2>&1 &
DAPHNE=$!
trap 'kill "$DAPHNE" 2>/dev/null || true; wait "$DAPHNE" 2>/dev/null || true' EXIT
for _ in $(seq 50); do curl -fs "$BASE/api/v1/health" >/dev/null && break; sleep 0.2; done

for body in '{"game":"han","players":2,"bot_seats":{"1":"random"}}' \
            '{"game":"hansa","players":2,"bot_seats":{"1":"random"}}' \
            '{"game":"han","players":3,"options":{"map":"border-disputes","variant":true}}' \
            '{"game":"hansa","players":3}'; do
    curl -fs -o /dev/null -H "Authorization: Token $TOKEN" -H "Content-Type: application/json" \
        -d "$body" "$BASE/api/v1/matches/"
done

status=0
cd "$OUT"  # schemathesis keeps its replay data in ./.schemathesis: not in the checkout
# DELETE /auth/token/ is left out: it would revoke the token the run depends on.
"$BIN/schemathesis" run "$BASE/api/v1/schema/?format=json" \
    -H "Authorization: Token $TOKEN" --exclude-method DELETE \
    -c not_a_server_error,response_schema_conformance,status_code_conformance,content_type_conformance \
    -n "$EXAMPLES" --seed "$SEED" -w 1 --no-color || status=1
PYTHONPATH="$ROOT/scripts" SCHEMATHESIS_HOOKS=fuzz_graphql_hooks \
"$BIN/schemathesis" run "$BASE/graphql/" \
    -H "Authorization: Token $TOKEN" --exclude-name-regex revokeToken \
    -c coded_graphql_errors -n "$EXAMPLES" --seed "$SEED" -w 1 --no-color || status=1

if grep -q "Internal Server Error\|engine crashed\|GraphQL resolver failed" "$OUT/daphne.log"; then
    echo "[fuzz] the server log has 500s or engine crashes: see $OUT/daphne.log"
    status=1
fi
exit "$status"
