"""A match's change becomes its public events once (games/webhooks/events.py
``change_events``): the webhooks and the players' channels (games/notifications/
fanout.py) both read that one list, and it is what the change's seats say."""

from __future__ import annotations

from dataclasses import replace

from games.matches import selectors
from games.matches import services as match_services
from games.matches.changes import ChangeKind, MatchChanged
from games.webhooks.events import change_events


def test_a_change_is_turned_into_events_once(make_user):
    ann, bob = make_user(), make_user()
    match = match_services.create_match(user=ann, game="hansa", players=2)
    match_services.join_match(user=bob, match_id=match.pk)
    match = selectors.get_match(match.pk)
    event = MatchChanged(kind=ChangeKind.STARTED, match_id=match.pk, ply=match.ply,
                         status=match.status, to_act=list(match.to_act), request_id=None,
                         match=match, seats=list(match.seats.all()))
    first = change_events(event)
    assert first[0] == ("match_started", sorted([ann.pk, bob.pk]),
                        {"match_id": match.pk, "game": "hansa"})
    assert change_events(event) is first  # the second reader gets the same list
    # a change of its own is worked out afresh, to the same events
    assert change_events(replace(event, derived={})) == first
