"""Property tests by seeded random play over both maps, every player count, with and without
the variant: games end, legal_moves and apply agree, replay is exact, JSON round-trips, views
hide what they must, scores add up. Bounded to a few seconds per configuration."""

from __future__ import annotations

import json

import pytest
from han_positions import ENGINE, canonical

from rules import IllegalMove
from rules.han.board import get_board
from rules.han.cards import card_subsets
from rules.han.state import HanState
from rules.rng import SeededRng

CONFIGS = [
    (map_id, players, variant)
    for map_id in ("border-disputes", "ways-of-diplomacy")
    for players in range(get_board(map_id).min_players, get_board(map_id).max_players + 1)
    for variant in (False, True)
]
GAMES_PER_CONFIG = 3


def _dumps(value) -> str:
    return json.dumps(value, sort_keys=True)


def _hidden_shuffled(state: HanState, seat: int | None, rng: SeededRng) -> HanState:
    """The same public position with the hidden cards dealt differently: the pile and every
    hand but ``seat``'s pooled, shuffled and dealt back in the same sizes."""
    other = state.copy()
    hidden_seats = [s for s in range(state.players) if s != seat]
    pool = list(other.pile)
    for s in hidden_seats:
        pool.extend(other.hands[s])
    pool.append("violet")  # make the pool differ even when it is tiny
    rng.shuffle(pool)
    pool.pop()
    for s in hidden_seats:
        size = len(other.hands[s])
        other.hands[s] = sorted(pool[:size], key=state.board.color_index.__getitem__)
        pool = pool[size:]
    other.pile = pool
    return other


def _mutations(move: dict, state: HanState, rng: SeededRng) -> list[dict]:
    board = state.board
    out = []
    if move["type"] == "place":
        colours = list(board.colors)
        out.append({**move, "cards": [*move["cards"], colours[rng.randbelow(len(colours))]]})
        if len(move["cards"]) > 1:
            out.append({**move, "cards": move["cards"][1:]})
        swapped = list(move["cards"])
        swapped[0] = colours[rng.randbelow(len(colours))]
        out.append({**move, "cards": swapped})
        out.append({**move, "pieces": [*move["pieces"], move["pieces"][0]]})
        piece = dict(move["pieces"][0])
        if "space" in piece:
            piece["space"] = board.space_ids[rng.randbelow(len(board.space_ids))]
        else:
            piece["province"] = board.province_ids[rng.randbelow(len(board.province_ids))]
        out.append({**move, "pieces": [piece, *move["pieces"][1:]]})
        out.append({**move, "pieces": list(reversed(move["pieces"]))})
    elif move["type"] == "draw" and move["from"] == "display":
        out.append({**move, "index": len(state.display)})
    elif move["type"] == "discard":
        out.append({**move, "card": board.colors[rng.randbelow(len(board.colors))]})
    return out


def _exhaustive_check(state: HanState, seat: int) -> None:
    """Brute force: every single piece and every ordered pair of pieces sharing a province,
    with every card set from the hand; apply accepts exactly the legal placements."""
    board = state.board
    pieces = []
    for sid in board.space_ids:
        pieces.append({"kind": "house", "space": sid})
        if state.variant:
            pieces.append({"kind": board.variant_kind, "space": sid})
    pieces.extend({"kind": "emissary", "province": pid} for pid in board.province_ids)

    def provinces(piece):
        if "province" in piece:
            return {piece["province"]}
        return {
            board.province_ids[p] for p in board.space_provinces[board.space_index[piece["space"]]]
        }

    hand = tuple(sorted(board.color_index[c] for c in state.hands[seat]))
    card_sets = [[board.colors[c] for c in subset] for subset in card_subsets(hand)]
    legal = {canonical(m) for m in ENGINE.legal_moves(state, seat) if m["type"] == "place"}
    accepted = set()
    candidates = [[p] for p in pieces]
    candidates += [[a, b] for a in pieces for b in pieces if provinces(a) & provinces(b)]
    for piece_list in candidates:
        for cards in card_sets:
            move = {"type": "place", "cards": cards, "pieces": piece_list}
            try:
                ENGINE.apply(state, seat, move)
            except IllegalMove:
                continue
            accepted.add(canonical(move))
    assert accepted == legal


