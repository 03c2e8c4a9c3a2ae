"""A bot's move in a match some play socket follows reaches the hubs with each seat's push
ready-made (games.live.fanout, games.live.frames.change_frames), so no web process
reads the match again; in a match nobody follows it is announced by ply, as before."""

from __future__ import annotations

import time

import orjson
import pytest

from games.live.channels import MATCH_UPDATE_TYPE, PLAY_PUSHES_TYPE
from games.live.followers import followed_by_play_sockets
from games.live.frames import SPECTATOR
from games.matches import bot_moves
from games.matches import services as match_services
from games.matches.models import Move
from tests.games import play_channel
from tests.games.support import assert_no_leak, known_card_ids, true_state

pytestmark = pytest.mark.django_db(transaction=True)


def _hansa_against_a_bot(make_user):
    ann = make_user()
    return ann, match_services.create_match(user=ann, game="hansa", players=2,
                                            bot_seats={1: "random"})


def test_nobody_follows_a_new_match(make_user):
    _ann, match = _hansa_against_a_bot(make_user)
    assert followed_by_play_sockets(match.pk) is False


def test_a_followed_bots_move_comes_with_each_seats_push(make_user):
    ann, match = _hansa_against_a_bot(make_user)
    client, channel = play_channel.listener(match.pk)
    try:
        assert followed_by_play_sockets(match.pk) is True
        assert bot_moves.play_bot_turn(match_id=match.pk, seat=1, ply=0) is True
        messages = play_channel.messages(channel, time.monotonic() + 2)
    finally:
        channel.close()
        client.close()
    kinds = [message["type"] for message in messages]
    assert kinds.count(PLAY_PUSHES_TYPE) == 1, kinds
    assert MATCH_UPDATE_TYPE not in kinds  # announced once, ready-made, never by ply too
    pushed = next(message for message in messages if message["type"] == PLAY_PUSHES_TYPE)
    move = Move.objects.get(match=match, ply=0)
    assert (pushed["match_id"], pushed["since"], pushed["ply"]) == (match.pk, 0, 1)
    assert set(pushed["frames"]) == {"0", "1", SPECTATOR}
    # each seat's frame comes encoded, as the hubs forward it
    bodies = {key: orjson.loads(text) for key, text in pushed["frames"].items()}
    assert {body["op"] for body in bodies.values()} == {"update"}
    ann_body = bodies["0"]
    assert ann_body["seat"] == 0 and ann_body["since"] == 0 and len(ann_body["moves"]) == 1
    # the person still owes the opening keep: their legal moves come with their push
    assert ann_body["legal_moves"] and 0 in ann_body["to_act"]
    assert bodies[SPECTATOR]["legal_moves"] is None
    # each body shows only what its reader may see: the bot's kept cards stay hidden
    # from the person and the spectators (move.seat is the bot's)
    assert move.seat == 1
    _stored, after = true_state(match.pk)
    for reader, key in ((0, "0"), (None, SPECTATOR)):
        assert_no_leak(bodies[key], game="hansa", state=after, seed=match.seed,
                       reader=reader, known=known_card_ids(match, 1, reader),
                       where=f"bot move push to {key}")
    assert ann.username in {seat.get("user") for seat in ann_body["seats"]}


def test_a_stale_answer_of_nobody_following_still_reaches_a_new_follower(make_user,
                                                                          monkeypatch):
    """A worker trusts its answer for a while (followers.FOLLOWED_ANSWER_SECONDS):
    a follower that arrives meanwhile is told of the bot's move by ply, as a REST move is
    announced, and once the answer expires it gets the pushes ready-made."""
    from games.live import followers

    _ann, match = _hansa_against_a_bot(make_user)
    assert followed_by_play_sockets(match.pk) is False  # remembered
    client, channel = play_channel.listener(match.pk)
    try:
        assert followed_by_play_sockets(match.pk) is False  # still the remembered answer
        assert bot_moves.play_bot_turn(match_id=match.pk, seat=1, ply=0) is True
        heard = play_channel.messages(channel, time.monotonic() + 2)
        kinds = [message["type"] for message in heard]
        assert kinds == [MATCH_UPDATE_TYPE], kinds
        # the answer expires: the worker asks again and hears of the follower
        monkeypatch.setattr(followers, "_answers", {})
        assert followed_by_play_sockets(match.pk) is True
    finally:
        channel.close()
        client.close()
