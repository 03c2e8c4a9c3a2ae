"""REST for quick match (games/quickmatch/)."""
