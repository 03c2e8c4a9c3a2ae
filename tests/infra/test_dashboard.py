"""The Grafana dashboard (deploy/grafana/dashboard.json) is well-formed PromQL, and the
name reader the live test checks it with (tests/infra/test_observability_live.py, which
holds every name to a real scrape) reads names and nothing else."""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest

from tests.infra.dashboard import metric_names, queries


def test_the_name_reader_finds_names_not_functions_labels_or_keywords():
    expression = ('histogram_quantile(0.95, sum by (le, view) (rate(a_bucket{status=~"5..",'
                  'view="x"}[5m]))) / on (view) group_left sum(b_total offset 5m) or c')
    assert metric_names(expression) == {"a_bucket", "b_total", "c"}


def test_every_panel_has_queries_and_every_query_names_a_metric():
    found = queries()
    assert len(found) >= 15
    for title, expression in found:
        assert metric_names(expression), f"{title}: {expression}"


def test_every_query_is_valid_promql(tmp_path):
    promtool = shutil.which("promtool")
    if promtool is None:
        message = "no promtool (Debian's prometheus package: scripts/prometheus.sh)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    rules = ["groups:", "  - name: dashboard", "    rules:"]
    for index, (_title, expression) in enumerate(queries()):
        rules += [f"      - record: dashboard_query_{index}",
                  f"        expr: '{expression}'"]
    path = tmp_path / "rules.yml"
    path.write_text("\n".join(rules) + "\n")
    result = subprocess.run([promtool, "check", "rules", str(path)], capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr
