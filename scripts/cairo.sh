#!/usr/bin/env bash
# Makes sure Debian's libcairo2 (and the DejaVu fonts the boards are drawn in) are there for
# the PNG boards (GET /api/v1/matches/{id}/board.png: cairosvg, the `images` extra of
# pyproject.toml, draws through cairo), the way chromium.sh does for the browser tests:
# nothing to do when the library is found (fast, idempotent); as root with apt-get, one
# `apt-get update` and an install; otherwise it says what to install, board.png answers
# 501 png_unavailable and its tests skip (under CI they fail).
set -euo pipefail

say() { printf '[cairo] %s\n' "$*"; }
have_cairo() { ldconfig -p 2>/dev/null | grep -q 'libcairo\.so\.2'; }
have_fonts() { [ -d /usr/share/fonts/truetype/dejavu ]; }

if have_cairo && have_fonts; then
    exit 0
fi
if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
    say "installing libcairo2 and fonts-dejavu-core with apt-get (for board.png)"
    DEBIAN_FRONTEND=noninteractive apt-get update -q
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
        libcairo2 fonts-dejavu-core
    have_cairo || { say "ERROR: libcairo2 installed but not found by ldconfig" >&2; exit 1; }
else
    say "no libcairo2: board.png will answer 501. Install it, e.g. on Debian/Ubuntu:"
    say "  sudo apt-get install libcairo2 fonts-dejavu-core"
fi
