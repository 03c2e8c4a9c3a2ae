"""Where socket moves' wall time went, phase by phase, from the records the web processes
wrote with ``MOVE_PHASES_DIR`` set (infra/observability/move_phases.py; docs/capacity.md
"A paced move, phase by phase").

    MOVE_PHASES_DIR=/tmp/phases scripts/serve_web.sh ...   # then any load: the peer bench,
    .venv/bin/python bench/move_phases_report.py /tmp/phases [--ramp 10]

Printed per phase, in milliseconds: p50, p90, p99 and the mean, for every move and for
the moves after the first ``--ramp`` seconds (a load that opens all its matches at once
plays its first moves beside the matches still being created and joined). A phase is
named by the moment it ends:

    handed_over -> start            the loop's hand-over to a play thread (queue, wake-up)
    start -> rate_limit_sent        the move's rate-limit count sent to Redis
    -> locked_and_read              BEGIN, the lock and the read of the match (PostgreSQL)
    -> applied                      the rate limit's answer, the checks, the engine
    -> written                      the move's writes (PostgreSQL)
    -> committed                    COMMIT
    -> sent_to_readers              the change's receivers: every seat's frames built and
                                    handed to the loop
    -> end                          the service's return
    -> back                         the thread's answer back on the event loop
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.percentiles import percentile  # noqa: E402

ORDER = ("start", "rate_limit_sent", "locked_and_read", "applied", "written", "committed",
         "sent_to_readers", "end", "back")


def read_moves(directory: Path) -> list[dict]:
    moves = []
    for path in sorted(directory.glob("phases-*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            entry = json.loads(line)
            if entry["op"] == "play_move" and "written" in entry["phases"]:
                moves.append(entry)  # an accepted move (a refused one stops earlier)
    return moves


def table(moves: list[dict]) -> list[str]:
    lines = [f"  {'phase (ends at)':18s} {'p50':>7s} {'p90':>7s} {'p99':>7s} {'mean':>7s}"]
    columns = {name: [move["phases"][name] for move in moves if name in move["phases"]]
               for name in ORDER}
    columns["total"] = [sum(move["phases"].values()) for move in moves]
    for name, values in columns.items():
        if len(values) < 2:
            continue
        p50, p90, p99 = (percentile(values, share) for share in (0.5, 0.9, 0.99))
        lines.append(f"  {name:18s} {p50:7.3f} {p90:7.3f} {p99:7.3f} "
                     f"{sum(values) / len(values):7.3f}")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("directory", type=Path)
    parser.add_argument("--ramp", type=float, default=10.0,
                        help="seconds from the first move counted as the ramp")
    args = parser.parse_args()
    moves = read_moves(args.directory)
    if not moves:
        raise SystemExit(f"no accepted moves recorded in {args.directory}")
    first = min(move["at"] for move in moves)
    steady = [move for move in moves if move["at"] - first >= args.ramp]
    print(f"every move ({len(moves)}), ms:")
    print("\n".join(table(moves)))
    print(f"after the first {args.ramp:g} s ({len(steady)} moves), ms:")
    print("\n".join(table(steady)))


if __name__ == "__main__":
    main()