def _play(map_id: str, players: int, variant: bool, game: int):
    seed = f"prop-{map_id}-{players}-{variant}-{game}"
    state = ENGINE.setup(players, {"map": map_id, "variant": variant}, seed)
    rng = SeededRng("chooser-" + seed)
    log = []
    step = 0
    exhaustive_done = 0
    while not ENGINE.is_over(state):
        to_act = ENGINE.to_act(state)
        assert len(to_act) == 1
        seat = to_act[0]
        for other in range(players):
            if other != seat:
                assert ENGINE.legal_moves(state, other) == []
        moves = ENGINE.legal_moves(state, seat)
        assert moves, "a seat to act always has a legal move"
        keys = [canonical(m) for m in moves]
        assert len(keys) == len(set(keys)), "each placement is listed once"
        before = _dumps(ENGINE.to_json(state))
        if step % 4 == 0:
            for m in moves:
                ENGINE.apply(state, seat, m)  # every offered move is accepted
        legal = set(keys)
        for m in _mutations(moves[rng.randbelow(len(moves))], state, rng):
            try:
                ENGINE.apply(state, seat, m)
            except IllegalMove as error:
                assert error.code and error.message
                continue
            assert canonical(m) in legal, m  # nothing outside legal_moves is accepted
        if (
            exhaustive_done < 2
            and state.phase == 0
            and step > (20 + 10 * game) * (exhaustive_done + 1)
            and any(m["type"] == "place" for m in moves)
        ):
            _exhaustive_check(state, seat)
            exhaustive_done += 1
        if step % 10 == 0:
            for viewer in [*range(players), None]:
                view = ENGINE.view(state, viewer)
                text = _dumps(view)
                assert seed not in text and "rng" not in view and "pile" not in view
                assert "hands" not in view
                if viewer is not None:
                    assert view["hand"] == state.hands[viewer]
                else:
                    assert "hand" not in view
                twin = _hidden_shuffled(state, viewer, rng)
                assert _dumps(ENGINE.view(twin, viewer)) == text
        move = moves[rng.randbelow(len(moves))]
        previous = state
        state, events = ENGINE.apply(state, seat, move)
        assert _dumps(ENGINE.to_json(previous)) == before, "apply mutated its input"
        assert json.loads(_dumps(events)) == events
        log.append((seat, move))
        step += 1
        assert step < 2000, "game does not end"
    return seed, state, log


@pytest.mark.parametrize(("map_id", "players", "variant"), CONFIGS)
def test_random_play(map_id, players, variant):
    for game in range(GAMES_PER_CONFIG):
        seed, final, log = _play(map_id, players, variant, game)
        # replay: same seed and moves give the identical state
        replay = ENGINE.setup(players, {"map": map_id, "variant": variant}, seed)
        for seat, move in log:
            replay, _ = ENGINE.apply(replay, seat, move)
        assert _dumps(ENGINE.to_json(replay)) == _dumps(ENGINE.to_json(final))
        # JSON round trip through text
        data = json.loads(json.dumps(ENGINE.to_json(final)))
        again = ENGINE.from_json(data)
        assert _dumps(ENGINE.to_json(again)) == _dumps(ENGINE.to_json(final))
        # result: scores are the sum of the breakdown
        result = ENGINE.result(final)
        for seat in range(players):
            b = result["breakdown"][seat]
            total = sum(b["provinces"].values()) + sum(b["alliances"].values())
            total += b["roads"] + b["ports"]
            assert b["total"] == total == result["scores"][seat]
            assert b["roads"] == sum(r["points"] for r in b["road_rows"])
        assert sorted(result["winners"]) == [s for s in range(players) if result["ranks"][s] == 1]
        assert result["winners"]
        # after the end everything is public in the view
        view = ENGINE.view(final, None)
        assert view["hands"] == final.hands and view["result"] == result
        assert seed not in _dumps(view)


def test_round_trip_mid_game_continues_identically():
    state = ENGINE.setup(4, {"map": "border-disputes", "variant": True}, "mid")
    rng = SeededRng("mid-chooser")
    for _ in range(60):
        seat = ENGINE.to_act(state)[0]
        moves = ENGINE.legal_moves(state, seat)
        state, _ = ENGINE.apply(state, seat, moves[rng.randbelow(len(moves))])
    clone = ENGINE.from_json(json.loads(json.dumps(ENGINE.to_json(state))))
    seat = ENGINE.to_act(state)[0]
    assert ENGINE.legal_moves(clone, seat) == ENGINE.legal_moves(state, seat)
    assert ENGINE.view(clone, seat) == ENGINE.view(state, seat)
    while not ENGINE.is_over(state):
        seat = ENGINE.to_act(state)[0]
        moves = ENGINE.legal_moves(state, seat)
        move = moves[rng.randbelow(len(moves))]
        state, e1 = ENGINE.apply(state, seat, move)
        clone, e2 = ENGINE.apply(clone, seat, move)
        assert e1 == e2
    assert ENGINE.to_json(clone) == ENGINE.to_json(state)
