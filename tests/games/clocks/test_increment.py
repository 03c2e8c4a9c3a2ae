"""The clock increment is per turn (ruling C1): a realtime seat earns its seconds once, when
its turn ends (it no longer owes a decision), not at each move of a turn of several moves
(Han's placement then its draws, Hansa's choice of start player then its trade)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine

from games.matches import selectors, services
from games.matches import services as match_services
from games.matches.models import Match
from rules import get_engine

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)


def _clock(match_id, seat):
    match = Match.objects.get(pk=match_id)
    return next(row for row in selectors.match_summary(match)["clocks"] if row["seat"] == seat)


def _to_act(match_id):
    return selectors.to_act_of(Match.objects.get(pk=match_id))


def _play(match_id, user, seat):
    match = Match.objects.get(pk=match_id)
    engine = get_engine(match.game)
    move = engine.legal_moves(engine.from_json(match.state), seat)[0]
    services.submit_move(match_id=match_id, user=user, move=move)
    return move["type"]


def test_a_han_turn_of_several_moves_earns_the_increment_once(make_user):
    """ruling C1: placing, then drawing up to three cards, is one turn. 20 s per move: the
    clock runs on through the turn's moves without a gift, and earns 10 s once at its end."""
    ann, bob = make_user(), make_user()
    with time_machine.travel(T0, tick=False) as traveller:
        match = match_services.create_match(user=ann, game="han", players=2,
                                      time_control="realtime-3+10", creator_seat=0)
        match_services.join_match(user=bob, match_id=match.pk)
        seat = _to_act(match.pk)[0]
        mover = ann if seat == 0 else bob
        spent, kinds = 0, []
        while seat in _to_act(match.pk):
            traveller.shift(timedelta(seconds=20))
            kinds.append(_play(match.pk, mover, seat))
            spent += 20_000
            if seat in _to_act(match.pk):  # the turn goes on: charged, nothing earned
                assert _clock(match.pk, seat) == {
                    "seat": seat, "running": True, "remaining_ms": 180_000 - spent,
                    "deadline": T0 + timedelta(seconds=180)}
        assert kinds[0] == "place" and kinds[1:] and set(kinds[1:]) == {"draw"}
        assert _clock(match.pk, seat) == {"seat": seat, "running": False, "deadline": None,
                                          "remaining_ms": 180_000 - spent + 10_000}
        assert _clock(match.pk, 1 - seat)["deadline"] == (T0 + timedelta(milliseconds=spent)
                                                          + timedelta(seconds=180))


def test_a_turn_of_one_move_earns_the_increment(make_user):
    """ruling C1: a Hansa trade hands the turn on; the trader earns its 30 s at once (and
    so does each seat's keep in the opening, a simultaneous choice that ends its part)."""
    ann, bob = make_user(), make_user()
    with time_machine.travel(T0, tick=False) as traveller:
        match = match_services.create_match(user=ann, game="hansa", players=2,
                                      time_control="realtime-10+30", creator_seat=0)
        match_services.join_match(user=bob, match_id=match.pk)
        traveller.shift(timedelta(seconds=50))
        for seat, user in ((0, ann), (1, bob)):
            assert _play(match.pk, user, seat) == "keep"
            assert _clock(match.pk, seat)["remaining_ms"] == 580_000  # 600 - 50 + 30
        seat = _to_act(match.pk)[0]
        traveller.shift(timedelta(seconds=100))
        assert _play(match.pk, ann if seat == 0 else bob, seat) == "trade"
        assert _to_act(match.pk) == [1 - seat]
        assert _clock(match.pk, seat) == {"seat": seat, "running": False, "deadline": None,
                                          "remaining_ms": 580_000 - 100_000 + 30_000}


def _first_move(match_id, seat):
    match = Match.objects.get(pk=match_id)
    engine = get_engine(match.game)
    return engine.legal_moves(engine.from_json(match.state), seat)[0]


def test_a_hansa_phase_change_that_keeps_the_seat_is_one_turn(make_user):
    """ruling C1: the poorest player choosing to start the next round, then trading, is one
    turn for them; the 60 s come once, after the trade."""
    ann, bob = make_user(), make_user()
    users = {0: ann, 1: bob}
    with time_machine.travel(T0, tick=False) as traveller:
        match = match_services.create_match(user=ann, game="hansa", players=2,
                                      time_control="realtime-20+60", creator_seat=0)
        match_services.join_match(user=bob, match_id=match.pk)
        for _ in range(200):  # a second per move, up to the first choice of start player
            to_act = _to_act(match.pk)
            if len(to_act) == 1 and _first_move(match.pk, to_act[0])["type"] == "choose_start":
                break
            traveller.shift(timedelta(seconds=1))
            for seat in to_act:
                _play(match.pk, users[seat], seat)
        else:
            pytest.fail("no choice of start player in 200 moves")
        seat = to_act[0]
        before = _clock(match.pk, seat)["remaining_ms"]
        traveller.shift(timedelta(seconds=100))
        services.submit_move(match_id=match.pk, user=users[seat],
                             move={"type": "choose_start", "seat": seat})
        assert _to_act(match.pk) == [seat]
        assert _clock(match.pk, seat)["remaining_ms"] == before - 100_000  # nothing earned
        traveller.shift(timedelta(seconds=100))
        assert _play(match.pk, users[seat], seat) == "trade"
        assert _to_act(match.pk) == [1 - seat]
        assert _clock(match.pk, seat)["remaining_ms"] == before - 200_000 + 60_000
