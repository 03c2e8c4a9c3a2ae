"""Sixteen abusive clients against the production web tier (issue 21, item 3): each sends,
as fast as it can, the report's queries (20 aliases of a profile or of a replay) and the
heaviest operations the cost cap still accepts, while a monitor asks for the health
check. Before the cost of every resolver was counted and expensive operations capped,
eight such clients pushed the health check to 3-4.8 s; here it must stay fast.

The rate limits are lifted for the server, as a distributed attack from many addresses
would, so that the cost cap and the concurrency cap alone are what keep it fast. Two
cases: sixteen signed-in users (sixteen clients: the per-process bound holds them) and
sixteen anonymous connections from one address (one client: its own bound does). The
figures of a run are printed (``-s``); docs/capacity.md keeps them.
"""

from __future__ import annotations

import statistics
import threading
import time
from collections import Counter

import pytest
from rest_framework.authtoken.models import Token

from games.matches import services as match_services
from tests.games.graphql.asgi_server import http_json, running_web_tier
from tests.games.support import eager_celery, play_to_end
from tests.health_monitor import health_ms

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

CLIENTS = 16
SECONDS = 8
#: the rate limits out of reach (as the test settings have them), the pause after
#: expensive operations as in production (the test settings turn it off)
SERVER_ENV = {**{f"THROTTLE_{scope}": "1000000/min"
                 for scope in ("ANON_READ", "USER_READ", "MOVE", "AUTH")},
              "GRAPHQL_EXPENSIVE_SHARE": "0.5"}


def _aliases(count: int, selection: str) -> str:
    return "{ " + " ".join(f"a{i}: {selection}" for i in range(count)) + " }"


def abusive_queries(username: str, match_id: int) -> list[str]:
    """The report's queries, then the heaviest of each kind the cap accepts."""
    profile = (f'player(username: "{username}") {{ username ratingHistory(limit: 100) '
               "{ matchId } recentMatches { id view } }")
    replay = f"replay(matchId: {match_id}) {{ ply view state views }}"
    record = f"matchRecord(matchId: {match_id})"
    page = "matches(limit: 100) { results { id view seats { user } log(limit: 5) { move } } }"
    return [_aliases(20, f'player(username: "{username}") {{ username }}'),
            _aliases(20, replay), _aliases(3, profile), _aliases(8, replay),
            _aliases(6, record), _aliases(1, page)]




def _alone(address: str, query: str) -> str | None:
    """The error code of ``query`` sent by a client on its own (None: answered), waiting
    out the pause the server takes after an expensive operation."""
    for _attempt in range(10):
        status, body = http_json(address, "POST", "/graphql/", {"query": query})
        code = (body.get("errors") or [{}])[0].get("extensions", {}).get("code")
        if code != "too_many_concurrent":
            assert status == 200 or code == "query_too_costly", body
            return code
        time.sleep(1)
    raise AssertionError("always too_many_concurrent, even alone")


_counting = threading.Lock()


def _abuse(address: str, token: str | None, queries: list[str], stop: threading.Event,
           outcomes: Counter) -> None:
    turn = 0
    while not stop.is_set():
        status, body = http_json(address, "POST", "/graphql/",
                                 {"query": queries[turn % len(queries)]}, token=token)
        errors = body.get("errors") or []
        with _counting:
            outcomes[errors[0].get("extensions", {}).get("code") if errors else status] += 1
        turn += 1


@pytest.fixture
def hero_match(make_user):
    """A player with a finished four-player Han game: a profile, a history, a replay."""
    hero = make_user()
    with eager_celery():  # a bot to move first plays at once
        match = match_services.create_match(user=hero, game="han", players=4,
                                            bot_seats={1: "random", 2: "random", 3: "random"})
    assert play_to_end(match.pk, {0: hero}).status == "finished"
    return hero, match.pk


@pytest.mark.parametrize("signed_in", [True, False], ids=["16 users", "16 anonymous"])
def test_sixteen_abusive_clients_leave_the_health_check_fast(hero_match, make_user,
                                                             signed_in):
    hero, match_id = hero_match
    queries = abusive_queries(hero.username, match_id)
    tokens = [Token.objects.create(user=make_user()).key if signed_in else None
              for _ in range(CLIENTS)]
    with running_web_tier(processes=2, extra_env=SERVER_ENV) as address:
        for query in queries:  # each kind once, alone: refused by its cost or answered
            assert _alone(address, query) in ("query_too_costly", None)
        idle = health_ms(address, 1)
        stop, outcomes = threading.Event(), Counter()
        abusers = [threading.Thread(target=_abuse, args=(address, token, queries, stop,
                                                         outcomes)) for token in tokens]
        for abuser in abusers:
            abuser.start()
        try:
            time.sleep(0.5)  # every abuser under way
            loaded = health_ms(address, SECONDS)
        finally:
            stop.set()
            for abuser in abusers:
                abuser.join(timeout=30)

    p90 = loaded[int(len(loaded) * 0.9)]
    print(f"\n{'16 users' if signed_in else '16 anonymous'}: health idle median "
          f"{statistics.median(idle):.1f} ms; under abuse median "
          f"{statistics.median(loaded):.1f} ms, p90 {p90:.1f} ms, max {loaded[-1]:.1f} ms "
          f"({len(loaded)} checks); abusers' answers {dict(outcomes)}")
    # Before the caps the median was 1.7-2.8 s (3-4.8 s with eight clients); with them it is
    # about 110 ms here, and 229 ms once on a fresh machine that ran at half speed (half the
    # abusers' answers too). The bounds keep a tenfold margin from the uncapped server while
    # leaving room for a shared machine's slow minute.
    assert statistics.median(loaded) < 500, loaded
    assert p90 < 1500, loaded
    assert not [code for code in outcomes if isinstance(code, int) and code >= 500]
    assert outcomes["query_too_costly"] > 0 and outcomes["too_many_concurrent"] > 0
    assert sum(outcomes.values()) > 10 * CLIENTS  # they kept at it
