"""Set-up, the turn, the round's end and the game's end, step by step."""

from __future__ import annotations

import pytest

from rules.engine import InvalidOptions
from rules.hansa import flow
from rules.hansa.state import CHOOSE_START, FINAL_CARD, KEEP, OVER, STORE, TURNS
from rules.rng import SeededRng

from .helpers import (
    cards_where,
    city,
    data,
    engine,
    give_face_up,
    set_hand,
    set_pieces,
    set_row,
    start_game,
)


# -- catalogue and options ---------------------------------------------------------------
def test_describe():
    described = engine().describe()
    assert described["game"] == "hansa"
    assert described["title"] == "The Queen of Hansa"
    assert described["players"] == {"min": 2, "max": 4}
    assert described["options"]["additionalProperties"] is False
    assert described["options"]["properties"] == {}
    assert described["rules_version"]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_normalize_options_accepts_no_options(players):
    assert engine().normalize_options(players, None) == {}
    assert engine().normalize_options(players, {}) == {}


@pytest.mark.parametrize(
    ("players", "options", "code"),
    [
        (4, {"variant": True}, "unknown_option"),
        (1, {}, "invalid_player_count"),
        (5, {}, "invalid_player_count"),
        ("4", {}, "invalid_player_count"),
        (True, {}, "invalid_player_count"),
        (4, ["x"], "invalid_options"),
    ],
)
def test_normalize_options_refuses(players, options, code):
    with pytest.raises(InvalidOptions) as error:
        engine().normalize_options(players, options)
    assert error.value.code == code
    with pytest.raises(InvalidOptions):
        engine().setup(players, options, "s")


# -- set-up ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("players", "in_game", "spaces", "normal", "luxury"),
    [(2, 44, 4, 10, 6), (3, 56, 5, 12, 8), (4, 60, 5, 12, 8)],
)
def test_setup(players, in_game, spaces, normal, luxury):
    d = data()
    state = engine().setup(players, {}, "setup")
    assert state.phase == KEEP
    board = [cid for row in state.rows for cid in row]
    assert [len(row) for row in state.rows] == [spaces] * 4  # rows filled from London on
    assert sum(not d.cards[c].luxury for c in board) == normal
    assert sum(d.cards[c].luxury for c in board) == luxury
    # one piece on every luxury card, drawn from the 24 in the bag
    assert set(state.row_pieces) == {c for c in board if d.cards[c].luxury}
    assert sum(state.bag) == 24 - luxury
    assert [len(hand) for hand in state.hands] == [4] * players
    assert all(not d.cards[c].luxury for hand in state.hands for c in hand)
    everything = (board + state.normal_deck + state.luxury_deck
                  + [c for hand in state.hands for c in hand])
    assert sorted(everything) == sorted(d.cards_in_game(players))
    assert len(everything) == in_game
    # cards marked for more players than play are out of the game
    assert all(d.cards[c].min_players <= players for c in everything)
    assert state.prosperity == [d.track_start] * 4
    assert d.track[d.track_start].label == 5
    assert state.start == 0 and state.round == 1


def test_setup_is_seeded():
    eng = engine()
    one = eng.to_json(eng.setup(4, {}, "same"))
    assert one == eng.to_json(eng.setup(4, {}, "same"))
    assert one != eng.to_json(eng.setup(4, {}, "different"))


# -- the turn --------------------------------------------------------------------------------
def test_ann_takes_a_luxury_card_and_its_piece():
    # rulebook: Ann played a London card face up and took a luxury card from London's
    # harbour; its black piece goes to her Kontor, beside her black cards
    eng = engine()
    state = start_game(4)
    ann = eng.to_act(state)[0]
    london_card = cards_where(city="London", luxury=False)[0]
    luxury_card = cards_where(city="Bruges", luxury=True)[0]
    set_hand(state, ann, [london_card, cards_where(city="Bergen", luxury=False)[0]])
    set_row(state, "London", [luxury_card, cards_where(city="Bergen", luxury=False)[1]],
            pieces={luxury_card: "black"})
    set_pieces(state, ann, {})
    new, events = eng.apply(state, ann, {"type": "trade", "card": london_card,
                                         "take": luxury_card})
    assert london_card in new.face_up[ann]
    assert luxury_card in new.hands[ann] and len(new.hands[ann]) == 2
    assert new.pieces[ann][city("Novgorod")] == 1  # black counts for Novgorod
    assert luxury_card not in new.row_pieces
    taken = [e for e in events if e["type"] == "card_taken"][0]
    assert taken["piece"] == "black"
    assert flow.city_totals(new, data(), city("Novgorod"))[ann] == 1


