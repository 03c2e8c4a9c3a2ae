"""C1 controls, bidirectional controls and non-characters in REST text inputs (issue 39).

Issue 21's rule refused only U+0000-U+001F and U+007F: an abort reason stored U+0085
(NEXT LINE, a line break to some readers) and a username, an invite or any other text
could hold a right-to-left override (U+202E) that shows it in another order than it
reads. The rule (infra/text_inputs.py) now refuses them in every path part, query value
and body string of every operation, with the same ``invalid_input`` and field code.
"""

from __future__ import annotations

from urllib.parse import quote

import pytest

from games.matches.models import Match
from tests.games.api import test_control_characters as probes
from tests.games.support import API, assert_api_error, match_url

pytestmark = pytest.mark.django_db

TEXT_INPUTS, _send, _written = probes.TEXT_INPUTS, probes._send, probes._written
world = probes.world  # the same fixture: ann with one of everything a path can name

#: NEXT LINE (C1), RIGHT-TO-LEFT OVERRIDE, FIRST STRONG ISOLATE, LEFT-TO-RIGHT MARK, a
#: non-character
NEWLY_REFUSED = ["\u0085", "\u202e", "\u2068", "\u200e", "\ufdd0"]


def _assert_refused(response, field: str, character: str) -> None:
    error = assert_api_error(response, 400, "invalid_input")
    assert list(error["details"]) == [field], error
    problem, = error["details"][field]
    assert problem["code"] == "control_characters"
    assert character not in error["message"]


@pytest.mark.parametrize("character", ["\u0085", "\u202e"], ids=["U+0085", "U+202E"])
@pytest.mark.parametrize("method, path, where, name", TEXT_INPUTS,
                         ids=[f"{m.upper()} {p} {w}:{n}" for m, p, w, n in TEXT_INPUTS])
def test_a_c1_or_bidi_control_in_any_text_input_is_invalid_input(world, method, path, where,
                                                                 name, character):
    ids = dict(world["ids"])
    bad = f"a{character}b"
    query, body = "", None
    if where == "path":
        ids[name] = bad
    elif where == "query":
        query = f"?{name}={quote(bad)}"
    else:
        body = {name: bad}
    before = _written()
    response = _send(world["client"], method, path, ids=ids, query=query, body=body)
    _assert_refused(response, name, character)
    assert _written() == before


@pytest.mark.parametrize("character", NEWLY_REFUSED + [chr(code) for code in range(0x80, 0xA0)],
                         ids=lambda c: f"U+{ord(c):04X}")
def test_an_abort_reason_with_a_c1_or_bidi_control_is_refused_and_nothing_stored(world,
                                                                                 character):
    client, match_id = world["client"], world["ids"]["match_id"]
    before = _written()
    response = client.post(match_url(match_id, "abort/"), {"reason": f"rain{character}stop"},
                           format="json")
    _assert_refused(response, "reason", character)
    assert _written() == before
    match = Match.objects.get(pk=match_id)
    assert match.status == "open" and not match.abort_reason


@pytest.mark.parametrize("character", NEWLY_REFUSED, ids=lambda c: f"U+{ord(c):04X}")
def test_bidi_and_c1_in_a_username_or_an_invite_are_refused(world, api_client, character):
    before = _written()
    _assert_refused(api_client.post(f"{API}/auth/register/", {
        "username": f"evil{character}gnp.exe", "password": "a long enough password"},
        format="json"), "username", character)
    client = world["client"]
    _assert_refused(client.post(f"{API}/private-matches/", {
        "game": "han", "players": 3, "invite": [f"bob{character}"]}, format="json"),
        "invite.0", character)
    _assert_refused(client.post(f"{API}/private-matches/join/", {
        "invite_code": f"ABC{character}DEF"}, format="json"), "invite_code", character)
    _assert_refused(client.post(match_url(world["ids"]["match_id"], "invitations/"), {
        "usernames": [f"bob{character}"]}, format="json"), "usernames.0", character)
    assert _written() == before


def test_right_to_left_text_without_controls_still_works(world):
    """Arabic and Hebrew letters are text, not controls: a reason in them is stored."""
    client, match_id = world["client"], world["ids"]["match_id"]
    reason = "المطر أوقف اللعب — הגשם עצר"
    response = client.post(match_url(match_id, "abort/"), {"reason": reason}, format="json")
    assert response.status_code == 200, response.content
    assert Match.objects.get(pk=match_id).abort_reason == reason
