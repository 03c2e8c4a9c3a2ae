"""The match chat over GraphQL (docs/chat.md "GraphQL"): the query pages a room as REST
does and refuses what REST refuses; the mutations send, delete one's own and mute, with
REST's codes in their payload and nothing stored on a refusal."""

from __future__ import annotations

import pytest

from games.chat.models import ChatMessage
from tests.games.chat.support import two_player_han
from tests.games.graphql.support import error_codes, gql, payload_codes

pytestmark = pytest.mark.django_db

SEND = """mutation Send($id: ID!, $room: String!, $text: String!) {
  sendChatMessage(matchId: $id, room: $room, text: $text) {
    message { id matchId room author text ply deleted hidden createdAt }
    errors { code field details } } }"""
DELETE = """mutation Delete($id: ID!, $room: String!, $message: ID!) {
  deleteChatMessage(matchId: $id, room: $room, messageId: $message) {
    message { id text deleted } errors { code field } } }"""
LIST = """query List($id: ID!, $room: String!, $limit: Int, $offset: Int) {
  chatMessages(matchId: $id, room: $room, limit: $limit, offset: $offset) {
    count limit offset results { id author text } } }"""
MUTE = """mutation Mute($name: String!) { muteInChat(username: $name) {
  username errors { code field } } }"""


@pytest.fixture
def table(players, outsider):
    alice, bob = players[:2]
    return two_player_han(alice.user, bob.user).pk, alice, bob, outsider


def _send(player, match_id, room, text):
    return gql(SEND, {"id": str(match_id), "room": room, "text": text},
               token=player.token if player else None)["data"]["sendChatMessage"]


def test_players_talk_and_read_their_room_paged_as_rest(table):
    match_id, alice, bob, _outsider = table
    for number in range(3):
        sent = _send(alice, match_id, "players", f" message {number} ")
        assert sent["errors"] == [] and sent["message"]["text"] == f"message {number}"
    assert sent["message"]["author"] == alice.user.username
    assert sent["message"]["room"] == "players" and sent["message"]["ply"] == 0
    page = gql(LIST, {"id": str(match_id), "room": "players", "limit": 2, "offset": 1},
               token=bob.token)["data"]["chatMessages"]
    assert page["count"] == 3 and (page["limit"], page["offset"]) == (2, 1)
    assert [row["text"] for row in page["results"]] == ["message 1", "message 2"]


def test_a_spectator_neither_reads_nor_writes_the_players_room(table):
    match_id, alice, _bob, outsider = table
    _send(alice, match_id, "players", "my plan")
    for who in (outsider, None):
        body = gql(LIST, {"id": str(match_id), "room": "players"},
                   token=who.token if who else None)
        assert error_codes(body) == ["chat_room_not_readable"]
        assert "my plan" not in str(body)
    refused = _send(outsider, match_id, "players", "psst")
    assert payload_codes(refused) == ["chat_room_not_writable"] and refused["message"] is None
    assert refused["errors"][0]["field"] == "room"
    assert not ChatMessage.objects.filter(text="psst").exists()


@pytest.mark.parametrize(("room", "text", "code", "field"), [
    ("players", "   ", "chat_text_empty", "text"),
    ("players", "x" * 501, "chat_text_too_long", "text"),
    ("kitchen", "hi", "chat_room_not_found", "room"),
    ("spectators", "see example.com", "chat_links_not_allowed", "text"),
])
def test_bad_input_is_refused_with_rests_code_and_stores_nothing(table, room, text, code,
                                                                 field):
    match_id, alice, _bob, _outsider = table
    refused = _send(alice, match_id, room, text)
    assert payload_codes(refused) == [code] and refused["errors"][0]["field"] == field
    assert not ChatMessage.objects.exists()


def test_a_line_break_is_refused_before_anything_resolves(table):
    match_id, alice, _bob, _outsider = table
    body = gql(SEND, {"id": str(match_id), "room": "players", "text": "a\nb"},
               token=alice.token)
    assert error_codes(body) == ["invalid_input"]
    assert not ChatMessage.objects.exists()


def test_signing_in_is_needed_to_send(table):
    match_id, *_rest = table
    assert payload_codes(_send(None, match_id, "spectators", "hi")) == ["not_authenticated"]
    assert not ChatMessage.objects.exists()


def test_only_its_author_deletes_a_message_which_stays_shown_as_deleted(table):
    match_id, alice, bob, _outsider = table
    message_id = _send(alice, match_id, "players", "oops")["message"]["id"]
    variables = {"id": str(match_id), "room": "players", "message": message_id}
    not_yours = gql(DELETE, variables, token=bob.token)["data"]["deleteChatMessage"]
    assert payload_codes(not_yours) == ["chat_message_not_yours"]
    assert ChatMessage.objects.get(pk=message_id).deleted_by_author is False
    deleted = gql(DELETE, variables, token=alice.token)["data"]["deleteChatMessage"]
    assert deleted["errors"] == [] and deleted["message"] == {
        "id": message_id, "text": "", "deleted": True}
    missing = gql(DELETE, {**variables, "message": "99999999999999999999999"},
                  token=alice.token)["data"]["deleteChatMessage"]
    assert payload_codes(missing) == ["chat_message_not_found"]


def test_a_muted_authors_messages_are_left_out_of_the_muters_list(table):
    match_id, alice, bob, outsider = table
    _send(outsider, match_id, "spectators", "spam")
    _send(bob, match_id, "spectators", "hello")
    muted = gql(MUTE, {"name": outsider.user.username}, token=alice.token)["data"]
    assert muted["muteInChat"] == {"username": outsider.user.username, "errors": []}
    assert gql("{ myChatMutes { username } }", token=alice.token)["data"]["myChatMutes"] \
        == [{"username": outsider.user.username}]
    texts = [row["text"] for row in gql(LIST, {"id": str(match_id), "room": "spectators"},
                                        token=alice.token)["data"]["chatMessages"]["results"]]
    assert texts == ["hello"]
    unknown = gql(MUTE, {"name": "nobody-here"}, token=alice.token)["data"]["muteInChat"]
    assert payload_codes(unknown) == ["user_not_found"]
    unmuted = gql("""mutation Unmute($name: String!) { unmuteInChat(username: $name) {
                     username errors { code } } }""", {"name": outsider.user.username},
                  token=alice.token)["data"]["unmuteInChat"]
    assert unmuted["errors"] == []
    assert gql("{ myChatMutes { username } }", token=alice.token)["data"]["myChatMutes"] \
        == []


def test_a_refused_link_names_the_text_and_speaks_german(table):
    """The link filter's refusal points at ``text`` as the other text refusals do, and its
    message is the German one for a German reader (REST's)."""
    import json

    from django.test import Client

    from tests.games.graphql.support import GRAPHQL

    match_id, alice, _bob, _outsider = table
    body = Client().post(GRAPHQL, data=json.dumps({
        "query": SEND.replace("errors { code field details }",
                              "errors { code field message }"),
        "variables": {"id": str(match_id), "room": "spectators", "text": "www.example.org"}}),
        content_type="application/json", HTTP_AUTHORIZATION=f"Token {alice.token}",
        HTTP_ACCEPT_LANGUAGE="de").json()
    refused = body["data"]["sendChatMessage"]
    assert refused["errors"] == [{"code": "chat_links_not_allowed", "field": "text",
                                  "message": "Im Zuschauerraum sind Links nicht erlaubt."}]
    assert not ChatMessage.objects.exists()
