"""How fast the WAL archive grows under play (issue 40; docs/capacity.md "WAL archive").

A scratch PostgreSQL and Redis of their own (scripts/services.sh under
.var/walbench, free ports; this checkout's services are not touched), migrated, archiving
on as scripts/backup.sh enables it (gzip-compressed, ``ARCHIVE_TIMEOUT_S``). Then people
play: ``MATCHES`` two-player matches side by side, ``MOVES_PER_S`` moves a second in all
through the move service (the writes a move makes: the log row, the match's snapshot, the
feed), for ``DURATION_S``. At the end the archive holds N segments; before compression
each was a full 16 MB file, now each is its .gz. Prints, per hour of that load:

    WAL written          (pg_current_wal_lsn's advance)
    archive, before      (N x 16 MB: the old archive_command's plain copies)
    archive, after       (the .gz files)

Run under nice; ``.venv/bin/python bench/wal_archive_growth.py`` (DURATION_S=600,
MATCHES=20, MOVES_PER_S=4, ARCHIVE_TIMEOUT_S=60 by default)."""

from __future__ import annotations

import os
import random
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SEGMENT_MB = 16

DURATION_S = float(os.environ.get("DURATION_S", "600"))
MATCHES = int(os.environ.get("MATCHES", "20"))
MOVES_PER_S = float(os.environ.get("MOVES_PER_S", "4"))
ARCHIVE_TIMEOUT_S = os.environ.get("ARCHIVE_TIMEOUT_S", "60")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _run(env: dict, *command: str) -> str:
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=900)
    if done.returncode:
        sys.exit(f"{' '.join(command)} failed:\n{done.stdout}\n{done.stderr}")
    return done.stdout


def main() -> None:
    scratch = ROOT / ".var" / "walbench"
    shutil.rmtree(scratch, ignore_errors=True)
    pg_port, redis_port = _free_port(), _free_port()
    env = {**os.environ, "SERVICES_DIR": str(scratch), "PG_PORT": str(pg_port),
           "REDIS_PORT": str(redis_port), "BACKUP_DIR": str(scratch / "backups"),
           "ARCHIVE_TIMEOUT_S": ARCHIVE_TIMEOUT_S}
    env.pop("PGHOST", None)
    services = str(ROOT / "scripts" / "services.sh")
    _run(env, services, "start")
    try:
        owner = f"postgres://game_owner:game_owner@127.0.0.1:{pg_port}/game"
        _run({**env, "DATABASE_URL": owner, "DATABASE_OWNER_URL": "", "DEBUG": "true"},
             sys.executable,
             "manage.py", "migrate", "--noinput")
        _run(env, str(ROOT / "scripts" / "backup.sh"), "enable")
        _run(env, services, "stop", "pg")
        _run(env, services, "start", "pg")
        figures = _play(pg_port, redis_port, owner)
        _run(env, str(ROOT / "scripts" / "backup.sh"), "wal")
        _report(scratch / "backups" / "wal", figures)
    finally:
        subprocess.run([services, "stop"], cwd=ROOT, env=env, capture_output=True)
        shutil.rmtree(scratch, ignore_errors=True)


def _play(pg_port: int, redis_port: int, owner_url: str) -> dict:
    """People play for DURATION_S at MOVES_PER_S; the WAL written and the moves made."""
    os.environ.update({
        "DJANGO_SETTINGS_MODULE": "config.settings", "DATABASE_OWNER_URL": "",
        "DATABASE_URL": f"postgres://game:game@127.0.0.1:{pg_port}/game",
        "REDIS_URL": f"redis://127.0.0.1:{redis_port}/0", "LOG_LEVEL": "WARNING",
        "DEBUG": "true",  # the development keys: a scratch database, thrown away after
    })
    import django

    django.setup()
    import psycopg

    from accounts.models import User
    from games.matches import services
    from games.matches.models import Match
    from games.matches.selectors import legal_moves_for

    def wal_lsn() -> int:
        with psycopg.connect(owner_url, autocommit=True) as conn:
            return int(conn.execute("SELECT pg_current_wal_lsn() - '0/0'").fetchone()[0])

    chance = random.Random(40)
    people = [User.objects.create_user(username=f"walbench-{n}", password="walbench-pass-1")
              for n in range(MATCHES * 2)]
    pairs = [tuple(people[2 * n:2 * n + 2]) for n in range(MATCHES)]

    def new_match(pair) -> int:
        match = services.create_match(user=pair[0], game="han", players=2)
        services.join_match(user=pair[1], match_id=match.pk)
        return match.pk

    matches = [new_match(pair) for pair in pairs]
    started_lsn, started = wal_lsn(), time.monotonic()
    moves, turn = 0, 0
    while time.monotonic() - started < DURATION_S:
        slot = turn % MATCHES
        turn += 1
        match = Match.objects.get(pk=matches[slot])
        if match.status != "active":
            matches[slot] = new_match(pairs[slot])
            continue
        for user in pairs[slot]:
            legal = legal_moves_for(match, user)
            if legal["moves"]:
                services.submit_move(match_id=match.pk, user=user,
                                     move=chance.choice(legal["moves"]),
                                     expected_ply=legal["ply"])
                moves += 1
                break
        # the load's pace: MOVES_PER_S in all, as people thinking would make them
        time.sleep(max(0.0, started + moves / MOVES_PER_S - time.monotonic()))
    elapsed = time.monotonic() - started
    return {"seconds": elapsed, "moves": moves, "wal_bytes": wal_lsn() - started_lsn}


def _report(wal_dir: Path, figures: dict) -> None:
    names = [path.name for path in wal_dir.iterdir()]
    segments = [name for name in names if len(name.removesuffix(".gz")) == 24]
    compressed = sum((wal_dir / name).stat().st_size for name in segments)
    hours = figures["seconds"] / 3600
    per_hour = lambda mb: mb / hours  # noqa: E731
    print(f"load: {MATCHES} matches, {figures['moves']} moves in {figures['seconds']:.0f} s "
          f"({figures['moves'] / figures['seconds']:.1f}/s), archive_timeout "
          f"{ARCHIVE_TIMEOUT_S} s")
    print(f"WAL written:      {per_hour(figures['wal_bytes'] / 2**20):8.1f} MB/hour")
    print(f"archive, before:  {per_hour(len(segments) * SEGMENT_MB):8.1f} MB/hour "
          f"({len(segments)} segments of 16 MB, uncompressed)")
    print(f"archive, after:   {per_hour(compressed / 2**20):8.1f} MB/hour "
          f"(gzip, {compressed / max(len(segments), 1) / 2**10:.0f} KB a segment)")


if __name__ == "__main__":
    main()
