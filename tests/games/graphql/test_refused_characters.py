"""C1 controls, bidirectional controls and non-characters in GraphQL arguments (issue 39).

``abortMatch(reason:)`` stored U+0085, and a right-to-left override passed in a username,
an invite or any other argument: the rule (infra/text_inputs.py, run on every argument by
games/graphql/text_inputs.py) now refuses them like the C0 controls, before anything
runs, with ``invalid_input`` naming the argument.
"""

from __future__ import annotations

import pytest

from games.matches.models import Match
from tests.games.graphql import test_control_characters as probes
from tests.games.graphql.support import gql, start_match

pytestmark = pytest.mark.django_db

ABORT = probes.ABORT


def _assert_refused(body: dict, path: str, character: str) -> None:
    assert body.get("data") is None, body
    error, = body["errors"]
    assert error["extensions"]["code"] == "invalid_input", error
    assert list(error["extensions"]["details"]) == [path]
    assert error["extensions"]["details"][path][0]["code"] == "control_characters"
    assert character not in error["message"]


@pytest.mark.parametrize("kind, field_name, argument_name", probes.TEXT_ARGUMENTS,
                         ids=[f"{k} {f}({a})" for k, f, a in probes.TEXT_ARGUMENTS])
def test_a_bidi_override_in_any_text_argument_is_invalid_input(players, monkeypatch, kind,
                                                               field_name, argument_name):
    monkeypatch.setattr(probes, "BAD", "a\u202eb")  # the value every probe sends
    match_id = start_match("han", players[:2])
    query, variables, path = probes._operation(kind, field_name, argument_name)
    before = probes._written(match_id)
    _assert_refused(gql(query, variables, token=players[0].token), path, "\u202e")
    assert probes._written(match_id) == before


@pytest.mark.parametrize("character", ["\u0085", "\u009b", "\u202e", "\u2066", "\u200f",
                                       "\ufffe", "\U0010ffff"],
                         ids=lambda c: f"U+{ord(c):04X}")
def test_an_abort_reason_with_c1_bidi_or_a_non_character_is_refused(players, character):
    match_id = start_match("hansa", players)
    before = probes._written(match_id)
    _assert_refused(gql(ABORT, {"id": match_id, "reason": f"rain{character}"},
                        token=players[0].token), "reason", character)
    assert probes._written(match_id) == before
    assert Match.objects.get(pk=match_id).status == "active"


def test_a_literal_in_the_document_is_refused_too(players):
    body = gql('{ player(username: "ann\u202egnp") { username } }', token=players[0].token)
    _assert_refused(body, "username", "\u202e")
