"""Fuzzing /graphql/: GraphQL documents generated from the published schema (schema.graphql
at the repository root) by hypothesis-graphql, valid ones (every query and mutation field,
random arguments, JSON and DateTime scalars included) and invalid ones (its negative
mode), POSTed to a real server, and the answer judged.

Judged a failure (as scripts/fuzz_graphql_hooks.py judges schemathesis's cases): an HTTP
5xx, an answer that is not JSON, a GraphQL error without ``extensions.code`` or with the
masked ``server_error``, and a payload error whose ``code`` is empty or ``server_error``.
Used by tests/fuzz/test_graphql_fuzz.py (`make test`) and bench/fuzz_all.py (many)."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import hypothesis_graphql
from graphql import build_schema
from graphql.language import ast
from hypothesis import strategies as st

from tests.fuzz import known_issues
from tests.fuzz.socket_frames import json_values

SCHEMA = Path(__file__).resolve().parents[2] / "schema.graphql"
#: they would end the fuzzer's own access (as scripts/fuzz_api.sh leaves them out)
LEFT_OUT = {"revokeToken", "deleteAccount"}


def _literal(value) -> ast.ValueNode:
    """A JSON value as a GraphQL literal (the JSON scalar's input)."""
    if value is None:
        return ast.NullValueNode()
    if isinstance(value, bool):
        return ast.BooleanValueNode(value=value)
    if isinstance(value, int):
        return ast.IntValueNode(value=str(value))
    if isinstance(value, float):
        return ast.FloatValueNode(value=repr(value)) if value == value and abs(value) != \
            float("inf") else ast.StringValueNode(value=repr(value))
    if isinstance(value, list):
        return ast.ListValueNode(values=tuple(_literal(item) for item in value))
    if isinstance(value, dict):
        return ast.ObjectValueNode(fields=tuple(
            ast.ObjectFieldNode(name=ast.NameNode(value=key), value=_literal(item))
            for key, item in value.items() if key.isidentifier() and key.isascii()))
    return ast.StringValueNode(value=str(value))


_datetimes = st.one_of(
    st.datetimes().map(lambda moment: moment.isoformat()), st.text(max_size=30),
    st.sampled_from(["2026-01-01T00:00:00Z", "9999-12-31T23:59:59+14:00", "0", "now"]),
).map(lambda text: ast.StringValueNode(value=text))

CUSTOM_SCALARS = {"JSON": json_values.map(_literal), "DateTime": _datetimes}


@cache
def schema():
    return build_schema(SCHEMA.read_text())


def _fields(kind: str) -> list[str]:
    root = schema().query_type if kind == "query" else schema().mutation_type
    return sorted(name for name in root.fields if name not in LEFT_OUT)


def documents() -> st.SearchStrategy[str]:
    """Queries and mutations, valid mostly, invalid sometimes."""
    positive = hypothesis_graphql.Mode.POSITIVE
    negative = hypothesis_graphql.Mode.NEGATIVE

    def of(mode) -> st.SearchStrategy[str]:
        return st.one_of(
            hypothesis_graphql.queries(schema(), fields=_fields("query"),
                                       custom_scalars=CUSTOM_SCALARS, mode=mode),
            hypothesis_graphql.mutations(schema(), fields=_fields("mutation"),
                                         custom_scalars=CUSTOM_SCALARS, mode=mode),
        )

    return st.one_of(of(positive), of(positive), of(positive), of(negative))


@dataclass
class Verdict:
    status: int = 0
    problems: list[str] = field(default_factory=list)
    allowed: str | None = None


def post(address: str, token: str, document: str, timeout: float = 60) -> Verdict:
    """POST one document and judge the answer."""
    request = urllib.request.Request(
        f"http://{address}/graphql/", method="POST",
        data=json.dumps({"query": document}).encode(),
        headers={"Content-Type": "application/json", "Authorization": f"Token {token}"})
    verdict = Verdict()
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            verdict.status, raw = response.status, response.read()
    except urllib.error.HTTPError as error:
        verdict.status, raw = error.code, error.read()
    if verdict.status >= 500:
        verdict.problems.append(f"HTTP {verdict.status}: {raw[:300]!r}")
    else:
        _judge_body(raw, verdict)
    if verdict.problems:
        verdict.allowed = known_issues.allowed(document)
    return verdict


def _judge_body(raw: bytes, verdict: Verdict) -> None:
    try:
        body = json.loads(raw)
    except ValueError:
        verdict.problems.append(f"not JSON (HTTP {verdict.status}): {raw[:200]!r}")
        return
    for error in body.get("errors") or []:
        code = (error.get("extensions") or {}).get("code")
        if not code or code in ("server_error", "internal_error"):
            verdict.problems.append(f"a GraphQL error without a stable code: {error}")
    for payload in (body.get("data") or {}).values():
        errors = payload.get("errors") if isinstance(payload, dict) else None
        for error in errors or []:
            # (the generated document may not select ``code``: judged only when it does)
            if isinstance(error, dict) and "code" in error \
                    and error["code"] in (None, "", "server_error", "internal_error"):
                verdict.problems.append(f"a payload error without a stable code: {error}")
