"""docs/api.md's table of scopes is the code's: every REST operation's ``required_scopes``,
every GraphQL root field's entry in games/graphql/scopes.py and every play-socket op's in
games/play/scopes.py, grouped by scope. docs/play.md's table of the socket's ops too. A
declaration changed without the docs fails here, with the block to paste printed."""

from __future__ import annotations

import re
from pathlib import Path

from django.utils import translation

from accounts.scopes import SCOPES
from games.graphql.scopes import FIELD_SCOPES
from games.play.scopes import OP_SCOPES
from tests.games.api.rest_operations import rest_operations

DOCS = Path(__file__).resolve().parent.parent / "docs"
START, END = "<!-- scopes: generated", "<!-- end of scopes -->"
PLAY_START, PLAY_END = "<!-- socket scopes: generated", "<!-- end of socket scopes -->"


def _path(route: str) -> str:
    return "/" + re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", route)


def _scope_name(scope: str | None) -> str:
    return f"`{scope}`" if scope else "none"


def scopes_block() -> str:
    rest: dict[str | None, list[str]] = {}
    for route, methods, _view, declared in rest_operations():
        for method in methods:
            rest.setdefault(declared[method], []).append(f"`{method} {_path(route)}`")
    graphql: dict[str | None, list[str]] = {}
    for type_name, fields in FIELD_SCOPES.items():
        for name, scope in fields.items():
            graphql.setdefault(scope, []).append(f"`{type_name}.{name}`")
    socket: dict[str | None, list[str]] = {}
    for op, scope in OP_SCOPES.items():
        socket.setdefault(scope, []).append(f"`{op}`")
    lines = []
    with translation.override("en"):  # the docs are English, whatever ran before
        texts = {scope: str(text) for scope, text in SCOPES.items()}
    for scope in [None, *SCOPES]:
        text = "public: anyone, a credential with no scope too" if scope is None \
            else texts[scope]
        lines.append(f"- {_scope_name(scope)} ({text}):")
        for label, table in (("REST", rest), ("GraphQL", graphql), ("play socket", socket)):
            names = sorted(table.get(scope, []))
            lines.append(f"  - {label}: {', '.join(names) if names else '(none yet)'}")
    return "\n".join(lines)


def socket_block() -> str:
    rows = ["| op | scope |", "| --- | --- |"]
    rows += [f"| `{op}` | {_scope_name(scope)} |" for op, scope in OP_SCOPES.items()]
    return "\n".join(rows)


def _between(text: str, start: str, end: str) -> str:
    head, _, rest = text.partition(start)
    assert rest, f"no {start!r} marker"
    body, found, _ = rest.partition(end)
    assert found, f"no {end!r} marker"
    return body.split("\n", 1)[1].strip()  # after the rest of the marker's line


def test_api_md_lists_every_operation_under_the_scope_it_declares():
    expected = scopes_block()
    documented = _between((DOCS / "api.md").read_text(), START, END)
    assert documented == expected, f"docs/api.md's scopes should read:\n\n{expected}\n"


def test_play_md_lists_every_op_s_scope():
    expected = socket_block()
    documented = _between((DOCS / "play.md").read_text(), PLAY_START, PLAY_END)
    assert documented == expected, f"docs/play.md's socket scopes should read:\n\n{expected}\n"
