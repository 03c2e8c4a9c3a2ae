"""A bot seat's turn, as the worker plays it (games.matches.tasks.play_bot_turn): read the
match, let the bot think from its seat's view, submit the move through the move service,
and hand the play sockets that follow the match each seat's push ready-made.
"""

from __future__ import annotations

from contextlib import nullcontext
from typing import Any

from games.matches import errors, play_announcements, pushes
from games.matches.bot_randomness import bot_key
from games.matches.bot_turns import think_bot_move
from games.matches.models import MatchStatus
from games.matches.parsing import parse_match_id
from games.matches.rows import load_match
from games.matches.services import submit_move
from infra import channel_messages
from rules import get_engine


def play_bot_turn(*, match_id: Any, seat: int, ply: int) -> bool:
    """Let the bot at ``seat`` move, if the match is still at ``ply`` and the seat owes a
    decision; otherwise do nothing (a duplicated or retried task is a no-op). The bot sees
    only ``engine.view(state, seat)`` and ``engine.legal_moves(state, seat)``.
    Returns True when a move landed."""
    try:
        # the match with its seats in one prepared statement (games/matches/rows.py)
        match = load_match(parse_match_id(match_id))
    except errors.MatchNotFound:
        return False
    if match is None or match.status != MatchStatus.ACTIVE or match.ply != ply:
        return False
    seat_row = next((row for row in match.seats.all()
                     if row.position == seat and row.bot_kind is not None), None)
    if seat_row is None:
        return False
    engine = get_engine(match.game)
    state = engine.from_json(match.state)
    if seat not in engine.to_act(state):
        return False
    # The bot thinks without holding the lock; submit_move re-checks the ply under it.
    move = think_bot_move(
        seat_row.bot_kind,
        engine,
        engine.view(state, seat),
        engine.legal_moves(state, seat),
        seat,
        # A secret derived from the seed (games/matches/bot_randomness.py): opponents cannot
        # replay the bot's draws to infer its hand; the seed's reveal lets anyone audit them.
        match_key=bot_key(match.seed),
        ply=ply,
    )
    # Followed over a play socket: this worker builds each seat's push once, instead of
    # every web process with followers reading the match after an announcement by ply.
    # The move's group sends (its match's subscribers, the next player's feed) go with
    # that publish, in one round trip (infra/channel_messages.py ``held``).
    followed = play_announcements.followed_by_play_sockets(match.pk)
    try:
        with play_announcements.announced_by_caller(match.pk) if followed else nullcontext(), \
                channel_messages.held() as sends:
            submitted = submit_move(match_id=match.pk, move=move, bot_seat=seat,
                                    expected_ply=ply)
    except (errors.StalePly, errors.NotYourTurn, errors.MatchNotActive, errors.NotSeated):
        return False  # someone else moved first: this task is stale
    message = None
    try:
        if followed:
            message = pushes.move_pushes(submitted.match, submitted.state, submitted.move)
    finally:
        play_announcements.publish_with_held(match.pk, message, sends)
    return True
