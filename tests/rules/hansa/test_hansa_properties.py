"""Properties over seeded random games for 2, 3 and 4 players: play ends; every offered
move is accepted and nothing else is; replay is identical; JSON round-trips; views leak
nothing (their public knowledge names only cards the viewer saw); scores equal their
breakdown. Bounded to a few games per player count."""

from __future__ import annotations

import json

import pytest

from rules.engine import IllegalMove
from rules.hansa.state import SIMULTANEOUS_PHASES
from rules.rng import SeededRng

from .helpers import data, engine, play_random

GAMES_PER_COUNT = 3
SECRET_SEED = "very-secret-seed"


def _canonical(move: dict, colours: list[str]) -> str:
    """One spelling per move: keep cards in any order, store colours left out as 0,
    an absent take as null."""
    move = dict(move)
    if move.get("type") == "keep" and isinstance(move.get("cards"), list):
        move["cards"] = sorted(move["cards"], key=str)
    if move.get("type") == "store" and isinstance(move.get("pieces"), dict):
        move["pieces"] = {c: move["pieces"].get(c, 0) for c in colours} | move["pieces"]
    if move.get("type") in ("trade", "parliament"):
        move.setdefault("take", None)
    return json.dumps(move, sort_keys=True)


def _random_candidate(rng: SeededRng, state, seat: int) -> dict:
    """A move drawn from a much wider space than the legal one."""
    d = data()
    ids = d.card_order + ["nope-00"]
    pick = lambda items: items[rng.randbelow(len(items))]  # noqa: E731
    near = state.hands[seat] + [cid for row in state.rows for cid in row] + ids[:3]
    kind = pick(["keep", "trade", "parliament", "store", "choose_start", "final_card", "x"])
    if kind == "keep":
        return {"type": "keep", "cards": [pick(near) for _ in range(pick([1, 2, 2, 3]))]}
    if kind == "trade":
        return {"type": "trade", "card": pick(near), "take": pick(near + [None])}
    if kind == "parliament":
        return {"type": "parliament", "card": pick(near), "city": pick(d.cities + ["Lubeck"]),
                "direction": pick([-1, 1, 0, 2]), "take": pick(near + [None])}
    if kind == "store":
        return {"type": "store",
                "pieces": {c: rng.randbelow(3) for c in d.colours if rng.randbelow(2)}}
    if kind == "choose_start":
        return {"type": "choose_start", "seat": rng.randbelow(state.players + 1)}
    if kind == "final_card":
        return {"type": "final_card", "card": pick(near), "face": pick(["up", "down", "left"])}
    return {"type": "x"}


def _hidden_from(state, viewer) -> set[str]:
    hidden = set(state.normal_deck) | set(state.luxury_deck) | set(state.removed)
    for seat in range(state.players):
        if seat != viewer:
            hidden |= set(state.hands[seat]) | set(state.face_down[seat])
    return hidden


