"""What each GraphQL field costs, measured, and the weight games/graphql/field_weights.py
should give it (issue 21, item 3).

    eval "$(scripts/services.sh env)"    # with your PG_PORT and REDIS_PORT
    .venv/bin/python bench/graphql_field_costs.py [--runs 15] [--matches 50] [--keep] \
        [--contention 1] [--table]

On a realistic database (bench/graphql_cost_data.py: a player with ``--matches`` finished
matches, the longest Han game, running matches where they are to act), each probe posts
one operation through Django's test client (the whole middleware, auth and strawberry
stack, minus the socket) with the field repeated (aliases, or a list of ``n`` items) and
the same operation without it, interleaved ``--runs`` times; the field's cost is the
difference of the medians divided by the repetitions. The weight is that cost in units of
``UNIT_MS`` (50 us), rounded up. Mutations: bench/graphql_mutation_costs.py; the per-push
work of subscriptions is timed on the functions they call.

The last lines time the heaviest operations the cost cap accepts, and compare each field
with the table: ``LOW`` marks a weight under the measured cost.

Under contention (issue 39): ``--contention N`` starts N more processes that send the same
probes in a loop while this one measures, as a busy web tier's other threads and processes
would; the weights are the cost of a field with one such competitor (``--contention 1``:
a unit is ``UNIT_MS`` of that). Three aliases of ``matchRecord`` ran 2-3 times their
estimate under sixteen clients when the weights came from an otherwise idle process.
``--table`` prints the measured lines in games/graphql/field_weights.py's format: on a
quiet machine with ``--contention 1``, the root fields' weights (Query, Mutation,
Subscription); the fields nested under them keep their idle weights while
``compositions`` shows the nested operations priced over their time (the table's doc
says why). On a machine loaded by other work the figures are inflated and noisy: then
compare the report's query (three ``matchRecord`` aliases) under contention with its
idle time, and scale (field_weights.py's doc did that once, a factor of 1.5).
``compositions`` checks the estimate of whole operations, the same field under 1, 3 and
10 aliases and lists nested in lists, against their measured time: a ``LOW`` there is an
operation the estimate prices under its cost.
"""

from __future__ import annotations

import argparse
import json
import logging
import math
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench_env import prepare  # noqa: E402 - bench/ is the script folder

prepare()
# The probes send expensive operations one after the other: no pause between them (the
# pause is what games/graphql/concurrency.py adds under load, not a resolver's cost).
os.environ["GRAPHQL_EXPENSIVE_SHARE"] = "1"

import django  # noqa: E402

django.setup()

import graphql_cost_data as cost_data  # noqa: E402
from django.test import Client  # noqa: E402
from graphql import parse  # noqa: E402
from rest_framework.authtoken.models import Token  # noqa: E402

from games.feed.selectors import events_after  # noqa: E402
from games.graphql import field_weights, limits  # noqa: E402
from games.graphql.analysis import progress_of  # noqa: E402 - the per-push work itself
from games.graphql.cost_estimate import estimate  # noqa: E402
from games.graphql.schema import schema  # noqa: E402
from games.graphql.subscriptions import _read  # noqa: E402 - the per-push work itself
from games.lobby import selectors as lobby_selectors  # noqa: E402
from games.records.format import MAX_RECORD_MOVES  # noqa: E402
from games.records.selectors import record_of  # noqa: E402

clock = time.perf_counter
UNIT_MS = field_weights.UNIT_MS


@dataclass
class Probe:
    """``key`` ("Type.field", "+item" for a list's per-item cost) measured as
    (time of ``query`` - time of ``base``) / ``calls``."""

    key: str
    query: str
    base: str
    calls: int
    variables: dict = field(default_factory=dict)


def cost_of(query: str) -> int:
    return estimate(schema._schema, parse(query), None, None).cost


def post(client: Client, token: str, query: str,
         variables: dict | None = None) -> tuple[float, dict]:
    body = json.dumps({"query": query, "variables": variables or {}})
    started = clock()
    response = client.post("/graphql/", data=body, content_type="application/json",
                           HTTP_AUTHORIZATION=f"Token {token}")
    elapsed = (clock() - started) * 1000
    return elapsed, response.json()


