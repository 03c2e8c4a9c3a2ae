"""A message a moderator hides is pushed again to its room's live readers, shown as
hidden without its text (docs/chat.md "Moderation"), over the production web tier (two
processes: the push crosses them over Redis)."""

from __future__ import annotations

import asyncio

import pytest
from django.db import connection

from games.chat import services
from games.chat.moderation import actions
from games.chat.moderation.models import ChatReport
from games.chat.moderation.reports import report_message
from tests.games.chat.support import two_player_han
from tests.games.play.client import PlayClient

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


def test_a_hidden_message_is_pushed_to_live_readers_without_its_text(web_tier, players,
                                                                      make_user):
    alice, bob, carol = players
    moderator = make_user(is_staff=True, is_superuser=True)
    match_id = two_player_han(alice.user, bob.user).pk

    def say(who, text) -> dict:
        try:
            return services.send_message(match_id, "spectators", who.user, text)
        finally:
            connection.close()

    def hide(message_id) -> None:
        try:
            row, _new = report_message(match_id, "spectators", message_id, bob.user, "spam")
            actions.hide_message(ChatReport.objects.get(pk=row["id"]), moderator, "spam")
        finally:
            connection.close()

    async def scenario():
        readers = [await PlayClient.open(web_tier, who.token) for who in (alice, bob)]
        for socket in readers:
            await socket.subscribe(match_id)
        said = await asyncio.to_thread(say, carol, "buy cheap coins at example")
        await asyncio.to_thread(hide, said["id"])
        await asyncio.to_thread(say, carol, "marker")
        seen = []
        for socket in readers:
            frames = []
            while not frames or frames[-1]["text"] != "marker":
                frames.append(await socket.next("chat", timeout=15))
            seen.append(frames)
            await socket.close()
        return said, seen

    said, seen = asyncio.run(scenario())
    for frames in seen:
        assert [(f["id"], f["hidden"], f["text"]) for f in frames[:2]] == [
            (said["id"], False, "buy cheap coins at example"), (said["id"], True, "")], frames
        assert len(frames) == 3 and frames[2]["text"] == "marker", frames
