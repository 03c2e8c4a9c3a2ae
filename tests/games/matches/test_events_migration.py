"""Migration 0006's backfill: moves logged before events were stored get them back by
replaying their match; a match's to_act column is filled from its snapshot."""

from __future__ import annotations

import importlib

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from games.matches import selectors, services
from games.matches import services as match_services
from games.matches.models import Match, Move

pytestmark = pytest.mark.django_db

backfill = importlib.import_module("games.migrations.0007_move_events_and_to_act").backfill


def test_backfill_recomputes_events_and_to_act(make_user):
    ann, bob = make_user(), make_user()
    match = match_services.create_match(user=ann, game="hansa", players=2)
    match_services.join_match(user=bob, match_id=match.pk)
    for user in (ann, bob):
        move = selectors.legal_moves_for(selectors.get_match(match.pk), user)["moves"][0]
        services.submit_move(match_id=match.pk, user=user, move=move)
    stored = list(Move.objects.filter(match=match).order_by("ply").values_list("events",
                                                                                flat=True))
    to_act = Match.objects.get(pk=match.pk).to_act
    with connection.cursor() as cursor:  # as before the migration: no events, no to_act
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        cursor.execute("ALTER TABLE games_move DISABLE TRIGGER games_move_append_only")
        cursor.execute("UPDATE games_move SET events = '[]' WHERE match_id = %s", [match.pk])
        cursor.execute("ALTER TABLE games_move ENABLE TRIGGER games_move_append_only")
        cursor.execute("UPDATE games_match SET to_act = '{}' WHERE id = %s", [match.pk])
    # the models as the migration sees them (no append-only manager: the trigger guards)
    migration_apps = MigrationExecutor(connection).loader.project_state(
        ("games", "0007_move_events_and_to_act")).apps
    with connection.schema_editor() as editor:
        backfill(migration_apps, editor)
    assert list(Move.objects.filter(match=match).order_by("ply").values_list(
        "events", flat=True)) == stored
    assert stored[0] and Match.objects.get(pk=match.pk).to_act == to_act == [0]
