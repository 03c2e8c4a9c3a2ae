"""The engine works for any card and table files in the shipped format: other values,
short decks, a longer track, other hand sizes."""

from __future__ import annotations

import copy
import json

import pytest

from rules.hansa.data import DATA_DIR, DataFormatError, HansaData
from rules.hansa.engine import HansaEngine
from rules.rng import SeededRng

from .helpers import play_random


def _files():
    with open(DATA_DIR / "cards.json") as cards, open(DATA_DIR / "tables.json") as tables:
        return json.load(cards), json.load(tables)


def _finish(engine, players, seed):
    state = engine.setup(players, {}, seed)
    end, log = play_random(engine, state, SeededRng(f"variant-{seed}"))
    result = engine.result(end)
    for seat, entry in enumerate(result["breakdown"]):
        parts = (sum(sum(r["cities"].values()) + r["luxury"] for r in entry["rounds"])
                 + entry["parliament"] + entry["golden_ship"]
                 + entry["persons"]["types"] + entry["persons"]["sets"])
        assert parts == result["scores"][seat]
    return end, log


def test_shipped_files_load_and_match_the_rulebook_counts():
    cards, tables = _files()
    data = HansaData(cards, tables)
    assert len(data.cards) == 60
    assert [len(data.cards_in_game(n)) for n in (2, 3, 4)] == [44, 56, 60]


def test_other_values_change_the_game_not_the_code():
    cards, tables = _files()
    tables = copy.deepcopy(tables)
    tables["prosperity_track"]["spaces"].append(
        {"label": 50, "first": 50, "second_multiplier": 5, "third_multiplier": 3}
    )
    tables["prosperity_change_order"] = [-2, 1, 2, 4]
    tables["luxury_profit"] = {"1": 3, "2": 7, "3": 13, "4": 21}
    tables["golden_ship"] = [30, 15]
    cards = copy.deepcopy(cards)
    for card in cards:
        if card["kind"] == "building":
            card["trade_power"] += 1
    engine = HansaEngine(HansaData(cards, tables))
    for players in (2, 3, 4):
        end, _ = _finish(engine, players, f"other-{players}")
        assert engine.is_over(end)


def test_short_decks_empty_rows_and_smaller_hands_still_play_out():
    cards, tables = _files()
    tables = copy.deepcopy(tables)
    # far fewer cards than the turns need: rows and harbours run dry (ruling Q5) and
    # hands run short, yet the game must end cleanly
    cards = [card for card in cards if card["id"].endswith(("01", "02", "05", "10", "12"))]
    tables["starting_hand"] = {"dealt": 3, "kept": 2}
    tables["turns_per_round"] = {"2": 20, "3": 14, "4": 10}
    engine = HansaEngine(HansaData(cards, tables))
    takes = []
    for players in (2, 3, 4):
        end, log = _finish(engine, players, f"short-{players}")
        assert engine.is_over(end)
        takes += [move["take"] for _, move in log if "take" in move]
    # the board ran dry: some turns took no card at all
    assert takes and None in takes


def test_dealt_equal_to_kept_skips_the_keep_choice():
    cards, tables = _files()
    tables = copy.deepcopy(tables)
    tables["starting_hand"] = {"dealt": 2, "kept": 2}
    engine = HansaEngine(HansaData(cards, tables))
    state = engine.setup(3, {}, "no-keep")
    assert state.phase == "turns" and engine.to_act(state) == [0]


@pytest.mark.parametrize(
    "breakage",
    [
        lambda cards, tables: cards[0].update(city="Lubeck"),
        lambda cards, tables: cards.append(dict(cards[0])),
        lambda cards, tables: tables.pop("refill"),
        lambda cards, tables: tables["prosperity_track"].update(start_index=99),
        lambda cards, tables: tables["luxury_pieces"].update(green=3),
        lambda cards, tables: tables["starting_hand"].update(kept=5),
    ],
)
def test_broken_files_are_refused_with_a_clear_error(breakage):
    cards, tables = _files()
    cards, tables = copy.deepcopy(cards), copy.deepcopy(tables)
    breakage(cards, tables)
    with pytest.raises(DataFormatError):
        HansaData(cards, tables)


def test_q7_parliament_ranks_follow_prosperity_order_not_the_profit_values():
    # ruling Q7: the k-th ranked player earns the fixed profit of the city with the k-th
    # highest prosperity (marker furthest right), whatever that space's profit is
    from rules.hansa import scoring

    cards, tables = _files()
    tables = copy.deepcopy(tables)
    spaces = tables["prosperity_track"]["spaces"]
    spaces[-1]["first"] = 1  # the top space pays less than the one below it
    data = HansaData(cards, tables)
    top, below = len(spaces) - 1, len(spaces) - 2
    profits = scoring.parliament_profits(data, [9, 5, 0, 0], [below, top, 0, 0])
    assert profits == [1, spaces[below]["first"], 0, 0]


def test_city_coordinates_load_from_any_file_in_the_format():
    """Each city's x/y on the map (tables.json ``map`` and ``cities``) load as given:
    other values, other canvases, fractions (issue 22)."""
    cards, tables = _files()
    data = HansaData(cards, tables)
    assert data.map_size == (tables["map"]["width"], tables["map"]["height"])
    assert data.city_positions == [(tables["cities"][name]["x"], tables["cities"][name]["y"])
                                   for name in tables["city_order"]]
    tables = copy.deepcopy(tables)
    tables["map"] = {"width": 320.5, "height": 200}
    for index, name in enumerate(tables["city_order"]):
        tables["cities"][name].update(x=10.25 * index, y=200 - index)
    other = HansaData(cards, tables)
    assert other.map_size == (320.5, 200)
    assert other.city_positions == [(10.25 * i, 200 - i) for i in range(4)]
    from rules.hansa.drawing import drawing_data

    drawn = drawing_data(other)
    assert drawn["map"] == {"width": 320.5, "height": 200}
    assert [(city["x"], city["y"]) for city in drawn["cities"]] == other.city_positions


@pytest.mark.parametrize("change", [
    lambda t: t["cities"]["Bergen"].pop("x"),
    lambda t: t["cities"]["Bergen"].update(y="118"),
    lambda t: t["cities"]["Bergen"].update(x=True),
    lambda t: t["cities"]["Bergen"].update(x=float("nan")),
    lambda t: t["cities"]["Bergen"].update(x=-1),
    lambda t: t["cities"]["Bergen"].update(y=701),
    lambda t: t.pop("map"),
    lambda t: t["map"].update(width=0),
])
def test_bad_city_coordinates_are_refused_by_name(change):
    cards, tables = _files()
    tables = copy.deepcopy(tables)
    change(tables)
    with pytest.raises(DataFormatError, match="hansa data"):
        HansaData(cards, tables)
