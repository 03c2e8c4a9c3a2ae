"""The answers typed by issue 41 are what the service sends: the catalogue (bot levels,
maps, drawing), a finished match's result (breakdowns, tie-breaks), its view's result and
the personal-data export, each validated against its component of the served document.
Played for both games, to the end, through the services."""

from __future__ import annotations

import pytest

from games.matches import services as match_services
from tests.games.api.test_ndjson_schemas import _refs_to_urn, validator
from tests.games.support import API, match_url, play_to_end

pytestmark = pytest.mark.django_db(transaction=True)  # scoring runs on commit


def _problems(document, component: str, body) -> list[str]:
    check = validator(document, component)
    return [f"{list(error.path)}: {error.message}" for error in check.iter_errors(body)]


def test_the_catalogue_is_what_its_schema_says(api_client):
    document = _refs_to_urn(api_client.get(f"{API}/schema/?format=json").json())
    for game in ("han", "hansa"):
        entry = api_client.get(f"{API}/games/{game}/").json()
        assert _problems(document, "Game", entry) == []


def test_a_finished_match_and_the_export_are_what_their_schemas_say(
        make_user, make_auth_client, api_client):
    document = _refs_to_urn(api_client.get(f"{API}/schema/?format=json").json())
    ann, bob = make_user(), make_user()
    for game in ("han", "hansa"):
        match = match_services.create_match(user=ann, game=game, players=2)
        match_services.join_match(user=bob, match_id=match.pk)
        play_to_end(match.pk, {0: ann, 1: bob})
        client = make_auth_client(ann)
        assert _problems(document, "Result",
                         client.get(match_url(match.pk, "result/")).json()) == []
        detail = client.get(match_url(match.pk)).json()
        assert detail["view"]["result"]["breakdown"]
        assert _problems(document, "MatchDetail", detail) == []
    export = make_auth_client(ann).get(f"{API}/me/export").json()
    assert len(export["records"]) == 2
    assert _problems(document, "PersonalData", export) == []
