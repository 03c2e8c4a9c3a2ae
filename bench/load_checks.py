"""What bench/load_test.py checks once a load has run: a race at one ply lands exactly
one move, the bot replies' delays, and every match's log and result (contiguous plies,
each finished match replaying to its stored result). Imported by load_test.py after it
has set Django up."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor

from django.db import connection, transaction

from games.matches.models import Match, Move, Result
from games.matches.replay import replay_result


def http(host: str, method: str, path: str, token: str, body: dict | None = None):
    request = urllib.request.Request(
        host + path, method=method, data=json.dumps(body).encode() if body is not None else None,
        headers={"Content-Type": "application/json", "Authorization": f"Token {token}"})
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, json.loads(response.read() or b"{}")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"{}")


def race_check(hosts: list[str], tokens: list[str], submits: int = 20) -> dict:
    """``submits`` concurrent submits of one legal move at one ply, spread over every
    instance: exactly one may land."""
    status, match = http(hosts[0], "POST", "/api/v1/matches/", tokens[0],
                         {"game": "han", "players": 2})
    assert status == 201, match
    status, joined = http(hosts[-1], "POST", f"/api/v1/matches/{match['id']}/join/",
                          tokens[1], {})
    assert status == 200, joined
    seat = joined["to_act"][0]
    path = f"/api/v1/matches/{match['id']}/"
    status, legal = http(hosts[0], "GET", path + "legal-moves/", tokens[seat])
    body = {"move": legal["moves"][0], "expected_ply": legal["ply"]}
    with ThreadPoolExecutor(max_workers=submits) as pool:
        answers = list(pool.map(
            lambda i: http(hosts[i % len(hosts)], "POST", path + "moves/", tokens[seat], body),
            range(submits)))
    logged = list(Move.objects.filter(match_id=match["id"]).values_list("ply", flat=True))
    return {"match": match["id"], "landed": sum(status == 201 for status, _ in answers),
            "refused": sorted({answer.get("error", {}).get("code", str(status))
                               for status, answer in answers if status != 201}),
            "log": logged}


def bot_replies_ms(match_ids: list[int]) -> list[float]:
    """From the log: for each bot move (seat 1) right after a human one (seat 0), the time
    between their commits."""
    delays = []
    previous = {}
    for match_id, seat, created_at in (Move.objects.filter(match_id__in=match_ids)
                                       .order_by("match_id", "ply")
                                       .values_list("match_id", "seat", "created_at")):
        before = previous.get(match_id)
        if before is not None and before[0] == 0 and seat == 1:
            delays.append((created_at - before[1]).total_seconds() * 1000)
        previous[match_id] = (seat, created_at)
    return delays


def check_matches(match_ids: list[int]) -> dict:
    """Every log contiguous (plies 0..ply-1, once each); every finished match replays to
    its stored result. Read in one snapshot: between two sizes of a ramp the workers are
    still running, and a bot move landing between reading a match and reading its log
    would look like a gap."""
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
        return _check_matches(match_ids)


def _check_matches(match_ids: list[int]) -> dict:
    bad_logs, bad_results, finished = [], [], 0
    for match in Match.objects.filter(pk__in=match_ids):
        plies = list(Move.objects.filter(match_id=match.pk).order_by("ply")
                     .values_list("ply", flat=True))
        if plies != list(range(match.ply)):
            bad_logs.append(match.pk)
        if match.status != "finished":
            continue
        finished += 1
        replayed = replay_result(match)
        stored = {row.seat: (row.score, row.rank) for row in Result.objects.filter(match=match)}
        expected = {seat: (replayed["scores"][seat], replayed["ranks"][seat])
                    for seat in range(match.players)} if replayed else None
        if stored != expected:
            bad_results.append(match.pk)
    return {"matches": len(match_ids), "finished": finished, "bad_logs": bad_logs,
            "bad_results": bad_results}
