"""The parts of bench/load_test.py that only its play-socket mode (``--socket``) uses:
warming the web processes up, their memory per open socket, and checking what the
sockets were told against the move log. Django must be set up before this is imported.

It prints, besides load_test's own figures: ``move ack`` p50/p95/p99 (a move sent to its
``ack``), ``bot reply push`` p50/p99 (a human move's ack to the push of the bot's reply),
the hellos and subscriptions, the gaps or doubled moves any socket saw in its pushes,
the error frames, every acknowledged move found in the log (none lost), the web tier's
memory per open socket, the acks by the server's own clock (``server_answers``), and
where the slow acks and replies fell in time (``slow_windows``): spread over the run, or
in bursts, and how many matches were created in the worst windows against the others
(the waves of matches ending and starting that a load test's common start makes).

Memory per open socket: the resident memory (VmRSS) of every process of the web tier
(the uvicorn supervisors and their worker processes), summed, sampled once before the
load client starts (after a warm-up that has every process import and start what a
socket needs: the play hub, its threads, the channel layer) and once every user holds its
sockets; the difference divided by the sockets. It includes whatever came with them
(each user's REST connection, its followed matches), which is what a socket costs.
"""

from __future__ import annotations

import json
import statistics
import time
from collections import defaultdict
from pathlib import Path

import websocket

from bench.process_tree import tree
from games.matches.models import Match, Move, Seat

#: sockets opened (and closed) per web process before the first memory sample
WARM_UP_SOCKETS_PER_PROCESS = 6
#: an event slower than this counts as slow for ``slow_windows`` (the issue's ack target)
SLOW_MS = {"move ack": 50, "bot reply push": 500}
#: the run is cut into windows of this many seconds for ``slow_windows``
WINDOW_S = 10


def rss_bytes(roots: list[int]) -> tuple[int, int]:
    """(summed VmRSS in bytes, number of processes) of the trees under ``roots``."""
    total, count = 0, 0
    for pid in tree(roots):
        try:
            with open(f"/proc/{pid}/status") as handle:
                for line in handle:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1]) * 1024
                        count += 1
                        break
        except OSError:
            continue
    return total, count


def warm_up(hosts: list[str], token: str, processes: int, http) -> None:
    """Create a few matches and open, use (hello, subscribe, a move when the seat must
    act, unsubscribe) and close a few sockets on every instance, so that each web process
    has loaded what a socket, a match and a move need before memory is first sampled
    (``http``: load_test's). The bots answer those moves; the matches then wait."""
    for host in hosts:
        url = host.replace("http", "ws", 1) + "/play/"
        for number in range(WARM_UP_SOCKETS_PER_PROCESS * processes):
            # both games' matches created and followed by every process (whichever serves)
            status, match = http(host, "POST", "/api/v1/matches/", token,
                                 {"game": ("han", "hansa")[number % 2], "players": 2,
                                  "bot_seats": {"1": "greedy"}})
            assert status == 201, match
            ws = websocket.create_connection(url, timeout=30)
            ws.send(json.dumps({"op": "hello", "token": token}))
            ws.send(json.dumps({"op": "subscribe", "match": str(match["id"])}))
            sync = _next(ws, "sync")
            if sync["legal_moves"]:  # the move path too: the ack, the pushes, the bot's task
                ws.send(json.dumps({"op": "move", "match": str(match["id"]),
                                    "move": sync["legal_moves"][0],
                                    "expected_ply": sync["ply"]}))
                _next(ws, "ack", "refused")
            ws.send(json.dumps({"op": "unsubscribe", "match": str(match["id"])}))
            _next(ws, "unsubscribed")
            ws.close()


def _next(ws, *ops: str) -> dict:
    while (frame := json.loads(ws.recv()))["op"] not in ops:
        pass
    return frame


class Memory:
    """The web tier's memory before the load client starts, then once its sockets are
    open (the client writes how many are open to ``<prefix>_sockets``)."""

    def __init__(self, web, prefix: Path) -> None:
        self.roots = [process.pid for process in web]
        self.prefix = prefix
        for stale in (Path(f"{prefix}_record.json"), Path(f"{prefix}_sockets")):
            stale.unlink(missing_ok=True)
        self.before = rss_bytes(self.roots)
        self.line = "memory: not sampled (the sockets did not open)"

    def sample(self, locust, expected: int, timeout: float) -> None:
        path, count = Path(f"{self.prefix}_sockets"), 0
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and locust.poll() is None:
            try:
                count = int(path.read_text() or 0)
            except (OSError, ValueError):
                count = 0
            if count >= expected:
                break
            time.sleep(0.5)
        if not count:
            return
        time.sleep(2)  # the last hellos and subscriptions answered
        (before, processes), (after, _) = self.before, rss_bytes(self.roots)
        self.line = (f"memory: web tier RSS {before / 2**20:.0f} MiB ({processes} processes) "
                     f"before, {after / 2**20:.0f} MiB with {count} open sockets: "
                     f"{(after - before) / count / 1024:.1f} KiB per open socket")


