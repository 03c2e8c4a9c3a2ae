"""One seat's clock, pure arithmetic (games/matches/seat_clock.py): charging, increments and
the cap, turn-based days; and the time controls a match is created with
(games/matches/time_controls.py)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from games.matches import seat_clock
from games.matches.errors import InvalidTimeControl, UnknownPreset
from games.matches.time_controls import PRESETS, normalize

T0 = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
REALTIME = normalize("realtime-3+10")  # 180 s + 10 s per turn
TURN_BASED = normalize("turn-based-1d")


def test_a_move_charges_the_time_since_the_turn_began_then_adds_the_increment():
    running = seat_clock.start(seat_clock.fresh(REALTIME), REALTIME, T0)
    assert seat_clock.deadline(running) == T0 + timedelta(seconds=180)
    later = T0 + timedelta(seconds=50)
    assert seat_clock.remaining_ms(running, later) == 130_000
    stopped = seat_clock.charge(running, REALTIME, later, turn_over=True)
    assert stopped == {"remaining_ms": 140_000, "running_since": None}
    assert seat_clock.deadline(stopped) is None


def test_the_increment_never_lifts_the_clock_above_the_initial_time():
    running = seat_clock.start(seat_clock.fresh(REALTIME), REALTIME, T0)
    stopped = seat_clock.charge(running, REALTIME, T0 + timedelta(seconds=3), turn_over=True)
    assert stopped["remaining_ms"] == 180_000  # 177 + 10 capped at 180


def test_a_move_inside_a_turn_is_charged_earns_nothing_and_keeps_running():
    """ruling C1: the increment comes with the move that ends the turn, once."""
    running = seat_clock.start(seat_clock.fresh(REALTIME), REALTIME, T0)
    mid = seat_clock.charge(running, REALTIME, T0 + timedelta(seconds=30), turn_over=False)
    assert mid["remaining_ms"] == 150_000 and seat_clock.running_since(mid) == T0 + timedelta(
        seconds=30)  # 180 - 30, nothing earned
    assert seat_clock.deadline(mid) == T0 + timedelta(seconds=180)
    end = seat_clock.charge(mid, REALTIME, T0 + timedelta(seconds=50), turn_over=True)
    assert end == {"remaining_ms": 140_000, "running_since": None}  # 150 - 20 + 10


def test_a_move_at_zero_inside_a_turn_leaves_no_time_for_the_rest_of_it():
    """ruling C1: no advance on the increment; the seat's deadline is now, so it times out."""
    running = seat_clock.start(seat_clock.fresh(REALTIME), REALTIME, T0)
    late = seat_clock.charge(running, REALTIME, T0 + timedelta(seconds=181), turn_over=False)
    assert late["remaining_ms"] == 0
    assert seat_clock.deadline(late) == T0 + timedelta(seconds=181)
    ended = seat_clock.charge(running, REALTIME, T0 + timedelta(seconds=181), turn_over=True)
    assert ended["remaining_ms"] == 10_000  # a turn ended at 0 still earns its seconds


def test_time_never_goes_below_zero_and_a_pause_adds_nothing():
    running = seat_clock.start(seat_clock.fresh(REALTIME), REALTIME, T0)
    late = seat_clock.charge(running, REALTIME, T0 + timedelta(minutes=10), turn_over=True,
                        increment=False)
    assert late["remaining_ms"] == 0


def test_turn_based_gives_each_turn_its_days_afresh():
    running = seat_clock.start(seat_clock.fresh(TURN_BASED), TURN_BASED, T0)
    stopped = seat_clock.charge(running, TURN_BASED, T0 + timedelta(hours=20), turn_over=True)
    assert stopped["remaining_ms"] == 4 * 3600 * 1000
    again = seat_clock.start(stopped, TURN_BASED, T0 + timedelta(days=3))
    assert seat_clock.deadline(again) == T0 + timedelta(days=4)


def test_presets_normalize_with_the_default_policy_and_custom_ones_are_checked():
    assert normalize(None) == {"preset": "none", "kind": "none"}
    assert normalize({"preset": "realtime-10+30", "timeout_policy": "forfeit"}) == {
        "preset": "realtime-10+30", "kind": "realtime", "initial_seconds": 600,
        "increment_seconds": 30, "timeout_policy": "forfeit", "takeover_bot": "greedy"}
    custom = normalize({"kind": "turn_based", "days_per_move": 2})
    assert custom["days_per_move"] == 2 and custom["timeout_policy"] == "takeover"
    assert set(PRESETS) >= {"none", "realtime-3+10", "turn-based-3d"}


@pytest.mark.parametrize("value, reason", [
    ({"kind": "realtime", "initial_seconds": -5, "increment_seconds": 0}, "negative_time"),
    ({"kind": "realtime", "initial_seconds": 60, "increment_seconds": -1}, "negative_time"),
    ({"kind": "realtime", "initial_seconds": "60", "increment_seconds": 0}, "out_of_range"),
    ({"kind": "turn_based", "days_per_move": 0}, "out_of_range"),
    ({"kind": "blitz"}, "unknown_kind"),
    ({"preset": "realtime-3+10", "timeout_policy": "shrug"}, "unknown_timeout_policy"),
    ({"preset": "realtime-3+10", "takeover_bot": "oracle"}, "unknown_bot"),
    ({"preset": "realtime-3+10", "extra": 1}, "unknown_field"),
    (42, "not_an_object"),
])
def test_bad_time_controls_say_why(value, reason):
    with pytest.raises(InvalidTimeControl) as caught:
        normalize(value)
    assert caught.value.details["reason"] == reason and caught.value.http_status == 400


def test_an_unknown_preset_has_its_own_code():
    with pytest.raises(UnknownPreset) as caught:
        normalize("bullet-1+0")
    assert caught.value.code == "unknown_preset" and "realtime-3+10" in caught.value.message
