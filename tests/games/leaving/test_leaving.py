"""The games' side of erasing an account (issue 25, games/leaving/services.py): nothing
waits on a tombstone (invitations, quick match, open matches, running seats), while
finished matches, their records and ratings stay and still verify, showing the tombstone.
Real PostgreSQL; bots and scoring run inline (eager Celery)."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from accounts import erasure
from accounts.models import User
from games.feed.models import FeedEvent
from games.lobby import services as lobby
from games.lobby.models import Invitation, InvitationStatus
from games.matches import selectors
from games.matches import services as match_services
from games.matches.incidents import Incident
from games.matches.models import Match, MatchStatus, Move
from games.quickmatch import services as quickmatch
from games.quickmatch.models import QuickMatchRequest, RequestStatus
from games.ratings.models import Rating, RatingChange
from tests.games.support import API, eager_celery, match_url, play_to_end

pytestmark = pytest.mark.django_db(transaction=True)

VERIFY = f"{API}/records/verify/"


def _two_player_han(first, second, **kwargs) -> Match:
    match = match_services.create_match(user=first, game="han", players=2, creator_seat=0,
                                        **kwargs)
    match_services.join_match(user=second, match_id=match.pk)
    return Match.objects.get(pk=match.pk)


def _verdict(record: dict) -> dict:
    response = APIClient().post(VERIFY, record, format="json")
    assert response.status_code == 200, response.content[:300]
    return response.json()


def test_finished_matches_records_and_ratings_stay_and_verify(make_user):
    alice, bob = make_user("alice_leaves"), make_user("bob_stays")
    with eager_celery():
        match = _two_player_han(alice, bob)
        play_to_end(match.pk, {0: alice, 1: bob})
    assert Match.objects.get(pk=match.pk).status == MatchStatus.FINISHED
    before = APIClient().get(match_url(match.pk, "record/")).json()
    moves, incidents = Move.objects.filter(match=match).count(), Incident.objects.count()
    ratings = list(Rating.objects.filter(user=alice).values_list("game", "mu", "sigma"))
    changes = RatingChange.objects.filter(user=alice).count()
    assert ratings and changes

    tombstone = erasure.erase_account(alice)

    after = APIClient().get(match_url(match.pk, "record/")).json()
    assert [seat["user"] for seat in after["seats"]] == [tombstone, "bob_stays"]
    assert "alice_leaves" not in str(after)
    assert {key: value for key, value in after.items() if key != "seats"} == \
        {key: value for key, value in before.items() if key != "seats"}
    assert _verdict(after)["valid"] is True
    assert _verdict(before)["valid"] is True  # a record saved before the erasure too
    assert Move.objects.filter(match=match).count() == moves
    assert Incident.objects.count() == incidents
    assert list(Rating.objects.filter(user_id=alice.pk)
                .values_list("game", "mu", "sigma")) == ratings
    assert RatingChange.objects.filter(user_id=alice.pk).count() == changes
    detail = APIClient().get(match_url(match.pk)).json()
    assert detail["seats"][0]["user"] == tombstone
    # the tombstone has no profile and no place on the leaderboard; bob keeps his
    assert APIClient().get(f"{API}/users/{tombstone}/").status_code == 404
    board = APIClient().get(f"{API}/leaderboard/han/").json()
    assert [row["username"] for row in board["results"]] == ["bob_stays"]


def _play_plies(match_id: int, users_by_seat: dict, count: int) -> None:
    """``count`` moves through the services, each its seat's first legal one."""
    for _ in range(count):
        match = selectors.get_match(match_id)
        seat = selectors.to_act_of(match)[0]
        move = selectors.legal_moves_for(match, users_by_seat[seat])["moves"][0]
        match_services.submit_move(match_id=match_id, user=users_by_seat[seat], move=move)


def test_a_running_seat_goes_to_a_bot_for_good_and_the_match_plays_on(make_user):
    alice, bob = make_user("alice_erased"), make_user()
    with eager_celery():
        match = _two_player_han(alice, bob)
        assert match.status == MatchStatus.ACTIVE
        tombstone = erasure.erase_account(alice)
        match = selectors.get_match(match.pk)
        seat = next(seat for seat in match.seats.all() if seat.position == 0)
        assert seat.user_id is None and seat.bot_kind  # the match's takeover bot
        # the bot answers whenever seat 0 is to act; bob plays the match out
        finished = play_to_end(match.pk, {1: bob})
    assert finished.status == MatchStatus.FINISHED
    record = APIClient().get(match_url(match.pk, "record/")).json()
    assert record["seats"][0]["kind"] == "bot"
    assert record["seats"][0]["taken_over_from"] == tombstone
    assert _verdict(record)["valid"] is True


