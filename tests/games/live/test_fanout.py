"""What goes out after a commit (games/live/fanout.py), against the real Redis: a change
nobody follows over a socket is announced by ply to the match's channel-layer group (the
GraphQL subscribers), with the feed pushes its writer gathered; a change some play socket
follows comes with each seat's frames and who held which seat; and an unreachable Redis
costs the change nothing."""

from __future__ import annotations

import asyncio
import time

import pytest
from asgiref.sync import async_to_sync
from channels.layers import channel_layers, get_channel_layer
from django.test import override_settings

from games.live.channels import MATCH_UPDATE_TYPE, PLAY_PUSHES_TYPE, match_group_name
from games.matches import services as match_services
from games.matches.models import Match, Move
from infra.background_sends import wait_until_sent
from rules import get_engine
from tests.games import play_channel

pytestmark = pytest.mark.django_db(transaction=True)


def _two_players(make_user):
    ann, bob = make_user(), make_user()
    match = match_services.create_match(user=ann, game="hansa", players=2)
    match_services.join_match(user=bob, match_id=match.pk)
    return ann, bob, match


def _first_move(match_id: int, players) -> tuple:
    """The first legal move of whoever of ``players`` (by seat) is to act; returns
    (mover, the other)."""
    engine = get_engine("hansa")
    state = engine.from_json(Match.objects.get(pk=match_id).state)
    seat = engine.to_act(state)[0]
    match_services.submit_move(match_id=match_id, user=players[seat],
                               move=engine.legal_moves(state, seat)[0])
    return players[seat], players[1 - seat]


async def _receive(layer, channel, seconds: float = 5.0):
    return await asyncio.wait_for(layer.receive(channel), seconds)


def test_a_change_nobody_follows_is_announced_by_ply_with_its_feed_pushes(make_user):
    ann, bob, match = _two_players(make_user)
    layer = get_channel_layer()
    subscriber = async_to_sync(layer.new_channel)()
    feeds = {user.pk: async_to_sync(layer.new_channel)() for user in (ann, bob)}
    async_to_sync(layer.group_add)(match_group_name(match.pk), subscriber)
    for user_id, feed in feeds.items():
        async_to_sync(layer.group_add)(f"feed-{user_id}", feed)
    try:
        _mover, waiting = _first_move(match.pk, [ann, bob])
        announced = async_to_sync(_receive)(layer, subscriber)
        fed = async_to_sync(_receive)(layer, feeds[waiting.pk])
    finally:
        async_to_sync(layer.group_discard)(match_group_name(match.pk), subscriber)
        for user_id, feed in feeds.items():
            async_to_sync(layer.group_discard)(f"feed-{user_id}", feed)
    # nothing hidden: the match, its ply and status; each subscriber reads as itself
    assert announced == {"type": MATCH_UPDATE_TYPE, "match_id": match.pk, "ply": 1,
                         "status": "active", "request_id": None}
    assert fed == {"type": "feed.event", "user_id": waiting.pk}


def test_a_followed_change_comes_with_every_seats_frames_and_their_holders(make_user):
    ann, bob, match = _two_players(make_user)
    client, channel = play_channel.listener(match.pk)
    try:
        _first_move(match.pk, [ann, bob])
        heard = play_channel.messages(channel, time.monotonic() + 2)
    finally:
        channel.close()
        client.close()
    assert [message["type"] for message in heard] == [PLAY_PUSHES_TYPE]
    pushed = heard[0]
    assert (pushed["since"], pushed["ply"]) == (0, 1)
    assert pushed["holders"] == {str(ann.pk): 0, str(bob.pk): 1}
    assert Move.objects.filter(match=match).count() == 1


@override_settings(CHANNEL_LAYERS={"default": {
    "BACKEND": "infra.channel_layer.ResilientRedisChannelLayer",
    "CONFIG": {"hosts": ["redis://127.0.0.1:1/0"]},
}})
def test_an_unreachable_redis_costs_the_change_nothing(make_user, caplog):
    channel_layers.backends.clear()
    try:
        ann, bob, match = _two_players(make_user)
        _first_move(match.pk, [ann, bob])
        assert wait_until_sent()
    finally:
        channel_layers.backends.clear()
    assert Move.objects.filter(match=match).count() == 1  # committed, whatever Redis did
    assert "could not ask about groups" in caplog.text
