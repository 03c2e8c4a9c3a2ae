"""The Han board drawing (rules/han/render.py, ``HanEngine.render_svg``): well-formed SVG,
every house space drawn, pieces in their seat's colour, scored provinces marked, nothing
hidden drawn, every text escaped."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from han_positions import ENGINE, accepted, place, position

from rules.han.board import board_data
from rules.han.render import SEAT_COLOURS
from tests.rules.svg_support import SVG, parse, with_class


def texts(root: ET.Element) -> list[str]:
    return [el.text for el in root.iter(f"{SVG}text") if el.text]


@pytest.mark.parametrize("map_id,players", [("border-disputes", 5), ("ways-of-diplomacy", 2)])
def test_one_circle_per_house_space_with_ports_and_border_spaces_marked(map_id, players):
    state = ENGINE.setup(players, {"map": map_id, "variant": True}, "render")
    root = parse(ENGINE.render_svg(ENGINE.view(state, None)))
    data = board_data(map_id)
    circles = with_class(root, "circle", "space")
    assert sorted(c.get("data-space") for c in circles) == sorted(s["id"] for s in data["spaces"])
    ports = {s["id"] for s in data["spaces"] if s["port"]}
    borders = {s["id"] for s in data["spaces"] if len(s["provinces"]) == 2}
    assert {c.get("data-space") for c in with_class(root, "circle", "port")} == ports
    assert {c.get("data-space") for c in with_class(root, "circle", "border")} == borders
    assert len(with_class(root, "polygon", "province")) == len(data["provinces"])
    assert len(with_class(root, "line", "road")) == len(data["roads"])
    assert not with_class(root, "polygon", "house")  # nothing placed yet
    names = texts(root)
    assert all(p["name"] in names for p in data["provinces"])


def test_a_placed_house_is_drawn_at_its_space_in_the_seat_colour():
    state = ENGINE.setup(3, {"map": "border-disputes", "variant": False}, "render-place")
    seat = ENGINE.to_act(state)[0]
    move = next(m for m in ENGINE.legal_moves(state, seat) if m["type"] == "place"
                and any(p["kind"] == "house" for p in m["pieces"]))
    space = next(p["space"] for p in move["pieces"] if p["kind"] == "house")
    state, _events = accepted(state, seat, move)
    houses = with_class(parse(ENGINE.render_svg(ENGINE.view(state, None))), "polygon", "house")
    assert [(h.get("data-space"), h.get("data-seat"), h.get("fill")) for h in houses] == [
        (space, str(seat), SEAT_COLOURS[seat])]


def test_houses_markers_and_emissaries_show_their_seats():
    state = position("border-disputes", 4, variant=True, houses={2: ["wei-3"], 3: ["qi-1"]},
                     fortified={"chu-2": 1}, emissaries={"yan": [0, 2, 0, 1]})
    root = parse(ENGINE.render_svg(ENGINE.view(state, None)))
    houses = {h.get("data-space"): h.get("fill") for h in with_class(root, "polygon", "house")}
    assert houses == {"wei-3": SEAT_COLOURS[2], "qi-1": SEAT_COLOURS[3],
                      "chu-2": SEAT_COLOURS[1]}
    forts = with_class(root, "rect", "fortification")
    assert [(f.get("data-space"), f.get("data-seat")) for f in forts] == [("chu-2", "1")]
    stacks = with_class(root, "rect", "emissaries")
    assert [(s.get("data-province"), s.get("data-seat"), s.get("fill")) for s in stacks] == [
        ("yan", "1", SEAT_COLOURS[1]), ("yan", "3", SEAT_COLOURS[3])]


def test_market_places_are_drawn_on_ways_of_diplomacy():
    state = position("ways-of-diplomacy", 2, variant=True, markets={"canal-docks-2": 1})
    root = parse(ENGINE.render_svg(ENGINE.view(state, None)))
    markets = with_class(root, "rect", "market_place")
    assert [(m.get("data-space"), m.get("fill")) for m in markets] == [
        ("canal-docks-2", SEAT_COLOURS[1])]
    stacks = with_class(root, "rect", "emissaries")  # the market place's free emissary (V2)
    assert [(s.get("data-province"), s.get("data-seat")) for s in stacks] == [
        ("canal-docks", "1")]


def test_a_scored_province_gets_its_disk():
    # Zhao has three inner spaces and the Zhao-Yan border space; seat 0 fills the last one.
    state = position("border-disputes", 4, houses={1: ["zhao-1", "zhao-2", "border-zhao-yan"]},
                     hands={0: ["red", "red", "red"]})
    before = parse(ENGINE.render_svg(ENGINE.view(state, None)))
    assert not with_class(before, "circle", "scored")
    state, events = accepted(state, 0, place(["red"], ("house", "zhao-3")))
    assert any(e["type"] == "province_scored" and e["province"] == "zhao" for e in events)
    after = parse(ENGINE.render_svg(ENGINE.view(state, None)))
    assert [d.get("data-province") for d in with_class(after, "circle", "scored")] == ["zhao"]


def test_a_seat_view_draws_no_hidden_card():
    """The drawing is a function of the view alone: states that differ only in what the
    seat may not see (other hands, the pile's order) draw the same picture, and only the
    seat's own hand is drawn as cards."""
    state = ENGINE.setup(4, {"map": "border-disputes", "variant": False}, "render-hidden")
    other = state.copy()
    other.hands[2] = ["violet", "violet", "violet"]
    other.hands[3] = ["green", "orange", "red"]
    other.pile.reverse()
    assert other.hands[2] != state.hands[2] and other.pile != state.pile
    assert ENGINE.view(state, 1) == ENGINE.view(other, 1)  # the view's no-leak property
    svg = ENGINE.render_svg(ENGINE.view(state, 1))
    assert svg == ENGINE.render_svg(ENGINE.view(other, 1))
    root = parse(svg)
    drawn = [c.get("data-card") for c in with_class(root, "rect", "own-hand-card")]
    assert drawn == state.hands[1]
    assert not with_class(root, "rect", "ended-hand-card")
    spectator = parse(ENGINE.render_svg(ENGINE.view(state, None)))
    assert not with_class(spectator, "rect", "own-hand-card")
    # the display is public and drawn card by card; of the pile only its size is shown
    display = [c.get("data-card") for c in with_class(spectator, "rect", "display-card")]
    assert display == state.display


def test_every_hand_is_drawn_once_the_game_is_over():
    state = ENGINE.setup(2, {"map": "ways-of-diplomacy", "variant": False}, "render-end")
    while not ENGINE.is_over(state):
        seat = ENGINE.to_act(state)[0]
        state, _ = ENGINE.apply(state, seat, ENGINE.legal_moves(state, seat)[0])
    root = parse(ENGINE.render_svg(ENGINE.view(state, None)))
    drawn = [c.get("data-card") for c in with_class(root, "rect", "ended-hand-card")]
    assert drawn == [card for hand in state.hands for card in hand]
    final = ENGINE.result(state)["scores"]
    assert all(f"seat {s}: score {final[s]} (rank" in " ".join(texts(root))
               for s in range(2))


def test_text_with_markup_characters_is_escaped():
    state = ENGINE.setup(3, {"map": "border-disputes", "variant": False}, "render-escape")
    view = ENGINE.view(state, None)
    nasty = '<script>alert("x")</script> & <b>'
    view["display"] = [nasty]
    view["phase"] = nasty
    svg = ENGINE.render_svg(view)
    assert "<script>" not in svg and "<b>" not in svg
    root = parse(svg)  # still well-formed
    assert [c.get("data-card") for c in with_class(root, "rect", "display-card")] == [nasty]
    assert any(nasty in text for text in texts(root))
