"""Database constraints of matches, seats, moves and results: they hold even for code
that bypasses the services (raw ORM, raw SQL)."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, connection, transaction

from games.matches import services as match_services
from games.matches.models import AppendOnlyError, Match, Move, Result, Seat

pytestmark = pytest.mark.django_db


@pytest.fixture
def active_match(make_user):
    ann, bob = make_user(), make_user()
    match = match_services.create_match(user=ann, game="hansa", players=2)
    match_services.join_match(user=bob, match_id=match.pk)
    match.refresh_from_db()
    return match, ann, bob


def _refused(exc_types, action):
    with pytest.raises(exc_types), transaction.atomic():
        action()


def test_a_seat_is_a_person_or_a_bot_never_both_or_neither(active_match, make_user):
    match, ann, _ = active_match
    other = Match.objects.create(game="hansa", players=3, seed="s", seed_commitment="0" * 64)
    _refused(IntegrityError, lambda: Seat.objects.create(match=other, position=0))
    _refused(IntegrityError, lambda: Seat.objects.create(match=other, position=0, user=ann,
                                                         bot_kind="random"))


def test_positions_are_unique_and_a_user_sits_once(active_match, make_user):
    match, ann, _ = active_match
    other = Match.objects.create(game="hansa", players=3, seed="s", seed_commitment="0" * 64)
    Seat.objects.create(match=other, position=0, user=ann)
    _refused(IntegrityError, lambda: Seat.objects.create(match=other, position=1, user=ann))
    _refused(IntegrityError, lambda: Seat.objects.create(match=other, position=0,
                                                         bot_kind="random"))
    # Several bot seats are fine: only people are limited to one seat.
    Seat.objects.create(match=other, position=1, bot_kind="random")
    Seat.objects.create(match=other, position=2, bot_kind="random")


def test_match_checks(active_match):
    _refused(IntegrityError, lambda: Match.objects.create(
        game="han", players=3, seed="s", seed_commitment="not-hex"))
    _refused(IntegrityError, lambda: Match.objects.create(
        game="han", players=3, seed="s", seed_commitment="0" * 64, status="paused"))
    _refused(IntegrityError, lambda: Match.objects.create(
        game="han", players=3, seed="s", seed_commitment="0" * 64, status="active"))


def test_one_move_per_ply(active_match):
    match, _, _ = active_match
    Move.objects.create(match=match, ply=0, seat=0, move={"type": "x"})
    _refused(IntegrityError, lambda: Move.objects.create(match=match, ply=0, seat=1,
                                                         move={"type": "y"}))


def test_moves_cannot_be_updated_or_deleted_through_the_orm(active_match):
    match, _, _ = active_match
    logged = Move.objects.create(match=match, ply=0, seat=0, move={"type": "x"})
    logged.move = {"type": "changed"}
    with pytest.raises(AppendOnlyError):
        logged.save()
    with pytest.raises(AppendOnlyError):
        logged.delete()
    with pytest.raises(AppendOnlyError):
        Move.objects.filter(pk=logged.pk).update(seat=1)
    with pytest.raises(AppendOnlyError):
        Move.objects.filter(pk=logged.pk).delete()
    assert Move.objects.get(pk=logged.pk).move == {"type": "x"}


def test_the_database_refuses_updates_and_deletes_of_moves(active_match):
    match, _, _ = active_match
    logged = Move.objects.create(match=match, ply=0, seat=0, move={"type": "x"})
    for sql in ("UPDATE games_move SET seat = 1 WHERE id = %s",
                "DELETE FROM games_move WHERE id = %s"):
        with pytest.raises(IntegrityError, match="append-only"), transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute(sql, [logged.pk])
    assert Move.objects.filter(pk=logged.pk).exists()
    with pytest.raises(IntegrityError), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO games_move (match_id, ply, seat, move, created_at) "
            "VALUES (%s, -1, 0, '{}', now())", [match.pk])


def test_deleting_a_match_takes_its_log_with_it(active_match):
    match, _, _ = active_match
    Move.objects.create(match=match, ply=0, seat=0, move={"type": "x"})
    Result.objects.create(match=match, seat=0, score=1, rank=1)
    match.delete()
    assert not Move.objects.filter(match_id=match.pk).exists()
    assert not Seat.objects.filter(match_id=match.pk).exists()


def test_results_are_unique_per_seat(active_match):
    match, _, _ = active_match
    Result.objects.create(match=match, seat=0, score=10, rank=1)
    _refused(IntegrityError, lambda: Result.objects.create(match=match, seat=0, score=3,
                                                           rank=2))
    _refused(IntegrityError, lambda: Result.objects.create(match=match, seat=1, score=3,
                                                           rank=0))
