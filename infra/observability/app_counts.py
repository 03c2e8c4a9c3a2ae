"""An app's counts (requests, errors, moves: metrics.APP_REQUESTS, APP_ERRORS, APP_MOVES)
read back for a person, on the app's admin page (accounts/apps_oauth/admin.py).

Read from the same samples the exporter serves: with ``PROMETHEUS_MULTIPROC_DIR`` set
(scripts/run.sh, scripts/serve_web.sh), what every process of this machine wrote there,
added up; without it, this process's own counters (tests, manage.py). So the figures are
this machine's since its processes' metric files were last cleared, not the whole
fleet's (Prometheus has that); and an app seen after a process's first
``metrics.APP_LABELS`` apps is counted under ``other`` there, not under its id.
"""

from __future__ import annotations

import os

from prometheus_client import multiprocess

from infra.observability import metrics

_SAMPLES = {"app_requests_total": "requests", "app_errors_total": "errors",
            "app_moves_total": "moves"}


def _families():
    directory = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if directory and os.path.isdir(directory):
        return multiprocess.MultiProcessCollector(None, path=directory).collect()
    return [family for counter in (metrics.APP_REQUESTS, metrics.APP_ERRORS, metrics.APP_MOVES)
            for family in counter.collect()]


def app_counts(app_id: int) -> dict[str, int]:
    """``{"requests", "errors", "moves"}`` counted for the app ``app_id`` (its metrics
    label), all transports together."""
    label = str(app_id)
    counts = dict.fromkeys(_SAMPLES.values(), 0)
    for family in _families():
        for sample in family.samples:
            key = _SAMPLES.get(sample.name)
            if key is not None and sample.labels.get("app") == label:
                counts[key] += int(sample.value)
    return counts
