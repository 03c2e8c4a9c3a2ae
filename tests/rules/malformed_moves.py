"""Malformed variants of legal moves, for the engines' malformed-move tests: every value
of a legal move (and the move itself) swapped for a value of another JSON type, keys
dropped, unknown keys added, lists emptied or doubled. Seeded, so each run is the same."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Iterator
from typing import Any

WRONG_VALUES: list[Any] = [
    None, True, False, 0, 1, -1, 2**63, 10**30, 1.5, -0.0, "", "x", "\u2603", "0", [],
    [None], [[[]]], {}, {"a": 1}, {"kind": {}}, "house", "green", ["green"], "a" * 500,
]


def _places(node: Any, path: list) -> Iterator[tuple[list, Any]]:
    yield path, node
    if isinstance(node, dict):
        for key, child in node.items():
            yield from _places(child, path + [key])
    elif isinstance(node, list):
        for index, child in enumerate(node):
            yield from _places(child, path + [index])


def _at(move: Any, path: list) -> Any:
    for key in path:
        move = move[key]
    return move


def malformed_variants(move: dict, rng: random.Random, per_place: int = 6) -> Iterator[Any]:
    for path, value in list(_places(move, [])):
        for wrong in rng.sample(WRONG_VALUES, per_place):
            if not path:
                yield copy.deepcopy(wrong)
                continue
            variant = copy.deepcopy(move)
            _at(variant, path[:-1])[path[-1]] = copy.deepcopy(wrong)
            yield variant
        if isinstance(value, dict):
            for key in value:
                variant = copy.deepcopy(move)
                del _at(variant, path)[key]
                yield variant
            variant = copy.deepcopy(move)
            _at(variant, path)["unexpected"] = 1
            yield variant
        if isinstance(value, list):
            variant = copy.deepcopy(move)
            _at(variant, path).extend(copy.deepcopy(value))
            yield variant
            variant = copy.deepcopy(move)
            _at(variant, path).clear()
            yield variant


def assert_refused_unless_listed(engine, state, seat: int, move: Any, listed: set[str],
                                 codes: set[str]) -> None:
    """``move`` is refused with ``IllegalMove`` (code and message set; the code is added to
    ``codes``) unless it is one of the moves ``legal_moves`` listed (``listed``: their
    canonical JSON). Only a listed move may pass."""
    from rules import IllegalMove

    try:
        engine.apply(state, seat, move)
    except IllegalMove as exc:
        assert exc.code and exc.message, move
        codes.add(exc.code)
    else:
        assert json.dumps(move, sort_keys=True) in listed, move
