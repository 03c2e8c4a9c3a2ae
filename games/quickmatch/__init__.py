"""Quick match: a player asks for a game, a player count, options and optionally a rating
range; ``services.pair_waiting`` (a Celery task, also on beat) seats waiting players
together, longest waiting first and ratings close, and announces the match on their feeds.
See docs/quickmatch.md."""
