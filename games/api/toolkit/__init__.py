"""What every REST view of games/api/ shares: paging.py (the one list envelope),
endpoints.py (the match-id parameter, typed error responses, body parsing, rendering) and
errors.py (the error shape answered by a view that is not DRF's)."""
