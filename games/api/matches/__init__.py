"""REST for matches (games/matches/): the list, a match and its actions (views.py), its
moves, replays, results and events (moves.py), polled GETs (polled.py), the request and
response shapes (serializers.py, also used by the other capabilities' shapes) and routes."""
