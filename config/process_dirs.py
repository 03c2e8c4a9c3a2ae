"""What every process of this service needs on disk before it imports anything else,
created at its start (config/__init__.py imports this first).

``PROMETHEUS_MULTIPROC_DIR``: once it is set, prometheus-client writes each process's
samples into files there, from the first metric a module defines at import (Celery's
signal handlers, loaded by config/celery.py before the settings). A missing directory
failed that import: the compose services that run without scripts/with_metrics.sh
(``migrate``, ``beat``) exited 1 and nothing else started (issue 40;
tests/config/test_compose_services.py). Only created here; what is in it stays the
business of scripts/with_metrics.sh and the exporter (docs/operations.md "Metrics")."""

from __future__ import annotations

import os


def create_process_dirs() -> None:
    metrics_dir = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if metrics_dir:
        os.makedirs(metrics_dir, exist_ok=True)
