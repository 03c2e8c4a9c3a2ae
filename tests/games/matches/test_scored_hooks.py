"""Ratings hear of a scored match through the registry games/apps.py fills at start-up
(games/matches/scored_hooks.py), so games/matches imports no ratings: the receivers run
in registration order, once each however often they were registered."""

from __future__ import annotations

from games.matches import scored_hooks
from games.ratings.services import rate_scored_match


def test_ratings_are_registered_at_start_up():
    assert rate_scored_match in scored_hooks.receivers()


def test_receivers_run_in_order_once_each(monkeypatch):
    monkeypatch.setattr(scored_hooks, "_receivers", [])
    heard = []

    def first(match, ranks):
        heard.append(("first", match, ranks))

    def second(match, ranks):
        heard.append(("second", match, ranks))

    scored_hooks.on_match_scored(first)
    scored_hooks.on_match_scored(second)
    scored_hooks.on_match_scored(first)  # ready() may run again: still once
    scored_hooks.match_scored("the match", {0: 1, 1: 2})
    assert heard == [("first", "the match", {0: 1, 1: 2}),
                     ("second", "the match", {0: 1, 1: 2})]
