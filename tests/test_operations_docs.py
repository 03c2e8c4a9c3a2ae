"""The operator's and developer's documents name what exists and commands that run
(issue 40: docs/operations.md named a test file that had moved, and a Celery `--quiet` form
Celery refuses: `worker --quiet` is no option; `celery --quiet ... worker` is)."""

from __future__ import annotations

import re
import shlex
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = [ROOT / "docs" / "operations.md", ROOT / "docs" / "development.md"]
#: a quoted path under tests/ (a file or a folder), up to a pytest node id's "::"
TEST_PATH = re.compile(r"`(tests/[\w./*-]*?)(?:::[\w\[\]-]+)?`")
#: a quoted celery command line
CELERY_COMMAND = re.compile(r"`(celery [^`]+)`")


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda path: path.name)
def test_every_quoted_test_path_exists(document):
    # "tests/rules/..." names the folder; "tests/rules/*/test_*.py" a pattern
    missing = [path for path in TEST_PATH.findall(document.read_text())
               if not list(ROOT.glob(path.split("...")[0].rstrip("/") or "tests"))]
    assert not missing, f"{document.name} names test paths that do not exist: {missing}"


def test_every_quiet_celery_command_is_one_celery_accepts():
    commands = [command for command in CELERY_COMMAND.findall(
        (ROOT / "docs" / "operations.md").read_text().replace("\n", " "))
        if "--quiet" in command.split() or "-q" in command.split()]
    assert commands, "docs/operations.md no longer shows how to start a quiet worker"
    celery = ROOT / ".venv" / "bin" / "celery"
    for command in commands:
        words = shlex.split(command)
        result = subprocess.run([str(celery), *words[1:], "--help"], cwd=ROOT,
                                capture_output=True, text=True, timeout=120,
                                env={"PATH": "/usr/bin:/bin", "DEBUG": "true",
                                     "PYTHONPATH": str(ROOT)})
        assert result.returncode == 0, f"`{command}`: {result.stderr[-500:]}"
