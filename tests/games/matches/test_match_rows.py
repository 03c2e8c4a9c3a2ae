"""games/matches/rows.py: one statement gives the match, creator, seats (with users) and
incidents exactly as the ORM would (issue 14's lean read path)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from games.clocks import services as clock_services
from games.matches import services as match_services
from games.matches.incidents import Incident
from games.matches.models import Match
from games.matches.rows import load_match

pytestmark = pytest.mark.django_db


def _fields(instance) -> dict:
    return {field.attname: getattr(instance, field.attname)
            for field in type(instance)._meta.concrete_fields}


@pytest.fixture
def four_seat_match():
    """Hansa for four: the creator, a second person, a greedy bot, then one resigns."""
    User = get_user_model()
    creator = User.objects.create_user("rows-creator", password=None)
    other = User.objects.create_user("rows-other", password=None)
    match = match_services.create_match(user=creator, game="hansa", players=3,
                                        bot_seats={2: "greedy"})
    match_services.join_match(user=other, match_id=match.pk)
    clock_services.resign(user=other, match_id=match.pk)
    return match.pk, creator, other


def test_loaded_match_equals_the_orm_match_field_for_field(four_seat_match):
    pk, creator, other = four_seat_match
    orm = Match.objects.select_related("created_by").get(pk=pk)
    loaded = load_match(pk)
    assert _fields(loaded) == _fields(orm)
    assert loaded.created_by.pk == creator.pk
    assert loaded.created_by.username == "rows-creator"
    # the seats and their users, in position order, as the ORM gives them
    orm_seats = list(orm.seats.select_related("user").order_by("position"))
    with CaptureQueriesContext(connection) as context:
        seats = list(loaded.seats.all())
        names = [seat.user.username if seat.user else None for seat in seats]
    assert context.captured_queries == []  # all in the one statement
    assert [_fields(seat) for seat in seats] == [_fields(seat) for seat in orm_seats]
    assert names == [seat.user.username if seat.user else None for seat in orm_seats]
    # the incidents (the resignation, its takeover by a bot), in id order
    orm_incidents = list(Incident.objects.filter(match_id=pk).order_by("id"))
    assert orm_incidents, "the fixture resigns a seat"
    with CaptureQueriesContext(connection) as context:
        incidents = list(loaded.incidents.all())
    assert context.captured_queries == []
    assert [_fields(row) for row in incidents] == [_fields(row) for row in orm_incidents]


def test_users_load_their_other_columns_on_first_access(four_seat_match):
    pk, creator, _other = four_seat_match
    get_user_model().objects.filter(pk=creator.pk).update(email="creator@example.com")
    loaded = load_match(pk)
    with CaptureQueriesContext(connection) as context:
        assert loaded.created_by.email == "creator@example.com"
    assert len(context.captured_queries) == 1  # deferred, like .only()


def test_one_statement_or_the_lock_then_a_fresh_read(four_seat_match):
    pk, _creator, _other = four_seat_match
    with CaptureQueriesContext(connection) as context:
        load_match(pk)
    assert len(context.captured_queries) == 1
    assert "FOR UPDATE" not in context.captured_queries[0]["sql"]
    with transaction.atomic(), CaptureQueriesContext(connection) as context:
        load_match(pk, lock=True)
    selects = [query["sql"] for query in context.captured_queries if "SELECT" in query["sql"]]
    # the lock alone, then the read in a statement of its own (its own snapshot: see the
    # module doc and tests/games/clocks/test_race.py)
    assert len(selects) == 2
    assert selects[0].endswith("FOR UPDATE") and "games_seat" not in selects[0]
    assert "FOR UPDATE" not in selects[1] and "games_seat" in selects[1]


def test_a_match_without_seats_or_incidents_and_a_missing_match():
    match = Match.objects.create(game="han", players=2, seed="s", seed_commitment="0" * 64)
    loaded = load_match(match.pk)
    assert list(loaded.seats.all()) == [] and list(loaded.incidents.all()) == []
    assert loaded.created_by is None
    assert load_match(match.pk + 10_000) is None
    with transaction.atomic():
        assert load_match(match.pk + 10_000, lock=True) is None



@pytest.mark.django_db(transaction=True)
def test_a_lost_connection_during_the_locked_read_is_djangos_error(four_seat_match):
    """The lock and the read go out as one pipeline, whose errors surface when it syncs.
    If the session dies while it waits there (a database restart), the error must be
    Django's, as for any query: the bot-turn task retries on Django's database errors and
    the API answers them as 503. The session is killed while its lock waits behind
    another transaction's."""
    import threading
    import time

    import psycopg
    from django.db import DatabaseError, connections

    pk, _creator, _other = four_seat_match
    settings = connection.settings_dict
    params = dict(host=settings["HOST"], port=settings["PORT"], user=settings["USER"],
                  password=settings["PASSWORD"], dbname=settings["NAME"])
    raised: list[BaseException] = []

    def locked_read() -> None:
        try:
            with transaction.atomic():
                load_match(pk, lock=True)
        except BaseException as exc:  # noqa: BLE001 - the test inspects it
            raised.append(exc)
        finally:
            connections.close_all()

    with psycopg.connect(**params) as holder, psycopg.connect(**params,
                                                              autocommit=True) as admin:
        holder.execute('SELECT 1 FROM "games_match" WHERE id = %s FOR UPDATE', [pk])
        reader = threading.Thread(target=locked_read)
        reader.start()
        waiting = None
        for _ in range(200):  # until the reader's session waits for the lock
            waiting = admin.execute(
                "SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                "AND query LIKE '%%FOR UPDATE%%' AND pid <> pg_backend_pid()").fetchone()
            if waiting:
                break
            time.sleep(0.025)
        assert waiting, "the locked read never waited for the lock"
        admin.execute("SELECT pg_terminate_backend(%s)", [waiting[0]])
        reader.join(10)
        holder.rollback()
    assert len(raised) == 1, raised
    assert isinstance(raised[0], DatabaseError), type(raised[0])
    assert not isinstance(raised[0], psycopg.Error), type(raised[0])
