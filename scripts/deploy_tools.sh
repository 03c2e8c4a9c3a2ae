#!/usr/bin/env bash
# Makes sure the deployment's own tools are here for the tests that run the shipped
# configuration (docs/operations.md "docker compose"), the way chromium.sh does for the
# browser: Debian's nginx (deploy/nginx.conf in front of a real web tier:
# tests/infra/test_nginx_forwarded.py) and a `docker compose` that validates
# docker-compose.yml (`docker compose config`; Debian's docker-compose when Docker's plugin
# is missing: tests/config/test_compose_services.py). Nothing to do when both are there;
# as root with apt-get, one `apt-get update` and an install; otherwise it says what to
# install and those tests skip (under CI they fail). No container engine is needed.
set -euo pipefail

say() { printf '[deploy-tools] %s\n' "$*"; }

missing=()
command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || missing+=(nginx-light)
docker compose version >/dev/null 2>&1 || command -v docker-compose >/dev/null \
    || missing+=(docker-compose)
[ "${#missing[@]}" -eq 0 ] && exit 0

if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
    say "installing ${missing[*]} with apt-get (the deployment's tests)"
    DEBIAN_FRONTEND=noninteractive apt-get update -q
    # policy-rc.d: the package must not start an nginx of its own on port 80
    DEBIAN_FRONTEND=noninteractive RUNLEVEL=1 apt-get install -y -q --no-install-recommends \
        "${missing[@]}"
    if [ -x /usr/sbin/nginx ] && [ -f /run/nginx.pid ]; then
        /usr/sbin/nginx -s stop 2>/dev/null || true
    fi
else
    say "missing ${missing[*]}: the deployment's tests will be skipped. On Debian/Ubuntu:"
    say "  sudo apt-get install ${missing[*]}"
fi
