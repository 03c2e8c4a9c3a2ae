"""Ratings: an openskill Plackett-Luce rating per player and game, moved once per rated
match by the scoring service (``services.rate_match``), with the history of every change;
leaderboards and player profiles read them (``selectors``). See docs/ratings.md."""
