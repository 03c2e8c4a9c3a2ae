#!/usr/bin/env bash
# Makes sure Debian's Prometheus is installed (its promtool checks the Grafana dashboard's
# queries: tests/infra/test_dashboard.py; the server scrapes the load test:
# docs/operations.md "Metrics"), the way chromium.sh does for the browser: nothing to do
# when promtool is there; as root with apt-get, one `apt-get update` and an install;
# otherwise it says what to install and the test skips (under CI it fails).
set -euo pipefail

say() { printf '[prometheus] %s\n' "$*"; }

if command -v promtool >/dev/null; then
    exit 0
fi
if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
    say "installing prometheus with apt-get (promtool, for the dashboard's test)"
    DEBIAN_FRONTEND=noninteractive apt-get update -q
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends prometheus
    command -v promtool >/dev/null || { say "ERROR: prometheus installed but no promtool" >&2; exit 1; }
else
    say "no promtool: the dashboard's PromQL check will be skipped. Install it, e.g.:"
    say "  sudo apt-get install prometheus"
fi
