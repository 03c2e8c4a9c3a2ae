"""The Queen of Hansa rules version 2, kept so every match played under it still replays
and verifies (rules/versions.py; docs/records.md "Rules versions").

Version 3 (issue 44) changed no rule: it added ``known_blocks`` to the state (which known
cards each seat took before each of its face-down cards: README "Public knowledge"), so a
bot's sampler deals only worlds the history allows. That changes the state's JSON, and
with it every state digest a version-2 record signed. Version 2 is therefore today's
engine with the state's JSON as version 2 wrote it; a version-2 state read back gets the
weaker blocks ``HansaState.from_json`` derives for states stored without them."""

from __future__ import annotations

from rules.hansa.engine import HansaEngine
from rules.hansa.state import HansaState


class HansaEngineV2(HansaEngine):
    rules_version = "2"

    def to_json(self, state: HansaState) -> dict:
        data = super().to_json(state)
        data.pop("known_blocks", None)  # added in version 3
        return data
