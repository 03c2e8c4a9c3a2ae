"""REST for a player's right to leave (games/leaving/): the data export."""
