"""What keeps a match moving: time controls and clocks, deadlines and their timeouts,
resignation, bot takeover and reclaim (docs/clocks.md).

- ``presets``: the time controls a match may be created with, and their validation;
- ``clock``: the arithmetic of one seat's clock (pure: no database, no Django);
- ``models``: ``Incident``, the append-only log of resignations, timeouts, takeovers...;
- ``outcome``: the one place forfeits are applied on top of the engine's result;
- ``services``: the writers (under the match lock); ``selectors``: the reads;
- ``tasks``: the Celery deadline task and sweep, enqueued by name through games.dispatch.
"""