def aliases(count: int, selection: str, head: str = "") -> str:
    return f"{head}{{ " + " ".join(f"a{i}: {selection}" for i in range(count)) + " }"


def repeated(key: str, selection: str, base: str | None, count: int, per: int = 1,
             variables: dict | None = None) -> Probe:
    """``selection`` ``count`` times against ``base`` (None: an empty operation) as many
    times, each standing for ``per`` calls (or items)."""
    head = "query($r: JSON!) " if variables else ""
    return Probe(key, aliases(count, selection, head),
                 aliases(count, base, head) if base else "{ __typename }", count * per,
                 variables or {})


def measure(client: Client, token: str, probe: Probe, runs: int) -> float:
    post(client, token, probe.query, probe.variables)  # warm caches, check it answers
    with_field, without = [], []
    for _ in range(runs):
        elapsed, body = post(client, token, probe.query, probe.variables)
        if body.get("errors"):
            raise RuntimeError(f"{probe.key}: {body['errors'][0]}")
        with_field.append(elapsed)
        without.append(post(client, token, probe.base, probe.variables)[0])
    return (statistics.median(with_field) - statistics.median(without)) / probe.calls


def match_field_probes(match_id: int, selections: dict[str, str],
                       count: int = 20) -> list[Probe]:
    """Fields of Match read through ``match(id)`` ``count`` times (each alias reads the
    match anew, as a page of matches hands each one over)."""
    base = aliases(count, f"match(id: {match_id}) {{ id }}")
    return [Probe(key, aliases(count, f"match(id: {match_id}) {{ id {selection} }}"), base,
                  count) for key, selection in selections.items()]


def listed_field_probes(listed: int, selections: dict[str, str]) -> list[Probe]:
    """Fields of Match read on a page of ``listed`` matches (list_matches' rows)."""
    base = f"{{ matches(limit: {listed}) {{ results {{ id }} }} }}"
    return [Probe(key, f"{{ matches(limit: {listed}) {{ results {{ id {selection} }} }} }}",
                  base, listed) for key, selection in selections.items()]


