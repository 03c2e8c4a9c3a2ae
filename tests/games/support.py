"""Helpers shared by the tests under tests/games: eager Celery, playing over HTTP, and the
leak checker that builds its forbidden strings from the true (hidden) state.
"""

from __future__ import annotations

import base64
import contextlib
import json
from typing import Any

from config.celery import app as celery_app
from games.matches import selectors, services
from games.matches.models import Match, MatchStatus, Move, Seat
from games.matches.replay import iter_replay
from infra.background_sends import wait_until_sent
from rules import get_engine

API = "/api/v1"

#: a seed nobody could find in a response by chance
TEST_SEED = "seed-7f3a9c1e5b2d4f60"

#: where test tasks go: never the development worker's Redis db and queues
TEST_QUEUE = "test_games"
TEST_BOT_QUEUE = "test_bots"
TEST_ANALYSIS_QUEUE = "test_analysis"


def isolate_test_celery() -> None:
    """Point this process's Celery at the test broker db and queue (idempotent)."""
    from django.conf import settings

    base = settings.REDIS_URL.rsplit("/", 1)[0]
    celery_app.conf.broker_url = f"{base}/5"
    celery_app.conf.task_default_queue = TEST_QUEUE
    celery_app.conf.task_routes = {"games.tasks.play_bot_turn": {"queue": TEST_BOT_QUEUE},
                                   "games.analysis.tasks.*": {"queue": TEST_ANALYSIS_QUEUE}}


def queued_tasks() -> list[tuple[str, list]]:
    """(task name, args) of every message waiting in the test queues, oldest first, once
    this process's sender thread has sent what it was handed (infra/background_sends.py)."""
    assert wait_until_sent()
    found = []
    with celery_app.connection_for_write() as conn:
        client = conn.default_channel.client
        for queue in (TEST_QUEUE, TEST_BOT_QUEUE):
            # kombu LPUSHes and consumers BRPOP: the oldest message is at the right end
            for raw in reversed(client.lrange(queue, 0, -1)):
                message = json.loads(raw)
                body = json.loads(base64.b64decode(message["body"]))
                found.append((message["headers"]["task"], body[0]))
    return found


@contextlib.contextmanager
def eager_celery():
    """Run Celery tasks inline (bots and scoring play inside the request's on-commit)."""
    conf = celery_app.conf
    previous = (conf.task_always_eager, conf.task_eager_propagates)
    conf.task_always_eager, conf.task_eager_propagates = True, True
    try:
        yield
    finally:
        conf.task_always_eager, conf.task_eager_propagates = previous


def row_counts() -> tuple[int, int, int]:
    """Matches, seats and moves in the database: equal before and after a refused request
    means the request wrote nothing."""
    return Match.objects.count(), Seat.objects.count(), Move.objects.count()


def assert_api_error(response, status: int, code: str) -> dict:
    """The response is the one error shape (docs/architecture.md, "The HTTP surface") with
    ``code``; returns the error."""
    assert response.status_code == status, (response.status_code, response.content[:300])
    body = response.json()
    assert set(body) == {"error"}
    assert body["error"]["code"] == code, body
    assert body["error"]["message"]
    assert isinstance(body["error"]["details"], dict)
    return body["error"]


def every_row(client, url: str) -> list:
    """Every row of a REST list, following its pages' ``next`` links (docs/api.md, lists)."""
    rows: list = []
    while url:
        body = client.get(url).json()
        rows.extend(body["results"])
        url = body["next"]
    return rows


def match_url(match_id: Any, suffix: str = "") -> str:
    return f"{API}/matches/{match_id}/{suffix}"


def default_options(game: str, players: int) -> dict:
    return get_engine(game).normalize_options(players, {})


def true_state(match_id: int):
    match = Match.objects.get(pk=match_id)
    return match, match.state


def play_human_turns(
    clients_by_seat: dict, match_id: int, *, max_moves: int = 2000, must_end: bool = True
) -> int:
    """Drive every human seat over HTTP, always choosing the first legal move listed by
    /legal-moves/ (bots answer inside the same requests), until the match leaves
    ``active``, or after ``max_moves`` moves when ``must_end`` is off. Returns the number
    of human moves made."""
    made = 0
    for _ in range(max_moves):
        detail = clients_by_seat[next(iter(clients_by_seat))].get(match_url(match_id)).json()
        if detail["status"] != "active":
            return made
        movers = [seat for seat in detail["to_act"] if seat in clients_by_seat]
        assert movers, f"no human to act and the match is stuck: {detail['to_act']}"
        client = clients_by_seat[movers[0]]
        legal = client.get(match_url(match_id, "legal-moves/")).json()
        assert legal["moves"], legal
        response = client.post(
            match_url(match_id, "moves/"),
            {"move": legal["moves"][0], "expected_ply": legal["ply"]},
            format="json",
        )
        assert response.status_code == 201, response.json()
        made += 1
    if must_end:
        raise AssertionError("the match did not end")
    return made