def test_erasing_a_player_mid_match_records_who_played_the_seat_until_then(make_user):
    """Issue 40: the seat's hand-over is an incident at the ply it happened, naming the
    tombstone, so the log tells the player's moves from the bot's, and the record still
    verifies; the old username appears nowhere."""
    alice, bob = make_user("alice_erased"), make_user("bob_plays_on")
    with eager_celery():
        match = _two_player_han(alice, bob)
        _play_plies(match.pk, {0: alice, 1: bob}, 4)
        tombstone = erasure.erase_account(alice)
        detail = APIClient().get(match_url(match.pk)).json()
        assert [(row["ply"], row["seat"], row["kind"], row["user"])
                for row in detail["incidents"]] == [(4, 0, "takeover", tombstone)]
        assert detail["incidents"][0]["bot_kind"] == detail["seats"][0]["bot_kind"]
        assert detail["seats"][0]["taken_over_from"] == tombstone
        finished = play_to_end(match.pk, {1: bob})
    assert finished.status == MatchStatus.FINISHED
    log = APIClient().get(match_url(match.pk, "moves/")).json()["results"]
    assert any(row["seat"] == 0 and row["ply"] < 4 for row in log)  # hers, before ply 4
    assert any(row["seat"] == 0 and row["ply"] >= 4 for row in log)  # the bot's, after
    record = APIClient().get(match_url(match.pk, "record/")).json()
    assert [(row["ply"], row["seat"], row["kind"], row["user"])
            for row in record["incidents"]] == [(4, 0, "takeover", tombstone)]
    assert record["seats"][0]["taken_over_from"] == tombstone
    assert "alice_erased" not in str(record) and "alice_erased" not in str(detail)
    assert _verdict(record)["valid"] is True


def test_a_seat_taken_over_before_is_not_handed_back_to_the_tombstone(make_user):
    from games.clocks import services as clock_services
    from games.clocks.errors import NothingToReclaim

    alice, bob = make_user(), make_user()
    admin = make_user(is_superuser=True)
    with eager_celery():
        match = _two_player_han(alice, bob)
        clock_services.hand_seat_to_bot(user=admin, match_id=match.pk, position=0,
                                        bot_kind="random")
        erasure.erase_account(alice)
        with pytest.raises(NothingToReclaim):
            clock_services.hand_seat_back(user=admin, match_id=match.pk, position=0)
    seat = Match.objects.get(pk=match.pk).seats.get(position=0)
    assert seat.user_id is None and seat.bot_kind == "random"


def test_open_matches_invitations_and_quick_match_let_go(make_user):
    alice, bob, carol = make_user("alice_open"), make_user(), make_user()
    own, _code = lobby.create_private_match(user=alice, game="hansa", players=3,
                                            invite=[carol.username])
    others = match_services.create_match(user=bob, game="hansa", players=3)
    match_services.join_match(user=alice, match_id=others.pk)
    lobby.invite(user=bob, match_id=others.pk, usernames=[carol.username])
    invited, _code = lobby.create_private_match(user=carol, game="han", players=3,
                                                invite=[alice.username])
    waiting = quickmatch.request_quick_match(user=alice, game="han", players=4)
    assert FeedEvent.objects.filter(user=alice).exists()
    carol_saw = FeedEvent.objects.get(user=carol, payload__match_id=own.pk)
    assert carol_saw.payload["inviter"] == "alice_open"

    tombstone = erasure.erase_account(alice)

    own = Match.objects.get(pk=own.pk)
    assert own.status == MatchStatus.ABORTED and own.abort_reason == lobby.CREATOR_LEFT
    assert Invitation.objects.get(match=own).status == InvitationStatus.WITHDRAWN
    assert Invitation.objects.get(match=invited, invitee_id=alice.pk).status == \
        InvitationStatus.WITHDRAWN
    # bob's open match goes on without her; the invitation bob sent is bob's
    others = Match.objects.get(pk=others.pk)
    assert others.status == MatchStatus.OPEN
    assert not others.seats.filter(user_id=alice.pk).exists()
    assert Invitation.objects.get(match=others).status == InvitationStatus.PENDING
    assert QuickMatchRequest.objects.get(pk=waiting.pk).status == RequestStatus.CANCELLED
    assert not FeedEvent.objects.filter(user_id=alice.pk).exists()
    carol_saw.refresh_from_db()
    assert carol_saw.payload["inviter"] == tombstone
    # and nobody can invite the tombstone, by either name
    for name in ("alice_open", tombstone):
        with pytest.raises(Exception) as refused:
            lobby.invite(user=bob, match_id=others.pk, usernames=[name])
        assert getattr(refused.value, "code", None) == "unknown_user"


def test_a_declined_rematch_s_reason_names_the_tombstone(make_user):
    alice, bob = make_user("alice_declines"), make_user()
    with eager_celery():
        match = _two_player_han(bob, alice)
        play_to_end(match.pk, {0: bob, 1: alice})
    rematch = lobby.propose_rematch(user=bob, match_id=match.pk)
    invitation = Invitation.objects.get(match=rematch, invitee=alice)
    lobby.decline_invitation(user=alice, invitation_id=invitation.pk)
    assert "alice_declines" in Match.objects.get(pk=rematch.pk).abort_reason
    tombstone = erasure.erase_account(User.objects.get(pk=alice.pk))
    assert Match.objects.get(pk=rematch.pk).abort_reason == f"rematch declined by {tombstone}"