def probes(data: cost_data.CostData) -> list[Probe]:
    hero = cost_data.HERO
    longest, active = data.longest, data.active[0]
    record = record_of(longest)
    # the most a record may carry: the real game, then moves past its end (refused there)
    moves = record["moves"]
    padded = {**record, "moves": moves + [{**moves[-1], "ply": ply}
                                          for ply in range(len(moves), MAX_RECORD_MOVES)]}
    listed = min(100, lobby_selectors.list_matches(user=data.hero).count())
    player = f'player(username: "{hero}")'
    page = f"matches(limit: {listed}) {{ results {{ id }} }}"
    log, events = f"match(id: {longest}) {{ log", f"match(id: {longest}) {{ events"
    entry = "{ ply move events }"
    found = [
        repeated("Query.games", "games { game }", None, 10),
        repeated("Query.game", 'game(game: "han") { game }', None, 10),
        *[repeated(f"Game.{name}", f'game(game: "han") {{ game {name} }}',
                   'game(game: "han") { game }', 10)
          for name in ("maps", "drawing", "moveSchema", "botLevels", "options")],
        repeated("Query.matches", "matches(limit: 1) { totalCount }", None, 10),
        repeated("MatchPage.results+item", page, "matches(limit: 1) { results { id } }", 1,
                 per=listed - 1),
        repeated("Query.match", f"match(id: {active}) {{ id }}", None, 10),
        repeated("Query.replay", f"replay(matchId: {longest}) {{ ply }}", None, 5),
        repeated("Query.replay", f"replay(matchId: {longest}) {{ ply state views }}", None, 5),
        repeated("Query.me", "me { username }", None, 10),
        repeated("Query.matchRecord", f"matchRecord(matchId: {longest})", None, 5),
        repeated("Query.matchAnalysis", f"matchAnalysis(matchId: {longest})", None, 5),
        repeated("Query.verifyRecord", "verifyRecord(record: $r) { valid }", None, 5,
                 variables={"r": record}),
        repeated("Query.verifyRecord", "verifyRecord(record: $r) { valid }", None, 3,
                 variables={"r": padded}),
        repeated("Query.leaderboard",
                 'leaderboard(game: "han", limit: 100) { results { rank username } }', None, 10),
        repeated("Query.player", f"{player} {{ username }}", None, 10),
        repeated("Player.ratingHistory", f"{player} {{ ratingHistory(limit: 1) {{ matchId }} }}",
                 f"{player} {{ username }}", 10),
        repeated("Player.ratingHistory+item",
                 f"{player} {{ ratingHistory(limit: 100) {{ matchId }} }}",
                 f"{player} {{ ratingHistory(limit: 1) {{ matchId }} }}", 5,
                 per=len(data.finished) - 1),
        repeated("Query.myInvitations", "myInvitations { id }", None, 10),
        repeated("Query.myQuickMatches", "myQuickMatches { id }", None, 10),
        repeated("Query.myMailSettings", "myMailSettings { address }", None, 10),
        # everything of the hero with one record, then each record more (a replay each)
        repeated("Query.myData", "myData(recordsLimit: 1)", None, 3),
        repeated("Query.myData+item", "myData(recordsLimit: 10)", "myData(recordsLimit: 1)",
                 3, per=9),
        repeated("Match.log+item", f"{log}(limit: 100) {entry} }}", f"{log}(limit: 1) {entry} }}",
                 5, per=99),
        repeated("MatchEvents.moves+item", f"{events}(limit: 100) {{ moves {entry} }} }}",
                 f"{events}(limit: 1) {{ moves {entry} }} }}", 5, per=99),
    ]
    # a field with the least selection under it (one scalar): its weight includes that
    plain = {"Match.status": "status", "Match.createdBy": "createdBy", "Match.seed": "seed",
             "Match.seats": "seats { position }", "Match.yourSeat": "yourSeat",
             "Match.toAct": "toAct", "Match.timeControl": "timeControl",
             "Match.clocks": "clocks { seat }", "Match.reclaimableSeat": "reclaimableSeat",
             "Match.incidents": "incidents { kind }", "Match.view": "view",
             "Match.boardSvgUrl": "boardSvgUrl",
             "(plain field x10)": "game players ply seedCommitment rulesVersion createdAt "
                                  "startedAt finishedAt abortReason options"}
    per_match = {"Match.log": "log(limit: 1) { ply }", "Match.events": "events(limit: 1) { ply }"}
    found += listed_field_probes(listed, plain)
    for running in data.active[:2]:  # Han, Hansa
        found += match_field_probes(running, {**plain, **per_match,
                                              "Match.legalMoves": "legalMoves { seat }"})
    found += match_field_probes(longest, {**plain, **per_match,
                                          "Match.result": "result { winners }"})
    return found


def subscription_costs(data: cost_data.CostData, runs: int) -> dict[str, float]:
    """The work of one push: matchUpdates' read of the match since ply 0 (the longest log a
    push may carry), myEvents' first page of the feed."""
    def timed(function: Callable[[], object]) -> float:
        samples = []
        for _ in range(runs):
            started = clock()
            function()
            samples.append((clock() - started) * 1000)
        return statistics.median(samples)

    return {"Subscription.matchUpdates": timed(lambda: _read(data.longest, data.hero, 0)),
            "Subscription.myEvents": timed(lambda: events_after(data.hero, 0)),
            "Subscription.analysisProgress": timed(lambda: progress_of(data.longest))}


