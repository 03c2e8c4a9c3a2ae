"""REST for ratings (games/ratings/): leaderboards, profiles, rating histories."""
