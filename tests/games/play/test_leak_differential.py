"""The differential leak test of the play socket: two matches with the same public history
and different hidden cards (a card of seat 1's hand swapped with one deep in the pile).
Everything a non-owner's socket receives (seat 0, and a spectator) must be the same for
both, frame for frame, while the two are played with the same public moves."""

from __future__ import annotations

import asyncio

import pytest

from games.matches import services as match_services
from games.matches.models import Match
from rules import get_engine
from tests.games.play.client import PlayClient

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

PLIES = 16


def _twin_with_other_cards(match_id: int, twin_id: int) -> None:
    """Give ``twin_id`` the state of ``match_id`` with seat 1's hidden cards changed."""
    engine = get_engine("han")
    state = engine.from_json(Match.objects.get(pk=match_id).state)
    hand, pile = state.hands[1], state.pile
    # the pile's top is its end: its bottom half is not drawn in this test
    swap, deep = next((index, depth) for depth in range(len(pile) // 2)
                      for index, card in enumerate(hand) if card != pile[depth])
    hand[swap], pile[deep] = pile[deep], hand[swap]
    hand.sort(key=state.board.color_index.__getitem__)
    Match.objects.filter(pk=twin_id).update(state=engine.to_json(state))


def _seeded_match(players, seed: str) -> int:
    """An active two-player Han match with a fixed deal (the test does not depend on luck)."""
    match = match_services.create_match(user=players[0].user, game="han", players=2,
                                        seed=seed)
    match_services.join_match(user=players[1].user, match_id=match.pk)
    return match.pk


def _normalised(frames: list[dict], match_id: int) -> list[dict]:
    def clean(value):
        if isinstance(value, dict):
            return {key: clean(item) for key, item in value.items()
                    if key not in ("created_at", "match", "request_id")}
        if isinstance(value, list):
            return [clean(item) for item in value]
        return value
    return [clean(frame) for frame in frames if frame.get("match") == str(match_id)]


def test_no_push_to_a_non_owner_differs_between_twins(web_tier, players):
    first, second = (_seeded_match(players, seed) for seed in ("twin-a", "twin-b"))
    _twin_with_other_cards(first, second)

    async def scenario():
        owner = await PlayClient.open(web_tier, players[1].token)  # seat 1: holds the secret
        mover = await PlayClient.open(web_tier, players[0].token)
        spectator = await PlayClient.open(web_tier, None)
        latest = {}
        for match_id in (first, second):
            for client in (owner, mover, spectator):
                latest[client, match_id] = await client.subscribe(match_id)
        for _ in range(PLIES):
            bodies = {match_id: latest[mover, match_id] for match_id in (first, second)}
            seat = bodies[first]["to_act"][0]
            client = mover if seat == 0 else owner
            # a move both matches allow (seat 1's hands differ by one card)
            options = [latest[client, match_id]["legal_moves"] for match_id in (first, second)]
            common = [move for move in options[0] if move in options[1]]
            place = [move for move in common if move["type"] == "place"]
            move = (place or common)[0]
            for match_id in (first, second):
                answer = await client.move(match_id, move, expected_ply=bodies[match_id]["ply"])
                assert answer["op"] == "ack", answer
                for reader in (owner, mover, spectator):
                    latest[reader, match_id] = await reader.next("update")
                    assert latest[reader, match_id]["match"] == str(match_id)
        for reader in (owner, mover, spectator):
            await reader.close()
        return mover.frames, spectator.frames, owner.frames

    seat0, watcher, owner = asyncio.run(scenario())
    for frames in (seat0, watcher):
        assert _normalised(frames, first) == _normalised(frames, second)
    # the test can fail: the owner of the changed hand does see a difference
    assert _normalised(owner, first) != _normalised(owner, second)
