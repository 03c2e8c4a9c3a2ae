"""The chat over REST (docs/chat.md): who reads and writes each room, what a refusal
answers (a stable code, nothing stored), the rate limit, deleting one's own message."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from games.chat.models import ChatMessage
from games.matches import services as match_services
from games.matches.models import MatchStatus
from tests.games.chat.support import chat_url, two_player_han

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(make_user, make_auth_client):
    alice, bob, carol = make_user(), make_user(), make_user()
    match = two_player_han(alice, bob)
    assert match.status == MatchStatus.ACTIVE
    return match, {"alice": make_auth_client(alice), "bob": make_auth_client(bob),
                   "carol": make_auth_client(carol), "anonymous": APIClient()}


def _send(client, match, room, text):
    return client.post(chat_url(match.pk, room), {"text": text}, format="json")


def test_players_talk_in_their_room_and_read_each_other(table):
    match, clients = table
    sent = _send(clients["alice"], match, "players", "  good luck  ")
    assert sent.status_code == 201, sent.content
    assert sent.json()["text"] == "good luck" and sent.json()["ply"] == match.ply
    page = clients["bob"].get(chat_url(match.pk, "players")).json()
    assert page["count"] == 1 and page["next"] is None
    assert [(row["author"], row["text"]) for row in page["results"]] == [
        (match.seats.get(position=0).user.username, "good luck")]


def test_a_spectator_neither_reads_nor_writes_the_players_room_of_a_running_match(table):
    match, clients = table
    assert _send(clients["alice"], match, "players", "my plan: attack").status_code == 201
    for who in ("carol", "anonymous"):
        read = clients[who].get(chat_url(match.pk, "players"))
        assert read.status_code == 403 and read.json()["error"]["code"] == \
            "chat_room_not_readable"
        assert "my plan" not in read.content.decode()
    written = _send(clients["carol"], match, "players", "psst")
    assert written.status_code == 403
    assert written.json()["error"]["code"] == "chat_room_not_writable"
    assert ChatMessage.objects.filter(text="psst").count() == 0


def test_after_the_end_the_spectators_read_the_players_room(table, make_user):
    match, clients = table
    _send(clients["alice"], match, "players", "well played")
    admin = make_user(is_superuser=True)
    match_services.abort_match(user=admin, match_id=match.pk, reason="over")
    page = clients["anonymous"].get(chat_url(match.pk, "players"))
    assert page.status_code == 200
    assert [row["text"] for row in page.json()["results"]] == ["well played"]
    # but a spectator still never writes in it
    assert _send(clients["carol"], match, "players", "gg").status_code == 403


def test_the_spectators_room_is_read_by_players_of_a_listed_match(table):
    match, clients = table
    assert _send(clients["carol"], match, "spectators", "nice opening").status_code == 201
    for who in ("alice", "anonymous", "carol"):
        page = clients[who].get(chat_url(match.pk, "spectators"))
        assert [row["text"] for row in page.json()["results"]] == ["nice opening"], who
    assert _send(clients["anonymous"], match, "spectators", "hi").status_code == 401


def test_players_of_a_private_match_do_not_read_the_spectators_room_while_it_runs(
        make_user, make_auth_client):
    from games.lobby import services as lobby

    alice, bob, carol = make_user(), make_user(), make_user()
    match, code = lobby.create_private_match(user=alice, game="han", players=2)
    lobby.join_by_code(user=bob, invite_code=code)
    spectator, player = make_auth_client(carol), make_auth_client(alice)
    assert _send(spectator, match, "spectators", "alice should go north").status_code == 201
    refused = player.get(chat_url(match.pk, "spectators"))
    assert refused.status_code == 403
    assert "north" not in refused.content.decode()
    assert _send(player, match, "spectators", "hello?").status_code == 403


@pytest.mark.parametrize(("text", "code"), [
    ("", "chat_text_empty"),
    ("   ", "chat_text_empty"),
    ("x" * 501, "chat_text_too_long"),
    ("two\nlines", "invalid_input"),
    ("bell\x07", "invalid_input"),
    ("\u202eevil", "invalid_input"),
])
def test_bad_text_is_refused_with_a_stable_code_and_nothing_is_stored(table, text, code):
    match, clients = table
    answer = _send(clients["alice"], match, "players", text)
    assert answer.status_code == 400, answer.content
    assert answer.json()["error"]["code"] == code
    assert ChatMessage.objects.count() == 0


def test_unknown_rooms_matches_and_a_body_without_text(table):
    match, clients = table
    assert _send(clients["alice"], match, "lobby", "hi").json()["error"]["code"] == \
        "chat_room_not_found"
    assert clients["alice"].get(chat_url(match.pk, "x")).status_code == 404
    assert clients["alice"].get(chat_url("nope", "players")).json()["error"]["code"] == \
        "match_not_found"
    missing = clients["alice"].post(chat_url(match.pk, "players"), {}, format="json")
    assert missing.status_code == 400
    listed = clients["alice"].post(chat_url(match.pk, "players"), ["hi"], format="json")
    assert listed.status_code == 400
    assert ChatMessage.objects.count() == 0


def test_a_flood_is_rate_limited_per_user_and_room(table, settings):
    settings.CHAT_BURST, settings.CHAT_BURST_SECONDS = 3, 60
    match, clients = table
    answers = [_send(clients["alice"], match, "players", f"m{n}") for n in range(4)]
    assert [answer.status_code for answer in answers] == [201, 201, 201, 429]
    assert answers[-1].json()["error"]["code"] == "chat_rate_limited"
    assert answers[-1].json()["error"]["details"]["retry_after_seconds"] >= 1
    assert ChatMessage.objects.count() == 3
    # another room, and another user, have their own count
    assert _send(clients["alice"], match, "spectators", "hi all").status_code == 201
    assert _send(clients["bob"], match, "players", "slow down").status_code == 201


def test_a_rooms_first_message_is_counted_before_the_room_exists(table, settings):
    """The rate is counted before the sending transaction, by match and room kind: a room
    without a row yet is counted too, and a refusal writes nothing, not even the room."""
    from games.chat.models import ChatRoom

    settings.CHAT_BURST = 0
    match, clients = table
    refused = _send(clients["carol"], match, "spectators", "first!")
    assert refused.status_code == 429, refused.content
    assert refused.json()["error"]["code"] == "chat_rate_limited"
    assert not ChatRoom.objects.filter(match=match).exists()
    assert not ChatMessage.objects.exists()


def test_the_sustained_rate_holds_over_the_minute(table, settings):
    settings.CHAT_BURST, settings.CHAT_PER_MINUTE = 100, 2
    match, clients = table
    codes = [_send(clients["bob"], match, "players", f"m{n}").status_code for n in range(3)]
    assert codes == [201, 201, 429]


def test_an_author_deletes_their_own_message_and_nobody_else_can(table):
    match, clients = table
    sent = _send(clients["alice"], match, "players", "oops").json()
    url = chat_url(match.pk, "players", sent["id"])
    refused = clients["bob"].delete(url)
    assert refused.status_code == 403
    assert refused.json()["error"]["code"] == "chat_message_not_yours"
    assert ChatMessage.objects.get(pk=sent["id"]).deleted_by_author is False
    assert clients["carol"].delete(url).json()["error"]["code"] == "chat_room_not_readable"
    assert clients["alice"].delete(chat_url(match.pk, "players", 999999)).status_code == 404
    for wrong in ("x", "0", "-1", "99999999999999999999999", "1e3"):
        assert clients["alice"].delete(chat_url(match.pk, "players", wrong)).status_code \
            == 404, wrong
    deleted = clients["alice"].delete(url)
    assert deleted.status_code == 200 and deleted.json()["deleted"] is True
    row = clients["bob"].get(chat_url(match.pk, "players")).json()["results"][0]
    assert row["deleted"] is True and row["text"] == "" and row["id"] == sent["id"]


def test_the_list_is_paged_with_the_one_envelope(table, settings):
    settings.CHAT_BURST, settings.CHAT_PER_MINUTE = 100, 100
    match, clients = table
    for n in range(5):
        _send(clients["alice"], match, "players", f"m{n}")
    page = clients["bob"].get(chat_url(match.pk, "players") + "?limit=2&offset=2").json()
    assert page["count"] == 5 and [row["text"] for row in page["results"]] == ["m2", "m3"]
    assert page["next"] and page["previous"]
    assert clients["bob"].get(chat_url(match.pk, "players") + "?limit=0").status_code == 400


def test_the_chat_errors_speak_german(table, settings):
    settings.CHAT_BURST = 1
    match, clients = table
    german = {"HTTP_ACCEPT_LANGUAGE": "de"}
    refused = clients["carol"].post(chat_url(match.pk, "players"), {"text": "hallo"},
                                    format="json", **german)
    assert refused.json()["error"]["message"] == \
        "Sie dürfen in diesem Chatraum nicht schreiben."
    empty = clients["alice"].post(chat_url(match.pk, "players"), {"text": " "},
                                  format="json", **german)
    assert empty.json()["error"]["message"] == "Eine Chatnachricht braucht einen Text."
    clients["alice"].post(chat_url(match.pk, "players"), {"text": "eins"}, format="json")
    flood = clients["alice"].post(chat_url(match.pk, "players"), {"text": "zwei"},
                                  format="json", **german)
    assert flood.json()["error"]["message"].startswith("Sie schreiben zu schnell")


def test_a_muted_author_is_left_out_of_the_muters_list_only(table):
    match, clients = table
    bob_name = match.seats.get(position=1).user.username
    assert clients["alice"].put(f"/api/v1/chat/mutes/{bob_name}/").json() == \
        {"username": bob_name}
    assert clients["alice"].put(f"/api/v1/chat/mutes/{bob_name}/").status_code == 200
    _send(clients["bob"], match, "players", "you will lose")
    _send(clients["alice"], match, "players", "we will see")
    heard = clients["alice"].get(chat_url(match.pk, "players")).json()["results"]
    assert [row["text"] for row in heard] == ["we will see"]
    assert len(clients["bob"].get(chat_url(match.pk, "players")).json()["results"]) == 2
    listed = clients["alice"].get("/api/v1/chat/mutes/").json()
    assert listed["results"] == [{"username": bob_name}]
    assert clients["alice"].put("/api/v1/chat/mutes/nobody-here/").status_code == 404
    alice_name = match.seats.get(position=0).user.username
    oneself = clients["alice"].put(f"/api/v1/chat/mutes/{alice_name}/")
    assert oneself.status_code == 400
    assert clients["anonymous"].put(f"/api/v1/chat/mutes/{bob_name}/").status_code == 401
    assert clients["alice"].delete(f"/api/v1/chat/mutes/{bob_name}/").status_code == 204
    heard = clients["alice"].get(chat_url(match.pk, "players")).json()["results"]
    assert [row["text"] for row in heard] == ["you will lose", "we will see"]


def test_a_player_whose_seat_passed_to_a_bot_loses_the_players_room(table, make_user):
    from games.clocks import services as clock_services
    from tests.games.support import eager_celery

    match, clients = table
    assert _send(clients["alice"], match, "players", "before").status_code == 201
    with eager_celery():
        clock_services.hand_seat_to_bot(user=make_user(is_superuser=True), match_id=match.pk,
                                        position=0, bot_kind="random")
    assert _send(clients["bob"], match, "players", "after").status_code == 201
    read = clients["alice"].get(chat_url(match.pk, "players"))
    assert read.status_code == 403 and "after" not in read.content.decode()
    written = _send(clients["alice"], match, "players", "still here?")
    assert written.json()["error"]["code"] == "chat_room_not_writable"


@pytest.mark.django_db(transaction=True)
def test_an_erased_authors_messages_name_the_tombstone(table):
    from accounts import erasure
    from accounts.models import User

    match, clients = table
    alice = match.seats.get(position=0).user
    former = alice.username
    _send(clients["alice"], match, "players", "bye")
    erasure.erase_account(alice)
    row = clients["bob"].get(chat_url(match.pk, "players")).json()["results"][0]
    assert row["author"] == User.objects.get(pk=alice.pk).username != former
    assert former not in str(row)
