"""Django's PostgreSQL backend with JSON written by orjson (``base.py``)."""
