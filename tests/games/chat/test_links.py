"""The spectators' rooms' link filter (docs/chat.md "Links"): a message holding a link is
refused there with ``chat_links_not_allowed`` and nothing is stored; the players' room
takes the same text."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from games.chat.links import holds_link
from games.chat.models import ChatMessage
from tests.games.chat.support import chat_url, two_player_han


@pytest.mark.parametrize("text", [
    "see https://example.org/x", "HTTP://EVIL.TEST", "join discord.gg/abcd",
    "free coins at www.coins", "mail me: me@mail.example.com", "go to shop.xyz now",
    "ftp://files", "sub.domain.co.uk", "example.com.",
])
def test_links_are_found(text):
    assert holds_link(text)


@pytest.mark.parametrize("text", [
    "well played.next time", "gg wp", "3.5 points", "z.B. so", "e.g. that",
    "nice move...", "a.b.c", "the .com era", "ratio 2:1", "comedy.", "dot com",
])
def test_ordinary_text_is_no_link(text):
    assert not holds_link(text)


@pytest.mark.django_db
def test_a_link_is_refused_in_the_spectators_room_and_taken_in_the_players(
        make_user, make_auth_client):
    alice, bob, carol = make_user(), make_user(), make_user()
    match = two_player_han(alice, bob)
    refused = make_auth_client(carol).post(chat_url(match.pk, "spectators"),
                                          {"text": "cheap gold at gold.shop"}, format="json")
    assert refused.status_code == 400
    assert refused.json()["error"]["code"] == "chat_links_not_allowed"
    assert not ChatMessage.objects.exists()
    taken = make_auth_client(alice).post(chat_url(match.pk, "players"),
                                         {"text": "rules: https://example.org/han"},
                                         format="json")
    assert taken.status_code == 201, taken.content
    german = make_auth_client(carol).post(chat_url(match.pk, "spectators"),
                                         {"text": "www.example"}, format="json",
                                         HTTP_ACCEPT_LANGUAGE="de")
    assert german.json()["error"]["code"] == "chat_links_not_allowed"
    assert "Zuschauer" in german.json()["error"]["message"]
    assert list(ChatMessage.objects.values_list("text", flat=True)) == [
        "rules: https://example.org/han"]
    assert APIClient().get(chat_url(match.pk, "spectators")).json()["count"] == 0
