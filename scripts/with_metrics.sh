#!/usr/bin/env bash
# Run a command (a web tier, a Celery worker) with its metrics endpoint beside it, as the
# containers do (docker-compose.yml): removes the metric files from
# PROMETHEUS_MULTIPROC_DIR (what a previous run of the container left would be counted
# again), starts the exporter (infra/observability/exporter.py, on
# METRICS_HOST:METRICS_PORT) in the background, then becomes the command. scripts/run.sh does the same for development in its own way.
#
#   scripts/with_metrics.sh scripts/serve_web.sh
#   scripts/with_metrics.sh celery -A config worker -l info
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
PYTHON="${PYTHON:-$ROOT/.venv/bin/python}"
[ -x "$PYTHON" ] || PYTHON="$(command -v python3 || command -v python)"

export PROMETHEUS_MULTIPROC_DIR="${PROMETHEUS_MULTIPROC_DIR:-/tmp/prometheus-multiproc}"
mkdir -p "$PROMETHEUS_MULTIPROC_DIR"
# its metric files only: the directory may be one the operator chose
find "$PROMETHEUS_MULTIPROC_DIR" -maxdepth 1 -type f -name '*.db' -delete
"$PYTHON" -m infra.observability.exporter &
exec "$@"
