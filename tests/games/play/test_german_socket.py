"""The play socket in German (docs/play.md, "Language"): a socket has no headers after
its handshake, so its language is the handshake's (``?lang=``, then Accept-Language) or
the one its ``hello`` chooses; refusals keep their codes."""

from __future__ import annotations

import asyncio

import pytest
from websockets.asyncio.client import connect

from games.matches.models import Match
from rules import get_engine
from tests.games.graphql.support import start_match
from tests.games.play.client import PlayClient

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


async def _open(address: str, path: str = "/play/", headers: dict | None = None) -> PlayClient:
    return PlayClient(await connect(f"ws://{address}{path}", additional_headers=headers,
                                    open_timeout=10))


def test_the_handshake_s_language_answers_a_refusal(web_tier):
    async def scenario():
        answers = []
        for path, headers in (("/play/", None), ("/play/", {"Accept-Language": "de-DE,de"}),
                              ("/play/?lang=de", {"Accept-Language": "en"})):
            client = await _open(web_tier, path, headers)
            answers.append(await client.request({"op": "ping"}, "error"))
            await client.close()
        return answers

    english, by_header, by_query = asyncio.run(scenario())
    assert english["error"]["code"] == by_header["error"]["code"] == \
        by_query["error"]["code"] == "authentication_required"
    assert english["error"]["message"] == "The first message must be hello."
    assert by_header["error"]["message"] == by_query["error"]["message"] == \
        "Die erste Nachricht muss hello sein."


def test_hello_chooses_the_socket_s_language_for_everything_after(web_tier, players):
    match_id = start_match("han", players)
    engine = get_engine("han")
    mover = players[engine.to_act(engine.from_json(Match.objects.get(pk=match_id).state))[0]]

    async def scenario():
        client = await _open(web_tier)
        welcome = await client.request({"op": "hello", "token": mover.token,
                                        "lang": "de"}, "welcome")
        unknown = await client.request({"op": "dance"}, "error")
        await client.subscribe(match_id)
        refused = await client.move(match_id, {"type": "discard", "card": "purple"})
        await client.close()
        english = await _open(web_tier, headers={"Accept-Language": "de"})
        await english.request({"op": "hello", "token": mover.token, "lang": "en"},
                              "welcome")
        await english.subscribe(match_id)
        refused_in_english = await english.move(match_id, {"type": "discard",
                                                           "card": "purple"})
        await english.close()
        return welcome, unknown, refused, refused_in_english

    welcome, unknown, refused, refused_in_english = asyncio.run(scenario())
    assert welcome["lang"] == "de"
    assert unknown["error"]["code"] == "unknown_op"
    assert unknown["error"]["message"].startswith("op muss einer dieser Werte sein: ")
    # a refusal from the rules (run in the hub's threads): German, the rules' own code
    assert refused["op"] == refused_in_english["op"] == "refused"
    assert refused["error"]["code"] == refused_in_english["error"]["code"] == "unknown_card"
    assert refused["error"]["message"] == "unbekannte Kartenfarbe 'purple'"
    assert refused_in_english["error"]["message"] == "unknown card colour 'purple'"
