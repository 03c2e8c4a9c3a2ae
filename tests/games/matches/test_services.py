"""The match services: lobby, start, abort, seats handed to bots, scoring and the sweep
(what goes out after their commits: tests/games/live)."""

from __future__ import annotations

import hashlib

import pytest

from games.clocks import services as clock_services
from games.matches import bot_moves, errors, follow_up, recovery, scoring, selectors
from games.matches import services as match_services
from games.matches.models import Match, MatchStatus, Move, Result, Seat
from tests.games.support import eager_celery

pytestmark = pytest.mark.django_db


def test_create_seats_the_creator_and_commits_to_a_secret_seed(make_user):
    ann = make_user()
    match = match_services.create_match(user=ann, game="han", players=3,
                                        options={"map": "border-disputes"}, bot_seats={0: "random"})
    assert match.status == MatchStatus.OPEN
    assert match.options == {"map": "border-disputes", "variant": False}  # normalized
    assert match.seed_commitment == hashlib.sha256(match.seed.encode()).hexdigest()
    assert len(match.seed) == 32 and match.state is None
    seats = {seat.position: seat for seat in match.seats.all()}
    assert seats[0].bot_kind == "random" and seats[1].user == ann and 2 not in seats
    summary = selectors.match_summary(selectors.get_match(match.pk), ann)
    assert summary["seed"] is None and summary["your_seat"] == 1
    assert [seat["kind"] for seat in summary["seats"]] == ["bot", "human", "open"]


def test_seeds_differ_between_matches(make_user):
    ann = make_user()
    seeds = {match_services.create_match(user=ann, game="hansa", players=2).seed for _ in range(5)}
    assert len(seeds) == 5


def test_the_last_join_starts_the_match(make_user):
    ann, bob, cat = make_user(), make_user(), make_user()
    match = match_services.create_match(user=ann, game="hansa", players=3)
    match_services.join_match(user=bob, match_id=match.pk)
    assert Match.objects.get(pk=match.pk).status == MatchStatus.OPEN
    seat = match_services.join_match(user=cat, match_id=str(match.pk))
    assert seat.position == 2
    match.refresh_from_db()
    assert match.status == MatchStatus.ACTIVE and match.ply == 0 and match.started_at
    assert sorted(selectors.to_act_of(match)) == [0, 1, 2]  # Hansa opens with a keep


def test_the_last_join_reads_the_seats_once_and_starts_with_all_of_them(make_user):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from games.feed.models import FeedEvent

    ann, bob = make_user(), make_user()
    match = match_services.create_match(user=ann, game="han", players=2)
    with CaptureQueriesContext(connection) as context:
        seat = match_services.join_match(user=bob, match_id=match.pk)
    seat_reads = [query["sql"] for query in context.captured_queries
                  if query["sql"].startswith("SELECT") and '"games_seat"' in query["sql"]]
    assert len(seat_reads) == 1
    assert seat.position == 1
    match.refresh_from_db()
    assert match.status == MatchStatus.ACTIVE
    # the start told both people, and the first to act that it is their turn
    started = FeedEvent.objects.filter(kind="match_started", payload__match_id=match.pk)
    assert sorted(started.values_list("user_id", flat=True)) == [ann.pk, bob.pk]
    with pytest.raises(errors.AlreadySeated):
        match_services.join_match(user=bob, match_id=match.pk)


