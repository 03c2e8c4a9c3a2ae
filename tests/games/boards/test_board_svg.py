"""GET /api/v1/matches/{id}/board.svg: the board as the reader may see it (a seat's own
hand, never another's; a spectator only what is public; everything once the match has
ended), cached like the match's other polled reads, readable by a screen reader, and
refused with the API's stable codes (issue 22, item 5)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from rest_framework.test import APIClient

from games.clocks import services as clock_services
from games.matches import scoring, services
from games.matches.models import Match, MatchStatus
from games.matches.replay import replay_state
from rules import get_engine
from tests.games.support import TEST_SEED, assert_api_error, match_url

pytestmark = pytest.mark.django_db

SVG = "{http://www.w3.org/2000/svg}"
#: the classes the renderers give to cards drawn from a hand or a face-down pile
HAND_CLASSES = {"own-hand-card", "ended-hand-card", "hand-card", "face-down-card"}


def running(make_user, game: str, players: int = 3, moves: int = 0,
            names: list[str] | None = None, seed: str = TEST_SEED):
    users = [make_user(name) if name else make_user() for name in (names or [None] * players)]
    match = services.create_match(user=users[0], game=game, players=players, seed=seed)
    for other in users[1:]:
        services.join_match(user=other, match_id=match.pk)
    engine = get_engine(game)
    for _ in range(moves):
        state = engine.from_json(Match.objects.get(pk=match.pk).state)
        seat = engine.to_act(state)[0]
        services.submit_move(match_id=match.pk, user=users[seat],
                             move=engine.legal_moves(state, seat)[0])
    match = Match.objects.get(pk=match.pk)
    assert match.status == MatchStatus.ACTIVE and match.ply == moves
    return match, users


def board(client, match_id, **params):
    response = client.get(match_url(match_id, "board.svg"), params)
    assert response.status_code == 200, response.content[:300]
    assert response["Content-Type"].startswith("image/svg+xml")
    return response


def root_of(response) -> ET.Element:
    return ET.fromstring(response.content)


def cards(root: ET.Element, cls: str) -> list[str]:
    return [el.get("data-card") or el.get("data-id") for el in root.iter()
            if cls in (el.get("class") or "").split()]


def hand_cards(root: ET.Element) -> list[ET.Element]:
    return [el for el in root.iter() if HAND_CLASSES & set((el.get("class") or "").split())]


@pytest.mark.parametrize("game", ["han", "hansa"])
def test_a_seat_sees_its_own_hand_and_a_spectator_none(make_user, make_auth_client, game):
    match, users = running(make_user, game)
    state = get_engine(game).from_json(match.state)
    mine = root_of(board(make_auth_client(users[1]), match.pk))
    drawn = hand_cards(mine)
    assert drawn, "the seat's own hand is drawn"
    assert {el.get("data-card") or el.get("data-id") for el in drawn} <= set(state.hands[1])
    if game == "hansa":  # card ids are unique: nothing of another seat's hand is in it
        text = ET.tostring(mine, encoding="unicode")
        assert not [card for seat in (0, 2) for card in state.hands[seat] if card in text]
    spectator = root_of(board(APIClient(), match.pk))
    assert not hand_cards(spectator)


@pytest.mark.parametrize("game", ["han", "hansa"])
def test_title_description_and_names_for_screen_readers(make_user, make_auth_client, game):
    match, users = running(make_user, game, names=["ada", "bruno", "chen"])
    root = root_of(board(make_auth_client(users[2]), match.pk))
    assert root.get("role") == "img"
    assert root.get("aria-labelledby") == "board-title"
    assert root.get("aria-describedby") == "board-desc"
    title, desc = root.find(f"{SVG}title"), root.find(f"{SVG}desc")
    assert list(root)[:2] == [title, desc]  # first children, as assistive tools expect
    assert title.text == (f"{get_engine(game).title} after ply 0 of 0, as chen (seat 2) "
                          f"sees it")
    # the description is the drawing's own words, with players' names for their seats
    assert desc.text.startswith("What the picture shows: ")
    assert "ada" in desc.text and "bruno" in desc.text
    assert "seat 1" not in desc.text.lower().replace("(seat 2)", "")
    anonymous = root_of(board(APIClient(), match.pk)).find(f"{SVG}title").text
    assert anonymous.endswith("as a spectator sees it")


def _hide_differently(game: str, state):
    """The same position with the hidden cards of seats 1 and 2 swapped and the decks
    reversed: nothing public changes (hand sizes are equal at the start)."""
    other = state.copy()
    if game == "han":
        other.hands[1], other.hands[2] = state.hands[2][:], state.hands[1][:]
        other.pile = list(reversed(state.pile))
    else:
        other.hands[1], other.hands[2] = list(state.hands[2]), list(state.hands[1])
        other.normal_deck = list(reversed(state.normal_deck))
    return other


@pytest.mark.parametrize("game", ["han", "hansa"])
def test_leak_differential_equal_public_different_hidden(make_user, make_auth_client, game):
    """Two matches with the same public history and different hidden cards draw the same
    picture for everyone who may not see those cards, byte for byte, before the end."""
    engine = get_engine(game)
    names = ["dora", "emil", "fay"]
    first, users = running(make_user, game, names=names)
    second = services.create_match(user=users[0], game=game, players=3, seed=TEST_SEED)
    for other in users[1:]:
        services.join_match(user=other, match_id=second.pk)
    state = engine.from_json(first.state)
    changed = _hide_differently(game, state)
    assert engine.view(changed, 0) == engine.view(state, 0)  # only hidden cards differ
    assert engine.view(changed, 1) != engine.view(state, 1)
    Match.objects.filter(pk=second.pk).update(state=engine.to_json(changed))

    for client in (APIClient(), make_auth_client(users[0])):
        assert board(client, first.pk).content == board(client, second.pk).content
    # the owner of a changed hand sees it: the comparison above can fail
    owner = make_auth_client(users[1])
    assert board(owner, first.pk).content != board(owner, second.pk).content


@pytest.mark.parametrize("game", ["han", "hansa"])
def test_everything_is_drawn_at_every_ply_once_the_match_has_ended(make_user, make_auth_client,
                                                                     game):
    match, users = running(make_user, game, players=2, moves=2)
    before = root_of(board(APIClient(), match.pk, ply=1))
    assert not hand_cards(before)
    clock_services.resign(user=users[0], match_id=match.pk)  # one seat left: it ends
    scoring.score_match(match_id=match.pk)  # not transactional: the on-commit scoring does not run
    match = Match.objects.get(pk=match.pk)
    assert match.status == MatchStatus.FINISHED
    after = root_of(board(APIClient(), match.pk, ply=1))
    # every seat's hand, in the spectator's picture too, at a ply before the end
    at_ply_1 = replay_state(match, 1)
    every_hand = [card for hand in at_ply_1.hands for card in hand]
    assert every_hand
    drawn_class = "ended-hand-card" if game == "han" else "hand-card"
    assert cards(after, drawn_class) == every_hand
    # a seat of the ended match sees the same: everything
    seat_view = root_of(board(make_auth_client(users[1]), match.pk, ply=1))
    assert cards(seat_view, drawn_class) == every_hand
    assert root_of(board(APIClient(), match.pk)).find(f"{SVG}title").text.endswith(
        "everything shown: the match has ended")


def test_etag_per_viewer_304_and_a_new_tag_after_a_move(make_user, make_auth_client):
    match, users = running(make_user, "han")
    seat0, seat1 = make_auth_client(users[0]), make_auth_client(users[1])
    first = board(seat0, match.pk)
    tag = first["ETag"]
    assert first["Cache-Control"] == "private, no-cache"
    assert "Accept-Language" in first["Vary"]
    assert board(seat1, match.pk)["ETag"] != tag  # another picture for another seat
    assert board(seat0, match.pk, ply=0)["ETag"] != tag  # another path
    again = seat0.get(match_url(match.pk, "board.svg"), HTTP_IF_NONE_MATCH=tag)
    assert again.status_code == 304 and again["ETag"] == tag and not again.content
    engine = get_engine("han")
    state = engine.from_json(match.state)
    seat = engine.to_act(state)[0]
    services.submit_move(match_id=match.pk, user=users[seat],
                         move=engine.legal_moves(state, seat)[0])
    moved = seat0.get(match_url(match.pk, "board.svg"), HTTP_IF_NONE_MATCH=tag)
    assert moved.status_code == 200 and moved["ETag"] != tag


def test_refusals_have_stable_codes(make_user, make_auth_client):
    match, users = running(make_user, "han", moves=1)
    client = make_auth_client(users[0])
    url = match_url(match.pk, "board.svg")
    for bad in ("x", "-1", "2", "1.5", ""):
        assert_api_error(client.get(url, {"ply": bad}), 400, "invalid_ply")
    # even a client holding any tag: the bad ply is refused, not answered 304
    assert_api_error(client.get(url, {"ply": "9"}, HTTP_IF_NONE_MATCH="*"), 400, "invalid_ply")
    assert_api_error(client.get(url, {"plies": "1"}), 400, "invalid_request")
    assert_api_error(client.get(match_url(999999, "board.svg")), 404, "match_not_found")
    assert_api_error(client.get(match_url("abc", "board.svg")), 404, "match_not_found")
    waiting = services.create_match(user=users[0], game="han", players=3, seed=TEST_SEED)
    assert_api_error(client.get(match_url(waiting.pk, "board.svg")), 409, "match_not_active")
    # an image client's Accept header still gets the error in the API's JSON shape
    assert_api_error(client.get(url, {"ply": "x"}, HTTP_ACCEPT="image/svg+xml"), 400,
                     "invalid_ply")
    assert board(client, match.pk, ply=0).status_code == 200
    assert client.get(url, HTTP_ACCEPT="image/svg+xml").status_code == 200


def test_a_private_match_is_drawn_for_whoever_may_open_it(make_user, make_auth_client):
    """The same access as ``GET /matches/{id}/``: a private match is unlisted, not secret
    (docs/lobby.md); its board shows a stranger what a spectator sees."""
    from games.lobby import services as lobby_services

    alice, bob, stranger = make_user(), make_user(), make_user()
    match, _code = lobby_services.create_private_match(user=alice, game="hansa", players=2,
                                                       invite=[bob.username])
    assert_api_error(APIClient().get(match_url(match.pk, "board.svg")), 409,
                     "match_not_active")
    lobby_services.accept_invitation(user=bob, invitation_id=match.invitations.get().pk)
    assert Match.objects.get(pk=match.pk).status == MatchStatus.ACTIVE
    client = make_auth_client(stranger)
    assert client.get(match_url(match.pk)).status_code == 200
    assert not hand_cards(root_of(board(client, match.pk)))
    assert hand_cards(root_of(board(make_auth_client(bob), match.pk)))


def test_graphql_gives_the_pictures_path(make_user, make_auth_client):
    from tests.games.graphql.support import gql

    match, users = running(make_user, "han", moves=1)
    query = """query($id: ID!, $ply: Int) { match(id: $id) { boardSvgUrl(ply: $ply) } }"""
    latest = gql(query, {"id": str(match.pk)})["data"]["match"]["boardSvgUrl"]
    assert latest == f"/api/v1/matches/{match.pk}/board.svg"
    earlier = gql(query, {"id": str(match.pk), "ply": 0})["data"]["match"]["boardSvgUrl"]
    assert earlier == f"/api/v1/matches/{match.pk}/board.svg?ply=0"
    assert board(make_auth_client(users[0]), match.pk, ply=0).content  # the path works
    refused = gql(query, {"id": str(match.pk), "ply": 5})
    assert refused["errors"][0]["extensions"]["code"] == "invalid_ply"