def test_cards_slide_left_with_their_pieces():
    eng = engine()
    state = start_game(4)
    seat = eng.to_act(state)[0]
    lon = cards_where(city="London")
    lux = cards_where(luxury=True, city="Bergen")
    set_hand(state, seat, [lon[0], lon[1]])
    set_row(state, "London", [lon[2], lon[3], lux[0], lux[1], lon[4]],
            pieces={lux[0]: "red", lux[1]: "blue"})
    new, _ = eng.apply(state, seat, {"type": "trade", "card": lon[0], "take": lon[2]})
    assert new.rows[city("London")] == [lon[3], lux[0], lux[1], lon[4]]
    assert new.row_pieces[lux[0]] == city("London") and new.row_pieces[lux[1]] == city("Bruges")
    assert eng.view(new, None)["rows"]["London"][1]["piece"] == "red"


def test_parliament_plays_face_down_moves_a_marker_and_takes_anywhere():
    eng = engine()
    state = start_game(4)
    seat = eng.to_act(state)[0]
    nov = cards_where(city="Novgorod")
    set_hand(state, seat, [nov[0], nov[1]])
    take = state.rows[city("Bergen")][1]
    before = state.prosperity[city("Bergen")]
    new, events = eng.apply(state, seat, {"type": "parliament", "card": nov[0],
                                          "city": "Bergen", "direction": 1, "take": take})
    assert new.face_down[seat] == [nov[0]] and nov[0] not in new.face_up[seat]
    assert new.prosperity[city("Bergen")] == before + 1
    assert take in new.hands[seat] and len(new.hands[seat]) == 2
    assert all(nov[0] not in str(event) for event in events)  # the card stays secret


@pytest.mark.parametrize(("players", "turns"), [(2, 6), (3, 5), (4, 4)])
def test_turns_per_round_then_storage(players, turns):
    eng = engine()
    state = start_game(players, seed=f"turns{players}")
    played = [0] * players
    order = []
    while state.phase == TURNS:
        seat = eng.to_act(state)[0]
        order.append(seat)
        played[seat] += 1
        state, _ = eng.apply(state, seat, eng.legal_moves(state, seat)[0])
    assert played == [turns] * players
    assert order[:players] == list(range(players))  # clockwise from the start player
    assert state.phase in (STORE, CHOOSE_START)
    assert len(state.breakdown[0]["rounds"]) == 1


# -- the round's end -------------------------------------------------------------------------
def test_support_of_allied_cities_lifts_every_lowest_city():
    state = start_game(4)
    state.prosperity = [1, 1, 3, 4]
    events: list[dict] = []
    flow.resolve_storage(_all_forced(state), data(), events)
    assert state.prosperity == [2, 2, 3, 4]
    assert sum(1 for e in events if e.get("cause") == "support") == 2


def _all_forced(state):
    for seat in range(state.players):
        state.pending[seat] = {"pieces": list(state.pieces[seat]), "forced": True}
    return state


def test_refill_fills_empty_spaces_and_places_missing_pieces_only():
    state = start_game(4)
    d = data()
    # take cards out as a round would: 16 cards leave the board
    for row in state.rows:
        for card_id in row[:4]:
            state.row_pieces.pop(card_id, None)
        del row[:4]
    kept_pieces = dict(state.row_pieces)
    bag_before = sum(state.bag)
    events: list[dict] = []
    flow.resolve_storage(_all_forced(state), d, events)
    assert [len(row) for row in state.rows] == [5, 5, 5, 5]
    board = [cid for row in state.rows for cid in row]
    assert set(state.row_pieces) == {c for c in board if d.cards[c].luxury}
    for card_id, piece in kept_pieces.items():
        assert state.row_pieces[card_id] == piece  # a card keeps its piece
    new_pieces = len(state.row_pieces) - len(kept_pieces)
    assert sum(state.bag) == bag_before - new_pieces
    placed = [e for e in events if e["type"] == "card_placed"]
    assert len(placed) == 16 and placed[0]["city"] == "London"
    assert sum(d.cards[e["card"]].luxury for e in placed) == 8
    assert state.phase == CHOOSE_START


@pytest.mark.parametrize(
    ("profits", "start", "chooser"),
    [
        ([10, 5, 20, 30], 0, 1),
        ([10, 5, 5, 30], 0, 2),  # tied: seat 2 played later this round
        ([10, 5, 5, 30], 2, 1),  # start 2: order 2, 3, 0, 1 -> seat 1 is later
        ([7, 7, 7, 7], 1, 0),  # all tied: the last in turn order (before the start)
    ],
)
def test_poorest_player_chooses_the_start(profits, start, chooser):
    state = start_game(4)
    state.profit = list(profits)
    state.start = start
    assert flow.poorest_player(state) == chooser


