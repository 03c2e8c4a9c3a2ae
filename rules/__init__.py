"""The games themselves: pure Python, no Django, no I/O, deterministic.

Clients (the service, bots, benchmarks, outside checks) use only these names.
"""

from rules.engine import Engine, IllegalMove, InvalidOptions
from rules.registry import available_games, get_engine

__all__ = ["Engine", "IllegalMove", "InvalidOptions", "available_games", "get_engine"]
