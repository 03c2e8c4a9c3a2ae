#!/usr/bin/env bash
# Makes sure Debian's Chromium is installed for the browser tests (tests/browser/, pytest
# marker `browser`), the way services.sh does for PostgreSQL and Redis: nothing to do when
# /usr/bin/chromium is there (fast, idempotent); as root with apt-get, one `apt-get update`
# and an install; otherwise it says what to install and the browser tests skip (under CI
# they fail). Playwright drives this binary (executable_path): it cannot download its own
# browsers here.
set -euo pipefail

CHROMIUM="${CHROMIUM:-/usr/bin/chromium}"
say() { printf '[chromium] %s\n' "$*"; }

if [ -x "$CHROMIUM" ]; then
    exit 0
fi
if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
    say "installing chromium with apt-get (for the browser tests)"
    DEBIAN_FRONTEND=noninteractive apt-get update -q
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends chromium
    [ -x "$CHROMIUM" ] || { say "ERROR: chromium installed but $CHROMIUM is missing" >&2; exit 1; }
else
    say "no $CHROMIUM: the browser tests will be skipped. Install it, e.g. on Debian/Ubuntu:"
    say "  sudo apt-get install chromium"
fi
