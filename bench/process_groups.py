"""Stopping the servers and workers a benchmark started, each in its own process group
(``start_new_session=True``), so a worker's pool children go with it."""

from __future__ import annotations

import os
import signal
import subprocess


def stop_process_groups(processes: list[subprocess.Popen], timeout: float = 30) -> None:
    """TERM every group still running (warm shutdown), then KILL those that linger."""
    for process in processes:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
    for process in processes:
        try:
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
