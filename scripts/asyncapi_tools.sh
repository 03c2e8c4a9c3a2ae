#!/usr/bin/env bash
# Installs the AsyncAPI parser that validates docs/asyncapi.yaml in the tests
# (tests/games/api/test_asyncapi_document.py runs tools/asyncapi/validate.mjs with node):
# `npm ci` in tools/asyncapi/ from its committed package-lock.json, when node_modules is
# missing or older than the lock. Node.js and npm come from Debian's packages when missing
# (as root with apt-get); otherwise it says what to install and the parser test skips
# (under CI it fails). No install scripts run (tools/asyncapi/.npmrc).
set -euo pipefail

DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/tools/asyncapi"
say() { printf '[asyncapi] %s\n' "$*"; }

if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
    if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
        say "installing nodejs and npm with apt-get (for the AsyncAPI parser)"
        DEBIAN_FRONTEND=noninteractive apt-get update -q
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends nodejs npm
    else
        say "no node/npm: the AsyncAPI parser test will be skipped. Install them, e.g.:"
        say "  sudo apt-get install nodejs npm"
        exit 0
    fi
fi
stamp="$DIR/node_modules/.package-lock.json"
if [ -f "$stamp" ] && [ "$stamp" -nt "$DIR/package-lock.json" ]; then
    exit 0
fi
say "npm ci in tools/asyncapi (the @asyncapi/parser of package-lock.json)"
cd "$DIR"
npm ci --no-audit --no-fund --ignore-scripts --loglevel=error
touch "$stamp"