def play_to_end(match_id: int, users_by_seat: dict) -> Match:
    """Through the services (faster than HTTP): every human seat plays its first legal
    move until the match is over (bots answer inline); scoring and rating run on commit."""
    with eager_celery():
        for _ in range(3000):
            match = selectors.get_match(match_id)
            if match.status != MatchStatus.ACTIVE:
                break
            seat = next(seat for seat in selectors.to_act_of(match) if seat in users_by_seat)
            moves = selectors.legal_moves_for(match, users_by_seat[seat])["moves"]
            services.submit_move(match_id=match_id, user=users_by_seat[seat], move=moves[0])
    return Match.objects.get(pk=match_id)


# -- leak checking ------------------------------------------------------------------------------
def _walk(value: Any, key: str | None = None):
    yield key, value
    if isinstance(value, dict):
        for child_key, child in value.items():
            yield from _walk(child, child_key)
    elif isinstance(value, list):
        for child in value:
            yield from _walk(child, key)


def _han_hidden(state: dict, reader: int | None) -> tuple[list[str], list[list]]:
    """Han: the draw pile's order and every other seat's hand are hidden."""
    strings = []
    pile = state.get("pile", [])
    if len(pile) >= 6:  # a run of six colours cannot appear by chance
        strings.append(json.dumps(pile))
    return strings, [hand for seat, hand in enumerate(state["hands"]) if seat != reader]


def _hansa_hidden(state: dict, reader: int | None, known: set[str]) -> list[str]:
    """Hansa: card ids are unique, so an id in another seat's hand or face-down pile, or
    in a draw deck, must not appear at all, unless the reader already saw it legitimately
    (it lay face up on a row or a table, or passed through the reader's own hand)."""
    ids: list[str] = []
    for seat in range(len(state["hands"])):
        if seat != reader:
            ids.extend(state["hands"][seat])
            ids.extend(state["face_down"][seat])
    ids.extend(state.get("normal_deck", []))
    ids.extend(state.get("luxury_deck", []))
    return [json.dumps(card_id) for card_id in ids if card_id not in known]


def known_card_ids(match, upto: int, reader: int | None) -> set[str]:
    """Hansa card ids ``reader`` has seen by ply ``upto``, from the true states along the
    log: every card that lay in a row or face up, and every card of the reader's own hand
    or face-down pile."""
    engine = get_engine(match.game)
    known: set[str] = set()
    for ply, _seat, _move, state in iter_replay(match):
        if ply > upto:
            break
        data = engine.to_json(state)
        for row in data["rows"]:
            known.update(row)
        for face_up in data["face_up"]:
            known.update(face_up)
        if reader is not None:
            known.update(data["hands"][reader])
            known.update(data["face_down"][reader])
    return known


#: keys of the true state that name hidden collections; no response may carry them
_HIDDEN_KEYS = {"hands", "pile", "normal_deck", "luxury_deck", "rng"}


def assert_no_leak(body: Any, *, game: str, state: dict, seed: str, reader: int | None,
                   known: set[str] = frozenset(), where: str = "") -> None:
    """Fail if ``body`` (a parsed JSON response) shows hidden information of ``state`` to
    ``reader`` (a seat, or None for a spectator): the seed, deck / pile order, another
    seat's hand or face-down cards. ``known``: Hansa card ids the reader saw legitimately
    (``known_card_ids``)."""
    text = json.dumps(body)
    assert seed not in text, f"{where}: the seed leaked"
    if game == "han":
        strings, _other_hands = _han_hidden(state, reader)
    else:
        strings = _hansa_hidden(state, reader, set(known))
    for forbidden in strings:
        assert forbidden not in text, f"{where}: hidden {forbidden[:60]} leaked to {reader}"
    own_hand = state["hands"][reader] if reader is not None else None
    for key, value in _walk(body):
        assert key not in _HIDDEN_KEYS, f"{where}: hidden key {key!r} shown to {reader}"
        if key == "hand" and game == "han" and isinstance(value, list):
            # Han cards are colours, so compare whole hands: only the reader's own.
            assert value == own_hand, f"{where}: a hand other than seat {reader}'s: {value}"
