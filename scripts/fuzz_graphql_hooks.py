"""Schemathesis hooks for fuzzing /graphql/ (loaded by scripts/fuzz_api.sh; dev only).

- The ``JSON`` scalar (moves, options) gets a strategy: any JSON value as a GraphQL
  literal, so ``submitMove`` and ``createMatch`` are fuzzed too.
- ``coded_graphql_errors`` replaces schemathesis's "any GraphQL error is a failure": our
  API answers bad input with GraphQL errors by design; what must never happen is an HTTP
  5xx, an error without ``extensions.code``, or the masked ``server_error``."""

from __future__ import annotations

import schemathesis
from graphql.language import ast
from hypothesis import strategies as st


def _name(text: str) -> ast.NameNode:
    return ast.NameNode(value=text)


_scalars = st.one_of(
    st.none().map(lambda _: ast.NullValueNode()),
    st.booleans().map(lambda value: ast.BooleanValueNode(value=value)),
    st.integers(min_value=-(2**70), max_value=2**70).map(lambda n: ast.IntValueNode(value=str(n))),
    st.floats(allow_nan=False, allow_infinity=False).map(
        lambda x: ast.FloatValueNode(value=repr(x))),
    st.sampled_from(["place", "draw", "keep", "store", "trade", "pass", "house", "green",
                     "display", "pile", "ber-01", "choose_start"]).map(
        lambda text: ast.StringValueNode(value=text)),
    st.text(max_size=10).map(lambda text: ast.StringValueNode(value=text)),
)
_keys = st.sampled_from(["type", "cards", "pieces", "kind", "space", "province", "from",
                         "index", "take", "card", "seat", "face", "map", "variant"]) \
    | st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,8}", fullmatch=True)


def _containers(inner):
    lists = st.lists(inner, max_size=4).map(lambda values: ast.ListValueNode(values=tuple(values)))
    objects = st.dictionaries(_keys, inner, max_size=4).map(
        lambda fields: ast.ObjectValueNode(fields=tuple(
            ast.ObjectFieldNode(name=_name(key), value=value) for key, value in fields.items())))
    return lists | objects


schemathesis.graphql.scalar("JSON", st.recursive(_scalars, _containers, max_leaves=10))


@schemathesis.check
def coded_graphql_errors(ctx, response, case):
    if response.status_code >= 500:
        raise AssertionError(f"HTTP {response.status_code}")
    body = response.json()
    for error in body.get("errors") or []:
        code = (error.get("extensions") or {}).get("code")
        if not code or code == "server_error":
            raise AssertionError(f"GraphQL error without a stable code: {error}")
    for payload in (body.get("data") or {}).values():
        for error in (payload or {}).get("errors") or [] if isinstance(payload, dict) else []:
            # (the generated query may not select ``code``: judge only when it does)
            if "code" in error and error["code"] in (None, "", "server_error"):
                raise AssertionError(f"payload error without a stable code: {error}")
