"""Nim's rules version 0, frozen: the test plugin's older release, kept runnable beside
today's engine (rules/versions.py) so that matches played under it still replay and
verify (tests/plugin/test_rules_versions.py).

Under version 0 whoever took the last stone *lost* (misère Nim): the next seat won.
Version 1 (tests/plugin/nim_engine.py) fixed the rule, so a version-0 log replayed by
today's engine would name another winner. The frozen engine is today's with that one
behaviour restored: a subclass, the lean way to keep an old version when one rule changed.
"""

from __future__ import annotations

from typing import Any

from tests.plugin.nim_engine import NimEngine


class NimEngineV0(NimEngine):
    rules_version = "0"

    def apply(self, state: dict, seat: int, move: Any) -> tuple[dict, list[dict]]:
        new, events = super().apply(state, seat, move)
        if new["winner"] is not None:  # the last stone: its taker loses
            new["winner"] = (seat + 1) % state["players"]
            events[-1] = {"type": "game_over", "winner": new["winner"]}
        return new, events
