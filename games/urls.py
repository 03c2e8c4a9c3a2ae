"""REST routes of the games app (matches, moves, replays, the game catalogue)."""

urlpatterns: list = []
