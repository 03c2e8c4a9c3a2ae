"""A socket move's rate limit (``move``, per user) read beside the match's lock (issue 45:
its count is sent to Redis before the lock and read after it, games/play/operations.py),
against the production web tier with the real PostgreSQL and Redis: over the limit the
move is ``refused`` 429 ``throttled``, nothing is written, and ``throttled`` wins over any
other refusal, as when the limit was checked before the service; another user moves on."""

from __future__ import annotations

import asyncio
import secrets
import time

import pytest

from tests.db_sessions import another_session
from tests.games.graphql.asgi_server import running_web_tier
from tests.games.graphql.support import snapshot, start_match
from tests.games.play.client import PlayClient

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

LIMIT = 3
#: the runtime role's lock timeout in this tier (DATABASE_LOCK_TIMEOUT_MS's default)
LOCK_TIMEOUT_S = 2.0


class HeldLock:
    """Another session holding the match's row lock in an open transaction."""

    def __init__(self, match_id: int) -> None:
        self.conn = another_session()
        self.conn.execute("SELECT 1 FROM games_match WHERE id = %s FOR UPDATE", [match_id])

    def release(self) -> None:
        self.conn.rollback()
        self.conn.close()


@pytest.fixture(scope="module")
def limited_tier(django_db_setup, django_db_blocker):
    """The shipped settings (the suite's put every limit out of reach) with a low move
    limit, and counts under a key prefix of this run's own: a user id of an earlier run
    in the same minute starts from zero."""
    with django_db_blocker.unblock():
        with running_web_tier(processes=1, extra_env={
                "DJANGO_SETTINGS_MODULE": "config.settings", "THROTTLE_MOVE": f"{LIMIT}/min",
                "CACHE_KEY_PREFIX": f"ratetest-{secrets.token_hex(4)}"}) as address:
            yield address


def _a_fresh_window() -> None:
    """The limit is a clock minute's count: start well inside one, so the test's moves
    all fall in the same window."""
    into = time.time() % 60
    if into > 45:
        time.sleep(60.5 - into)


def _pick(moves: list[dict]) -> dict:
    place = [move for move in moves if move["type"] == "place"]
    return (place or moves)[0]


def test_a_throttled_move_writes_nothing_and_throttled_wins(limited_tier, players):
    match_id = start_match("han", players[:2])
    _a_fresh_window()

    async def scenario():
        clients = [await PlayClient.open(limited_tier, player.token) for player in players[:2]]
        syncs = [await client.subscribe(match_id) for client in clients]
        to_act = syncs[0]["to_act"][0]
        mover, other = clients[to_act], clients[1 - to_act]
        legal, ply = syncs[to_act]["legal_moves"], syncs[0]["ply"]
        # every attempt counts, refused ones too: LIMIT stale moves use the window up
        for number in range(LIMIT):
            stale = await mover.move(match_id, _pick(legal), expected_ply=ply + 9,
                                     ref=f"stale{number}")
            assert stale["error"]["code"] == "stale_ply", stale
        before = await asyncio.to_thread(snapshot, match_id)
        over = await mover.move(match_id, _pick(legal), expected_ply=ply, ref="legal")
        assert (over["op"], over.get("status"), over["error"]["code"]) == (
            "refused", 429, "throttled"), over
        assert 1 <= over["error"]["details"]["retry_after_seconds"] <= 60
        assert await asyncio.to_thread(snapshot, match_id) == before  # nothing written
        # over the limit, throttled comes before what the rules would answer
        for move, expected, match in ((_pick(legal), ply + 9, match_id),
                                      ({"type": "fly"}, None, match_id),
                                      (_pick(legal), None, "999999")):
            answer = await mover.move(match, move, expected_ply=expected)
            assert answer["error"]["code"] == "throttled", answer
        assert await asyncio.to_thread(snapshot, match_id) == before
        # known over the limit, a caller is refused before the match's lock: another
        # session holding it (for far longer than the answer may take) makes no wait
        held = await asyncio.to_thread(HeldLock, match_id)
        try:
            started = time.monotonic()
            answer = await mover.move(match_id, _pick(legal), expected_ply=ply)
            took = time.monotonic() - started
        finally:
            await asyncio.to_thread(held.release)
        assert answer["error"]["code"] == "throttled", answer
        assert took < LOCK_TIMEOUT_S / 2, took  # not a lock's wait: the limit came first
        # the other user's count is their own; nothing was pushed for the refused moves
        refused_not_yours = await other.move(match_id, _pick(legal), expected_ply=ply)
        assert refused_not_yours["error"]["code"] == "not_your_turn"
        assert not [frame for frame in mover.frames if frame["op"] == "update"]
        for client in clients:
            await client.close()

    asyncio.run(scenario())