def test_choose_start_moves_to_the_next_round():
    eng = engine()
    state = start_game(4)
    state.profit = [10, 5, 20, 30]
    flow.resolve_storage(_all_forced(state), data(), [])
    assert eng.to_act(state) == [1]
    assert len(eng.legal_moves(state, 1)) == 4
    new, events = eng.apply(state, 1, {"type": "choose_start", "seat": 3})
    assert new.round == 2 and new.start == 3 and eng.to_act(new) == [3]
    assert {"type": "start_player_chosen", "seat": 3} in events
    self_chosen, _ = eng.apply(state, 1, {"type": "choose_start", "seat": 1})
    assert self_chosen.start == 1


# -- the game's end ---------------------------------------------------------------------------
def test_round_three_ends_with_final_cards_and_final_scoring():
    eng = engine()
    state = eng.setup(4, {}, "ending")
    rng = SeededRng("ending-play")
    while state.phase != FINAL_CARD:
        seat = eng.to_act(state)[rng.randbelow(len(eng.to_act(state)))]
        moves = eng.legal_moves(state, seat)
        state, _ = eng.apply(state, seat, moves[rng.randbelow(len(moves))])
    assert state.round == 3 and eng.to_act(state) == [0, 1, 2, 3]
    assert all(len(hand) == 2 for hand in state.hands)
    for seat in range(4):
        state, events = eng.apply(state, seat, {"type": "final_card",
                                                "card": state.hands[seat][0],
                                                "face": "down" if seat % 2 else "up"})
    assert state.phase == OVER and eng.to_act(state) == []
    assert len(state.removed) == 4
    final = [e for e in events if e["type"] == "final_scoring"][0]
    assert final["face_down"] == [list(cards) for cards in state.face_down]
    result = eng.result(state)
    for seat, entry in enumerate(result["breakdown"]):
        assert len(entry["rounds"]) == 3
        assert set(entry["rounds"][0]["cities"]) == set(data().cities)
        total = (sum(sum(r["cities"].values()) + r["luxury"] for r in entry["rounds"])
                 + entry["parliament"] + entry["golden_ship"]
                 + entry["persons"]["types"] + entry["persons"]["sets"])
        assert total == entry["total"] == result["scores"][seat]
    assert eng.legal_moves(state, 0) == []


def test_result_ranks_and_winners_with_ties():
    eng = engine()
    state = start_game(4)
    for seat in range(4):
        state.face_up[seat] = []
        state.face_down[seat] = []
    state.profit = [120, 120, 90, 120]
    give_face_up(state, 0, cards_where(person="A")[:1] + cards_where(person="B")[:1])
    give_face_up(state, 1, cards_where(person="C")[:1] + cards_where(person="D")[:1])
    give_face_up(state, 3, cards_where(person="E")[:1])
    result = eng.result(state)
    assert result["ranks"] == [1, 1, 4, 3]
    assert result["winners"] == [0, 1]


def test_events_do_not_alias_the_new_state():
    eng = engine()
    state = start_game(2, seed="alias")
    while state.phase == TURNS:
        seat = eng.to_act(state)[0]
        state, events = eng.apply(state, seat, eng.legal_moves(state, seat)[0])
    scored = [e for e in events if e["type"] == "round_scored"][0]
    before = eng.to_json(state)
    scored["profits"][0]["cities"]["London"] = 999
    scored["profits"][0]["luxury"] = 999
    assert eng.to_json(state) == before


def test_rules_version_was_bumped_for_the_q10_storage_change():
    # docs/architecture.md, "The engine contract": rules_version changes whenever an old log
    # could replay differently. Under version 1 a seat holding one colour only was settled
    # without a move; ruling Q10 lets it keep fewer, so it now owes a store move and a
    # version-1 log would not replay.
    assert engine().rules_version not in ("", "1")
    assert engine().describe()["rules_version"] == engine().rules_version


@pytest.mark.parametrize(("players", "normal", "luxury"), [(2, 7, 5), (3, 7, 8), (4, 8, 8)])
def test_refill_after_a_played_round_follows_the_rulebook_table(players, normal, luxury):
    # rulebook, Replenishing Trade Cards: 4p 8+8, 3p 7+8, 2p 7+5, from London's leftmost
    # empty space on; every space is full again (the rightmost unused with 2 players)
    eng = engine()
    d = data()
    state = start_game(players, seed=f"refill{players}")
    rng = SeededRng(f"refill-play{players}")
    placed = []
    while state.phase != CHOOSE_START:
        seats = eng.to_act(state)
        seat = seats[rng.randbelow(len(seats))]
        options = eng.legal_moves(state, seat)
        state, events = eng.apply(state, seat, options[rng.randbelow(len(options))])
        placed += [e["card"] for e in events if e["type"] == "card_placed"]
    assert sum(not d.cards[c].luxury for c in placed) == normal
    assert sum(d.cards[c].luxury for c in placed) == luxury
    assert [len(row) for row in state.rows] == [d.spaces_per_city[players]] * 4
    board = [cid for row in state.rows for cid in row]
    assert set(state.row_pieces) == {c for c in board if d.cards[c].luxury}
