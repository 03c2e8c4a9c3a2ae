"""The mutations' costs alone (bench/graphql_mutation_costs.py), and the weight each would
get in games/graphql/field_weights.py: for a new mutation when the whole field bench
(bench/graphql_field_costs.py) is more than the change needs.

    eval "$(scripts/services.sh env)"    # with your PG_PORT and REDIS_PORT
    .venv/bin/python bench/graphql_mutation_weights.py [--runs 9] [--matches 20]

Idle figures (no competing process): a root field's weight is its idle time times 1.5
(the contention factor field_weights.py's doc measured), in units of UNIT_MS, rounded up.
Compare the printed table weights of the mutations already listed: a machine busier than
when they were taken shows as new weights above them.
"""

from __future__ import annotations

import argparse
import logging
import math
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench_env import prepare  # noqa: E402 - bench/ is the script folder

prepare()
# one probe after the other: no pause between them (as bench/graphql_field_costs.py)
os.environ["GRAPHQL_EXPENSIVE_SHARE"] = "1"

import django  # noqa: E402

django.setup()

import graphql_cost_data as cost_data  # noqa: E402
from django.test import Client  # noqa: E402
from graphql_mutation_costs import mutation_costs  # noqa: E402

from games.graphql import field_weights  # noqa: E402

#: field_weights.py's doc: root fields cost 1.5 times their idle time under contention
CONTENTION_FACTOR = 1.5


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--matches", type=int, default=20)
    args = parser.parse_args()
    logging.getLogger("celery.app.trace").setLevel(logging.WARNING)
    logging.getLogger("django.request").setLevel(logging.ERROR)
    data = cost_data.build(args.matches)
    costs = mutation_costs(Client(), data, args.runs)
    print(f"{'mutation':<40} {'idle ms':>8} {'weight':>7} {'table':>7}")
    for key, ms in costs.items():
        weight = max(1, math.ceil(ms * CONTENTION_FACTOR / field_weights.UNIT_MS))
        table = field_weights.table_weight(key) if " " not in key else None
        print(f"{key:<40} {ms:>8.2f} {weight:>7} {'-' if table is None else table:>7}")


if __name__ == "__main__":
    main()
