"""The alert rules (deploy/alerts.yml; docs/operations.md "Alerts") are valid and fire
when they should, by Prometheus's own tools: ``promtool check rules`` and
``promtool test rules`` over deploy/alerts_test.yml (5xx rate, move p99 over REST and the
socket, task wait and queue backlog, WAL archiving failures, a full disk, a target
down), and every family they read is one the service or a shipped exporter serves."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"


def _promtool() -> str:
    found = shutil.which("promtool")
    if found is None:
        message = "no promtool (Debian's prometheus package: scripts/prometheus.sh)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return found


def test_the_rules_pass_promtool_check():
    result = subprocess.run([_promtool(), "check", "rules", str(DEPLOY / "alerts.yml")],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "SUCCESS: 9 rules found" in result.stdout


def test_the_rules_fire_as_their_unit_tests_say():
    result = subprocess.run([_promtool(), "test", "rules", "alerts_test.yml"], cwd=DEPLOY,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr


def test_every_rule_is_unit_tested():
    rules = {rule["alert"] for group in yaml.safe_load((DEPLOY / "alerts.yml").read_text())
             ["groups"] for rule in group["rules"]}
    tested = set(re.findall(r"alertname: (\w+)", (DEPLOY / "alerts_test.yml").read_text()))
    assert rules <= tested, rules - tested
