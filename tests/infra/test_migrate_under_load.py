"""A deploy's ``migrate`` answers no request with a 5xx (issue 40).

The production web tier (scripts/serve_web.sh, the runtime role) serves people reading and
playing over real HTTP while ``manage.py migrate`` runs again and again as the owner, with
nothing to apply: exactly what every deploy does. Before, its post_migrate receiver
(infra/database_roles.py) revoked every table's privileges and granted them again, one
statement at a time in autocommit, and dropped and made again the row policies, so
requests between two statements saw ``permission denied`` (a 500): 8 of them in 5
migrates on this machine. Now the grants and policies change in one transaction, and
only what differs (nothing, on a second run), so the requests see no window."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time

import pytest
from django.conf import settings
from django.db import connection

from tests.fault.serving import http, player, start_web, stop_web, wait_serving, web_env
from tests.ports import free_port
from tests.workers import ROOT, runtime_database_url

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

MIGRATES = 5
PAIRS = 3


def _owner_database_url() -> str:
    db = connection.settings_dict  # the suite connects as the owner (tests/settings.py)
    if db["USER"] == settings.RUNTIME_DATABASE["USER"]:
        pytest.skip("the suite connects as the runtime role: set DATABASE_OWNER_URL")
    return f"postgres://{db['USER']}:{db['PASSWORD']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"


def _migrate(owner_url: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "DATABASE_URL": owner_url, "DATABASE_OWNER_URL": "",
           "DJANGO_SETTINGS_MODULE": "config.settings", "LOG_LEVEL": "WARNING"}
    return subprocess.run([sys.executable, "manage.py", "migrate", "--noinput"], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=300)


def _play(port: int, tokens: tuple[str, str], answers: list, stop: threading.Event) -> None:
    """Two people in one match after another: each reads the match and its legal moves,
    and whoever is to move plays the first."""
    def call(method, path, token, body=None):
        status, body = http(port, method, path, token, body)
        answers.append((status, f"{method} {path}", body))
        return status, body

    match_id = None
    while not stop.is_set():
        if match_id is None:
            status, created = call("POST", "/api/v1/matches/", tokens[0],
                                   {"game": "han", "players": 2})
            if status != 201:
                continue
            match_id = created["id"]
            call("POST", f"/api/v1/matches/{match_id}/join/", tokens[1])
            continue
        path = f"/api/v1/matches/{match_id}/"
        for token in tokens:
            status, detail = call("GET", path, token)
            if status == 200 and detail.get("status") != "active":
                match_id = None
                break
            status, legal = call("GET", path + "legal-moves/", token)
            if status == 200 and legal.get("moves"):
                call("POST", path + "moves/", token,
                     {"move": legal["moves"][0], "expected_ply": legal["ply"]})


def test_migrate_during_play_answers_no_5xx(tmp_path):
    owner_url = _owner_database_url()
    port = free_port()
    web = start_web(web_env(runtime_database_url(), port), tmp_path / "web.log")
    answers: list = []
    stop = threading.Event()
    threads = []
    try:
        wait_serving(web, port, tmp_path / "web.log")
        pairs = [(player(f"hammer-{n}a")[1], player(f"hammer-{n}b")[1]) for n in range(PAIRS)]
        threads = [threading.Thread(target=_play, args=(port, pair, answers, stop), daemon=True)
                   for pair in pairs]
        for thread in threads:
            thread.start()
        time.sleep(1)
        before = len(answers)
        for _ in range(MIGRATES):
            done = _migrate(owner_url)
            assert done.returncode == 0, done.stderr[-2000:]
        during = len(answers) - before
    finally:
        stop.set()
        for thread in threads:
            thread.join(timeout=30)
        stop_web(web)
    server_errors = [(status, what, str(body)[:200]) for status, what, body in answers
                     if status >= 500]
    moves = sum(1 for status, what, _ in answers if status == 201 and what.endswith("moves/"))
    print(f"[migrate under load] {MIGRATES} migrates, {during} requests during them, "
          f"{moves} moves in all, {len(server_errors)} 5xx")
    assert during > 50 and moves > 0
    assert server_errors == []
