"""REST for post-game analysis (games/analysis/)."""
