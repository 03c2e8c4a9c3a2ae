"""The Queen of Hansa drawing (rules/hansa/render.py, ``HansaEngine.render_svg``):
well-formed SVG, every row card and prosperity marker where the view puts it, each
Kontor's cards and pieces, nothing hidden drawn, every text escaped."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from rules.hansa.render import COLOURS
from rules.rng import SeededRng
from tests.rules.hansa.helpers import (
    data,
    engine,
    give_face_up,
    play_random,
    set_pieces,
    set_row,
    start_game,
)
from tests.rules.svg_support import SVG, parse, with_class


def drawn_ids(root: ET.Element, name: str) -> list[str]:
    return [el.get("data-card") for el in with_class(root, "rect", name)]


def texts(root: ET.Element) -> list[str]:
    return [el.text for el in root.iter(f"{SVG}text") if el.text]


def test_rows_markers_and_luxury_pieces_are_drawn_as_the_view_says():
    eng = engine()
    state = start_game(4, seed="render-rows")
    set_row(state, "Bruges", ["bru-10", "lon-09"], pieces={"bru-10": "black"})
    view = eng.view(state, None)
    root = parse(eng.render_svg(view))
    in_rows = [slot["card"]["id"] for row in view["rows"].values() for slot in row]
    assert drawn_ids(root, "row-card") == in_rows
    pieces = {(c.get("data-card"), c.get("data-colour"), c.get("fill"))
              for c in with_class(root, "circle", "luxury-piece")}
    assert pieces == {(slot["card"]["id"], slot["piece"], COLOURS[slot["piece"]])
                      for row in view["rows"].values() for slot in row if slot["piece"]}
    assert ("bru-10", "black", COLOURS["black"]) in pieces
    markers = {c.get("data-city"): int(c.get("data-index"))
               for c in with_class(root, "circle", "prosperity-marker")}
    assert markers == {city: spot["index"] for city, spot in view["prosperity"].items()}
    assert len(with_class(root, "rect", "track-space")) == len(data().track)


def test_a_prosperity_change_moves_the_marker():
    eng = engine()
    state = start_game(2, seed="render-track")
    seat = eng.to_act(state)[0]
    move = next(m for m in eng.legal_moves(state, seat)
                if m["type"] == "parliament" and m["city"] == "London" and m["direction"] == 1)
    before = eng.view(state, None)["prosperity"]["London"]["index"]
    state, _ = eng.apply(state, seat, move)
    root = parse(eng.render_svg(eng.view(state, None)))
    london = [c for c in with_class(root, "circle", "prosperity-marker")
              if c.get("data-city") == "London"]
    assert [int(c.get("data-index")) for c in london] == [before + 1]


def test_each_kontor_shows_its_face_up_cards_and_pieces():
    eng = engine()
    state = start_game(3, seed="render-kontor")
    give_face_up(state, 2, ["nov-06", "lon-03"])
    set_pieces(state, 2, {"red": 2, "yellow": 1}, stored={"blue": 1})
    root = parse(eng.render_svg(eng.view(state, None)))
    assert sorted(drawn_ids(root, "face-up-card")) == ["lon-03", "nov-06"]
    def pieces(name):
        return {c.get("data-colour"): int(c.get("data-count"))
                for c in with_class(root, "circle", name) if c.get("data-seat") == "2"}

    assert pieces("kontor-piece") == {"red": 2, "blue": 0, "yellow": 1, "black": 0}
    assert pieces("stored-piece") == {"red": 0, "blue": 1, "yellow": 0, "black": 0}
    assert "Kontor of seat 2: profit 0" in texts(root)


def test_a_trade_puts_the_card_face_up_in_the_traders_kontor():
    eng = engine()
    state = start_game(2, seed="render-trade")
    seat = eng.to_act(state)[0]
    move = next(m for m in eng.legal_moves(state, seat) if m["type"] == "trade")
    before = parse(eng.render_svg(eng.view(state, None)))
    assert move["card"] not in drawn_ids(before, "face-up-card")
    state, _ = eng.apply(state, seat, move)
    after = parse(eng.render_svg(eng.view(state, None)))
    assert move["card"] in drawn_ids(after, "face-up-card")
    if move["take"] is not None:
        assert move["take"] not in drawn_ids(after, "row-card")


def test_a_seat_view_draws_no_hidden_card():
    """Only what the view shows is drawn: the seat's own hand and face-down cards, never
    another seat's, nor a deck card (card ids are unique, so a string test is exact)."""
    eng = engine()
    state = start_game(4, seed="render-hidden")
    for _ in range(6):  # some parliament cards face down, some trades
        seat = eng.to_act(state)[0]
        state, _ = eng.apply(state, seat, eng.legal_moves(state, seat)[-1])
    assert any(state.face_down[s] for s in range(1, 4))
    viewer = 1
    svg = eng.render_svg(eng.view(state, viewer))
    root = parse(svg)
    hidden = list(state.normal_deck) + list(state.luxury_deck)
    for seat in range(4):
        if seat != viewer:
            hidden += state.hands[seat] + state.face_down[seat]
    assert hidden
    leaked = [card for card in hidden if card in svg]
    assert leaked == []
    assert drawn_ids(root, "hand-card") == state.hands[viewer]
    assert drawn_ids(root, "face-down-card") == state.face_down[viewer]
    spectator = parse(eng.render_svg(eng.view(state, None)))
    assert drawn_ids(spectator, "hand-card") == drawn_ids(spectator, "face-down-card") == []


def test_face_down_cards_are_drawn_once_the_game_is_over():
    eng = engine()
    state, _log = play_random(eng, eng.setup(3, {}, "render-end"), SeededRng("render-end"))
    root = parse(eng.render_svg(eng.view(state, None)))
    assert sorted(drawn_ids(root, "face-down-card")) == sorted(
        card for seat in range(3) for card in state.face_down[seat])
    assert "Game over" in texts(root)


def test_text_with_markup_characters_is_escaped():
    eng = engine()
    state = start_game(2, seed="render-escape")
    view = eng.view(state, None)
    nasty = '<script>alert("x")</script> & <b>'
    card = view["rows"]["London"][0]["card"]
    card["id"] = nasty
    card["person"] = nasty
    view["phase"] = nasty
    svg = eng.render_svg(view)
    assert "<script>" not in svg and "<b>" not in svg
    root = parse(svg)  # still well-formed
    assert drawn_ids(root, "row-card")[0] == nasty
    assert sum(nasty in text for text in texts(root)) >= 3
