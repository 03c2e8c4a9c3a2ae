"""The admin replay page draws the board (games/boards: ``engine.render_svg`` of the
spectator view while the match runs, of everything once it has ended) above the JSON, for
both games, running and finished, and a running match's drawing shows nothing of any
seat's hand."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
from django.test import Client
from django.urls import reverse

from games.boards.labels import label_seats, seat_names
from games.matches import bot_moves, scoring, services
from games.matches import services as match_services
from games.matches.models import Match, MatchStatus
from rules import get_engine
from tests.games.support import TEST_SEED, assert_no_leak, known_card_ids

pytestmark = pytest.mark.django_db

SVG = "{http://www.w3.org/2000/svg}"
#: the classes the renderers give to cards drawn from a hand or a face-down pile
HAND_CLASSES = {"own-hand-card", "ended-hand-card", "hand-card", "face-down-card"}


@pytest.fixture
def admin_client(make_user) -> Client:
    client = Client()
    client.force_login(make_user(is_staff=True, is_superuser=True))
    return client


def running(make_user, game: str, moves: int) -> Match:
    """A 2-player match between two users after ``moves`` moves (first legal move each)."""
    users = [make_user(), make_user()]
    match = match_services.create_match(user=users[0], game=game, players=2, seed=TEST_SEED)
    match_services.join_match(user=users[1], match_id=match.pk)
    engine = get_engine(game)
    for _ in range(moves):
        state = engine.from_json(Match.objects.get(pk=match.pk).state)
        seat = engine.to_act(state)[0]
        services.submit_move(match_id=match.pk, user=users[seat],
                             move=engine.legal_moves(state, seat)[0])
    match = Match.objects.get(pk=match.pk)
    assert match.status == MatchStatus.ACTIVE and match.ply == moves
    return match


def finished(game: str) -> Match:
    match = match_services.create_match(user=None, game=game, players=2, take_seat=False,
                                        seed=TEST_SEED, bot_seats={0: "random", 1: "random"})
    match = Match.objects.get(pk=match.pk)
    engine = get_engine(game)
    # not transactional: the on-commit follow-ups do not run, so drive the bots here
    while match.status == MatchStatus.ACTIVE:
        seat = engine.to_act(engine.from_json(match.state))[0]
        bot_moves.play_bot_turn(match_id=match.pk, seat=seat, ply=match.ply)
        match = Match.objects.get(pk=match.pk)
    scoring.score_match(match_id=match.pk)
    return Match.objects.get(pk=match.pk)


def board_of(page) -> ET.Element:
    """The one SVG on the page, parsed (so it is well-formed as embedded)."""
    assert page.status_code == 200
    html = page.content.decode()
    found = re.findall(r'<div class="replay-board"[^>]*>(<svg\b.*?</svg>)</div>', html,
                       flags=re.DOTALL)
    assert len(found) == 1, "exactly one drawn board"
    assert html.index('class="replay-board"') < html.index("<pre"), "the board is above the JSON"
    return ET.fromstring(found[0])


def shown_as_leak_body(root: ET.Element, game: str) -> dict:
    """What the drawing shows, in the shape the leak checker reads: every word of its texts
    and attributes (Hansa card ids are words), and for Han, the cards drawn as a hand under
    the key ``hand`` (the checker allows none to a spectator)."""
    words = []
    for el in root.iter():
        words += re.findall(r"[\w-]+", " ".join([el.text or "", *el.attrib.values()]))
    body: dict = {"words": words}
    hand = [el.get("data-card") for el in root.iter(f"{SVG}rect")
            if HAND_CLASSES & set(el.get("class", "").split())]
    if game == "han" and hand:
        body["hand"] = hand
    return body


@pytest.mark.parametrize("game,moves", [("han", 5), ("hansa", 6)])
def test_running_match_board_shows_no_hand(admin_client, make_user, game, moves):
    match = running(make_user, game, moves)
    url = reverse("admin:games_match_replay", args=[match.pk])
    for ply in range(match.ply + 1):
        root = board_of(admin_client.get(url, {"ply": ply}))
        drawn_hands = [el for el in root.iter()
                       if HAND_CLASSES & set(el.get("class", "").split())]
        assert drawn_hands == []
        assert_no_leak(shown_as_leak_body(root, game), game=game, state=match.state,
                       seed=TEST_SEED, reader=None,
                       known=known_card_ids(match, ply, None) if game == "hansa" else (),
                       where=f"{game} admin board at ply {ply}")


@pytest.mark.parametrize("game", ["han", "hansa"])
def test_finished_match_board_is_drawn_at_every_ply_asked(admin_client, game):
    match = finished(game)
    assert match.status == MatchStatus.FINISHED
    url = reverse("admin:games_match_replay", args=[match.pk])
    start = board_of(admin_client.get(url, {"ply": 0}))
    end = board_of(admin_client.get(url))
    engine = get_engine(game)
    final_view = engine.full_view(engine.from_json(match.state))
    # the engine's drawing, with the players' names for "seat N" (games/boards/labels.py)
    drawn = label_seats(engine.render_svg(final_view), seat_names(match))
    drawn_root = ET.fromstring(drawn)
    # the page's drawing is that one, with a title and a description for screen readers
    for extra in end.findall(f"{SVG}title") + end.findall(f"{SVG}desc"):
        end.remove(extra)
    assert [ET.tostring(el) for el in end] == [ET.tostring(el) for el in drawn_root]
    assert "seat 0" not in drawn and "Seat 0" not in drawn
    assert ET.tostring(start) != ET.tostring(end)
    # the match has ended: every hand / face-down pile is drawn at every ply, the start too
    def hand_cards(root):
        return [el for el in root.iter() if HAND_CLASSES & set(el.get("class", "").split())]

    assert hand_cards(end) and hand_cards(start)
