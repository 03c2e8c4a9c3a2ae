"""A match with its creator, seats (with their users) and incidents, in one SQL statement.

Kept because it pays: measured alone (bench/rest_bench.py, 7 interleaved runs against the
same reads through ``select_related``/``prefetch_related``), it saves 40% of a REST move
(3.56 vs 5.92 ms) and 58% of a poll of the match (1.81 vs 4.29 ms) (docs/capacity.md,
"What the hand-written parts buy").

The move, legal-moves and match GETs are the service's hottest paths. Read through the
ORM they cost three statements (the match joined to its creator, the seats prefetched
with their users, the incidents), and building those queries took more CPU than
PostgreSQL spent answering them (measured for issue 14; docs/capacity.md). Here the same
objects come from one fixed statement, built once per process from the models' own
metadata: the match row, its creator's id and username, and the seats and incidents (each
with the user it names) as JSON arrays. Objects are made with ``Model.from_db`` and the
fields' own converters, so they are the models' instances as the ORM would give them: the
seats sit in the prefetch cache (``match.seats.all()`` reads no more), users carry their
id and username (other columns load on first access, as deferred fields do), and so do the
incidents, in id order (``games.matches.clock_selectors.incident_rows`` reads them from there).

With ``lock=True`` the match row is locked first, by a statement of its own, and read
after: in READ COMMITTED a ``SELECT ... FOR UPDATE`` that waited for the lock returns the
locked row as the lock holder left it, but its subqueries (the seats, the incidents)
still see the snapshot taken when the statement began, before the holder's commit. A
move racing a timeout then saw the seat still its player's after the clock had given it
to a bot (tests/games/clocks/test_race.py). The read that follows the lock is a new
statement with a new snapshot, so it sees everything the previous holder committed; the
seats and incidents change only under that same lock (docs/architecture.md, "Writing a move").
"""

from __future__ import annotations

import json
from functools import cache

from django.contrib.auth import get_user_model
from django.db import connection

from accounts.narrow_users import user_attnames, user_fields
from games.matches.incidents import Incident
from games.matches.models import Match, Seat
from infra import pipelined_begin
from infra.prepared import prepared_cursor

#: the user columns shown beside a seat or a creator; the rest load on first access
USER_FIELDS = ("id", "username")


@cache
def _concrete(model) -> list:
    return list(model._meta.concrete_fields)


@cache
def _attnames(model) -> list[str]:
    return [field.attname for field in _concrete(model)]


def _json_object(alias: str, fields: list) -> str:
    pairs = ", ".join(f"'{field.attname}', {alias}.\"{field.column}\"" for field in fields)
    return f"json_build_object({pairs})"


@cache
def _lock_statement() -> str:
    meta = Match._meta
    return f'SELECT 1 FROM "{meta.db_table}" WHERE "{meta.pk.column}" = %s FOR UPDATE'


@cache
def _seated_lock_statement() -> str:
    """The lock, taken only when the user holds a seat of the match. PostgreSQL tries to
    lock only the rows its WHERE lets through, so for anyone else the statement returns
    no row at once instead of queueing behind a seated player's move (issue 40), and the
    seat check costs no round trip of its own."""
    match, seat = Match._meta, Seat._meta
    match_column = seat.get_field("match").column
    user_column = seat.get_field("user").column
    return (f'SELECT 1 FROM "{match.db_table}" m WHERE m."{match.pk.column}" = %s '
            f'AND EXISTS (SELECT 1 FROM "{seat.db_table}" s WHERE s."{match_column}" = '
            f'm."{match.pk.column}" AND s."{user_column}" = %s) FOR UPDATE OF m')


@cache
def _statement() -> str:
    user = get_user_model()._meta
    shown = user_fields(USER_FIELDS)
    match, seat, incident = Match._meta, Seat._meta, Incident._meta
    match_columns = ", ".join(f'm."{field.column}"' for field in _concrete(Match))
    creator_columns = ", ".join(f'c."{field.column}"' for field in shown)
    seat_json = _json_object("s", _concrete(Seat))
    seat_user_json = _json_object("u", shown)
    incident_json = _json_object("i", _concrete(Incident))
    incident_user_json = _json_object("iu", shown)
    user_table, user_pk = user.db_table, user.pk.column
    # Each seat's (and incident's) user by its key, in a subquery of its own: a join made
    # PostgreSQL hash the whole user table for every read (a sequential scan per move,
    # growing with the users), where the subquery is one index lookup per seat.
    return (
        f"SELECT {match_columns}, {creator_columns}, "
        f"(SELECT coalesce(json_agg(json_build_array({seat_json}, "
        f"(SELECT {seat_user_json} FROM \"{user_table}\" u "
        f"WHERE u.\"{user_pk}\" = s.\"{seat.get_field('user').column}\")) "
        f"ORDER BY s.\"{seat.get_field('position').column}\"), '[]') "
        f"FROM \"{seat.db_table}\" s "
        f"WHERE s.\"{seat.get_field('match').column}\" = m.\"{match.pk.column}\"), "
        f"(SELECT coalesce(json_agg(json_build_array({incident_json}, "
        f"(SELECT {incident_user_json} FROM \"{user_table}\" iu "
        f"WHERE iu.\"{user_pk}\" = i.\"{incident.get_field('user').column}\")) "
        f"ORDER BY i.\"{incident.pk.column}\"), '[]') "
        f"FROM \"{incident.db_table}\" i "
        f"WHERE i.\"{incident.get_field('match').column}\" = m.\"{match.pk.column}\") "
        f"FROM \"{match.db_table}\" m LEFT JOIN \"{user_table}\" c "
        f"ON c.\"{user_pk}\" = m.\"{match.get_field('created_by').column}\" "
        f"WHERE m.\"{match.pk.column}\" = %s"
    )


