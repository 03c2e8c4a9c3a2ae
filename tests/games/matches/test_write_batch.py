"""games/matches/writes.py: several ORM writes as one statement, with the ORM's own results
(issue 14: a move's log entry, match snapshot and feed event in one round trip)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import DatabaseError, connection, transaction
from django.db.models import signals
from django.test.utils import CaptureQueriesContext

from games.feed.models import FeedEvent
from games.matches import services as match_services
from games.matches.models import Match, Move
from games.matches.writes import WriteBatch

pytestmark = pytest.mark.django_db


@pytest.fixture
def match_and_people():
    User = get_user_model()
    creator = User.objects.create_user("batch-creator", password=None)
    other = User.objects.create_user("batch-other", password=None)
    match = match_services.create_match(user=creator, game="han", players=2)
    match_services.join_match(user=other, match_id=match.pk)
    return Match.objects.get(pk=match.pk), creator, other


def _columns(instance) -> dict:
    return {field.attname: getattr(instance, field.attname)
            for field in type(instance)._meta.concrete_fields}


def test_an_insert_an_update_and_feed_rows_go_out_as_one_statement(match_and_people):
    match, creator, other = match_and_people
    move = Move(match=match, ply=match.ply, seat=0, move={"type": "pass", "ü": [1, None]},
                events=[{"type": "note"}])
    before = match.updated_at
    match.ply += 1
    batch = WriteBatch()
    batch.insert(move)
    batch.update(match, ["ply", "updated_at"])
    batch.insert_ignoring_conflicts([
        FeedEvent(user=creator, kind="your_turn", payload={"ply": 1}, dedupe_key="k1"),
        FeedEvent(user=other, kind="your_turn", payload={"ply": 1}, dedupe_key="k1"),
    ])
    with transaction.atomic(), CaptureQueriesContext(connection) as context:
        batch.execute()
    statements = [query["sql"] for query in context.captured_queries
                  if not query["sql"].startswith(("SAVEPOINT", "RELEASE"))]
    assert len(statements) == 1, statements
    # what save() would have set on the instances: the key, the stamps, "saved"
    assert move.pk is not None and not move._state.adding and move.created_at is not None
    assert match.updated_at > before
    # the rows hold exactly what the instances say, JSON included
    assert _columns(Move.objects.get(pk=move.pk)) == _columns(move)
    assert _columns(Match.objects.get(pk=match.pk)) == _columns(match)
    stored = FeedEvent.objects.filter(dedupe_key="k1").order_by("user_id")
    assert [(row.user_id, row.payload) for row in stored] == [
        (creator.pk, {"ply": 1}), (other.pk, {"ply": 1})]


def test_a_conflicting_feed_row_is_skipped_as_bulk_create_would(match_and_people):
    _match, creator, _other = match_and_people
    FeedEvent.objects.create(user=creator, kind="your_turn", payload={"first": True},
                             dedupe_key="once")
    batch = WriteBatch()
    batch.insert_ignoring_conflicts([FeedEvent(user=creator, kind="your_turn",
                                               payload={"first": False}, dedupe_key="once")])
    batch.execute()
    assert [row.payload for row in FeedEvent.objects.filter(dedupe_key="once")] == [
        {"first": True}]


def test_an_update_of_a_missing_row_fails_like_save_with_update_fields(match_and_people):
    match, _creator, _other = match_and_people
    ghost = Match.objects.get(pk=match.pk)
    ghost.pk = match.pk + 10_000
    batch = WriteBatch()
    batch.update(ghost, ["ply"])
    with pytest.raises(DatabaseError, match="matched no row"):
        batch.execute()


def test_the_databases_own_rules_still_apply_inside_a_batch(match_and_people):
    """The move log's no-gaps trigger refuses a move at a ply past the end, and the whole
    statement (the match's update with it) is rolled back."""
    match, _creator, _other = match_and_people
    match.ply += 5
    batch = WriteBatch()
    batch.insert(Move(match=match, ply=match.ply, seat=0, move={}, events=[]))
    batch.update(match, ["ply"])
    with pytest.raises(DatabaseError, match="no gaps"), transaction.atomic():
        batch.execute()
    assert Match.objects.get(pk=match.pk).ply == 0
    assert not Move.objects.filter(match=match).exists()


@pytest.mark.parametrize("model", [Move, Match, FeedEvent])
def test_no_save_signal_receivers_are_skipped(model):
    """A batch sends no pre_save/post_save signals (module docstring): if a receiver is
    ever connected to a model the move service writes this way, this fails and the
    batch must send them."""
    assert not signals.pre_save.has_listeners(model)
    assert not signals.post_save.has_listeners(model)


def _plain(values: list) -> list:
    """Parameters comparable: a JSON adapter by what it wraps."""
    return [(type(value).__name__, value.obj) if hasattr(value, "obj") else value
            for value in values]


def test_the_statements_built_once_per_shape_are_the_orms_own(match_and_people):
    """writes.py builds an update's and an insert's text once per shape and prepares the
    values itself; both must be exactly what the ORM compiles for the same write."""
    from django.db.models.constants import OnConflict
    from django.db.models.sql import InsertQuery, UpdateQuery

    match, creator, other = match_and_people
    match.ply += 3
    match.state = {"deck": ["b", "a"], "ü": None}
    names = ["ply", "state", "status", "to_act", "updated_at"]
    batch = WriteBatch()
    batch.update(match, names)
    ours_sql, ours_params, _columns_read, _apply = batch._parts[0]
    fields = [field for field in Match._meta.local_concrete_fields
              if not field.primary_key and field.name in names]
    values = [(field, None, getattr(match, field.attname)) for field in fields]
    query = Match._base_manager.filter(pk=match.pk).query.chain(UpdateQuery)
    query.add_update_fields(values)
    query.annotations = {}
    orm_sql, orm_params = query.get_compiler("default").as_sql()
    assert ours_sql == f'{orm_sql} RETURNING "{Match._meta.pk.column}"'
    assert _plain(ours_params) == _plain(list(orm_params))

    events = [FeedEvent(user=creator, kind="your_turn", payload={"ply": 4}, dedupe_key="s")]
    fields = [field for field in FeedEvent._meta.local_concrete_fields
              if field is not FeedEvent._meta.auto_field]
    ours_sql, ours_params = batch._compile_insert(FeedEvent, events, fields, [],
                                                  on_conflict=OnConflict.IGNORE)
    query = InsertQuery(FeedEvent, on_conflict=OnConflict.IGNORE)
    query.insert_values(fields, events)
    ((orm_sql, orm_params),) = query.get_compiler("default").as_sql()
    assert ours_sql == orm_sql
    assert _unstamped(fields, ours_params) == _unstamped(fields, orm_params)

    move = Move(match=match, ply=match.ply, seat=1, move={"type": "pass"}, events=[])
    fields = list(Move._meta.local_concrete_fields[1:])
    returning = list(Move._meta.db_returning_fields)
    ours_sql, ours_params = batch._compile_insert(Move, [move], fields, returning)
    query = InsertQuery(Move)
    query.insert_values(fields, [Move(**{field.attname: getattr(move, field.attname)
                                         for field in Move._meta.concrete_fields})])
    compiler = query.get_compiler("default")
    compiler.returning_fields = returning
    ((orm_sql, orm_params),) = compiler.as_sql()
    assert ours_sql == orm_sql
    assert _unstamped(fields, ours_params) == _unstamped(fields, orm_params)


def _unstamped(fields, params) -> list:
    """The parameters but the time stamps (``auto_now_add``: each side stamps its own)."""
    return [value for field, value in zip(fields, _plain(list(params)), strict=True)
            if not getattr(field, "auto_now_add", False)]
