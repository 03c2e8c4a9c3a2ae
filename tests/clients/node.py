"""Running the TypeScript client's npm scripts from the tests (clients/ts, an npm
package): node and npm from the machine, packages from clients/ts/package-lock.json.

`make test` installs the packages first (the Makefile's `clients` target: `npm ci` when
node_modules is missing or older than the lock file); a test run by hand does the same
here. Without node the tests are skipped, except under CI, where they fail."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CLIENT = ROOT / "clients" / "ts"
LOCK = CLIENT / "package-lock.json"
INSTALLED = CLIENT / "node_modules" / ".package-lock.json"  # npm ci writes it last


def node_or_skip() -> None:
    missing = [tool for tool in ("node", "npm") if shutil.which(tool) is None]
    if not missing:
        return
    message = f"no {' and '.join(missing)} on PATH: the TypeScript client needs node 20 and npm"
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


def ensure_installed() -> None:
    """`npm ci` unless node_modules is already the lock file's."""
    node_or_skip()
    if INSTALLED.exists() and INSTALLED.stat().st_mtime >= LOCK.stat().st_mtime:
        return
    run(["npm", "ci", "--no-audit", "--no-fund"], timeout=600)


def run(command: list[str], *, env: dict | None = None, timeout: float = 300
        ) -> subprocess.CompletedProcess:
    """Run in clients/ts; fail the test with the output when it fails."""
    result = subprocess.run(command, cwd=CLIENT, env={**os.environ, **(env or {})},
                            capture_output=True, text=True, timeout=timeout)
    if result.returncode != 0:
        pytest.fail(f"`{' '.join(command)}` exited {result.returncode}:\n"
                    f"{result.stdout[-12000:]}\n{result.stderr[-4000:]}", pytrace=False)
    return result
