"""The end of a match some play socket follows reaches the hubs with each seat's last push
ready-made by the worker that scored it (games.matches.scoring's change, built by
games.live.fanout), so no web process reads the finished match; each frame is what a hub
reading the database would have sent that seat. A match nobody follows is announced by
ply, as before, and a repeated scoring pushes nothing."""

from __future__ import annotations

import time

import orjson
import pytest

from games.clocks import services as clock_services
from games.live import frames
from games.live.channels import MATCH_UPDATE_TYPE, PLAY_PUSHES_TYPE
from games.live.followers import followed_by_play_sockets
from games.live.frames import SPECTATOR
from games.matches import scoring
from games.matches import services as match_services
from games.matches.models import Match, MatchStatus, Result
from infra import wire
from tests.games import play_channel

pytestmark = pytest.mark.django_db(transaction=True)


def _resigned_against_a_bot(make_user, game: str) -> Match:
    """A two-seat match whose person resigned: over, waiting for its scoring."""
    ann = make_user()
    match = match_services.create_match(user=ann, game=game, players=2,
                                        bot_seats={1: "random"})
    clock_services.resign(user=ann, match_id=match.pk)
    match.refresh_from_db()
    assert match.status == MatchStatus.SCORING
    return match


def _as_a_hub_reads_it(match_id: int, seat: int | None) -> dict:
    """The ``update`` a hub would build for ``seat`` from one read of the finished match
    (games/play/operations.py ``bodies_from_database``), as it goes over the wire."""
    finished = Match.objects.get(pk=match_id)
    match, state, moves = frames.load_since(match_id, finished.ply)
    return orjson.loads(wire.frame("update", **frames.seat_body(match, state, moves, seat,
                                                                finished.ply)))


@pytest.mark.parametrize("game", ["han", "hansa"])
def test_a_followed_matchs_end_comes_with_each_seats_push(make_user, game):
    match = _resigned_against_a_bot(make_user, game)
    client, channel = play_channel.listener(match.pk)
    try:
        assert followed_by_play_sockets(match.pk) is True
        assert scoring.score_match(match_id=match.pk) is True
        messages = play_channel.messages(channel, time.monotonic() + 2)
        # a retried scoring task writes nothing and pushes nothing
        assert scoring.score_match(match_id=match.pk) is False
        again = play_channel.messages(channel, time.monotonic() + 1)
    finally:
        channel.close()
        client.close()
    kinds = [message["type"] for message in messages]
    assert kinds == [PLAY_PUSHES_TYPE], kinds  # ready-made, never by ply too
    assert again == []
    finished = Match.objects.get(pk=match.pk)
    assert finished.status == MatchStatus.FINISHED
    assert Result.objects.filter(match=finished).count() == 2
    pushed = messages[0]
    assert (pushed["match_id"], pushed["since"], pushed["ply"], pushed["status"]) == \
        (match.pk, finished.ply, finished.ply, MatchStatus.FINISHED)
    assert set(pushed["frames"]) == {"0", "1", SPECTATOR}
    for key, seat in (("0", 0), ("1", 1), (SPECTATOR, None)):
        body = orjson.loads(pushed["frames"][key])
        body.pop("request_id", None)  # the scoring task's, where it has one
        assert body["status"] == MatchStatus.FINISHED and body["moves"] == []
        assert body["legal_moves"] is None and body["to_act"] == []
        # exactly what the hub's own read would have shown this seat: no more, no less
        assert body == _as_a_hub_reads_it(match.pk, seat), key


def test_an_end_nobody_follows_is_announced_by_ply(make_user):
    match = _resigned_against_a_bot(make_user, "hansa")
    assert followed_by_play_sockets(match.pk) is False  # the worker's remembered answer
    client, channel = play_channel.listener(match.pk)
    try:
        assert scoring.score_match(match_id=match.pk) is True
        messages = play_channel.messages(channel, time.monotonic() + 2)
    finally:
        channel.close()
        client.close()
    assert [message["type"] for message in messages] == [MATCH_UPDATE_TYPE]
    assert (messages[0]["ply"], messages[0]["status"]) == (match.ply, MatchStatus.FINISHED)
