"""The match detail's ``reclaimable_seat`` and ``POST .../reclaim/`` give the same answer in
every case (docs/clocks.md "Taking a seat back"): a seat the field offers is handed back
by the endpoint, and a refused reclaim is one the field did not offer, with a stable code
and nothing written. Each case is reached through the real services (timeouts by the
clock sweep under time-machine, the admin's hand-overs), then read and posted over REST."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine

from games.clocks import services as clock_services
from games.clocks.errors import NothingToReclaim
from games.matches import services
from games.matches import services as match_services
from games.matches.incidents import Incident
from games.matches.models import Match, MatchStatus, Seat
from rules import get_engine
from tests.games.support import assert_api_error, match_url, row_counts

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)


def _writes(match_id):
    match = Match.objects.get(pk=match_id)
    return (*row_counts(), Incident.objects.count(), match.status, match.ply, match.clocks,
            tuple(Seat.objects.filter(match=match).order_by("position")
                  .values_list("user_id", "bot_kind")))


def _keep(match_id, user):
    """``user`` plays a legal move of their seat (in Hansa's opening: keep two cards)."""
    match = Match.objects.get(pk=match_id)
    engine = get_engine(match.game)
    seat = match.seats.get(user=user).position
    move = engine.legal_moves(engine.from_json(match.state), seat)[0]
    services.submit_move(match_id=match_id, user=user, move=move)


def assert_field_and_endpoint_agree(client, match_id, *, refused=None):
    """Read ``reclaimable_seat``, then post reclaim: given back exactly when offered.
    ``refused``: the (status, code) expected when the field offers nothing."""
    offered = client.get(match_url(match_id)).json()["reclaimable_seat"]
    before = _writes(match_id)
    response = client.post(match_url(match_id, "reclaim/"), {}, format="json")
    if offered is None:
        assert refused is not None, "the field offered nothing: say which refusal to expect"
        assert_api_error(response, *refused)
        assert _writes(match_id) == before
        return None
    assert refused is None, f"the field offered seat {offered}"
    assert response.status_code == 200, response.json()
    assert response.json()["your_seat"] == offered
    assert client.get(match_url(match_id)).json()["reclaimable_seat"] is None
    return offered


@pytest.fixture
def trio(make_user, make_auth_client):
    """A three-player Hansa on a 3+10 clock: ann, bob and cid, with their clients, and an
    admin. Everyone owes a keep at once; bob and cid keep at T0."""
    ann, bob, cid = make_user(), make_user(), make_user()
    admin = make_user(is_staff=True, is_superuser=True)
    traveller = time_machine.travel(T0, tick=False)
    clock = traveller.start()
    match = match_services.create_match(user=ann, game="hansa", players=3,
                                        time_control="realtime-3+10")
    match_services.join_match(user=bob, match_id=match.pk)
    match_services.join_match(user=cid, match_id=match.pk)
    _keep(match.pk, bob)
    _keep(match.pk, cid)
    yield {"id": match.pk, "ann": ann, "bob": bob, "cid": cid, "admin": admin,
           "clock": clock, "client": make_auth_client(ann),
           "outsider": make_auth_client(make_user())}
    traveller.stop()


def _time_out(trio, seconds):
    trio["clock"].shift(timedelta(seconds=seconds))
    assert clock_services.sweep_expired_clocks() == 1


def test_never_seated_and_seated_players_are_offered_nothing(trio, api_client):
    assert_field_and_endpoint_agree(trio["outsider"], trio["id"],
                                    refused=(409, "nothing_to_reclaim"))
    assert_field_and_endpoint_agree(trio["client"], trio["id"], refused=(409, "already_seated"))
    assert api_client.get(match_url(trio["id"])).json()["reclaimable_seat"] is None
    assert_api_error(api_client.post(match_url(trio["id"], "reclaim/"), {}, format="json"),
                     401, "not_authenticated")


def test_timed_out_reclaimed_and_timed_out_again(trio):
    client = trio["client"]
    _time_out(trio, 181)
    assert assert_field_and_endpoint_agree(client, trio["id"]) == 0
    # Seated again: nothing left to reclaim.
    assert_field_and_endpoint_agree(client, trio["id"], refused=(409, "already_seated"))
    _time_out(trio, 61)  # the reclaim left her a minute; she lets it run out again
    assert assert_field_and_endpoint_agree(client, trio["id"]) == 0
    # The other players never held her seat.
    assert_field_and_endpoint_agree(trio["outsider"], trio["id"],
                                    refused=(409, "nothing_to_reclaim"))


def test_a_takeover_by_an_admin_is_offered_and_handed_back(trio):
    clock_services.hand_seat_to_bot(user=trio["admin"], match_id=trio["id"], position=0,
                                    bot_kind="random")
    assert assert_field_and_endpoint_agree(trio["client"], trio["id"]) == 0


def test_a_reclaim_spends_the_takeover_it_answered(trio):
    """After a reclaim, an admin hands the seat to a bot for good (``hand_seat_to_bot``
    with ``for_good`` records no takeover): the old takeover was spent by the reclaim and
    gives nothing."""
    _time_out(trio, 181)
    assert assert_field_and_endpoint_agree(trio["client"], trio["id"]) == 0
    clock_services.hand_seat_to_bot(user=trio["admin"], match_id=trio["id"], position=0,
                                    bot_kind="greedy", for_good=True)
    assert Seat.objects.get(match_id=trio["id"], position=0).user_id is None
    assert_field_and_endpoint_agree(trio["client"], trio["id"],
                                    refused=(409, "nothing_to_reclaim"))


def test_a_seat_resigned_after_its_takeover_is_not_offered(trio):
    _time_out(trio, 181)
    clock_services.resign(user=trio["ann"], match_id=trio["id"])
    assert Match.objects.get(pk=trio["id"]).status == MatchStatus.ACTIVE  # two still stand
    assert_field_and_endpoint_agree(trio["client"], trio["id"],
                                    refused=(409, "nothing_to_reclaim"))


def test_a_forfeited_seat_is_not_offered(make_user, make_auth_client):
    ann, bob, cid = make_user(), make_user(), make_user()
    with time_machine.travel(T0, tick=False) as traveller:
        match = match_services.create_match(
            user=ann, game="hansa", players=3,
            time_control={"preset": "realtime-3+10", "timeout_policy": "forfeit"})
        match_services.join_match(user=bob, match_id=match.pk)
        match_services.join_match(user=cid, match_id=match.pk)
        _keep(match.pk, bob)
        _keep(match.pk, cid)
        traveller.shift(timedelta(seconds=181))
        assert clock_services.sweep_expired_clocks() == 1
        assert_field_and_endpoint_agree(make_auth_client(ann), match.pk,
                                        refused=(409, "nothing_to_reclaim"))


def test_a_held_seat_is_not_offered_once_the_match_stopped(trio):
    _time_out(trio, 181)
    match_services.abort_match(user=trio["admin"], match_id=trio["id"], reason="test")
    assert_field_and_endpoint_agree(trio["client"], trio["id"],
                                    refused=(409, "match_not_active"))


def test_the_admins_hand_back_follows_the_same_rule(trio):
    admin, match_id = trio["admin"], trio["id"]
    with pytest.raises(NothingToReclaim):  # ann holds her seat
        clock_services.hand_seat_back(user=admin, match_id=match_id, position=0)
    _time_out(trio, 181)
    clock_services.hand_seat_back(user=admin, match_id=match_id, position=0)
    assert Seat.objects.get(match_id=match_id, position=0).user == trio["ann"]
    clock_services.hand_seat_to_bot(user=admin, match_id=match_id, position=0,
                                    bot_kind="greedy", for_good=True)
    before = _writes(match_id)
    with pytest.raises(NothingToReclaim):  # the takeover was spent by the hand-back
        clock_services.hand_seat_back(user=admin, match_id=match_id, position=0)
    assert _writes(match_id) == before
    assert trio["client"].get(match_url(match_id)).json()["reclaimable_seat"] is None
