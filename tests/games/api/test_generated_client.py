"""A Python client generated from our OpenAPI document with openapi-python-client plays a
short match against a real server (daphne in a subprocess): sign-up, a match, the legal
moves parsed into one class per move type, moves submitted from those classes, a refused
move parsed as the typed error. Runs offline: the generator needs no network (its code
formatting hooks are switched off)."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from tests.games.graphql.asgi_server import running_daphne

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

PACKAGE = "generated_game_client"


def _generate(address: str, into: Path):
    schema = into / "schema.json"
    with urllib.request.urlopen(f"http://{address}/api/v1/schema/?format=json") as response:
        schema.write_bytes(response.read())
    config = into / "config.json"
    config.write_text(json.dumps({"post_hooks": []}))
    generator = Path(sys.executable).with_name("openapi-python-client")
    subprocess.run(
        [str(generator), "generate", "--path", str(schema), "--output-path",
         str(into / PACKAGE), "--meta", "none", "--config", str(config)],
        check=True, capture_output=True, timeout=120,
    )
    sys.path.insert(0, str(into))
    try:
        return importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(into))


def _api(name: str):
    return importlib.import_module(f"{PACKAGE}.{name}")


def test_a_generated_client_plays_a_short_match(tmp_path):
    with running_daphne() as address:
        package = _generate(address, tmp_path)
        models = _api("models")
        from_api = {name: _api(f"api.{module}") for name, module in [
            ("register", "auth.register"), ("create", "matches.create_match"),
            ("join", "matches.join_match"), ("get_match", "matches.get_match"),
            ("legal", "play.get_legal_moves"), ("submit", "play.submit_move"),
            ("events", "play.get_events"), ("game", "games.get_game")]}
        base = f"http://{address}"
        anonymous = package.Client(base_url=base)
        players = []
        for name in ("gen-ann", "gen-bob"):
            signed_up = from_api["register"].sync(
                client=anonymous, body=models.Registration(username=name,
                                                           password="a-long-pass-phrase-9"))
            assert isinstance(signed_up, models.RegistrationResponse)
            players.append(package.AuthenticatedClient(base_url=base, token=signed_up.token,
                                                       prefix="Token"))
        game = from_api["game"].sync("han", client=anonymous)
        assert isinstance(game, models.Game)
        assert game.move_schema["discriminator"] == {
            "propertyName": "type"}

        match = from_api["create"].sync(client=players[0], body=models.CreateMatchRequest(
            game="han", players=2))
        assert isinstance(match, models.MatchDetail) and match.status.value == "open"
        joined = from_api["join"].sync(match.id, client=players[1],
                                       body=models.JoinRequest())
        assert joined.status.value == "active"

        move_classes = set()
        for _ in range(6):
            current = from_api["get_match"].sync(match.id, client=players[0])
            seat = current.to_act[0]
            legal = from_api["legal"].sync(match.id, client=players[seat])
            assert isinstance(legal, models.LegalMoves) and legal.moves
            chosen = legal.moves[0]
            move_classes.add(type(chosen).__name__)
            landed = from_api["submit"].sync(match.id, client=players[seat],
                                             body=models.SubmitMoveRequest(
                                                 move=chosen, expected_ply=legal.ply))
            assert isinstance(landed, models.SubmittedMove), landed
            assert landed.ply == legal.ply and landed.events
        assert move_classes <= {"HanPlaceMove", "HanDiscardMove", "HanDrawMove",
                                "HanPassMove"}

        # a stale move: the typed error with its stable code
        current = from_api["get_match"].sync(match.id, client=players[0])
        seat = current.to_act[0]
        legal = from_api["legal"].sync(match.id, client=players[seat])
        refused = from_api["submit"].sync(match.id, client=players[seat],
                                          body=models.SubmitMoveRequest(
                                              move=legal.moves[0], expected_ply=0))
        assert isinstance(refused, models.Error) and refused.error.code == "stale_ply"

        events = from_api["events"].sync(match.id, client=players[1], since=0)
        assert isinstance(events, models.Events) and len(events.moves) == 6
