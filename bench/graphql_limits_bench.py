"""What GraphQL's limits cost (games/graphql/limits.py): how long refusing the report's
attack and other oversized documents takes, and how long the heaviest kind of query the
limits still allow takes to answer.

    DEBUG=true .venv/bin/python bench/graphql_limits_bench.py [--matches 100] [--runs 20]

Posts through Django's test client (the whole middleware, auth and strawberry stack, minus
the socket), anonymously. Makes ``--matches`` running two-player Han matches with a few
moves each in the development database (DATABASE_URL) and deletes them afterwards.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.test import Client  # noqa: E402
from graphql import parse  # noqa: E402

from games.graphql import limits  # noqa: E402
from games.graphql.cost_estimate import estimate  # noqa: E402
from games.graphql.schema import schema  # noqa: E402
from games.matches import selectors, services  # noqa: E402
from games.matches import services as match_services  # noqa: E402
from games.matches.models import Match  # noqa: E402

ATTACK = "{ " + " ".join(
    f"a{i}: matches(limit: 100) {{ results {{ view log {{ ply move }} "
    f"events {{ moves {{ move }} view }} }} }}" for i in range(20)) + " }"
BOMB = "query { games { ...G0 } } " + " ".join(
    f"fragment G{i} on Game {{ game ...G{i + 1} ...G{i + 1} }}" for i in range(40)
) + " fragment G40 on Game { title }"
REFUSED = {
    "the report's attack (20 x 100 matches)": ATTACK,
    "2,000 fields (token limit)": "{ games { " + " ".join(["id"] * 2000) + " } }",
    "600 fields (field limit)": "{ games { " + " ".join(["game"] * 600) + " } }",
    "fragment bomb (2**40 fields expanded)": BOMB,
}
#: about the longest such listing the measured weights accept (100 cost twice the cap)
HEAVY = ("{ matches(limit: 50) { totalCount results { id status view toAct "
         "seats { position user } log(limit: 5) { ply move } } } }")


def post(client: Client, query: str) -> tuple[float, dict]:
    started = time.perf_counter()
    response = client.post("/graphql/", data=json.dumps({"query": query}),
                            content_type="application/json")
    elapsed = (time.perf_counter() - started) * 1000
    return elapsed, response.json()


def make_matches(count: int) -> list[int]:
    User = get_user_model()
    ann, _ = User.objects.get_or_create(username="bench-limits-ann")
    bob, _ = User.objects.get_or_create(username="bench-limits-bob")
    made = []
    for _ in range(count):
        match = match_services.create_match(user=ann, game="han", players=2)
        match_services.join_match(user=bob, match_id=match.pk)
        for _move in range(4):
            match = selectors.get_match(match.pk)
            seat = selectors.to_act_of(match)[0]
            user = ann if seat == 0 else bob
            move = selectors.legal_moves_for(match, user)["moves"][0]
            services.submit_move(match_id=match.pk, user=user, move=move,
                                 expected_ply=match.ply)
        made.append(match.pk)
    return made


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--matches", type=int, default=100)
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    client = Client()
    post(client, "{ __typename }")  # warm up
    made = make_matches(args.matches)
    try:
        for name, query in REFUSED.items():
            samples, body = [], {}
            for _ in range(args.runs):
                elapsed, body = post(client, query)
                samples.append(elapsed)
            code = body["errors"][0]["extensions"]["code"]
            print(f"refused {name:<42} median {statistics.median(samples):7.2f} ms   "
                  f"max {max(samples):7.2f} ms   ({code})")
        cost = estimate(schema._schema, parse(HEAVY), None, None).cost
        samples, body = [], {}
        for _ in range(max(3, args.runs // 4)):
            elapsed, body = post(client, HEAVY)
            samples.append(elapsed)
        size = len(json.dumps(body))
        print(f"allowed: 50 matches with view, seats, 5 moves of log (cost {cost} of "
              f"{limits.MAX_COST}): median {statistics.median(samples):.1f} ms, "
              f"max {max(samples):.1f} ms, {size / 1024:.0f} KiB, "
              f"errors: {bool(body.get('errors'))}")
    finally:
        Match.objects.filter(pk__in=made).delete()


if __name__ == "__main__":
    main()
