#!/usr/bin/env bash
# Makes sure GNU gettext (msgfmt, xgettext, msgmerge, msgattrib) is installed: Django's
# compilemessages and makemessages call it, `make test` and `make run` compile the German
# messages with it (locale/de/LC_MESSAGES/django.po -> .mo), and the translation tests
# run makemessages and msgattrib. The way scripts/chromium.sh does for Chromium: nothing
# to do when msgfmt is there (fast, idempotent); as root with apt-get, one `apt-get
# update` and an install; otherwise it says what to install and fails (without it the
# service answers only in English).
set -euo pipefail

say() { printf '[gettext] %s\n' "$*"; }

if command -v msgfmt >/dev/null && command -v xgettext >/dev/null \
        && command -v msgattrib >/dev/null; then
    exit 0
fi
if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
    say "installing gettext with apt-get (compilemessages, makemessages)"
    DEBIAN_FRONTEND=noninteractive apt-get update -q
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends gettext
    command -v msgfmt >/dev/null || { say "ERROR: gettext installed but msgfmt is missing" >&2; exit 1; }
else
    say "ERROR: no msgfmt: install GNU gettext, e.g. on Debian/Ubuntu:" >&2
    say "  sudo apt-get install gettext" >&2
    exit 1
fi
