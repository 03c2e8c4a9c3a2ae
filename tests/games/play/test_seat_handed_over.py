"""A player whose seat passes to a bot while their socket stays open is, from then on, a
spectator on that socket: every frame it receives is what a spectator's socket receives
(the seat's hand and legal moves go to nobody). An outside probe saw the former player's
socket keep the bot's hand in 5 of 46 hand-overs: a bot's ready-made frames reached the
hub before the re-read that followed the hand-over, and the hub picked the frame by the
seat it remembered (games/play/hub.py now picks it by the seat the user held at the change,
and its resync compares seats too).

Three seats of Han: two people and a bot. The person to act runs out of time (a realtime
clock of two seconds); the clock hands their seat to a bot (games.clocks.services
``enforce_deadlines``, called here as the deadline task would). Then bots (played by this
process, as the worker would, so their frames come ready-made over Pub/Sub) and the other
person (over their socket) play on. The production web tier serves the sockets: two
processes, so frames cross processes."""

from __future__ import annotations

import asyncio

import pytest

from games.clocks import services as clock_services
from games.matches import bot_moves
from games.matches import services as match_services
from games.matches.models import Match
from rules import get_engine
from tests.games.play.client import PlayClient
from tests.games.support import assert_no_leak

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

PLIES_AFTER = 12
#: what a reader's picture is, beside the bookkeeping of how it was sent
SHOWN = ("ply", "status", "seat", "to_act", "seats", "view", "legal_moves")


def _match(players) -> int:
    match = match_services.create_match(
        user=players[0].user, game="han", players=3, options={"map": "border-disputes"},
        bot_seats={2: "random"},
        time_control={"kind": "realtime", "initial_seconds": 2, "increment_seconds": 60,
                      "takeover_bot": "random"})
    match_services.join_match(user=players[1].user, match_id=match.pk)
    return match.pk


def _to_act(match_id: int) -> tuple[Match, int]:
    match = Match.objects.get(pk=match_id)
    return match, get_engine("han").to_act(get_engine("han").from_json(match.state))[0]


def _bots_play(match_id: int) -> None:
    """Play the bot seats' turns (as the worker would) until a person is to act."""
    while True:
        match, seat = _to_act(match_id)
        if match.status != "active" or not match.seats.get(position=seat).bot_kind:
            return
        bot_moves.play_bot_turn(match_id=match_id, seat=seat, ply=match.ply)


def _picture(frame: dict) -> dict:
    return {key: frame.get(key) for key in SHOWN}


async def _updates_until(client: PlayClient, ply: int) -> dict[int, dict]:
    """Every update ``client`` gets until one shows ``ply``: the last picture per ply."""
    seen: dict[int, dict] = {}
    while ply not in seen:
        frame = await client.next("update", timeout=15)
        seen[frame["ply"]] = frame
    return seen


def test_a_player_whose_seat_timed_out_to_a_bot_sees_what_a_spectator_sees(
        web_tier, players, queues):
    match_id = _match(players)
    _bots_play(match_id)
    _match_now, former = _to_act(match_id)  # the person to act: their clock runs
    by_seat = {0: players[0], 1: players[1]}
    other = by_seat[1 - former]

    async def scenario():
        former_socket = await PlayClient.open(web_tier, by_seat[former].token)
        other_socket = await PlayClient.open(web_tier, other.token)
        spectator = await PlayClient.open(web_tier, None)
        latest_other = None
        for client in (former_socket, other_socket, spectator):
            sync = await client.subscribe(match_id)
            latest_other = sync if client is other_socket else latest_other
        await asyncio.sleep(2.2)  # the former player's two seconds run out
        assert await asyncio.to_thread(clock_services.enforce_deadlines,
                                       match_id=match_id) == 1
        handed_over_at = (await asyncio.to_thread(Match.objects.get, pk=match_id)).ply
        target = handed_over_at + PLIES_AFTER
        while True:
            match, seat = await asyncio.to_thread(_to_act, match_id)
            if match.ply >= target or match.status != "active":
                break
            if seat == 1 - former:  # the other person moves over their socket
                while latest_other["ply"] < match.ply:
                    latest_other = await other_socket.next("update", "sync")
                answer = await other_socket.move(match_id, latest_other["legal_moves"][0],
                                                 expected_ply=match.ply)
                assert answer["op"] == "ack", answer
            else:  # a bot's seat: the bot that took the former player's, or seat 2
                await asyncio.to_thread(bot_moves.play_bot_turn, match_id=match_id,
                                        seat=seat, ply=match.ply)
        final = (await asyncio.to_thread(Match.objects.get, pk=match_id)).ply
        shown = [await _updates_until(client, final) for client in (former_socket, spectator)]
        for client in (former_socket, other_socket, spectator):
            await client.close()
        return handed_over_at, final, shown

    handed_over_at, final, (former_saw, spectator_saw) = asyncio.run(scenario())
    assert final >= handed_over_at + 4, "the bots and the other person played on"
    after = [ply for ply in former_saw if ply > handed_over_at]
    assert after and after == sorted(after)
    for ply in after:
        assert former_saw[ply]["seat"] is None and former_saw[ply]["legal_moves"] is None
        if ply in spectator_saw:
            assert _picture(former_saw[ply]) == _picture(spectator_saw[ply]), ply
    assert _picture(former_saw[final]) == _picture(spectator_saw[final])
    # nothing of the hand the bot now holds (nor any other) reaches the former player
    match = Match.objects.get(pk=match_id)
    assert_no_leak(former_saw[final], game="han", state=match.state, seed=match.seed,
                   reader=None, where="the former player's last update")
