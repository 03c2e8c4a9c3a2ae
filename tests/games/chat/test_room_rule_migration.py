"""Migration 0023_chat_room_rule_from_match drops ``ChatRoom.readable_by_players``, a copy of the match's fixed
option ``Match.players_read_spectator_chat`` (review finding: the two said the same
thing twice), and keeps the data: where a spectators' room said otherwise than its
match, the room's value was the rule enforced, and the match takes it. Here the column is
put back for the test's transaction, as it was before the migration."""

from __future__ import annotations

import importlib

import pytest
from django.db import connection

from games.chat import selectors, services
from games.chat.models import ChatRoom
from games.matches.models import Match
from tests.games.chat.support import two_player_han

pytestmark = pytest.mark.django_db

migration = importlib.import_module("games.migrations.0023_chat_room_rule_from_match")


def test_a_rooms_own_rule_passes_to_its_match_before_the_column_goes(make_user):
    alice, bob, onlooker = make_user(), make_user(), make_user()
    differs, agrees = two_player_han(alice, bob), two_player_han(alice, bob)
    for match in (differs, agrees):
        services.send_message(match.pk, "spectators", onlooker, "hello")
    assert Match.objects.get(pk=differs.pk).players_read_spectator_chat is True
    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")  # the deferred checks, now
        cursor.execute("ALTER TABLE games_chatroom ADD COLUMN readable_by_players boolean "
                       "NOT NULL DEFAULT true")
        cursor.execute("UPDATE games_chatroom SET readable_by_players = false "
                       "WHERE match_id = %s", [differs.pk])
        cursor.execute(migration.ROOMS_RULE_KEPT)
    assert Match.objects.get(pk=differs.pk).players_read_spectator_chat is False
    assert Match.objects.get(pk=agrees.pk).players_read_spectator_chat is True
    # and the chat reads the match's rule: alice no longer reads that spectators' room
    room = ChatRoom.objects.get(match_id=differs.pk, kind="spectators")
    match = Match.objects.get(pk=differs.pk)
    assert selectors.may_read(room, match, alice) is False
    assert selectors.may_read(room, match, onlooker) is True
