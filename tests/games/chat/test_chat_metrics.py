"""The chat's metrics (docs/chat.md "Metrics"): a stored message counts by its room kind,
a refused one by its code, whatever the transport (counted around the service)."""

from __future__ import annotations

import pytest
from prometheus_client import REGISTRY

from tests.games.chat.support import chat_url, two_player_han

pytestmark = pytest.mark.django_db


def _sample(name: str, **labels) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


def test_messages_count_sent_by_room_and_refused_by_reason(make_user, make_auth_client):
    alice, bob, carol = make_user(), make_user(), make_user()
    match = two_player_han(alice, bob)
    sent = {room: _sample("chat_messages_sent_total", room=room)
            for room in ("players", "spectators")}
    refused = {reason: _sample("chat_messages_refused_total", reason=reason)
               for reason in ("chat_text_empty", "chat_links_not_allowed",
                              "chat_room_not_writable")}
    for who, room, text, status in ((alice, "players", "hi", 201),
                                    (bob, "players", "hello", 201),
                                    (carol, "spectators", "go", 201),
                                    (alice, "players", "  ", 400),
                                    (carol, "spectators", "see www.example", 400),
                                    (carol, "players", "psst", 403)):
        answer = make_auth_client(who).post(chat_url(match.pk, room), {"text": text},
                                            format="json")
        assert answer.status_code == status, answer.content
    assert _sample("chat_messages_sent_total", room="players") == sent["players"] + 2
    assert _sample("chat_messages_sent_total", room="spectators") == sent["spectators"] + 1
    for reason, before in refused.items():
        assert _sample("chat_messages_refused_total", reason=reason) == before + 1, reason


def test_every_series_exists_from_the_start():
    from games.chat import metrics

    for reason in metrics.REFUSAL_REASONS:
        assert REGISTRY.get_sample_value("chat_messages_refused_total",
                                         {"reason": reason}) is not None, reason
