"""The play socket's numbers and texts, read by the API's one rule (issue 39).

A ``subscribe`` or ``move`` whose ``match`` was a string of 5,000 digits answered
``internal_error`` (``int()`` refuses more than 4,300 digits); a ``ref`` holding a NUL was
echoed back in the answer; a C1 or bidirectional control in any field passed. Now the
numbers go through infra/numbers.py and the texts through infra/text_inputs.py: each
frame gets an error frame with a stable code, never ``internal_error``, and a bad ref is
not echoed.
"""

from __future__ import annotations

import asyncio
import json

import pytest

from tests.games.graphql.support import start_match
from tests.games.play.client import PlayClient

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

HUGE = "1" * 5000

#: (frame, code): {match} is a real match's id
FRAMES = [
    ({"op": "subscribe", "match": HUGE, "ref": "a"}, "match_not_found"),
    ({"op": "subscribe", "match": "9" * 21, "ref": "b"}, "match_not_found"),
    ({"op": "unsubscribe", "match": HUGE, "ref": "c"}, "match_not_found"),
    ({"op": "move", "match": HUGE, "move": {"type": "pass"}, "ref": "d"}, "match_not_found"),
    ({"op": "move", "match": "{match}", "move": {"type": "pass"}, "expected_ply": HUGE,
      "ref": "e"}, "malformed_message"),
    ({"op": "subscribe", "match": "{match}", "since": HUGE, "ref": "f"}, "malformed_message"),
    ({"op": "subscribe", "match": "{match}", "since": 2**53 + 1, "ref": "g"},
     "malformed_message"),
    ({"op": "feed", "after": HUGE, "ref": "h"}, "malformed_message"),
    ({"op": "move", "match": "{match}", "move": {"type": "pass\u0085"}, "ref": "i"},
     "invalid_input"),
    ({"op": "move", "match": "{match}", "move": {"type": "\u202epass"}, "ref": "j"},
     "invalid_input"),
    ({"op": "subscribe", "match": "{match}\u2066", "ref": "k"}, "invalid_input"),
]


def _filled(message: dict, match_id: int) -> dict:
    return {key: value.replace("{match}", str(match_id)) if isinstance(value, str) else value
            for key, value in message.items()}


def test_huge_numbers_and_refused_characters_get_their_codes(web_tier, players):
    match_id = start_match("han", players[:2])

    async def scenario():
        client = await PlayClient.open(web_tier, players[0].token)
        for message, code in FRAMES:
            answer = await client.request(_filled(message, match_id), "error", "refused")
            assert answer["error"]["code"] == code, (str(message)[:80], answer)
            assert answer["ref"] == message["ref"]
            assert HUGE[:100] not in json.dumps(answer)
        # a 5,000-digit JSON number is no number a client holds: malformed, not a crash
        await client.send('{"op": "subscribe", "match": ' + HUGE + "}")
        assert (await client.next("error"))["error"]["code"] in ("malformed_message",
                                                                  "match_not_found")
        # the socket goes on, and the move the refusals were about was never played
        sync = await client.subscribe(match_id)
        assert sync["ply"] == 0
        await client.close()

    asyncio.run(scenario())


@pytest.mark.parametrize("ref", ["a\x00b", "\x1b[2J", "r\u0085", "\u202eref", "x\ufffe"])
def test_a_ref_holding_a_control_is_refused_and_not_echoed(web_tier, players, ref):
    async def scenario():
        client = await PlayClient.open(web_tier, players[0].token)
        await client.send(json.dumps({"op": "ping", "ref": ref}))
        answer = await client.next("error", "pong")
        assert answer["op"] == "error", answer
        assert answer["error"]["code"] == "malformed_message"
        assert answer["error"]["details"]["field"] == "ref"
        assert answer.get("ref") is None
        raw = json.dumps(client.frames[-1], ensure_ascii=False)
        assert ref not in raw and "\x00" not in raw
        assert (await client.request({"op": "ping", "ref": 7}, "pong"))["ref"] == 7
        await client.close()

    asyncio.run(scenario())
