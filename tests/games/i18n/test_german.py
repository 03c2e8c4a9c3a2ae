"""German through Django's translation machinery (docs/api.md, "Languages"):
``Accept-Language: de`` or ``?lang=de`` turns REST and GraphQL error messages, the rules'
own refusals, the catalogue, the board drawings and the admin German; English stays the
default and the error codes never change."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games.matches import services as match_services
from games.matches.models import Match
from rules import get_engine
from tests.games.analysis.support import finished_match
from tests.games.graphql.support import gql, make_player, start_match
from tests.games.support import TEST_SEED, isolate_test_celery

pytestmark = pytest.mark.django_db

GERMAN = {"HTTP_ACCEPT_LANGUAGE": "de"}


def _error(response) -> dict:
    return response.json()["error"]


def test_a_rest_400_is_german_with_accept_language_or_lang_and_its_code_unchanged(
        auth_client):
    body = {"game": "han", "players": 3, "bot_seats": "every seat"}
    english = auth_client.post("/api/v1/matches/", body, format="json")
    german = auth_client.post("/api/v1/matches/", body, format="json", **GERMAN)
    by_query = auth_client.post("/api/v1/matches/?lang=de", body, format="json")
    assert english.status_code == german.status_code == by_query.status_code == 400
    assert _error(english)["code"] == _error(german)["code"] == _error(by_query)["code"] \
        == "invalid_seat"
    assert _error(english)["message"] == "bot_seats must map seat positions to bot kinds."
    assert _error(german)["message"] == "bot_seats muss Platznummern Bot-Arten zuordnen."
    assert _error(by_query)["message"] == _error(german)["message"]
    assert german["Content-Language"] == "de"
    assert "Accept-Language" in german["Vary"]  # caches keep the languages apart


def test_lang_wins_over_the_header_and_an_unknown_one_is_ignored(api_client):
    english = api_client.get("/api/v1/matches/999999999/?lang=en", **GERMAN)
    assert _error(english)["message"] == "No such match."
    unknown = api_client.get("/api/v1/matches/999999999/?lang=xx", **GERMAN)
    assert _error(unknown) == {"code": "match_not_found",
                               "message": "Diese Partie gibt es nicht.",
                               "details": _error(english)["details"]}


def test_a_field_error_and_a_rules_refusal_are_german_with_the_rules_own_code(make_user):
    players = [make_player(make_user) for _ in range(3)]
    match_id = start_match("han", players)
    engine = get_engine("han")
    mover = players[engine.to_act(engine.from_json(Match.objects.get(pk=match_id).state))[0]]
    client = Client(HTTP_AUTHORIZATION=f"Token {mover.token}")
    url = f"/api/v1/matches/{match_id}/moves/"
    answers = {}
    for language in ("en", "de"):
        answers[language] = client.post(f"{url}?lang={language}",
                                         {"move": {"type": "discard", "card": "purple"}},
                                         content_type="application/json")
    english, german = (_error(answers[language]) for language in ("en", "de"))
    # a purple card is no Han colour: the rules' own code and details, in both languages
    assert english["code"] == german["code"] == "unknown_card"
    assert english["details"] == german["details"]
    assert english["message"] == "unknown card colour 'purple'"
    assert german["message"] == "unbekannte Kartenfarbe 'purple'"
    unknown_field = client.post(f"{url}?lang=de", {"move": {}, "colour": 1},
                                content_type="application/json")
    assert _error(unknown_field)["code"] == "invalid_input"
    assert _error(unknown_field)["message"] == "Ungültige Eingabe: colour: Unbekanntes Feld."


def test_a_graphql_error_is_german_with_the_same_code(make_user):
    player = make_player(make_user)
    query = ('mutation { createMatch(game: "chess", players: 2) '
             "{ errors { code message } } }")
    english = gql(query, token=player.token)
    german = Client(HTTP_AUTHORIZATION=f"Token {player.token}",
                    HTTP_ACCEPT_LANGUAGE="de").post(
        "/graphql/", data={"query": query}, content_type="application/json").json()
    [english_error] = english["data"]["createMatch"]["errors"]
    [german_error] = german["data"]["createMatch"]["errors"]
    assert english_error["code"] == german_error["code"] == "unknown_game"
    assert english_error["message"] == "No game called 'chess'."
    assert german_error["message"] == "Kein Spiel namens 'chess'."


def test_a_graphql_refusal_outside_the_resolvers_is_german_too(client):
    query = 'subscription { matchUpdates(matchId: "1") { ply } }'
    answer = client.post("/graphql/?lang=de", data={"query": query},
                         content_type="application/json")
    [error] = answer.json()["errors"]
    assert error["extensions"]["code"] == "subscription_needs_websocket"
    assert error["message"] == ("Abonnements gibt es über den Websocket unter /graphql/ "
                                "(Protokoll graphql-transport-ws), nicht über HTTP.")


def test_the_catalogue_speaks_german_and_keeps_every_id(api_client):
    english = api_client.get("/api/v1/games/han/").json()
    german = api_client.get("/api/v1/games/han/", **GERMAN).json()
    assert english["maps"]["border-disputes"]["name"] == "Border Disputes"
    assert german["maps"]["border-disputes"]["name"] == "Grenzstreitigkeiten"
    assert german["maps"]["ways-of-diplomacy"]["name"] == "Wege der Diplomatie"
    provinces = {p["id"]: p["name"] for p in
                 german["maps"]["ways-of-diplomacy"]["board"]["provinces"]}
    assert "Tempelviertel" in provinces.values() and "Seidenmarkt" in provinces.values()
    assert set(provinces) == {p["id"] for p in
                              english["maps"]["ways-of-diplomacy"]["board"]["provinces"]}
    descriptions = {branch["title"]: branch["description"]
                    for branch in german["move_schema"]["oneOf"]}
    assert descriptions["discard"] == "Regel B: statt zu setzen eine Karte abwerfen."
    # JSON Schema titles and enums are ids: client generators name classes after them
    assert [b["title"] for b in german["move_schema"]["oneOf"]] == \
        [b["title"] for b in english["move_schema"]["oneOf"]]
    assert german["options"]["properties"]["map"]["enum"] == \
        english["options"]["properties"]["map"]["enum"]
    assert german["bot_levels"][0]["description"] == \
        "Spielt irgendeinen erlaubten Zug, gleichverteilt zufällig."

    hansa = api_client.get("/api/v1/games/hansa/?lang=de").json()
    assert hansa["title"] == "Die Königin der Hanse"
    cities = {city["name"]: city["label"] for city in hansa["drawing"]["cities"]}
    assert cities == {"London": "London", "Bruges": "Brügge", "Bergen": "Bergen",
                      "Novgorod": "Nowgorod"}  # the name is the key views and cards use
    card = next(card for card in hansa["drawing"]["cards"]
                if card["city"] == "Bruges" and card["kind"] == "ship" and card["luxury"])
    assert card["label"] == f"Brügge, Schiff, Handelsmacht {card['trade_power']}, Luxus"
    assert api_client.get("/api/v1/games/").json()["results"][0]["title"] in (
        "Han", "The Queen of Hansa")


def test_the_admin_speaks_german_its_own_pages_and_the_board_labels(make_user):
    admin = Client(HTTP_ACCEPT_LANGUAGE="de")
    admin.force_login(make_user(is_staff=True, is_superuser=True))
    index = admin.get("/admin/").content.decode()
    assert "Website-Verwaltung" in index  # Django's own German
    assert "Spiele" in index and "Konten" in index  # our apps' names
    ann, bob = make_user(), make_user()
    match = match_services.create_match(user=ann, game="han", players=2, seed=TEST_SEED)
    match_services.join_match(user=bob, match_id=match.pk)
    page = admin.get(reverse("admin:games_match_replay", args=[match.pk])).content.decode()
    assert "Spielbrett (Zuschaueransicht)" in page
    assert "Wege der Diplomatie" in page  # the map's name on the drawing
    assert "Am Zug: " in page and "Legende:" in page
    # the drawing's seat numbers carry the players' names, in German too
    assert f"Kaiser: {ann.username}" in page or f"Kaiser: {bob.username}" in page
    changelist = admin.get(reverse("admin:games_match_changelist")).content.decode()
    assert "Ausgewählte Partien abbrechen" in changelist
    english = Client()
    english.force_login(make_user(is_staff=True, is_superuser=True))
    assert "Board (spectator view)" in english.get(
        reverse("admin:games_match_replay", args=[match.pk])).content.decode()


def test_the_hansa_board_and_the_replay_status_have_no_english_left(make_user):
    """Issue 41: the Hansa header said "phase keep" / "phase over" and "red 5, blue 5" in
    German, and the replay page "Status active"."""
    admin = Client(HTTP_ACCEPT_LANGUAGE="de")
    admin.force_login(make_user(is_staff=True, is_superuser=True))
    ann, bob = make_user(), make_user()
    match = match_services.create_match(user=ann, game="hansa", players=2, seed=TEST_SEED)
    match_services.join_match(user=bob, match_id=match.pk)
    page = admin.get(reverse("admin:games_match_replay", args=[match.pk])).content.decode()
    assert "Phase Karten behalten" in page and "phase keep" not in page
    for english, german in (("red", "rot"), ("blue", "blau"), ("yellow", "gelb"),
                            ("black", "schwarz")):
        assert f"{german} " in page and f"{english} " not in page.split("Legende:")[0]
    assert "<td>aktiv</td>" in page and "<td>active</td>" not in page


@pytest.mark.django_db(transaction=True)  # the bot seat plays on commit
def test_a_finished_han_board_says_why_it_ended_in_german(make_user):
    """Issue 41: the board said "Game over (pile_depleted)", the engine's reason id, in
    German too."""
    isolate_test_celery()
    match = finished_match(make_user(), "han")
    reason = match.state["end_reason"]  # the engine's id, as the view gives it to the board
    german = {"pile_depleted": "Spielende (ein Kartenstapel ist aufgebraucht)",
              "no_placement": "Spielende (niemand kann mehr einsetzen)"}
    english = {"pile_depleted": "Game over (a card pile ran out)",
               "no_placement": "Game over (no player can place)"}
    admin = Client(HTTP_ACCEPT_LANGUAGE="de")
    admin.force_login(make_user(is_staff=True, is_superuser=True))
    url = reverse("admin:games_match_replay", args=[match.pk])
    page = admin.get(url).content.decode()
    assert german[reason] in page
    assert "Game over" not in page and f"({reason})" not in page
    admin_en = Client()
    admin_en.force_login(make_user(is_staff=True, is_superuser=True))
    assert english[reason] in admin_en.get(url).content.decode()