def test_a_match_full_at_creation_is_written_once_and_starts_from_its_own_seats(make_user):
    """The creator and the bots fill every seat: the match row goes in dealt and active,
    its seats in one statement, and nothing is read back or written twice."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from games.feed.models import FeedEvent

    ann = make_user()
    with CaptureQueriesContext(connection) as context:
        match = match_services.create_match(user=ann, game="han", players=3,
                                            bot_seats={0: "greedy", 2: "random"})
    statements = [query["sql"] for query in context.captured_queries]
    assert not [sql for sql in statements if sql.startswith(("SELECT", "UPDATE"))]
    assert len([sql for sql in statements if sql.startswith('INSERT INTO "games_match"')]) == 1
    assert len([sql for sql in statements if sql.startswith('INSERT INTO "games_seat"')]) == 1
    stored = Match.objects.get(pk=match.pk)
    assert stored.status == MatchStatus.ACTIVE and stored.ply == 0 and stored.started_at
    assert stored.state == match.state and list(stored.to_act) == list(match.to_act)
    assert [(seat.position, seat.bot_kind, seat.user_id) for seat in stored.seats.all()] == [
        (0, "greedy", None), (1, None, ann.pk), (2, "random", None)]
    # the start told the person, as a start by the last join does
    assert FeedEvent.objects.filter(kind="match_started", payload__match_id=match.pk,
                                    user=ann).exists()


def test_leave_frees_the_seat_only_while_open(make_user):
    ann, bob = make_user(), make_user()
    match = match_services.create_match(user=ann, game="hansa", players=3)
    match_services.join_match(user=bob, match_id=match.pk)
    match_services.leave_match(user=bob, match_id=match.pk)
    assert not Seat.objects.filter(match=match, user=bob).exists()
    match_services.join_match(user=bob, match_id=match.pk, position=2)
    match_services.start_match(user=ann, match_id=match.pk, fill_with="random")
    with pytest.raises(errors.MatchNotOpen):
        match_services.leave_match(user=bob, match_id=match.pk)
    assert Seat.objects.get(match=match, position=1).bot_kind == "random"


def test_abort_by_creator_or_admin_reveals_the_seed(make_user):
    ann, bob = make_user(), make_user()
    admin = make_user(is_staff=True, is_superuser=True)
    match = match_services.create_match(user=ann, game="hansa", players=2)
    with pytest.raises(errors.NotAllowed):
        match_services.abort_match(user=bob, match_id=match.pk)
    match_services.abort_match(user=admin, match_id=match.pk, reason="test")
    match = selectors.get_match(match.pk)
    assert match.status == MatchStatus.ABORTED and match.abort_reason == "test"
    assert selectors.match_summary(match)["seed"] == match.seed
    with pytest.raises(errors.MatchOver):
        match_services.abort_match(user=ann, match_id=match.pk)


@pytest.mark.parametrize("reason", ["a\x00b", "rain\u0085", "\u202eniar", "x\ufdd0"])
def test_abort_refuses_a_reason_the_text_rule_refuses_even_from_the_admin(make_user, reason):
    """The admin's abort action reaches the service without either API's filter: the
    service applies infra/text_inputs.py's rule itself (issue 39: U+0085 was stored)."""
    admin = make_user(is_staff=True, is_superuser=True)
    match = match_services.create_match(user=make_user(), game="hansa", players=2)
    with pytest.raises(errors.InvalidRequest) as refused:
        match_services.abort_match(user=admin, match_id=match.pk, reason=reason)
    assert refused.value.details == {"field": "reason"}
    match.refresh_from_db()
    assert match.status == MatchStatus.OPEN and not match.abort_reason
    match_services.abort_match(user=admin, match_id=match.pk, reason="rain\r\n\tstopped")


def test_an_admin_hands_a_waiting_seat_to_a_bot_which_then_plays(make_user):
    ann, bob = make_user(), make_user()
    admin = make_user(is_staff=True, is_superuser=True)
    match = match_services.create_match(user=ann, game="hansa", players=2)
    match_services.join_match(user=bob, match_id=match.pk)
    with pytest.raises(errors.NotAllowed):
        clock_services.hand_seat_to_bot(user=ann, match_id=match.pk, position=1,
                                        bot_kind="greedy", for_good=True)
    with eager_celery(), pytest.raises(errors.UnknownBotKind):
        clock_services.hand_seat_to_bot(user=admin, match_id=match.pk, position=1,
                                        bot_kind="oracle", for_good=True)
    # Not eager here: on_commit does not run inside the test transaction, so call the task
    # the way a worker would once the replacement is committed.
    seat = clock_services.hand_seat_to_bot(user=admin, match_id=match.pk, position=1,
                                           bot_kind="greedy", for_good=True)
    assert seat.user is None and seat.bot_kind == "greedy"
    assert bot_moves.play_bot_turn(match_id=match.pk, seat=1, ply=0) is True
    assert Move.objects.filter(match=match, seat=1).count() == 1
    with pytest.raises(errors.NotSeated):
        selectors.legal_moves_for(selectors.get_match(match.pk), bob)


def test_bot_turns_are_no_ops_when_stale_or_not_a_bot(make_user):
    ann, bob = make_user(), make_user()
    match = match_services.create_match(user=ann, game="hansa", players=2)
    match_services.join_match(user=bob, match_id=match.pk)
    assert bot_moves.play_bot_turn(match_id=match.pk, seat=0, ply=0) is False  # a person
    assert bot_moves.play_bot_turn(match_id=999999, seat=0, ply=0) is False
    assert bot_moves.play_bot_turn(match_id=match.pk, seat=0, ply=7) is False
    assert Move.objects.filter(match=match).count() == 0


