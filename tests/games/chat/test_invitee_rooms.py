"""Invitees in the chat (docs/chat.md "Invitees"): while a match waits for players, a user
with a pending invitation reads and writes its players' room as a seated player, over
REST and in the pushes' audience; declining, or the match's start without them, makes
them a spectator; someone uninvited never was one."""

from __future__ import annotations

import pytest

from games.chat import rooms
from games.chat.models import ChatMessage
from games.chat.selectors import room_of
from games.chat.services import audience
from games.lobby import services as lobby
from games.matches import selectors
from tests.games.chat.support import chat_url

pytestmark = pytest.mark.django_db


@pytest.fixture
def private_table(make_user, make_auth_client):
    alice, bob, carol = make_user(), make_user(), make_user()
    match, _code = lobby.create_private_match(user=alice, game="han", players=3,
                                              invite=[bob.username])
    return match, (alice, bob, carol), {user: make_auth_client(user)
                                        for user in (alice, bob, carol)}


def _send(client, match, text):
    return client.post(chat_url(match.pk, "players"), {"text": text}, format="json")


def test_an_invitee_talks_with_the_table_before_the_start(private_table):
    match, (alice, bob, carol), clients = private_table
    assert _send(clients[alice], match, "are you coming?").status_code == 201
    answer = _send(clients[bob], match, "on my way")
    assert answer.status_code == 201, answer.content
    page = clients[bob].get(chat_url(match.pk, "players")).json()
    assert [row["text"] for row in page["results"]] == ["are you coming?", "on my way"]
    # not invited: a spectator, neither reading nor writing the table's room
    assert clients[carol].get(chat_url(match.pk, "players")).status_code == 403
    refused = _send(clients[carol], match, "me too")
    assert refused.json()["error"]["code"] == "chat_room_not_writable"
    assert not ChatMessage.objects.filter(text="me too").exists()


def test_the_pushes_audience_admits_the_invitee_and_nobody_else(private_table):
    match, (alice, bob, carol), _clients = private_table
    fresh = selectors.get_match(match.pk)
    who = audience(fresh, room_of(fresh, "players"), alice.pk)
    assert who["invitees"] == [bob.pk]
    assert rooms.receives(who, bob) and rooms.receives(who, alice)
    assert not rooms.receives(who, carol)


def test_declining_makes_the_invitee_a_spectator(private_table):
    match, (alice, bob, _carol), clients = private_table
    _send(clients[alice], match, "welcome")
    invitation = match.invitations.get(invitee=bob)
    lobby.decline_invitation(user=bob, invitation_id=invitation.pk)
    assert clients[bob].get(chat_url(match.pk, "players")).status_code == 403
    assert _send(clients[bob], match, "bye").status_code == 403
    fresh = selectors.get_match(match.pk)
    assert audience(fresh, room_of(fresh, "players"), alice.pk)["invitees"] == []


def test_once_the_match_starts_an_invitee_without_a_seat_is_a_spectator(make_user,
                                                                        make_auth_client):
    from games.matches import services as match_services

    alice, bob, dave = make_user(), make_user(), make_user()
    match, _code = lobby.create_private_match(user=alice, game="han", players=2,
                                              invite=[bob.username])
    bob_client = make_auth_client(bob)
    assert _send(bob_client, match, "coming").status_code == 201
    match_services.join_match(user=dave, match_id=match.pk)  # the last seat: it starts
    assert selectors.get_match(match.pk).status == "active"
    assert bob_client.get(chat_url(match.pk, "players")).status_code == 403
    assert _send(bob_client, match, "wait for me").status_code == 403


def test_a_send_reads_the_invitees_once(private_table):
    """Who may write and whom the push reaches both need the pending invitees: one read
    serves both (an invitee's send, the case that needs them most)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from games.chat.services import send_message
    from games.lobby.models import Invitation

    match, (_alice, bob, _carol), _clients = private_table
    table = Invitation._meta.db_table
    with CaptureQueriesContext(connection) as queries:
        row = send_message(match.pk, "players", bob, "on my way")
    assert row["text"] == "on my way"
    reads = [query["sql"] for query in queries.captured_queries
             if f'FROM "{table}"' in query["sql"]]
    assert len(reads) == 1, reads
