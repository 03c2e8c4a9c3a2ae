"""REST for the game catalogue (games/catalogue.py): views and routes."""