def _converted(fields: list, values) -> list:
    """Database values as the ORM would hand them to ``from_db`` (JSON parsed, etc.)."""
    out = []
    for field, value in zip(fields, values, strict=True):
        for converter in field.get_db_converters(connection):
            value = converter(value, None, connection)
        out.append(value)
    return out


def _from_json(model, data: dict):
    """A model instance from a ``json_build_object`` of its concrete fields: JSON gives
    strings for timestamps, which ``to_python`` turns back into aware datetimes."""
    fields = _concrete(model)
    values = [None if data[field.attname] is None else field.to_python(data[field.attname])
              for field in fields]
    return model.from_db(connection.alias, _attnames(model), values)


def _user(values) -> object | None:
    if values is None or values[0] is None:
        return None
    return get_user_model().from_db(connection.alias, user_attnames(USER_FIELDS), list(values))


def _array(value) -> list:
    return json.loads(value) if isinstance(value, str) else value


def load_match(pk: int, *, lock: bool = False,
               seated_user_id: int | None = None) -> Match | None:
    """The match ``pk`` with creator, seats and incidents loaded, or None if there is none.
    ``lock``: hold the match row's lock for the rest of the transaction; with
    ``seated_user_id``, only if that user holds one of its seats (else None, at once)."""
    if lock:
        row = _lock_then_read(pk, seated_user_id)
    else:
        with prepared_cursor() as cursor:
            cursor.execute(_statement(), [pk])
            row = cursor.fetchone()
    if row is None:
        return None
    match_fields = _concrete(Match)
    count = len(match_fields)
    match = Match.from_db(connection.alias, _attnames(Match),
                          _converted(match_fields, row[:count]))
    creator = _user(row[count:count + len(user_attnames(USER_FIELDS))])
    if creator is not None:
        match.created_by = creator
    seats = []
    for seat_data, user_data in _array(row[-2]):
        seat = _from_json(Seat, seat_data)
        seat.match = match
        seat.user = None if user_data is None else _user(
            [user_data[name] for name in user_attnames(USER_FIELDS)])
        seats.append(seat)
    _prefetched(match, "seats", seats)
    incidents = []
    for incident_data, user_data in _array(row[-1]):
        incident = _from_json(Incident, incident_data)
        # the player it names (a taken-over seat still shows them: selectors.seats_of)
        incident.user = None if user_data is None else _user(
            [user_data[name] for name in user_attnames(USER_FIELDS)])
        incidents.append(incident)
    _prefetched(match, "incidents", incidents)
    return match


def _lock_then_read(pk: int, seated_user_id: int | None = None):
    """The lock statement, then the read, sent together in one round trip (psycopg's
    pipeline mode), behind the transaction's BEGIN when it is still to begin
    (infra/pipelined_begin.py). PostgreSQL still runs them one after the other, and the
    read takes its snapshot when it starts, after the lock is granted, so it sees
    everything the previous holder committed, as two round trips would (module docstring)."""
    with prepared_cursor() as lock_cursor, prepared_cursor() as read_cursor:
        # The pipeline's errors surface when it syncs, outside the cursors' own wrapping:
        # map them to Django's exceptions too, so callers (a task retrying on a database
        # error, the API's 503) see the same errors as for any other query.
        with connection.wrap_database_errors, pipelined_begin.pipeline(connection.connection):
            if seated_user_id is None:
                lock_cursor.execute(_lock_statement(), [pk])
            else:
                lock_cursor.execute(_seated_lock_statement(), [pk, seated_user_id])
            read_cursor.execute(_statement(), [pk])
        if lock_cursor.fetchone() is None:
            return None
        return read_cursor.fetchone()


def _prefetched(instance, name: str, objects: list) -> None:
    """Put ``objects`` in ``instance``'s prefetch cache for the reverse relation ``name``,
    as ``prefetch_related`` does, so ``instance.<name>.all()`` runs no query."""
    queryset = getattr(instance, name).all()
    queryset._result_cache = objects
    queryset._prefetch_done = True
    instance._prefetched_objects_cache = {
        **getattr(instance, "_prefetched_objects_cache", {}), name: queryset}