@pytest.mark.django_db(transaction=True)  # on-commit follow-ups must run: real commits
def test_score_match_is_idempotent(make_user):
    with eager_celery():
        match = match_services.create_match(user=None, game="hansa", players=2, take_seat=False,
                                            bot_seats={0: "greedy", 1: "random"})
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    ids = list(Result.objects.filter(match=match).values_list("pk", flat=True))
    assert scoring.score_match(match_id=match.pk) is False
    assert list(Result.objects.filter(match=match).values_list("pk", flat=True)) == ids


def test_scoring_runs_only_for_a_game_that_is_over(make_user):
    ann, bob = make_user(), make_user()
    match = match_services.create_match(user=ann, game="hansa", players=2)
    match_services.join_match(user=bob, match_id=match.pk)
    assert scoring.score_match(match_id=match.pk) is False
    Match.objects.filter(pk=match.pk).update(status=MatchStatus.SCORING)  # a corrupt row
    assert scoring.score_match(match_id=match.pk) is False
    assert not Result.objects.filter(match=match).exists()


def test_the_sweep_re_enqueues_stalled_bot_turns_and_scoring(make_user):
    # Inline tasks: what the sweep enqueues is played at once, so its effect is visible.
    ann = make_user()
    match = match_services.create_match(user=ann, game="hansa", players=2, bot_seats={1: "greedy"})
    match.refresh_from_db()
    assert 1 in selectors.to_act_of(match)  # the bot owes its keep; its task was "lost"
    assert recovery.resume_stalled_matches(idle_seconds=3600) == {"bot_turns": 0,
                                                                  "scorings": 0}
    with eager_celery():
        counts = recovery.resume_stalled_matches(idle_seconds=0)
    assert counts["bot_turns"] == 1
    assert Move.objects.filter(match=match, seat=1).count() == 1


def test_a_seat_handed_to_a_bot_that_fills_the_match_enqueues_its_turn_once(
    make_user, monkeypatch, django_capture_on_commit_callbacks
):
    # Starting the match schedules the bot turns already; the hand-over must not schedule
    # a second copy of them (a duplicated task that only a stale-ply check stops).
    ann, admin = make_user(), make_user(is_staff=True, is_superuser=True)
    match = match_services.create_match(user=ann, game="hansa", players=2)
    enqueued = []
    monkeypatch.setattr(follow_up, "enqueue_bot_turn", lambda *args: enqueued.append(args))
    with django_capture_on_commit_callbacks(execute=True):
        clock_services.hand_seat_to_bot(user=admin, match_id=match.pk, position=1,
                                        bot_kind="random", for_good=True)
    assert Match.objects.get(pk=match.pk).status == MatchStatus.ACTIVE
    assert enqueued == [(match.pk, 1, 0)]


def test_the_sweep_reads_no_state_of_matches_where_a_person_is_to_act(make_user):
    """Matches people walked away from (idle, a person to act) cost the sweep nothing per
    match: PostgreSQL tells them apart by ``Match.to_act`` in a fixed number of
    statements, and the state is read only where a bot is to act
    (games/matches/recovery.py)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    waiting_for_a_person, waiting_for_the_bot = [], []
    for index in range(6):  # Han, two seats taking turns: whoever starts is to act
        match = match_services.create_match(user=make_user(), game="han", players=2,
                                            bot_seats={1 - index % 2: "greedy"},
                                            creator_seat=index % 2)
        match.refresh_from_db()
        bot = 1 - index % 2
        (waiting_for_the_bot if bot in selectors.to_act_of(match)
         else waiting_for_a_person).append(match.pk)
    assert waiting_for_a_person and waiting_for_the_bot  # both kinds are there
    with CaptureQueriesContext(connection) as context:
        counts = recovery.resume_stalled_matches(idle_seconds=0)
    assert counts == {"bot_turns": len(waiting_for_the_bot), "scorings": 0}
    statements = [query["sql"] for query in context.captured_queries
                  if not query["sql"].startswith(("SAVEPOINT", "RELEASE"))]
    # scoring candidates, the bot seats to act in idle matches, the bots' states
    assert len(statements) == 3, "\n".join(statements)
    state_reads = [sql for sql in statements if '"games_match"."state"' in sql]
    assert len(state_reads) == 1
    # the seats read are the bots' to act only: the matches waiting on a person stay
    # in the database (the statement selects seats by the match's to_act)
    assert "\"to_act\" @> (ARRAY[" in statements[1], statements[1]