def heaviest_accepted(data: cost_data.CostData) -> dict[str, str]:
    """For each costly root field, as many aliases as the cap accepts."""
    hero, longest = cost_data.HERO, data.longest
    player = f'player(username: "{hero}")'
    fields = {"player": f"{player} {{ username ratingHistory(limit: 100) {{ matchId }} "
                        "recentMatches { id view } }",
              "replay": f"replay(matchId: {longest}) {{ ply view state views }}",
              "matchRecord": f"matchRecord(matchId: {longest})",
              "match log": f"match(id: {longest}) {{ view result {{ winners }} "
                           "log { ply move events } }",
              "matches view": "matches(limit: 100) { results { id view seats { user } toAct } }",
              "matches incidents": "matches(limit: 100) { results { id incidents { kind } } }"}
    heaviest = {}
    for name, selection in fields.items():
        one = cost_of(f"{{ {selection} }}")
        count = max(1, min(limits.MAX_ALIASES, limits.MAX_COST // max(one, 1)))
        heaviest[f"{count} x {name}"] = aliases(count, selection)
    return heaviest


def compositions(data: cost_data.CostData) -> dict[str, str]:
    """Whole operations whose estimate must cover their time: one field under 1, 3 and 10
    aliases (each alias is resolved anew: nothing is shared between them) and lists
    nested in lists (a page's rows times their own lists)."""
    hero, longest, active = cost_data.HERO, data.longest, data.active[0]
    player = f'player(username: "{hero}")'
    record = f"matchRecord(matchId: {longest})"
    replay = f"replay(matchId: {longest}) {{ ply view state views }}"
    profile = (f"{player} {{ username ratingHistory(limit: 100) {{ matchId }} "
               "recentMatches { id view toAct } }")
    found = {}
    for count in (1, 3, 10):
        found[f"{count} x matchRecord"] = aliases(count, record)
        found[f"{count} x replay"] = aliases(count, replay)
        found[f"{count} x profile"] = aliases(count, profile)
    found["matches(100) results log(100)"] = (
        "{ matches(limit: 100) { results { id view log(limit: 100) { ply move } } } }")
    found["matches(100) results events moves"] = (
        "{ matches(limit: 100) { results { id events(limit: 100) { moves { ply move } } } } }")
    found["3 x match log, result, legalMoves"] = aliases(
        3, f"match(id: {active}) {{ view legalMoves {{ seat }} log {{ ply move events }} }}")
    found["profile, its recent matches' logs"] = (
        f"{{ {player} {{ username recentMatches {{ id view log(limit: 100) {{ ply }} }} }} }}")
    return found


def time_compositions(client: Client, data: cost_data.CostData, runs: int) -> None:
    """Each composition's estimate against its median time less an empty operation's."""
    print(f"\ncompositions (estimate x {UNIT_MS} ms against the measured time):")
    for name, query in compositions(data).items():
        with_it, without = [], []
        for _ in range(runs):
            elapsed, body = post(client, data.token, query)
            if body.get("errors"):
                raise RuntimeError(f"{name}: {body['errors'][0]}")
            with_it.append(elapsed)
            without.append(post(client, data.token, "{ __typename }")[0])
        measured = statistics.median(with_it) - statistics.median(without)
        estimated = cost_of(query) * UNIT_MS
        flag = "  LOW" if estimated < measured * 0.8 else ""
        print(f"  {name:<36} estimate {cost_of(query):>6} = {estimated:7.1f} ms, "
              f"measured {measured:7.1f} ms{flag}", flush=True)


def print_table(rounds: list[dict[str, list[float]]]) -> None:
    """The measured weights as games/graphql/field_weights.py writes them."""
    print("\n# field_weights.FIELD_WEIGHTS as measured (the worst context):")
    worst = {key: max(statistics.median(values)
                      for values in zip(*(r[key] for r in rounds), strict=True))
             for key in rounds[0]}
    for key in sorted({key.partition("+")[0] for key in worst}):
        if key not in field_weights.FIELD_WEIGHTS:
            continue  # a context line ("plain field x10"), not a field
        call = max(1, math.ceil(worst.get(key, 0) / UNIT_MS))
        item = worst.get(f"{key}+item")
        extra = f", item={max(1, math.ceil(item / UNIT_MS))}" if item is not None else ""
        shown = f" + {item:.2f} per item" if item is not None else ""
        print(f'    "{key}": Weight({call}{extra}),  # {worst.get(key, 0):.2f}{shown}')


def start_contention(count: int, matches: int, runs: int) -> list[subprocess.Popen]:
    """``count`` processes sending the same probes in a loop (``--load-only``)."""
    command = [sys.executable, __file__, "--load-only", "--matches", str(matches),
               "--runs", str(runs)]
    competitors = [subprocess.Popen(command, stdout=subprocess.DEVNULL,
                                    stderr=subprocess.DEVNULL) for _ in range(count)]
    time.sleep(5)  # each has set Django up and is sending
    return competitors


def load_forever(client: Client, data: cost_data.CostData, runs: int) -> None:
    """A competitor: the probes and compositions, over and over, unmeasured."""
    while True:
        for probe in probes(data):
            # the measuring process's login mutation replaces the hero's token
            token = current_token(data)
            for _ in range(runs):
                post(client, token, probe.query, probe.variables)
        for query in compositions(data).values():
            post(client, current_token(data), query)


def current_token(data: cost_data.CostData) -> str:
    """The hero's token now (graphql_mutation_costs.py's login replaces it)."""
    return Token.objects.get_or_create(user=data.hero)[0].key


def measure_all(client: Client, data: cost_data.CostData, runs: int) -> dict[str, list[float]]:
    """Each line's ms per call, one number per context it was measured in."""
    from graphql_mutation_costs import mutation_costs  # noqa: PLC0415 - same folder

    measured: dict[str, list[float]] = {}
    for probe in probes(data):
        ms = measure(client, data.token, probe, runs)
        print(f"  {probe.key}: {ms:.3f} ms", file=sys.stderr, flush=True)
        measured.setdefault(probe.key, []).append(ms)
    others = {**subscription_costs(data, runs), **mutation_costs(client, data, runs)}
    data.token = current_token(data)  # the login mutation replaced it
    for key, ms in others.items():
        measured[key] = [ms]
    return measured


def report(rounds: list[dict[str, list[float]]]) -> None:
    """Per line: each context's median over the rounds; the weight from the worst."""
    print(f"{'field':<34} {'ms per call (each context)':<28} {'weight':>7} {'table':>7}")
    for key in rounds[0]:
        contexts = [statistics.median(values)
                    for values in zip(*(r[key] for r in rounds), strict=True)]
        weight = max(1, math.ceil(max(contexts) / UNIT_MS))
        table = field_weights.table_weight(key)
        flag = "  LOW" if table is not None and table < weight * 0.8 else ""
        shown = ", ".join(f"{ms:.3f}" for ms in contexts)
        print(f"{key:<34} {shown:<28} {weight:>7} {'-' if table is None else table:>7}{flag}")


def time_heaviest(client: Client, data: cost_data.CostData, runs: int) -> None:
    print(f"\nthe heaviest operations the cap ({limits.MAX_COST}, about "
          f"{limits.MAX_COST * UNIT_MS:.0f} ms) accepts:")
    for name, query in heaviest_accepted(data).items():
        samples, body = [], {}
        for _ in range(runs):
            elapsed, body = post(client, data.token, query)
            samples.append(elapsed)
        refused = ", ".join(error["extensions"]["code"] for error in body.get("errors", []))
        print(f"  {name:<24} cost {cost_of(query):>5}: median "
              f"{statistics.median(samples):6.1f} ms, max {max(samples):6.1f} ms {refused}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15, help="samples per probe and round")
    parser.add_argument("--rounds", type=int, default=1,
                        help="measure everything this many times (the load drifts): the "
                             "median of the rounds counts")
    parser.add_argument("--matches", type=int, default=50)
    parser.add_argument("--keep", action="store_true", help="keep the data for the next run")
    parser.add_argument("--contention", type=int, default=0,
                        help="processes sending the same probes while this one measures "
                             "(the weights are measured with 1)")
    parser.add_argument("--table", action="store_true",
                        help="print the weights in field_weights.py's format")
    parser.add_argument("--load-only", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    logging.getLogger("celery.app.trace").setLevel(logging.WARNING)
    logging.getLogger("django.request").setLevel(logging.ERROR)  # revokeToken's 401s
    data = cost_data.build(args.matches)
    client = Client()
    post(client, data.token, "{ __typename }")
    cap = limits.MAX_COST
    if args.load_only:
        limits.MAX_COST = sys.maxsize
        load_forever(client, data, args.runs)
    competitors = start_contention(args.contention, args.matches, args.runs)
    try:
        limits.MAX_COST = sys.maxsize  # the probes repeat a field past the cap on purpose
        time_compositions(client, data, args.runs)
        rounds = [measure_all(client, data, args.runs) for _ in range(args.rounds)]
        limits.MAX_COST = cap
        report(rounds)
        if args.table:
            print_table(rounds)
        time_heaviest(client, data, args.runs)
    finally:
        for competitor in competitors:
            competitor.terminate()
            competitor.wait(timeout=30)
        limits.MAX_COST = cap
        if not args.keep:
            cost_data.delete()


if __name__ == "__main__":
    main()
