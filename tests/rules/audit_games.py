"""Games built from audit seed strings ``<tag>:<game>:<players>:<bot>:<index>``.

Every seat plays ``bot`` (random, greedy, ...) with ``bot_rng(seed, ply, seat)`` on the
set-up seeded with the whole string, as bench/bot_strength.py plays its games; each seat's
log (tests/rules/public_log.py) is kept as the game goes.
"""

from __future__ import annotations

from collections.abc import Iterator

from rules import get_engine
from rules.bots import bot_rng, get_bot
from tests.rules.public_log import SeatLog, record


def walk(seed: str) -> Iterator[tuple[int, object, list[SeatLog]]]:
    """(ply, state, every seat's log so far) at every position before the end."""
    _tag, game, players, bot, _index = seed.rsplit(":", 4)
    engine = get_engine(game)
    players = int(players)
    state = engine.setup(players, None, seed)
    logs = [SeatLog(seat, engine.view(state, seat)) for seat in range(players)]
    choose = get_bot(bot)
    ply = 0
    while not engine.is_over(state):
        yield ply, state, logs
        seat = engine.to_act(state)[0]
        move = choose(engine, engine.view(state, seat), engine.legal_moves(state, seat), seat,
                      bot_rng(seed, ply, seat))
        state, events = engine.apply(state, seat, move)
        record(logs, engine, seat, move, events, state)
        ply += 1


def position(seed: str, at_ply: int):
    """The engine, the state at ``at_ply`` and every seat's log up to it."""
    engine = get_engine(seed.rsplit(":", 4)[1])
    for ply, state, logs in walk(seed):
        if ply == at_ply:
            return engine, state, logs
    raise ValueError(f"{seed} ends before ply {at_ply}")
