"""scripts/run.sh (what `make run` runs) supervises web, worker, analyst and beat (issue 9, 24).

Before, the worker ran beat embedded (`worker -B`) and the script's `wait -n` stopped the
web server as soon as the worker died. Now each crashed process is started again on its
own, the web server keeps answering meanwhile, and Ctrl-C still stops everything, also
when run.sh was started with SIGINT ignored (in the background of a script)."""

from __future__ import annotations

import os
import signal
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

from config.celery import app as celery_app
from tests.fault.conftest import report, wait_for
from tests.games.support import TEST_ANALYSIS_QUEUE, TEST_QUEUE
from tests.ports import free_port, served_by
from tests.workers import ROOT, purge_test_queue, runtime_database_url

pytestmark = pytest.mark.django_db(transaction=True)


def _children(pid: int) -> dict[int, str]:
    """Direct children of ``pid``: {pid: command line}."""
    found = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        for child in (task / "children").read_text().split():
            try:
                command = Path(f"/proc/{child}/cmdline").read_bytes().replace(b"\0", b" ")
            except OSError:
                continue
            found[int(child)] = command.decode(errors="replace")
    return found


def _one(pid: int, marker: str) -> int | None:
    matches = [child for child, command in _children(pid).items() if marker in command]
    return matches[0] if len(matches) == 1 else None


def _ignore_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _healthy(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v1/health", timeout=2) as r:
            return r.status == 200
    except OSError:
        return False


def test_run_sh_restarts_a_crashed_worker_and_beat_and_ctrl_c_stops_all(tmp_path):
    purge_test_queue()
    port = free_port()
    db = connection.settings_dict
    owner_url = (f"postgres://{db['USER']}:{db['PASSWORD']}@{db['HOST']}:{db['PORT']}/"
                 f"{db['NAME']}")
    env = {
        **os.environ,
        "PORT": str(port),
        "DATABASE_URL": runtime_database_url(),
        "DATABASE_OWNER_URL": owner_url,
        "CELERY_BROKER_URL": celery_app.conf.broker_url,
        "CELERY_TASK_DEFAULT_QUEUE": TEST_QUEUE,
        "CELERY_ANALYSIS_QUEUE": TEST_ANALYSIS_QUEUE,
        "REDIS_URL": settings.REDIS_URL,
    }
    log_path = tmp_path / "run.log"
    with open(log_path, "wb") as log:
        # started with SIGINT ignored, as `scripts/run.sh &` in a script starts it: Ctrl-C
        # must stop it all the same (it once restarted what SIGINT had stopped, forever)
        run = subprocess.Popen([str(ROOT / "scripts" / "run.sh")], cwd=ROOT, env=env,
                               stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
                               preexec_fn=_ignore_sigint)
    try:
        def run_log() -> str:
            return log_path.read_text(errors="replace")[-3000:]

        def up() -> bool:
            assert run.poll() is None, "run.sh exited:\n" + run_log()
            # served_by: run.sh's own web server, not another on the port (issue 39)
            return (served_by(port, run.pid) and _healthy(port)
                    and _one(run.pid, "config worker -l") is not None
                    and _one(run.pid, "config worker -Q") is not None  # the analyses' own
                    and _one(run.pid, "config beat") is not None)

        wait_for(up, 90, "web, worker and beat up")
        worker, beat = _one(run.pid, "config worker -l"), _one(run.pid, "config beat")

        os.kill(worker, signal.SIGKILL)
        killed = time.monotonic()
        for _ in range(5):
            assert _healthy(port), "the web server went down with the worker:\n" + run_log()
            time.sleep(0.3)
        wait_for(lambda: _one(run.pid, "config worker -l") not in (None, worker), 30,
                 "a new worker")
        report("run.sh: worker killed -> new worker process", time.monotonic() - killed)

        os.kill(beat, signal.SIGKILL)
        wait_for(lambda: _one(run.pid, "config beat") not in (None, beat), 30, "a new beat")
        assert _healthy(port)
        whole_log = log_path.read_text(errors="replace")
        assert "[run] worker exited" in whole_log and "[run] beat exited" in whole_log

        os.killpg(run.pid, signal.SIGINT)  # what Ctrl-C in its terminal does
        run.wait(timeout=30)

        def group_gone() -> bool:
            try:
                os.killpg(run.pid, 0)
            except ProcessLookupError:
                return True
            return False

        wait_for(group_gone, 20, "every process of run.sh to stop")
        assert not _healthy(port)
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
            run.wait(timeout=10)
        try:
            os.killpg(run.pid, signal.SIGKILL)  # anything left in its group
        except ProcessLookupError:
            pass
        connection.close()
