"""What keeps a match moving: time controls and clocks, deadlines and their timeouts,
resignation, bot takeover and reclaim (docs/clocks.md).

- ``presets``: the time controls a match may be created with, and their validation;
- ``clock``: the arithmetic of one seat's clock (pure: no database, no Django);
- ``models``: ``Incident``, the append-only log of resignations, timeouts, takeovers...;
- ``outcome``: the one place forfeits are applied on top of the engine's result;
- ``claims``: which seat a bot holds for a player who may take it back (one rule for the
  match detail and the reclaim endpoint);
- ``seat_players``: who played a seat (its user, or the player a bot took it from), for
  ratings, profiles, exports, rematches and the feed;
- ``services``: the writers (under the match lock); ``selectors``: the reads;
- ``tasks``: the Celery deadline task and sweep, enqueued by name through games.dispatch.
"""
