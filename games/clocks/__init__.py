"""What keeps a match moving: deadlines and their timeouts, resignation, bot takeover and
reclaim, the admin's add-time and hand-overs (docs/clocks.md).

The clocks decide and schedule; the match writes. The match's own record (its time
control and clocks, their arithmetic and ``sync_clocks``, the incident log, forfeits in
the result, who played a seat, which seat a player may take back) lives in
``games.matches`` (``time_controls``, ``seat_clock``, ``clock_sync``, ``incidents``,
``outcome``, ``seat_players``, ``claims``, ``clock_selectors``), and every write to a
match, its seats or its incidents goes through ``games.matches.seat_changes``. This
package imports games/matches and no outer capability (docs/architecture.md).

- ``services``: the decisions, each under the match lock (timeouts, resign, reclaim,
  add time, hand a seat to a bot or back, a leaver's seats);
- ``errors``: their errors;
- ``tasks``: the Celery deadline task and sweep, enqueued by name through games.dispatch.
"""
