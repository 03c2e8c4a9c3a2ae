"""One writer per table (docs/architecture.md): a match's rows, its seats and its incidents
are written by games/matches only; the clocks, the lobby and every other capability ask
its services. Checked by reading the source with ``ast``, an independent reader: no
module of games/ outside games/matches (and the migrations) writes a ``Match``, ``Seat``
or ``Incident`` row, neither through the model's manager, a match's related managers
(``match.seats``, ``match.incidents``), ``.save()`` on a match or a seat, nor raw SQL."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import games

GAMES = Path(games.__file__).parent
#: the models whose rows only games/matches writes
MODELS = {"Match", "Seat", "Incident"}
#: manager and queryset methods that write
WRITES = {"create", "bulk_create", "update", "bulk_update", "delete", "get_or_create",
          "update_or_create", "save"}
#: a match's related managers of those tables
RELATED = {"seats", "incidents"}
#: the names code gives a match or a seat it holds (``match.save()``, ``seat.save()``)
HOLDERS = re.compile(r"(match|seat)", re.IGNORECASE)
RAW_SQL = re.compile(r"\b(UPDATE|INSERT\s+INTO|DELETE\s+FROM)\s+\"?games_(match|seat|incident)\b",
                     re.IGNORECASE)


def _chain(node: ast.AST) -> list[str]:
    """``Seat.objects.filter(pk=1).update`` -> ["Seat", "objects", "filter", "update"]."""
    names: list[str] = []
    while True:
        if isinstance(node, ast.Call):
            node = node.func
        elif isinstance(node, ast.Attribute):
            names.append(node.attr)
            node = node.value
        elif isinstance(node, ast.Name):
            names.append(node.id)
            return names[::-1]
        else:
            return names[::-1]


def writes_in(source: str) -> list[str]:
    """Each write to a match's tables in ``source``, as "line: what"."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and RAW_SQL.search(node.value):
            found.append(f"{node.lineno}: raw SQL {node.value[:40]!r}")
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        method = node.func.attr
        if method not in WRITES:
            continue
        chain = _chain(node.func.value)
        if not chain:
            continue
        what = ".".join(chain)
        if chain[0] in MODELS or any(name in RELATED for name in chain[1:]):
            found.append(f"{node.lineno}: {what}.{method}()")
        elif method == "save" and HOLDERS.search(chain[-1]):
            found.append(f"{node.lineno}: {what}.save()")
    return found


def test_the_reader_finds_each_kind_of_write():
    # the check is only as good as its reader: each way of writing is found
    source = '''
Seat.objects.filter(pk=1).update(user=None)
Seat.objects.create(match=match, position=0)
Match.objects.filter(abort_reason="x").update(abort_reason="y")
Incident.objects.create(match=match, ply=0, seat=0, kind="resign")
match.seats.filter(user=user).delete()
match.save(update_fields=["updated_at"])
row_seat.save()
cursor.execute('UPDATE "games_match" SET status = %s')
'''
    assert len(writes_in(source)) == 8
    assert writes_in("invitation.save()\nRating.objects.bulk_create([])\n"
                     "Match.objects.filter(pk=1).exists()\n") == []


def test_no_module_outside_games_matches_writes_a_match_its_seats_or_incidents():
    offenders = {}
    for path in sorted(GAMES.rglob("*.py")):
        relative = path.relative_to(GAMES)
        if relative.parts[0] in ("matches", "migrations"):
            continue
        found = writes_in(path.read_text(encoding="utf-8"))
        if found:
            offenders[str(relative)] = found
    assert offenders == {}, (
        "write a match's rows through games/matches (services, scoring, seat_changes): "
        f"{offenders}")
