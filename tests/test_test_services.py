"""`make test` never touches what `make run` uses (issue 39): it stopped and renamed the
checkout's own PostgreSQL and Redis (.var/) under a running `make run`, without a word.

Now the suite runs against services of its own (SERVICES_DIR=.var/test on TEST_PG_PORT
and TEST_REDIS_PORT, started by `make test`), and the fault tests' ``services`` fixture,
pointed by hand at the development services while `make run` runs, refuses."""

from __future__ import annotations

import os
import shlex
import subprocess
import time

from tests.fault.conftest import ROOT, Services, make_run_pids


def _dry_run(target: str, **variables: str) -> list[str]:
    """The commands `make <target>` would run, split into words."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("MAKE", "MFLAGS"))}
    done = subprocess.run(["make", "-n", target,
                           *(f"{k}={v}" for k, v in variables.items())],
                          cwd=ROOT, env={**env, "DATABASE_URL": "postgres://x:y@127.0.0.1:1/dev"},
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def _command(lines: list[str], program: str) -> list[str]:
    found = [shlex.split(line) for line in lines if program in line]
    assert found, f"no {program} in {lines}"
    return found[-1]


def test_make_test_runs_the_suite_against_services_of_its_own():
    for target in ("test", "test-fast"):
        lines = _dry_run(target, TEST_PG_PORT="54998", TEST_REDIS_PORT="63998")
        start = _command([line for line in lines if "services.sh" in line], "services.sh")
        pytest = _command(lines, "bin/pytest")
        for words in (start, pytest):
            assert f"SERVICES_DIR={ROOT}/.var/test" in words
            assert "PG_PORT=54998" in words and "REDIS_PORT=63998" in words
        # an exported DATABASE_URL (a development database) never reaches the suite
        assert "DATABASE_URL=postgres://game:game@127.0.0.1:54998/game" in pytest
        assert "REDIS_URL=redis://127.0.0.1:63998/0" in pytest
        assert not any("services.sh start" in line and "SERVICES_DIR" not in line
                       for line in lines), "the development services are started too"


def test_the_fault_fixture_refuses_the_development_services_under_make_run(tmp_path,
                                                                          monkeypatch):
    fake = tmp_path / "scripts" / "run.sh"  # what `make run` runs, from the checkout
    fake.parent.mkdir()
    fake.write_text("sleep 60\n")
    monkeypatch.delenv("SERVICES_DIR", raising=False)  # the development ones, .var/
    run = subprocess.Popen(["bash", str(fake)], cwd=ROOT)
    try:
        # until the child has exec'd bash its command line is still this process's
        deadline = time.monotonic() + 10
        while run.pid not in make_run_pids() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert run.pid in make_run_pids()
        reason = Services().ours()
        assert reason is not None and "`make run`" in reason, reason
        monkeypatch.setenv("SERVICES_DIR", str(ROOT / ".var" / "test"))
        assert "`make run`" not in (Services().ours() or "")
    finally:
        run.kill()
        run.wait(timeout=10)
    assert run.pid not in make_run_pids()


def test_services_sh_keeps_everything_under_services_dir(tmp_path):
    env = {**os.environ, "SERVICES_DIR": str(tmp_path / "var"), "PG_PORT": "1", "REDIS_PORT": "1"}
    done = subprocess.run([str(ROOT / "scripts" / "services.sh"), "status", "redis"], env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and "Redis: stopped" in done.stdout  # not this checkout's
    assert (tmp_path / "var" / "redis").is_dir() and (tmp_path / "var" / "run").is_dir()
