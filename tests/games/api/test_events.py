"""Each move keeps the engine's events; ``events/``, ``moves/``, ``replay/``, GraphQL's
``log``/``events`` and the move responses serve them redacted per reader: a card drawn
from Han's pile is its drawer's alone until the end, a Hansa secret choice its chooser's."""

from __future__ import annotations

import json

import pytest
from rest_framework.authtoken.models import Token

from games.matches import selectors, services
from games.matches import services as match_services
from games.matches.models import Move
from tests.games.graphql.support import gql
from tests.games.support import match_url

pytestmark = pytest.mark.django_db


def _pile_draw_played(match, users):
    """Play Han moves through the services (discard, then a pile draw) until a pile draw
    is logged; returns the drawing seat."""
    for _ in range(30):
        match = selectors.get_match(match.pk)
        seat = selectors.to_act_of(match)[0]
        moves = selectors.legal_moves_for(match, users[seat])["moves"]
        pile = [move for move in moves if move == {"type": "draw", "from": "pile"}]
        discard = [move for move in moves if move["type"] == "discard"]
        services.submit_move(match_id=match.pk, user=users[seat],
                             move=(pile or discard or moves)[0])
        if pile:
            return seat
    raise AssertionError("no pile draw in 30 moves")


@pytest.fixture
def han_after_pile_draw(make_user, make_auth_client):
    users = [make_user(), make_user()]
    match = match_services.create_match(user=users[0], game="han", players=2)
    match_services.join_match(user=users[1], match_id=match.pk)
    drawer = _pile_draw_played(match, users)
    clients = [make_auth_client(user) for user in users]
    return match, users, clients, drawer


def _pile_draws(moves):
    return [event for entry in moves for event in entry["events"]
            if event["type"] == "drew" and event["from"] == "pile"]


def test_every_logged_move_keeps_its_events(han_after_pile_draw):
    match, *_ = han_after_pile_draw
    logged = list(Move.objects.filter(match=match).order_by("ply"))
    assert logged and all(move.events for move in logged)
    assert all(isinstance(event.get("type"), str) for move in logged for event in move.events)


def test_a_pile_draw_shows_its_card_to_the_drawer_only(han_after_pile_draw, api_client):
    match, users, clients, drawer = han_after_pile_draw
    other = clients[1 - drawer]
    own = _pile_draws(clients[drawer].get(match_url(match.pk, "events/?since=0")).json()["moves"])
    assert own and all(event["card"] for event in own)
    for reader in (other, api_client):
        for suffix in ("events/?since=0", "moves/"):
            body = reader.get(match_url(match.pk, suffix)).json()
            moves = body["moves"] if "moves" in body else body["results"]
            seen = _pile_draws(moves)
            assert len(seen) == len(own) and all("card" not in event for event in seen)
    # the same through GraphQL, for the opponent (token) and a spectator (none)
    query = """query($id: ID!) { match(id: $id) { events(since: 0) { moves { events } } } }"""
    token = Token.objects.get_or_create(user=users[1 - drawer])[0].key
    for who in (token, None):
        data = gql(query, {"id": match.pk}, token=who)["data"]
        seen = _pile_draws(data["match"]["events"]["moves"])
        assert len(seen) == len(own) and all("card" not in event for event in seen)


def test_after_the_end_every_event_is_shown_whole(han_after_pile_draw, api_client,
                                                  make_user):
    match, users, clients, drawer = han_after_pile_draw
    match_services.abort_match(user=make_user(is_staff=True, is_superuser=True), match_id=match.pk)
    seen = _pile_draws(api_client.get(match_url(match.pk, "events/?since=0")).json()["moves"])
    assert seen and all(event["card"] for event in seen)


def test_the_move_response_shows_the_mover_its_own_draw(make_user, make_auth_client):
    users = [make_user(), make_user()]
    match = match_services.create_match(user=users[0], game="han", players=2)
    match_services.join_match(user=users[1], match_id=match.pk)
    clients = [make_auth_client(user) for user in users]
    for _ in range(30):
        detail = clients[0].get(match_url(match.pk)).json()
        seat = detail["to_act"][0]
        moves = clients[seat].get(match_url(match.pk, "legal-moves/")).json()["moves"]
        pile = [move for move in moves if move == {"type": "draw", "from": "pile"}]
        discard = [move for move in moves if move["type"] == "discard"]
        body = clients[seat].post(match_url(match.pk, "moves/"),
                                  {"move": (pile or discard or moves)[0]}, format="json").json()
        if pile:
            drew = [event for event in body["events"] if event["type"] == "drew"]
            assert drew[0]["card"] in body["match"]["view"]["hand"]
            return
    raise AssertionError("no pile draw")


def test_hansa_choices_stay_with_their_chooser(make_user, make_auth_client, api_client):
    users = [make_user(), make_user(), make_user()]
    match = match_services.create_match(user=users[0], game="hansa", players=3)
    for user in users[1:]:
        match_services.join_match(user=user, match_id=match.pk)
    clients = [make_auth_client(user) for user in users]
    kept = clients[0].get(match_url(match.pk, "legal-moves/")).json()["moves"][0]
    clients[0].post(match_url(match.pk, "moves/"), {"move": kept}, format="json")
    own = clients[0].get(match_url(match.pk, "events/")).json()["moves"][0]["events"]
    assert own[0] == {"type": "choice_made", "seat": 0, "choice": "keep", "move": kept}
    for reader in (clients[1], clients[2], api_client):
        shown = reader.get(match_url(match.pk, "events/")).json()["moves"][0]["events"]
        assert shown == [{"type": "choice_made", "seat": 0, "choice": "keep"}]
        assert all(card not in json.dumps(shown) for card in kept["cards"])