def answer_buckets(directories: list[Path]) -> dict[float, float]:
    """The play sockets' acks so far by the server's own clock: the web processes'
    ``play_move_answer_seconds{outcome="ack"}`` histogram (infra/observability/metrics.py,
    a move's frame read to its ack queued), summed over ``directories`` (their
    PROMETHEUS_MULTIPROC_DIR): the cumulative count at each bucket's bound, in seconds."""
    from prometheus_client import CollectorRegistry
    from prometheus_client.multiprocess import MultiProcessCollector

    counts: dict[float, float] = {}
    for directory in directories:
        if not directory.is_dir():
            continue
        registry = CollectorRegistry()
        MultiProcessCollector(registry, path=str(directory))
        for family in registry.collect():
            for sample in family.samples:
                if sample.name == "play_move_answer_seconds_bucket" \
                        and sample.labels.get("outcome") == "ack":
                    bound = float(sample.labels["le"])
                    counts[bound] = counts.get(bound, 0) + sample.value
    return counts


def server_answers(before: dict[float, float], after: dict[float, float]) -> str:
    """One line on the acks of a run (``after`` less ``before``) by the server's clock:
    how many came within 50 ms (the target's bound, one of the buckets), and the bucket
    bound under which half, 95% and 99% of them came. Set beside the client's ``move
    ack`` line, the difference is the time outside the server's window: the network, the
    web process's event loop before it read the frame, and the load client itself."""
    counts = {bound: after[bound] - before.get(bound, 0) for bound in after}
    total = counts.get(float("inf"), 0)
    if not total:
        return "move ack by the server's clock: not recorded"

    def bound_of(share: float) -> str:
        bound = min(b for b, n in counts.items() if n >= share * total)
        return "over 10 s" if bound == float("inf") else f"<= {1000 * bound:g} ms"

    within = 100 * counts.get(0.05, 0) / total
    return (f"move ack by the server's clock (frame read to ack queued): n={total:.0f}, "
            f"{within:.1f}% within 50 ms; p50 {bound_of(0.5)}, p95 {bound_of(0.95)}, "
            f"p99 {bound_of(0.99)}")


def results(prefix: Path, match_ids: list[int], memory: Memory,
            since: float | None = None) -> dict:
    """What the socket users recorded, checked against the log (``check_acks``: every
    ack of the run); the slow windows of the times recorded from ``since`` on (the end of
    load_test.py's ``--ramp-s``)."""
    record_file = Path(f"{prefix}_record.json")
    record = json.loads(record_file.read_text()) if record_file.exists() else {}
    created = [moment.timestamp() for moment in Match.objects.filter(pk__in=match_ids)
               .values_list("created_at", flat=True)]
    return {"record": record, "memory": memory.line,
            "acks": check_acks(record, match_ids),
            "slow_windows": slow_windows(
                {name: [sample for sample in samples if since is None or sample[0] >= since]
                 for name, samples in record.get("timings", {}).items()}, created)}


