"""Migration 0023_chat_room_rule_from_match takes ``ChatRoom.readable_by_players``, a copy
of the match's fixed option ``Match.players_read_spectator_chat`` (review finding: the two
said the same thing twice), out of the model, and keeps the data: where a spectators' room
said otherwise than its match, the room's value was the rule enforced, and the match takes
it. The column stays in the database, nullable, for the release still running during a
rolling upgrade (expand now, contract a release later): this release's rooms leave it
NULL."""

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
        cursor.execute("SELECT count(*) FROM games_chatroom WHERE match_id IN (%s, %s) "
                       "AND readable_by_players IS NULL", [differs.pk, agrees.pk])
        assert cursor.fetchone()[0] == 2  # made by this release: the column left NULL
        # as the release before would have left them: each room with its own rule
        cursor.execute("UPDATE games_chatroom SET readable_by_players = (match_id = %s) "
                       "WHERE match_id IN (%s, %s)", [agrees.pk, differs.pk, agrees.pk])
        cursor.execute(migration.ROOMS_RULE_KEPT)
    assert Match.objects.get(pk=differs.pk).players_read_spectator_chat is False
    assert Match.objects.get(pk=agrees.pk).players_read_spectator_chat is True
    # and the chat reads the match's rule: alice no longer reads that spectators' room
    room = ChatRoom.objects.get(match_id=differs.pk, kind="spectators")
    match = Match.objects.get(pk=differs.pk)
    assert selectors.may_read(room, match, alice) is False
    assert selectors.may_read(room, match, onlooker) is True