def _check_views(eng, state, on_board: set[str], own: list[set[str]]) -> None:
    """``on_board``: every card that has lain in a row so far (everyone saw it); ``own``:
    per seat, every card that has been in its hand."""
    over = eng.is_over(state)
    for viewer in [None, *range(state.players)]:
        full = eng.view(state, viewer)
        assert SECRET_SEED not in json.dumps(full) and "counter" not in json.dumps(full)
        if over:
            continue
        # the public knowledge names hidden cards, but only ones the viewer saw go there
        knowledge = full.pop("knowledge")
        for entry in knowledge["seats"]:
            assert set(entry["in_hand"]) | set(entry["in_hand_or_face_down"]) <= on_board
        assert ("returned_to_deck" in knowledge) == (viewer is not None)
        if viewer is not None:
            assert set(knowledge["returned_to_deck"]) <= own[viewer]
        text = json.dumps(full)
        for card_id in _hidden_from(state, viewer):
            assert f'"{card_id}"' not in text, (viewer, card_id)
        view = json.loads(text)
        assert "my_choice" not in view or viewer in state.pending
        for entry in view["seats"]:
            if entry["seat"] != viewer:
                assert "hand" not in entry and "face_down" not in entry


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games(players):
    eng = engine()
    colours = data().colours
    for game in range(GAMES_PER_COUNT):
        seed = f"{SECRET_SEED}-{players}-{game}"
        rng = SeededRng(f"props-{players}-{game}")
        state = eng.setup(players, {}, seed)
        log = []
        steps = 0
        on_board: set[str] = set()
        own: list[set[str]] = [set() for _ in range(players)]
        while not eng.is_over(state):
            on_board.update(cid for row in state.rows for cid in row)
            for s, hand in enumerate(state.hands):
                own[s].update(hand)
            steps += 1
            assert steps < 500, "the game must end"
            seats = eng.to_act(state)
            assert seats and len(set(seats)) == len(seats)
            for other in range(players):
                if other not in seats:
                    assert eng.legal_moves(state, other) == []
            seat = seats[rng.randbelow(len(seats))]
            legal = eng.legal_moves(state, seat)
            assert legal
            before = json.dumps(eng.to_json(state), sort_keys=True)

            # every offered move is accepted
            for move in legal:
                eng.apply(state, seat, move)
            # and a sample of others is refused, unless it is an offered move in disguise
            canonical_legal = {_canonical(m, colours) for m in legal}
            for _ in range(12):
                candidate = _random_candidate(rng, state, seat)
                if _canonical(candidate, colours) in canonical_legal:
                    eng.apply(state, seat, candidate)
                else:
                    with pytest.raises(IllegalMove):
                        eng.apply(state, seat, candidate)
            # the right move from a seat that is not to act is refused
            idle = [s for s in range(players) if s not in seats]
            if idle:
                with pytest.raises(IllegalMove) as error:
                    eng.apply(state, idle[0], legal[0])
                assert error.value.code in ("not_your_turn", "not_poorest_player",
                                            "already_chosen")
            assert json.dumps(eng.to_json(state), sort_keys=True) == before

            if state.phase in SIMULTANEOUS_PHASES or steps % 7 == 0:
                _check_views(eng, state, on_board, own)

            move = legal[rng.randbelow(len(legal))]
            state, events = eng.apply(state, seat, move)
            log.append((seat, move))
            assert SECRET_SEED not in json.dumps(events)

            if steps % 5 == 0:  # JSON round trip, and play continues the same from it
                data_json = json.loads(json.dumps(eng.to_json(state)))
                assert eng.to_json(eng.from_json(data_json)) == eng.to_json(state)

        _check_views(eng, state, on_board, own)
        assert eng.to_act(state) == []

        # replay: same seed + same moves = same state
        replayed = eng.setup(players, {}, seed)
        for seat, move in log:
            replayed, _ = eng.apply(replayed, seat, move)
        assert eng.to_json(replayed) == eng.to_json(state)

        result = eng.result(state)
        for seat, entry in enumerate(result["breakdown"]):
            parts = (sum(sum(r["cities"].values()) + r["luxury"] for r in entry["rounds"])
                     + entry["parliament"] + entry["golden_ship"]
                     + entry["persons"]["types"] + entry["persons"]["sets"])
            assert parts == entry["total"] == result["scores"][seat]
        assert 1 in result["ranks"]
        assert result["winners"] == [s for s, r in enumerate(result["ranks"]) if r == 1]
        ranked = sorted(range(players), key=lambda s: result["ranks"][s])
        assert [result["scores"][s] for s in ranked] == sorted(result["scores"], reverse=True)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_round_trip_mid_game_continues_identically(players):
    eng = engine()
    state = eng.setup(players, {}, f"trip-{players}")
    rng = SeededRng(f"trip-play-{players}")
    for _ in range(25):
        seats = eng.to_act(state)
        seat = seats[rng.randbelow(len(seats))]
        options = eng.legal_moves(state, seat)
        state, _ = eng.apply(state, seat, options[rng.randbelow(len(options))])
    copy = eng.from_json(json.loads(json.dumps(eng.to_json(state))))
    end_a, _ = play_random(eng, state, SeededRng("rest"))
    end_b, _ = play_random(eng, copy, SeededRng("rest"))
    assert eng.to_json(end_a) == eng.to_json(end_b)


def test_different_seeds_differ_and_games_vary():
    eng = engine()
    finals = set()
    for game in range(3):
        end, _ = play_random(eng, eng.setup(4, {}, f"vary-{game}"), SeededRng(f"v{game}"))
        finals.add(json.dumps(eng.result(end)["scores"]))
    assert len(finals) > 1


def test_json_and_copies_do_not_alias_pending_choices():
    # docs/architecture.md, "The engine contract": apply leaves the old state untouched and
    # to_json/from_json is an exact round trip; a pending simultaneous choice (ruling Q6) must not
    # be shared either way
    eng = engine()
    state = eng.setup(4, {}, "alias-pending")
    state, _ = eng.apply(state, 1, eng.legal_moves(state, 1)[0])
    kept = list(state.pending[1]["cards"])
    exported = eng.to_json(state)
    exported["pending"]["1"]["cards"].append("lon-01")
    assert state.pending[1]["cards"] == kept
    raw = eng.to_json(state)
    loaded = eng.from_json(raw)
    raw["pending"]["1"]["cards"].clear()
    assert loaded.pending[1]["cards"] == kept
    copied = state.copy()
    copied.pending[1]["cards"].clear()
    assert state.pending[1]["cards"] == kept
