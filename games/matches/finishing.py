"""A match's scoring as the worker runs it (games.matches.tasks.score_match): the results
written (games/matches/scoring.py), then, when some play socket follows the match, each
seat's last push handed to the play hubs ready-made, as a bot's move is
(games/matches/bot_moves.py).

Announced by ply alone, the end made every web process with a follower read the match,
its seats and incidents and build every follower's body itself (games/play/hub.py
``_refresh``): 1.2-1.4 ms of its CPU and two statements per match and process
(bench/match_life.py), and the load's matches end in waves. The worker has the finished
match in hand: it builds each seat's ``update`` once, from the same selectors
(games.matches.pushes.status_pushes).
"""

from __future__ import annotations

from typing import Any

from games.matches import play_announcements, pushes, scoring


def score_and_push(*, match_id: Any) -> bool:
    """Score the match (a no-op once finished: ``scoring.score_match``) and push its end
    to the play sockets that follow it. Returns True when results were written."""
    followed = play_announcements.followed_by_play_sockets(match_id)
    # The commit's group sends (the GraphQL subscribers, the players' feeds) go with the
    # publish, in one round trip; the end is not announced to the hubs by ply as well.
    with play_announcements.published_by_caller(match_id, followed=followed) as published:
        scored = scoring.scored_match(match_id=match_id)
        if followed and scored is not None:
            published.message = pushes.status_pushes(*scored)
    return scored is not None
