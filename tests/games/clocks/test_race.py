"""A timeout and a move at the same moment, with real threads on a real database: both
take the match lock, so exactly one wins and the log has no gap."""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime, timedelta

import pytest
import time_machine

from games.clocks import services as clock_services
from games.matches import errors, services
from games.matches import services as match_services
from games.matches.incidents import Incident
from games.matches.models import Match, Move, Seat
from rules import get_engine
from tests.games.matches.test_concurrency import _assert_log_gapless, _race

pytestmark = pytest.mark.django_db(transaction=True)

T0 = datetime(2026, 4, 1, 20, 0, tzinfo=UTC)


def _late_move_and_timeout(ann, bob, start):
    with time_machine.travel(start, tick=True) as traveller:
        match = match_services.create_match(user=ann, game="hansa", players=2,
                                            time_control="realtime-3+10")
        match_services.join_match(user=bob, match_id=match.pk)
        engine = get_engine("hansa")
        state = engine.from_json(Match.objects.get(pk=match.pk).state)
        services.submit_move(match_id=match.pk, user=bob,
                             move=engine.legal_moves(state, 1)[0])  # bob keeps in time
        ann_move = engine.legal_moves(state, 0)[0]
        traveller.shift(timedelta(seconds=180))  # ann's deadline is now

        def move():
            try:
                services.submit_move(match_id=match.pk, user=ann, move=ann_move)
                return "move"
            except errors.NotSeated:
                return "refused"

        def timeout():
            return clock_services.enforce_deadlines(match_id=match.pk)

        outcome = _race(move, timeout)
    return match.pk, outcome


def test_a_move_and_a_timeout_at_the_deadline_exactly_one_wins(make_user):
    winners = Counter()
    for round_ in range(6):
        ann, bob = make_user(), make_user()
        match_id, (moved, timed_out) = _late_move_and_timeout(
            ann, bob, T0 + timedelta(days=round_))
        ann_moves = Move.objects.filter(match_id=match_id, seat=0).count()
        timeouts = Incident.objects.filter(match_id=match_id, kind="timeout").count()
        if moved == "move":  # the move took the lock first: the clock stopped in time
            assert (ann_moves, timeouts, timed_out) == (1, 0, 0)
            assert Seat.objects.get(match_id=match_id, position=0).user == ann
        else:  # the timeout took it first: the seat is the bot's, the move refused
            assert (moved, ann_moves, timeouts, timed_out) == ("refused", 0, 1, 1)
            assert Seat.objects.get(match_id=match_id, position=0).bot_kind == "greedy"
        winners[moved] += 1
        _assert_log_gapless(match_id)
    assert sum(winners.values()) == 6  # every round had exactly one winner
