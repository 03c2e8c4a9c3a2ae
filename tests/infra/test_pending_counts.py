"""A count sent now and read later (infra/counters.py ``PendingAdd``, infra/throttles.py
``PendingHit``), against the real Redis of the tests: the play socket's move sends its rate
limit's count before the match's lock and reads it after (issue 45). Each answer must reach
the count that asked for it, the connection must go back to the pool, and with Redis away
the count is this process's own, as ``counters.add``'s is."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django_redis import get_redis_connection

from infra import counters, throttles
from infra.api_errors import Throttled
from tests.infra.test_redis_unreachable import redis_refuses  # noqa: F401 - a fixture
from tests.infra.test_throttles import limits  # noqa: F401 - a fixture


@pytest.fixture
def fresh_counts():
    cache.clear()
    counters.forget_outage()
    yield
    cache.clear()


def _in_use() -> int:
    return len(get_redis_connection("default").connection_pool._in_use_connections)


def test_pending_counts_read_out_of_order_each_get_their_own_answer(fresh_counts):
    in_use = _in_use()
    first = counters.PendingAdd("pending:a", 60)
    second = counters.PendingAdd("pending:a", 60)
    other = counters.PendingAdd("pending:b", 60)
    assert _in_use() == in_use + 3  # each waits on its own connection, unread
    assert (other.count(), second.count(), first.count()) == (1, 2, 1)
    assert first.count() == 1  # read once, kept
    assert _in_use() == in_use
    # the pool's connections hold no stray answer: the next plain count is right
    assert counters.add("pending:a", 60) == 3
    assert get_redis_connection("default").ttl(cache.make_and_validate_key("pending:a")) > 0


def test_a_pending_hit_answers_as_hit_does_and_counts_every_attempt(fresh_counts, limits):  # noqa: F811
    limits(move="2/min")
    assert throttles.PendingHit(throttles.MOVE, "user:1").wait() is None
    assert throttles.PendingHit(throttles.MOVE, "user:1").wait() is None
    over = throttles.PendingHit(throttles.MOVE, "user:1")
    assert over.wait() == pytest.approx(30.0)  # time frozen 30 s into the minute
    with pytest.raises(Throttled) as refused:
        over.check()
    assert refused.value.details == {"retry_after_seconds": 30}
    assert throttles.hit(throttles.MOVE, "user:1") is not None  # 4th: shared count
    assert throttles.PendingHit(throttles.MOVE, "user:2").wait() is None  # per caller


def test_with_redis_refusing_a_pending_count_is_this_process_s(fresh_counts,
                                                                redis_refuses):  # noqa: F811
    counts = [counters.PendingAdd("pending:down", 60).count() for _ in range(3)]
    assert counts == [1, 2, 3]
    assert counters.local_key_count() == 1
