"""Clocks on real matches under controlled time (time-machine): charging at each move,
simultaneous clocks, timeouts with takeover or forfeit, reclaim, the sweep that catches a
lost deadline task, and every such match replaying to its stored result."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine

from games.clocks import services as clock_services
from games.clocks.errors import NothingToReclaim
from games.matches import errors, selectors, services
from games.matches import services as match_services
from games.matches.incidents import Incident
from games.matches.models import Match, MatchStatus, Result, Seat
from games.matches.replay import replay_result
from rules import get_engine
from tests.games.support import eager_celery

pytestmark = pytest.mark.django_db(transaction=True)  # on-commit follow-ups must run

T0 = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)


def _clocks(match_id):
    return {row["seat"]: row for row in selectors.match_summary(Match.objects.get(
        pk=match_id))["clocks"]}


def _play_first_legal(match_id, user):
    match = Match.objects.get(pk=match_id)
    engine = get_engine(match.game)
    state = engine.from_json(match.state)
    seat = match.seats.get(user=user).position
    move = engine.legal_moves(state, seat)[0]
    return services.submit_move(match_id=match_id, user=user, move=move)


def _kinds(match_id):
    return [(row.seat, row.kind) for row in Incident.objects.filter(match_id=match_id)]


def assert_replays_to_stored_result(match_id):
    match = Match.objects.get(pk=match_id)
    assert match.status == MatchStatus.FINISHED
    rebuilt = replay_result(match)
    stored = {row.seat: (row.score, row.rank) for row in Result.objects.filter(match=match)}
    assert stored == {seat: (rebuilt["scores"][seat], rebuilt["ranks"][seat])
                      for seat in range(match.players)}


def test_a_realtime_turn_charges_its_time_and_gains_the_increment_once(make_user):
    ann, bob = make_user(), make_user()
    with time_machine.travel(T0, tick=False) as traveller:
        match = match_services.create_match(user=ann, game="han", players=2,
                                            time_control="realtime-3+10")
        match_services.join_match(user=bob, match_id=match.pk)
        match.refresh_from_db()
        first = get_engine("han").to_act(get_engine("han").from_json(match.state))[0]
        mover = ann if first == 0 else bob
        clocks = _clocks(match.pk)
        assert clocks[first]["running"] and clocks[first]["deadline"] == T0 + timedelta(
            seconds=180)
        assert not clocks[1 - first]["running"] and clocks[1 - first]["remaining_ms"] == 180_000
        # Play the mover's whole turn (Han turns have several moves), 40 s per move.
        moves, expected = 0, 180_000
        while first in selectors.to_act_of(Match.objects.get(pk=match.pk)):
            traveller.shift(timedelta(seconds=40))
            _play_first_legal(match.pk, mover)
            moves += 1
            expected -= 40_000
        expected += 10_000  # once, as the turn ends (ruling C1)
        clocks = _clocks(match.pk)
        assert moves >= 2  # a Han turn: draw, then place
        assert clocks[first] == {"seat": first, "running": False, "deadline": None,
                                 "remaining_ms": expected}
        assert clocks[1 - first]["running"]
        assert clocks[1 - first]["deadline"] == T0 + timedelta(seconds=40 * moves + 180)
        assert Match.objects.get(pk=match.pk).next_deadline == clocks[1 - first]["deadline"]


def test_in_a_simultaneous_phase_every_seat_owing_a_choice_runs_its_own_clock(make_user):
    ann, bob = make_user(), make_user()
    with time_machine.travel(T0, tick=False) as traveller:
        match = match_services.create_match(user=ann, game="hansa", players=2,
                                            time_control={"preset": "realtime-10+30"})
        match_services.join_match(user=bob, match_id=match.pk)
        assert all(row["running"] for row in _clocks(match.pk).values())  # both keep a card
        traveller.shift(timedelta(seconds=25))
        _play_first_legal(match.pk, ann)
        clocks = _clocks(match.pk)
        assert clocks[0]["running"] is False and clocks[0]["remaining_ms"] == 600_000
        assert clocks[1]["running"] and clocks[1]["remaining_ms"] == 575_000
        assert clocks[1]["deadline"] == T0 + timedelta(seconds=600)


def test_a_timeout_hands_the_seat_to_its_bot_and_the_player_reclaims_it(make_user):
    ann, bob = make_user(), make_user()
    with eager_celery(), time_machine.travel(T0, tick=False) as traveller:
        match = match_services.create_match(user=ann, game="hansa", players=2,
                                            time_control="realtime-3+10")
        match_services.join_match(user=bob, match_id=match.pk)
        _play_first_legal(match.pk, bob)  # bob keeps a card in time, ann never does
        traveller.shift(timedelta(seconds=181))
        # No worker here: the deadline task is lost; the beat sweep finds the clock.
        assert clock_services.sweep_expired_clocks() == 1
        assert _kinds(match.pk) == [(0, "timeout"), (0, "takeover")]
        seat = Seat.objects.get(match=match, position=0)
        assert seat.user is None and seat.bot_kind == "greedy"
        match.refresh_from_db()
        assert match.ply >= 2  # the bot played ann's keep at once (eager Celery)
        assert clock_services.sweep_expired_clocks() == 0  # nothing doubled

        with pytest.raises(errors.NotSeated):  # the bot holds her seat now
            services.submit_move(match_id=match.pk, user=ann, move={"type": "keep"})
        detail = selectors.match_detail(selectors.get_match(match.pk), ann)
        assert detail["reclaimable_seat"] == 0 and detail["your_seat"] is None
        assert selectors.match_detail(selectors.get_match(match.pk), bob)[
            "reclaimable_seat"] is None
        clock_services.reclaim_seat(user=ann, match_id=match.pk)
        detail = selectors.match_detail(selectors.get_match(match.pk), ann)
        assert detail["reclaimable_seat"] is None and detail["your_seat"] == 0
        assert Seat.objects.get(match=match, position=0).user == ann
        assert _kinds(match.pk)[-1] == (0, "reclaim")
        assert _clocks(match.pk)[0]["remaining_ms"] >= 60_000  # a minute to find her feet
        with pytest.raises(errors.AlreadySeated):
            clock_services.reclaim_seat(user=ann, match_id=match.pk)  # twice
        with pytest.raises(NothingToReclaim):
            clock_services.reclaim_seat(user=make_user(), match_id=match.pk)


def test_forfeit_policy_ranks_the_seat_last_and_a_bot_plays_it_out(make_user):
    ann = make_user()
    with eager_celery(), time_machine.travel(T0, tick=False) as traveller:
        match = match_services.create_match(
            user=ann, game="hansa", players=3, bot_seats={1: "greedy", 2: "random"},
            time_control={"preset": "realtime-3+10", "timeout_policy": "forfeit"})
        traveller.shift(timedelta(minutes=4))
        clock_services.sweep_expired_clocks()  # the bots play the game out inside this
    assert _kinds(match.pk)[:2] == [(0, "timeout"), (0, "forfeit")]
    assert Result.objects.get(match=match, seat=0).rank == 3
    result = selectors.match_result(Match.objects.get(pk=match.pk))
    ply = Incident.objects.get(match=match, kind="timeout").ply  # after the bots' keeps
    assert result["forfeits"] == [{"seat": 0, "kind": "forfeit", "ply": ply}]
    assert result["timeouts"] == [{"seat": 0, "kind": "timeout", "ply": ply}]
    assert 0 not in result["winners"]
    assert_replays_to_stored_result(match.pk)


def test_resigning_a_two_player_match_ends_it_at_once(make_user):
    ann, bob = make_user(), make_user()
    with eager_celery():
        match = match_services.create_match(user=ann, game="han", players=2)
        match_services.join_match(user=bob, match_id=match.pk)
        clock_services.resign(user=bob, match_id=match.pk)
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED and match.ply == 0
    ranks = dict(Result.objects.filter(match=match).values_list("seat", "rank"))
    assert ranks == {0: 1, 1: 2}
    result = selectors.match_result(match)
    assert result["winners"] == [0] and result["forfeits"][0]["kind"] == "resign"
    assert_replays_to_stored_result(match.pk)


def test_resigning_a_four_player_match_lets_a_bot_play_the_seat_out(make_user):
    ann, bob = make_user(), make_user()
    with eager_celery():
        match = match_services.create_match(user=ann, game="han", players=4,
                                            bot_seats={2: "greedy", 3: "random"})
        match_services.join_match(user=bob, match_id=match.pk)
        clock_services.resign(user=ann, match_id=match.pk)
        match.refresh_from_db()
        assert match.status == MatchStatus.ACTIVE  # three seats stand: the game goes on
        assert Seat.objects.get(match=match, position=0).bot_kind == "greedy"
        clock_services.resign(user=bob, match_id=match.pk)  # the bots finish it now
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED and match.ply > 20
    ranks = dict(Result.objects.filter(match=match).values_list("seat", "rank"))
    assert ranks[0] == 4 and ranks[1] == 3 and sorted([ranks[2], ranks[3]])[0] == 1
    assert_replays_to_stored_result(match.pk)


def test_an_old_match_without_incidents_replays_as_before(make_user):
    with eager_celery():
        match = match_services.create_match(user=None, game="hansa", players=2, take_seat=False,
                                            bot_seats={0: "greedy", 1: "random"})
    match.refresh_from_db()
    engine_result = get_engine("hansa").result(get_engine("hansa").from_json(match.state))
    assert replay_result(match)["ranks"] == engine_result["ranks"]
    assert "forfeits" not in replay_result(match)
    assert_replays_to_stored_result(match.pk)


def test_admins_add_time_and_hand_seats_to_a_bot_and_back(make_user):
    ann, bob, admin = make_user(), make_user(), make_user(is_staff=True, is_superuser=True)
    with eager_celery(), time_machine.travel(T0, tick=False):
        match = match_services.create_match(user=ann, game="hansa", players=2,
                                            time_control="realtime-3+10")
        match_services.join_match(user=bob, match_id=match.pk)
        clock_services.add_time(user=admin, match_id=match.pk, position=1, seconds=120)
        assert _clocks(match.pk)[1]["deadline"] == T0 + timedelta(seconds=300)
        clock_services.hand_seat_to_bot(user=admin, match_id=match.pk, position=1,
                                        bot_kind="random")
        assert Seat.objects.get(match=match, position=1).bot_kind == "random"
        clock_services.hand_seat_back(user=admin, match_id=match.pk, position=1)
        assert Seat.objects.get(match=match, position=1).user == bob
        with pytest.raises(errors.NotAllowed):
            clock_services.add_time(user=ann, match_id=match.pk, position=0, seconds=60)
    assert _kinds(match.pk) == [(1, "time_added"), (1, "takeover"), (1, "reclaim")]


def test_a_turn_based_deadline_days_ahead_is_enforced_by_the_sweep(make_user):
    ann, bob = make_user(), make_user()
    with eager_celery(), time_machine.travel(T0, tick=False) as traveller:
        match = match_services.create_match(user=ann, game="hansa", players=2,
                                            time_control="turn-based-1d")
        match_services.join_match(user=bob, match_id=match.pk)
        assert Match.objects.get(pk=match.pk).next_deadline == T0 + timedelta(days=1)
        traveller.shift(timedelta(hours=23))
        assert clock_services.sweep_expired_clocks() == 0  # not yet
        traveller.shift(timedelta(hours=1, seconds=1))
        assert clock_services.sweep_expired_clocks() == 2  # both owed their first keep
    assert _kinds(match.pk) == [(0, "timeout"), (0, "takeover"), (1, "timeout"),
                                (1, "takeover")]
    assert_replays_to_stored_result(match.pk)  # the bots played it out, eagerly
