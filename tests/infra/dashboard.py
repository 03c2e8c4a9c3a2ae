"""The Grafana dashboard's queries (deploy/grafana/dashboard.json) and the metric names
each one reads, for the tests that hold them to what the exporter serves."""

from __future__ import annotations

import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DASHBOARD = ROOT / "deploy" / "grafana" / "dashboard.json"

#: PromQL words that are not metric names where a name could stand
_KEYWORDS = {"by", "without", "on", "ignoring", "group_left", "group_right", "bool", "and",
             "or", "unless", "offset", "inf", "nan"}
_NAME = re.compile(r"(?<![A-Za-z0-9_:.])[A-Za-z_:][A-Za-z0-9_:]*")  # not a duration's unit


def queries() -> list[tuple[str, str]]:
    """(panel title, PromQL expression) of every target of every panel."""
    board = json.loads(DASHBOARD.read_text())
    return [(panel["title"], target["expr"]) for panel in board["panels"]
            for target in panel.get("targets", [])]


def metric_names(expression: str) -> set[str]:
    """The metric names a PromQL expression selects: what is left once strings, label
    matchers, ranges and grouping clauses are gone, minus functions (a name followed by
    a parenthesis) and keywords."""
    text = re.sub(r'"(?:[^"\\]|\\.)*"', '""', expression)
    text = re.sub(r"\{[^}]*\}", " ", text)
    text = re.sub(r"\[[^\]]*\]", " ", text)
    text = re.sub(r"\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)", " ",
                  text)
    names = set()
    for found in _NAME.finditer(text):
        if text[found.end():].lstrip().startswith("(") or found.group() in _KEYWORDS:
            continue
        names.add(found.group())
    return names
