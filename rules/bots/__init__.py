"""Players that see only their own seat's view.

Every bot is a function ``choose(engine, view, legal_moves, seat, rng) -> move``: it gets
the engine (for ``move_value`` and other pure helpers), ``engine.view(state, seat)``, the
seat's legal moves and a ``SeededRng`` for reproducible choices, and never the state
itself, so a bot cannot peek at hidden information.
"""

from rules.bots.registry import BOT_KINDS, bot_rng, choose_bot_move, get_bot

__all__ = ["BOT_KINDS", "bot_rng", "choose_bot_move", "get_bot"]
