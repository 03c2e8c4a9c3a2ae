"""The chat and the person (docs/chat.md "Privacy"): the account export holds every message
its owner wrote, with the text as written; an erased account's messages name the tombstone
and keep their text for the room's other readers. And bots (docs/chat.md "Rooms"): a bot
says nothing, and a room of a match with a bot seat works as any other."""

from __future__ import annotations

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from accounts.models import User
from games.chat.models import ChatMessage, ChatMute
from games.matches import selectors
from games.matches import services as match_services
from tests.conftest import DEFAULT_PASSWORD
from tests.games.chat.support import chat_url, two_player_han
from tests.games.support import API, eager_celery

pytestmark = pytest.mark.django_db(transaction=True)


def _client(user) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=user)[0]}")
    return client


def _say(user, match_id, room, text) -> dict:
    answer = _client(user).post(chat_url(match_id, room), {"text": text}, format="json")
    assert answer.status_code == 201, answer.content
    return answer.json()


def test_the_export_holds_every_message_its_owner_wrote(make_user):
    alice, bob = make_user(), make_user()
    match_id = two_player_han(alice, bob).pk
    first = _say(alice, match_id, "players", "good luck")
    _say(bob, match_id, "players", "you too")
    second = _say(alice, match_id, "spectators", "hello watchers")
    assert _client(alice).delete(chat_url(match_id, "players", first["id"])).status_code == 200

    exported = _client(alice).get(f"{API}/me/export").json()["chat_messages"]
    assert [(row["id"], row["room"], row["text"], row["deleted"]) for row in exported] == [
        (first["id"], "players", "good luck", True),  # deleted: its text is still theirs
        (second["id"], "spectators", "hello watchers", False)]
    assert {row["author"] for row in exported} == {alice.username}
    assert all(row["match"] == str(match_id) for row in exported)
    assert "you too" not in str(_client(alice).get(f"{API}/me/export").json())


def test_an_erased_accounts_messages_name_the_tombstone_and_keep_their_text(make_user):
    alice, bob = make_user(), make_user()
    match_id = two_player_han(alice, bob).pk
    _say(alice, match_id, "players", "good luck")
    former_name = alice.username
    erased = _client(alice).delete(f"{API}/me", {"password": DEFAULT_PASSWORD}, format="json")
    assert erased.status_code == 204, erased.content
    tombstone = User.objects.get(pk=alice.pk).username
    assert tombstone.startswith("deleted-")
    rows = _client(bob).get(chat_url(match_id, "players")).json()["results"]
    assert [(row["author"], row["text"]) for row in rows] == [(tombstone, "good luck")]
    assert former_name not in str(rows)


def test_a_bot_says_nothing_and_its_matchs_rooms_work(make_user):
    alice, carol = make_user(), make_user()
    with eager_celery():
        match = match_services.create_match(user=alice, game="han", players=2,
                                            bot_seats={1: "greedy"}, creator_seat=0)
        _say(alice, match.pk, "players", "hello bot")
        _say(carol, match.pk, "spectators", "go bot")
        for _turn in range(3):  # alice moves; the bot answers in its worker
            current = selectors.get_match(match.pk)
            if alice.pk not in [seat.user_id for seat in current.seats.all()
                                if seat.position in selectors.to_act_of(current)]:
                break
            move = selectors.legal_moves_for(current, alice)["moves"][0]
            match_services.submit_move(match_id=match.pk, user=alice, move=move)
        _say(alice, match.pk, "players", "well played")
    assert selectors.get_match(match.pk).ply > 1  # the bot played
    players_room = _client(alice).get(chat_url(match.pk, "players")).json()["results"]
    assert [(row["author"], row["text"]) for row in players_room] == [
        (alice.username, "hello bot"), (alice.username, "well played")]
    assert players_room[1]["ply"] > players_room[0]["ply"]
    # nobody but the people who wrote: no message without an author, none from a bot
    assert not ChatMessage.objects.filter(author__isnull=True).exists()
    assert set(ChatMessage.objects.values_list("author_id", flat=True)) == {alice.pk, carol.pk}
    # the bot's seat holds no reader: the players' room is still closed to a spectator
    assert _client(carol).get(chat_url(match.pk, "players")).status_code == 403
    spectators = APIClient().get(chat_url(match.pk, "spectators")).json()["results"]
    assert [row["text"] for row in spectators] == ["go bot"]


def test_the_export_holds_whom_its_owner_muted(make_user):
    alice, bob, carol = make_user(), make_user(), make_user()
    for muted in (carol, bob):
        assert _client(alice).put(f"{API}/chat/mutes/{muted.username}/").status_code in (200, 201)
    assert _client(bob).put(f"{API}/chat/mutes/{alice.username}/").status_code in (200, 201)
    exported = _client(alice).get(f"{API}/me/export").json()["chat_mutes"]
    assert [row["username"] for row in exported] == [carol.username, bob.username]
    assert all(row["created_at"] for row in exported)
    # that bob muted her is bob's data, not hers: only her own two mutes are listed
    bobs = _client(bob).get(f"{API}/me/export").json()["chat_mutes"]
    assert [row["username"] for row in bobs] == [alice.username]


def test_erasing_an_account_deletes_its_mutes_both_ways(make_user):
    alice, bob, carol = make_user(), make_user(), make_user()
    for muter, muted in ((alice, bob), (carol, alice), (bob, carol)):
        answer = _client(muter).put(f"{API}/chat/mutes/{muted.username}/")
        assert answer.status_code in (200, 201), answer.content
    erased = _client(alice).delete(f"{API}/me", {"password": DEFAULT_PASSWORD}, format="json")
    assert erased.status_code == 204, erased.content
    assert list(ChatMute.objects.values_list("user_id", "muted_id")) == [(bob.pk, carol.pk)]
    assert _client(carol).get(f"{API}/chat/mutes/").json()["results"] == []