def slow_windows(timings: dict[str, list], created: list[float]) -> list[str]:
    """For each timed event: how many were slow (``SLOW_MS``), what share of them the
    worst tenth of the run's ``WINDOW_S``-second windows holds (a tenth when spread
    evenly, near all in bursts), and matches created per second in those windows and in
    the rest."""
    lines = []
    for name, samples in sorted(timings.items()):
        limit = SLOW_MS.get(name)
        if not samples or limit is None:
            continue
        start = min(when for when, _ms in samples)
        slow_in = defaultdict(int)
        for when, ms in samples:
            slow_in[int((when - start) // WINDOW_S)] += ms > limit
        windows = int((max(when for when, _ms in samples) - start) // WINDOW_S) + 1
        ranked = sorted(range(windows), key=lambda window: -slow_in[window])
        worst = set(ranked[:max(1, windows // 10)])
        slow = sum(slow_in.values())
        created_in = defaultdict(int)
        for when in created:
            if 0 <= when - start < windows * WINDOW_S:
                created_in[int((when - start) // WINDOW_S)] += 1
        rest = [window for window in range(windows) if window not in worst]
        lines.append(
            f"{name} over {limit} ms: {slow} of {len(samples)} ({slow / len(samples):.1%}); "
            f"the worst {len(worst)} of {windows} {WINDOW_S}-s windows hold "
            f"{sum(slow_in[w] for w in worst) / max(slow, 1):.0%} of them; matches created "
            f"per second in those windows {_per_second(created_in, worst):.1f}, in the rest "
            f"{_per_second(created_in, rest):.1f}")
    return lines


def check_acks(record: dict, match_ids: list[int]) -> dict:
    """Every acknowledged move is in the log, at the ply before the ack's, by the human
    seat (0): none lost. And the human moves of the log that were never acknowledged (a
    move sent twice and landing twice would be one; so is a move whose ack the stop of
    the load client cut off)."""
    # the socket users' matches: those with a bot (not the race check's)
    match_ids = list(Seat.objects.filter(match_id__in=match_ids, bot_kind__gt="")
                     .values_list("match_id", flat=True))
    acked = {(match, ply - 1) for match, ply in record.get("acks", [])}
    human = set(Move.objects.filter(match_id__in=match_ids, seat=0)
                .values_list("match_id", "ply"))
    lost = sorted(acked - human)
    unacked = sorted(human - acked)
    # an unacknowledged human move is expected only as a match's last human move (the
    # stop came between the commit and the ack)
    last_human = {}
    for match, ply in human:
        last_human[match] = max(ply, last_human.get(match, -1))
    suspicious = [(match, ply) for match, ply in unacked if ply != last_human[match]]
    return {"acks": len(acked), "lost": lost, "unacked": unacked, "suspicious": suspicious,
            "matches_finished": Match.objects.filter(pk__in=match_ids,
                                                     status="finished").count()}


def _per_second(counts: dict[int, int], windows) -> float:
    return statistics.fmean(counts[window] for window in windows) / WINDOW_S if windows else 0.0


def print_socket_lines(result: dict) -> None:
    rows, acks, record = result["rows"], result["acks"], result["record"]
    for name in ("move ack", "bot reply push", "player hello", "spectator hello",
                 "player subscribe", "spectator subscribe"):
        row = rows.get(name)
        if row:
            print(f"{name:<19} n={row['Request Count']:>7} failures={row['Failure Count']:>5} "
                  f"p50={row['50%']:>5} p95={row['95%']:>5} p99={row['99%']:>5} ms")
    print(f"pushes read: {record.get('pushes', 0)}; gaps or doubled moves seen by a socket: "
          f"{record.get('push_gaps', '?')}; error frames: {record.get('error_frames', {})}; "
          f"sockets closed by the server: {record.get('closed', '?')}")
    print(f"acknowledged moves: {acks['acks']}; missing from the log (lost): "
          f"{len(acks['lost'])} {acks['lost'][:10]}; human moves of the log never "
          f"acknowledged: {len(acks['unacked'])} (not a match's last: "
          f"{len(acks['suspicious'])} {acks['suspicious'][:10]})")
    print(result["memory"])
    for line in chat_lines(rows, record):
        print(line)
    for line in result.get("slow_windows", []):
        print(line)
    if result.get("server_answers"):
        print(result["server_answers"])


def chat_lines(rows: dict, record: dict) -> list[str]:
    """With --chat (bench/socket_chat.py): the chat's ack and push, and the move ack of
    the people who chat beside their moves against the others', from the same run."""
    if "chat ack" not in rows:
        return []
    lines = []
    for name in ("chat ack", "chat push"):
        row = rows.get(name)
        if row:
            lines.append(f"{name:<19} n={row['Request Count']:>7} "
                         f"failures={row['Failure Count']:>5} p50={row['50%']:>5} "
                         f"p95={row['95%']:>5} p99={row['99%']:>5} ms")
    for group, times in sorted(record.get("move_ack_ms", {}).items()):
        if times:
            ordered = sorted(times)
            p50 = ordered[len(ordered) // 2]
            p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
            lines.append(f"move ack ({group:<8}) n={len(ordered):>7} p50={p50:>7.1f} "
                         f"p99={p99:>7.1f} ms")
    return lines
