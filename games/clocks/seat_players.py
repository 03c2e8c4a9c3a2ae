"""Re-export of ``games.matches.seat_players`` (who played a seat: the match's own record,
docs/architecture.md). Kept only for games/feed/services.py, which is being rewritten
(issue 37 post-commit events); new code imports ``games.matches.seat_players``."""

from games.matches.seat_players import (  # noqa: F401
    player_of,
    players_by_seat,
    seats_played_by,
)
