"""The restore drill (issue 25): matches played by a real worker, a base backup, a second
one that prunes the first and the WAL only it needed (BACKUP_KEEP=1, issue 40), more play
that only the archived (gzip-compressed) WAL holds, the cluster destroyed, then
scripts/restore.sh into a fresh cluster on its own port; every finished match verifies through
/api/v1/records/verify/ and every active match accepts its next move, through the
production web tier serving the restored cluster. Prints the drill's times (``-s``)."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest
from django.db import connection

from games.matches import services as match_services
from games.matches.models import Match
from tests.fault.conftest import reconnect, report, services_dir, wait_for
from tests.fault.serving import (
    first_legal_move,
    http,
    player,
    start_web,
    stop_web,
    wait_serving,
    web_env,
)
from tests.ports import free_port
from tests.workers import ROOT, purge_test_queue, runtime_database_url, start_worker, stop_worker

pytestmark = pytest.mark.django_db(transaction=True)

SCRIPTS = ROOT / "scripts"


def _script(env: dict, *command: str) -> str:
    done = subprocess.run([str(SCRIPTS / command[0]), *command[1:]], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def _as_owner_of(path: Path, *command: str) -> None:
    """Run a PostgreSQL server command as the user owning ``path`` (PostgreSQL refuses root)."""
    owner = path.owner()
    prefix = ["runuser", "-u", owner, "--"] if os.geteuid() == 0 and owner != "root" else []
    subprocess.run([*prefix, *command], cwd="/", check=True, capture_output=True, timeout=120)


def _pg_ctl() -> str:
    found = subprocess.run(["bash", "-c", f"source {SCRIPTS / 'pg_common.sh'} && find_pg_bindir"],
                           capture_output=True, text=True, check=True)
    return str(Path(found.stdout.strip()) / "pg_ctl")


def _bot_match(game: str) -> int:
    return match_services.create_match(user=None, game=game, players=2, take_seat=False,
                                       bot_seats={0: "random", 1: "random"}).pk


def _status(match_id: int) -> str:
    return Match.objects.filter(pk=match_id).values_list("status", flat=True).get()


def _human_to_act(match_id: int) -> bool:
    match = Match.objects.get(pk=match_id)
    return match.status == "active" and 0 in match.to_act


def _segments(wal_dir: Path) -> list[str]:
    """The WAL segments the archive holds, by name (24 hex digits; .gz or not), sorted."""
    names = (path.name.removesuffix(".gz") for path in wal_dir.iterdir())
    return sorted(name for name in names if len(name) == 24
                  and all(c in "0123456789ABCDEF" for c in name))


def test_restore_drill_every_match_verifies_or_plays_on(services, tmp_path):
    purge_test_queue()
    # beside the cluster, where PostgreSQL's user may go (scripts/services.sh keeps it
    # outside a checkout that user cannot reach, a clone under /root say)
    data = (services_dir() / "pg").resolve() / "data"
    drill = data.parent.parent / f"drill-{os.getpid()}"
    shutil.rmtree(drill, ignore_errors=True)
    drill.mkdir(parents=True)
    destroyed = drill / "destroyed-data"
    restored = drill / "restored"
    env = {**os.environ, "PG_PORT": str(services.pg_port), "REDIS_PORT": str(services.redis_port),
           "BACKUP_DIR": str(drill / "backups")}
    wal_dir = drill / "backups" / "wal"
    worker = web = None
    restored_up = False
    try:
        _script(env, "backup.sh", "enable")
        services.stop_pg()  # archive_mode needs a restart
        services.start_pg()
        reconnect()
        worker = start_worker(tmp_path / "worker.log", "drill", concurrency=4)

        # before the base backup: finished bot matches, and people's matches in play
        people = [player(f"drill-{n}") for n in range(3)]
        finished = [_bot_match(game) for game in ("han", "hansa", "hansa")]
        active = [match_services.create_match(user=user, game=("han", "hansa")[n % 2],
                                               players=2, bot_seats={1: "random"}).pk
                  for n, (user, _) in enumerate(people)]
        wait_for(lambda: all(_status(m) == "finished" for m in finished), 240,
                 "the first bot matches' end", worker)
        wait_for(lambda: all(_human_to_act(m) for m in active), 60, "the people's turns",
                 worker)

        started = time.monotonic()
        _script(env, "backup.sh", "base")
        report("restore drill: base backup", time.monotonic() - started)

        # retention (issue 40): one more match, archived, then a second base backup with
        # BACKUP_KEEP=1 removes the first and every segment only it needed; the restore
        # below, from the second and the archive left, proves nothing it needs went
        finished.append(_bot_match("han"))
        wait_for(lambda: _status(finished[-1]) == "finished", 240, "the middle bot match's end",
                 worker)
        _script(env, "backup.sh", "wal")
        archived_before = _segments(wal_dir)
        _script({**env, "BACKUP_KEEP": "1"}, "backup.sh", "base")
        bases = sorted(path.name for path in (drill / "backups" / "base").iterdir())
        first_needed = (drill / "backups" / "base" / bases[-1] / "start_wal").read_text().strip()
        archived_after = _segments(wal_dir)
        assert len(bases) == 1, bases
        assert [name for name in archived_before if name < first_needed], archived_before
        assert archived_after and min(archived_after) >= first_needed, (first_needed,
                                                                        archived_after)
        print(f"\n[restore drill] WAL archive: {len(archived_before)} segments before the "
              f"second base backup, {len(archived_after)} after (from {first_needed})")

        # after it: only the WAL archive holds these
        late = [_bot_match("hansa"), _bot_match("han")]
        for match_id, (user, _) in zip(active, people, strict=True):
            move, ply = first_legal_move(Match.objects.get(pk=match_id), user)
            match_services.submit_move(match_id=match_id, move=move, user=user,
                                       expected_ply=ply)
        finished += late
        wait_for(lambda: all(_status(m) == "finished" for m in late), 240,
                 "the late bot matches' end", worker)
        wait_for(lambda: all(_human_to_act(m) for m in active), 60, "the people's turns",
                 worker)
        plies = {m: Match.objects.get(pk=m).ply for m in active}
        stop_worker(worker)
        worker = None
        _script(env, "backup.sh", "wal")  # what archive_timeout would do within a minute
        # compressed, every one (scripts/backup.sh's archive_command; restore.sh reads them)
        archive = sorted(path.name for path in wal_dir.iterdir())
        assert archive and all(name.endswith(".gz") for name in archive), archive
        compressed = sum(path.stat().st_size for path in wal_dir.iterdir())
        print(f"\n[restore drill] WAL archive: {len(archive)} files, "
              f"{compressed / 2**20:.1f} MB compressed "
              f"({len(_segments(wal_dir)) * 16} MB of 16 MB segments)")

        # the disaster: the server stops dead and its data directory is gone
        connection.close()
        reconnect()
        _as_owner_of(data, _pg_ctl(), "-D", str(data), "stop", "-m", "immediate")
        data.rename(destroyed)

        drill_started = time.monotonic()
        port = free_port()
        said = _script(env, "restore.sh", "--data", str(restored), "--port", str(port))
        restored_up = True
        restore_s = time.monotonic() - drill_started
        print("\n" + said.strip())

        database_url = runtime_database_url().replace(f":{services.pg_port}/", f":{port}/")
        web_port = free_port()  # never a fixed one: another server there once passed
        web = start_web(web_env(database_url, web_port), tmp_path / "web.log")  # the wait
        wait_serving(web, web_port, tmp_path / "web.log", 90,
                     "the web tier on the restored cluster")

        verified = 0
        for match_id in finished:
            status, record = http(web_port, "GET", f"/api/v1/matches/{match_id}/record/")
            assert status == 200, (match_id, record)
            status, verdict = http(web_port, "POST", "/api/v1/records/verify/", body=record)
            assert status == 200 and verdict["valid"], (match_id, verdict)
            verified += 1
        played = 0
        for match_id, (_, token) in zip(active, people, strict=True):
            path = f"/api/v1/matches/{match_id}/"
            status, legal = http(web_port, "GET", path + "legal-moves/", token)
            assert status == 200 and legal["ply"] == plies[match_id], (match_id, legal)
            status, answer = http(web_port, "POST", path + "moves/", token,
                                  {"move": legal["moves"][0], "expected_ply": legal["ply"]})
            assert status == 201, (match_id, answer)
            played += 1
        drill_s = time.monotonic() - drill_started
        report("restore drill: restore.sh (base + archived WAL, promoted)", restore_s)
        report(f"restore drill: restore + {verified} matches verified + {played} active "
               "matches moved", drill_s)
        assert (verified, played) == (len(finished), len(active))
    finally:
        if web is not None:
            stop_web(web)
        if worker is not None:
            stop_worker(worker)
        if restored_up:
            _as_owner_of(restored, _pg_ctl(), "-D", str(restored), "stop", "-m", "fast")
        if destroyed.exists():  # the suite goes on with the cluster it had
            shutil.rmtree(data, ignore_errors=True)
            destroyed.rename(data)
        purge_test_queue()
        services.start_pg()
        _script(env, "backup.sh", "disable")
        services.stop_pg()
        services.start_pg()
        reconnect()
        shutil.rmtree(drill, ignore_errors=True)
