"""Where a bot's randomness comes from: a per-match secret derived from the match seed
(issue 9, defect 4).

Bots used to draw from ``SeededRng("bot:{commitment}:{ply}:{seat}")``: public facts only,
so an opponent could replay the bot's choice for every hand it might hold and keep the
hands that reproduce its move (a random bot's first move in 2-player Han pinned its hand
to one possibility in about 38% of games). The key is now

    bot_key = HMAC-SHA256(key=seed, msg="bot"), in hex

and the bot at ``seat`` deciding at ``ply`` draws from rules' ``bot_rng(bot_key, ply,
seat)``, i.e. ``SeededRng(f"bot:{bot_key}:{ply}:{seat}")``. The seed is secret until the
match ends, and so is the key; once the seed is revealed anyone can recompute the key and
check every bot move (docs/security.md, "Auditing bot moves"). The same seed still gives
the same bot choices, so ``play_bots --seed`` games stay reproducible.

Bots keep their call signature ``(engine, view, legal_moves, seat, rng)``: only the key
the service hands to ``choose_bot_move`` changed.
"""

from __future__ import annotations

import hashlib
import hmac

from rules.bots import bot_rng
from rules.rng import SeededRng


def bot_key(seed: str) -> str:
    """The secret every bot draw of the match with ``seed`` derives from."""
    return hmac.new(seed.encode(), b"bot", hashlib.sha256).hexdigest()


def bot_rng_for(seed: str, ply: int, seat: int) -> SeededRng:
    """The generator the bot at ``seat`` used at ``ply`` (for audits and tests)."""
    return bot_rng(bot_key(seed), ply, seat)
