"""Han rules version 1, kept so every match played under it still replays and verifies
(rules/versions.py; docs/records.md "Rules versions").

Version 2 (issue 44) changed no rule: it added the reshuffle's public facts to the state
(``reshuffled``, ``hands_then``, ``known_then``, ``since``: README "Public knowledge"), so
a bot's sampler deals only worlds the history allows. That changes the state's JSON, and
with it every state digest a version-1 record signed after the first reshuffle. Version 1
is therefore today's engine with the state's JSON as version 1 wrote it; a version-1 state
read back has no reshuffle facts, and its bots sample as they did then."""

from __future__ import annotations

from rules.han.engine import HanEngine
from rules.han.state import HanState

#: the keys version 2 added to the state's JSON
_ADDED_IN_VERSION_2 = ("reshuffled", "hands_then", "known_then", "since")


class HanEngineV1(HanEngine):
    rules_version = "1"

    def to_json(self, state: HanState) -> dict:
        data = super().to_json(state)
        for key in _ADDED_IN_VERSION_2:
            data.pop(key, None)
        return data
