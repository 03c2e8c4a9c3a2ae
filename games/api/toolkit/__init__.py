"""What every REST view of games/api/ shares: paging.py (the one list envelope) and
endpoints.py (the match-id parameter, typed error responses, body parsing, rendering)."""
