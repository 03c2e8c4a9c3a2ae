"""A bot's turn of several moves is played in one task (games/matches/bot_moves.py): every
move is still its own commit, and a turn the task does not finish goes back to the broker.
Real PostgreSQL commits and the real broker's test queues."""

from __future__ import annotations

import json

import pytest
from django.db import OperationalError, connection

from games import dispatch
from games.matches import bot_moves, selectors, services
from games.matches.models import Match, MatchStatus, Move
from infra.background_sends import wait_until_sent
from rules import get_engine
from rules.bots.registry import choose_bot_move
from tests.games.support import TEST_SEED, queued_tasks
from tests.workers import purge_test_queue

pytestmark = pytest.mark.django_db(transaction=True)  # the commits' follow-ups must run

BOT = 1


def _han_against_greedy(make_user):
    person = make_user()
    match = services.create_match(user=person, game="han", players=2,
                                  bot_seats={BOT: "greedy"}, seed=TEST_SEED)
    return person, match.pk


def _to_the_bots_turn(match_id: int, person) -> Match | None:
    """The person plays their first legal moves until the bot owes one (None: game over).
    The bot's turn the last commit enqueued is purged: the test plays it."""
    for _ in range(100):
        match = selectors.get_match(match_id)
        if match.status != MatchStatus.ACTIVE:
            return None
        if BOT in selectors.to_act_of(match):
            # the commit's task goes out from the sender thread: purge it once it is out,
            # or it lands after the purge and reads as a task the bot's turn sent
            assert wait_until_sent()
            purge_test_queue()
            return match
        moves = selectors.legal_moves_for(match, person)["moves"]
        services.submit_move(match_id=match_id, user=person, move=moves[0])
    raise AssertionError("the bot never got a turn")


def _bot_turns_queued() -> list[list]:
    return [args for name, args in queued_tasks() if name == dispatch.BOT_TURN_TASK]


def _seats_since(match_id: int, ply: int) -> list[int]:
    return list(Move.objects.filter(match_id=match_id, ply__gte=ply)
                .order_by("ply").values_list("seat", flat=True))


def test_a_bot_plays_its_whole_turn_in_one_task(make_user, queues):
    person, match_id = _han_against_greedy(make_user)
    turns = []
    while len(turns) < 12 and (match := _to_the_bots_turn(match_id, person)) is not None:
        start = match.ply
        assert bot_moves.play_bot_turn(match_id=match_id, seat=BOT, ply=start) is True
        after = Match.objects.get(pk=match_id)
        played = _seats_since(match_id, start)
        assert played and set(played) == {BOT}
        # the turn is over: the person owes the next move, or the game has ended
        assert after.status != MatchStatus.ACTIVE or BOT not in after.to_act
        assert _bot_turns_queued() == []  # no task was sent for the bot's own next moves
        turns.append(len(played))
    assert max(turns) >= 2, turns  # Han's turns of several placements came up


def test_a_turn_that_would_not_fit_one_task_goes_back_to_the_broker(make_user, queues,
                                                                     settings):
    # no time for a second move: each move is a task of its own, as before
    settings.BOT_TURN_SOFT_TIME_LIMIT = 0
    person, match_id = _han_against_greedy(make_user)
    for _ in range(12):
        match = _to_the_bots_turn(match_id, person)
        assert match is not None, "no turn of several moves came up"
        start = match.ply
        assert bot_moves.play_bot_turn(match_id=match_id, seat=BOT, ply=start) is True
        assert _seats_since(match_id, start) == [BOT]
        after = Match.objects.get(pk=match_id)
        if after.status == MatchStatus.ACTIVE and BOT in after.to_act:
            assert _bot_turns_queued() == [[match_id, BOT, start + 1]]
            return
        assert _bot_turns_queued() == []


def test_a_later_move_that_fails_sends_its_turn_back(make_user, queues, monkeypatch):
    thoughts = []
    think = bot_moves.think_bot_move

    def second_thought_fails(*args, **kwargs):
        thoughts.append(kwargs["ply"])
        if len(thoughts) == 2:
            raise OperationalError("the database went away")
        return think(*args, **kwargs)

    monkeypatch.setattr(bot_moves, "think_bot_move", second_thought_fails)
    person, match_id = _han_against_greedy(make_user)
    for _ in range(12):
        match = _to_the_bots_turn(match_id, person)
        assert match is not None, "no turn of several moves came up"
        start = match.ply
        thoughts.clear()
        try:
            bot_moves.play_bot_turn(match_id=match_id, seat=BOT, ply=start)
        except OperationalError:
            break
        assert len(thoughts) == 1  # a turn of one move: try the next
    else:
        raise AssertionError("no turn of several moves came up")
    # the first move landed; the second did not, and its turn went back to the broker
    assert _seats_since(match_id, start) == [BOT]
    assert _bot_turns_queued() == [[match_id, BOT, start + 1]]
    # Celery's retry of the task (its first ply) finds that move played: a no-op, and the
    # task sent back plays on from where the failure stopped
    monkeypatch.undo()
    assert bot_moves.play_bot_turn(match_id=match_id, seat=BOT, ply=start) is False
    assert bot_moves.play_bot_turn(match_id=match_id, seat=BOT, ply=start + 1) is True
    assert set(_seats_since(match_id, start)) == {BOT}
    assert len(_seats_since(match_id, start)) >= 2


@pytest.mark.parametrize("game", ["han", "hansa"])
def test_the_next_move_is_thought_from_the_state_as_postgresql_gives_it_back(game):
    """A move played on in the same task starts from the state a new task would read: the
    same keys in the same order (a Hansa view follows the state's key order)."""
    engine = get_engine(game)
    state = engine.setup(2, None, f"read-back-{game}")
    for ply in range(120):
        if engine.is_over(state):
            break
        written = engine.to_json(state)
        with connection.cursor() as cursor:
            cursor.execute("SELECT %s::jsonb::text", [json.dumps(written)])
            stored = json.loads(cursor.fetchone()[0])
        assert json.dumps(bot_moves._as_read_back(written)) == json.dumps(stored)
        seat = engine.to_act(state)[0]
        move = choose_bot_move("greedy", engine, engine.view(state, seat),
                               engine.legal_moves(state, seat), seat, match_key="k", ply=ply)
        state, _events = engine.apply(state, seat, move)
