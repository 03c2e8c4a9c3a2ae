"""The one event a match's writers record (games/matches/changes.py): receivers connected
within the transaction run at once, the others only once it commits and never for a change
rolled back; an after-commit receiver that fails leaves the others running and the change
committed; and every writer of a match records exactly one change per commit."""

from __future__ import annotations

import pytest
from django.db import transaction

from games.matches import changes
from games.matches import services as match_services
from games.matches.changes import ChangeKind, MatchChanged

pytestmark = pytest.mark.django_db(transaction=True)


def _event(**fields) -> MatchChanged:
    return MatchChanged(**{"kind": ChangeKind.CLOCK, "match_id": 1, "ply": 0,
                           "status": "active", "to_act": [], "request_id": None, **fields})


@pytest.fixture
def receivers(monkeypatch):
    """Only this test's receivers, in a fresh registry."""
    monkeypatch.setattr(changes, "_within", [])
    monkeypatch.setattr(changes, "_after_commit", [])
    calls: list[tuple[str, int]] = []
    changes.connect(lambda event: calls.append(("within", event.ply)), within_transaction=True)
    changes.connect(lambda event: calls.append(("after", event.ply)))
    return calls


def test_within_receivers_run_at_once_and_the_others_after_the_commit(receivers):
    with transaction.atomic():
        changes.record_change(_event(ply=3))
        assert receivers == [("within", 3)]
    assert receivers == [("within", 3), ("after", 3)]


def test_a_change_rolled_back_is_never_sent(receivers):
    with pytest.raises(RuntimeError), transaction.atomic():
        changes.record_change(_event(ply=4))
        raise RuntimeError("the writer failed after recording")
    assert receivers == [("within", 4)]


def test_a_failing_receiver_leaves_the_others_running(receivers, caplog):
    def broken(event):
        raise ValueError("a receiver's bug")

    changes._after_commit.insert(0, broken)
    with transaction.atomic():
        changes.record_change(_event(ply=5))
    assert ("after", 5) in receivers
    assert "a receiver of match 1's change at ply 5 failed" in caplog.text


def test_connecting_twice_registers_once(receivers):
    def receiver(event):
        pass

    changes.connect(receiver)
    changes.connect(receiver)
    assert changes._after_commit.count(receiver) == 1


def test_every_writer_records_one_change_of_its_kind(make_user, monkeypatch):
    seen: list[tuple[str, int, str]] = []
    monkeypatch.setattr(changes, "_within", [*changes._within, lambda event: seen.append(
        (event.kind, event.ply, event.status))])
    ann, bob = make_user(), make_user()
    match = match_services.create_match(user=ann, game="hansa", players=2)
    match_services.join_match(user=bob, match_id=match.pk)  # the last seat: dealt
    match_services.abort_match(user=ann, match_id=match.pk)
    assert seen == [(ChangeKind.STATUS, 0, "open"), (ChangeKind.STARTED, 0, "active"),
                    (ChangeKind.STATUS, 0, "aborted")]


def test_the_ratings_and_the_feed_receive_changes_within_the_writers_transaction():
    """games/apps.py connects them at start-up: the ratings first (a scoring's ratings
    land with its results), then the feed; the readers and the tasks after the commit."""
    from games.feed.services import announce_change
    from games.live.fanout import send_change
    from games.matches.follow_up import send_tasks
    from games.ratings.services import rate_change

    assert changes._within[:2] == [rate_change, announce_change]
    assert changes._after_commit[:2] == [send_change, send_tasks]
