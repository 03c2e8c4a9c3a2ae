"""A match's life and its own record: creating, seating, starting, stopping and scoring
matches, the move service, and the checks and locks every writer of a match shares
(``guards``, ``setup_checks``).

The match's rows have their writers here only (docs/architecture.md, "one writer per
table"): ``services`` (moves and a match's life), ``scoring`` (results), and
``seat_changes`` (incidents, seat hand-overs to bots and back, clocks: the clocks
capability decides and asks it). The match's own record lives here too: its time control
(``time_controls``), its clocks' arithmetic (``seat_clock``) kept in step by every
writer (``clock_sync``), the incident log (``incidents``), forfeits in the result
(``outcome``), who played a seat (``seat_players``), which seat a player may take back
(``claims``) and their reads for the payloads (``clock_selectors``).

This package imports no other capability: its writers record one change per commit
(``changes``), and the outer capabilities that act on it (ratings, the feed, games/live/)
are connected to it at start-up by games/apps.py.
"""
