"""REST for the feed (games/feed/): the NDJSON stream."""
