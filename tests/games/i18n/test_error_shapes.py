"""An error's ``details`` shape and language do not depend on where it was raised
(issue 41): ``invalid_player_count`` came from the service with English text and
``{"players", "min", "max"}``, or from the engine (a map's narrower range) in German with
``{"reason", "field", "min", "max"}``; ``malformed_json`` carried Python's parser text."""

from __future__ import annotations

import pytest

from games.matches.models import Match

pytestmark = pytest.mark.django_db

GERMAN = {"HTTP_ACCEPT_LANGUAGE": "de"}

#: (what is wrong, the body): each refused at another place of the code
PLAYER_COUNTS = [
    ("above the game's range (the service)", {"game": "han", "players": 9}),
    ("below the game's range (the service)", {"game": "hansa", "players": 1}),
    ("not a number (the service)", {"game": "han", "players": "four"}),
    ("outside the map's range (the engine)",
     {"game": "han", "players": 5, "options": {"map": "ways-of-diplomacy"}}),
    ("outside the map's range, two players (the engine)",
     {"game": "han", "players": 2, "options": {"map": "border-disputes"}}),
]


def _refusals(client, path, bodies):
    for reason, body in bodies:
        english = client.post(path, body, format="json")
        german = client.post(path, body, format="json", **GERMAN)
        assert english.status_code == german.status_code == 400, (reason, english.json())
        yield reason, body, english.json()["error"], german.json()["error"]


@pytest.mark.parametrize("path", ["/api/v1/matches/", "/api/v1/quick-match/"])
def test_invalid_player_count_has_one_details_shape_and_german_text_wherever_raised(
        auth_client, path):
    shapes = set()
    for reason, body, english, german in _refusals(auth_client, path, PLAYER_COUNTS):
        assert english["code"] == german["code"] == "invalid_player_count", reason
        assert english["details"] == german["details"], reason
        details = english["details"]
        shapes.add(tuple(sorted(details)))
        assert details["field"] == "players" and details["players"] == body["players"], reason
        assert details["min"] <= details["max"], reason
        assert german["message"] != english["message"], (reason, german["message"])
        assert "Spieler" in german["message"] or "ganze Zahl" in german["message"], reason
        assert " players, not " not in german["message"], reason
    assert shapes == {("field", "max", "min", "players")}
    assert not Match.objects.exists()


@pytest.mark.parametrize("raw, where", [
    (b'{"game": "han", "players": 3,}', {"line": 1, "column": 30, "position": 29}),
    (b'{"game": "han",\n "players": }', {"line": 2, "column": 13, "position": 28}),
])
def test_malformed_json_is_our_own_translated_message_with_the_position(auth_client, raw,
                                                                         where):
    english = auth_client.post("/api/v1/matches/", raw, content_type="application/json")
    german = auth_client.post("/api/v1/matches/", raw, content_type="application/json",
                              **GERMAN)
    for answer in (english, german):
        assert answer.status_code == 400
        assert answer.json()["error"]["code"] == "malformed_json"
        assert answer.json()["error"]["details"] == where
    english, german = english.json()["error"], german.json()["error"]
    assert english["message"] == (f"The body is not valid JSON (line {where['line']}, "
                                  f"column {where['column']}).")
    assert german["message"] == (f"Der Inhalt ist kein gültiges JSON (Zeile {where['line']}, "
                                 f"Spalte {where['column']}).")
    # Python's json module's own words never reach a client
    assert "Expecting" not in english["message"] + german["message"]


def test_graphql_malformed_json_has_the_same_message_and_details(client):
    raw = b'{"query": "{ games { game } }",}'
    rest_like = client.post("/graphql/", raw, content_type="application/json", **GERMAN)
    assert rest_like.status_code == 400
    error = rest_like.json()["errors"][0]
    assert error["extensions"] == {"code": "malformed_json", "details": {
        "line": 1, "column": 32, "position": 31}}
    assert error["message"] == "Der Inhalt ist kein gültiges JSON (Zeile 1, Spalte 32)."
