#!/usr/bin/env bash
# Makes sure Debian's Prometheus and the maintained exporters are installed: promtool
# checks the Grafana dashboard's queries and the alert rules (tests/infra/test_dashboard.py,
# tests/infra/test_alert_rules.py), the server runs the shipped config against the
# exporters (tests/infra/test_prometheus_config.py; docs/operations.md "Metrics"). The way
# chromium.sh does for the browser: nothing to do when all are there; as root with
# apt-get, one `apt-get update` and an install; otherwise it says what to install and the
# tests skip (under CI they fail).
set -euo pipefail

say() { printf '[prometheus] %s\n' "$*"; }

# package -> a binary it installs
declare -A NEEDED=(
    [prometheus]=promtool
    [prometheus-postgres-exporter]=prometheus-postgres-exporter
    [prometheus-redis-exporter]=prometheus-redis-exporter
    [prometheus-node-exporter]=prometheus-node-exporter
)
missing=()
for package in "${!NEEDED[@]}"; do
    command -v "${NEEDED[$package]}" >/dev/null || missing+=("$package")
done
if [ "${#missing[@]}" -eq 0 ]; then
    exit 0
fi
if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
    say "installing ${missing[*]} with apt-get (promtool, the server and the exporters)"
    DEBIAN_FRONTEND=noninteractive apt-get update -q
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
    for package in "${missing[@]}"; do
        command -v "${NEEDED[$package]}" >/dev/null \
            || { say "ERROR: $package installed but no ${NEEDED[$package]}" >&2; exit 1; }
    done
else
    say "missing ${missing[*]}: the metrics tests that need them will be skipped. Install:"
    say "  sudo apt-get install ${missing[*]}"
fi
