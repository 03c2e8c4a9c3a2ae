"""A match stays verifiable after its rules change (issue 40): played under the test
plugin's Nim version 0 (whoever takes the last stone loses), then the service upgraded to
version 1 (the taker wins). With version 0 kept (``nim@0`` in EXTRA_GAMES,
rules/versions.py) every replay, result, picture, record and verification of the old
match runs version 0's rules, over REST, GraphQL and the admin; without it, each answers
409 ``rules_version_unavailable`` (verification: 400 ``invalid_record`` on
``rules_version``), never a replay under rules the match was not played by."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games.matches import errors, recovery, scoring, services
from games.matches.models import Match, MatchStatus
from games.matches.replay import replay_result
from tests.games.graphql.support import error_codes, gql
from tests.games.support import API, assert_api_error, match_url, queued_tasks
from tests.workers import purge_test_queue

pytestmark = pytest.mark.django_db

OLD_RELEASE = {"nim": "tests.plugin.nim_engine_v0:NimEngineV0"}
NEW_RELEASE_KEEPING_V0 = {"nim": "tests.plugin.nim_engine:NimEngine",
                          "nim@0": "tests.plugin.nim_engine_v0:NimEngineV0"}
NEW_RELEASE_ONLY = {"nim": "tests.plugin.nim_engine:NimEngine"}
VERIFY = f"{API}/records/verify/"
GRAPHQL_VERIFY = "query($r: JSON!) { verifyRecord(record: $r) { valid reason } }"


@pytest.fixture
def old_match(settings, make_user, api_client):
    """A Nim match of 5 stones played and scored under version 0: seat 0 takes 2, seat
    1 takes 2, seat 0 takes the last stone and so loses. Returns the match and its
    record as the old release exported it."""
    settings.EXTRA_GAMES = OLD_RELEASE
    ann, bob = make_user(), make_user()
    match = services.create_match(user=ann, game="nim", players=2, options={"stones": 5},
                                  seed="versions-seed")
    services.join_match(user=bob, match_id=match.pk)
    for player, count in ((ann, 2), (bob, 2), (ann, 1)):
        services.submit_move(match_id=match.pk, user=player,
                             move={"type": "take", "count": count})
    scoring.score_match(match_id=match.pk)
    match = Match.objects.get(pk=match.pk)
    assert match.status == MatchStatus.FINISHED and match.rules_version == "0"
    record = api_client.get(match_url(match.pk, "record/")).json()
    assert record["result"]["winners"] == [1]  # version 0: the last stone's taker lost
    return match, record


def _admin_replay(make_user, match):
    admin = Client()
    admin.force_login(make_user(is_staff=True, is_superuser=True))
    return admin.get(reverse("admin:games_match_replay", args=[match.pk]), {"ply": match.ply})


def test_kept_version_replays_the_old_match_under_its_own_rules(old_match, settings,
                                                                  api_client, make_user):
    match, old_record = old_match
    settings.EXTRA_GAMES = NEW_RELEASE_KEEPING_V0
    # new matches are played under version 1: the last stone's taker wins
    assert api_client.get(f"{API}/games/nim/").json()["rules_version"] == "1"

    assert replay_result(match)["winners"] == [1]
    replay = api_client.get(match_url(match.pk, "replay/")).json()
    assert replay["state"]["winner"] == 1
    assert api_client.get(match_url(match.pk, "result/")).json()["winners"] == [1]
    record = api_client.get(match_url(match.pk, "record/")).json()
    # the same digests as the old release computed: the same rules replayed them
    assert record["moves"] == old_record["moves"]
    assert record["initial_state_digest"] == old_record["initial_state_digest"]
    for exported in (record, old_record):
        verdict = api_client.post(VERIFY, exported, format="json").json()
        assert verdict["valid"] and verdict["computed_result"]["winners"] == [1], verdict
        assert gql(GRAPHQL_VERIFY, {"r": exported})["data"]["verifyRecord"] == {
            "valid": True, "reason": None}
    assert _admin_replay(make_user, match).status_code == 200


def test_a_version_no_engine_plays_is_a_stable_error_not_a_replay(old_match, settings,
                                                                   api_client, make_user):
    match, old_record = old_match
    settings.EXTRA_GAMES = NEW_RELEASE_ONLY
    for path in ("replay/", "result/", "board.svg"):
        body = assert_api_error(api_client.get(match_url(match.pk, path)), 409,
                                "rules_version_unavailable")
        assert body["details"] == {"game": "nim", "rules_version": "0",
                                            "runnable": ["1"]}
    # the match itself is still shown, without the view only its engine could draw
    detail = api_client.get(match_url(match.pk)).json()
    assert detail["rules_version"] == "0" and detail["view"] is None
    assert detail["status"] == "finished" and detail["to_act"] == []
    shown = gql("query($id: ID!) { match(id: $id) { status view } }", {"id": match.pk})
    assert shown["data"]["match"] == {"status": "FINISHED", "view": None}
    body = gql("query($id: ID!) { replay(matchId: $id, ply: 1) { ply } }",
               {"id": match.pk})
    assert error_codes(body) == ["rules_version_unavailable"]
    refused = assert_api_error(api_client.post(VERIFY, old_record, format="json"), 400,
                               "invalid_record")
    assert refused["details"] == {"field": "rules_version", "supported": ["1"]}
    # the export still holds every fact of the match, without the digests only an engine
    # of version 0 computes
    record = api_client.get(match_url(match.pk, "record/")).json()
    assert record["rules_version"] == "0" and record["initial_state_digest"] is None
    assert [move["move"] for move in record["moves"]] == [
        move["move"] for move in old_record["moves"]]
    assert record["result"] == old_record["result"]
    page = _admin_replay(make_user, match)
    assert page.status_code == 302  # back to the match page, with a message


def test_a_running_match_of_a_version_not_kept_waits_without_stopping_the_sweep(
        settings, make_user):
    """Its bot cannot move under rules no engine plays; the sweep passes it by and still
    resumes the others' bots, and its player's move is the same 409."""
    settings.EXTRA_GAMES = OLD_RELEASE
    ann = make_user()
    stuck = services.create_match(user=ann, game="nim", players=2, bot_seats={1: "random"},
                                  seed="stuck-seed")
    services.submit_move(match_id=stuck.pk, user=ann, move={"type": "take", "count": 1})
    settings.EXTRA_GAMES = NEW_RELEASE_ONLY
    fresh = services.create_match(user=make_user(), game="nim", players=2,
                                  bot_seats={0: "random"}, creator_seat=1, seed="fresh")
    purge_test_queue()  # what earlier tests left
    assert recovery.resume_stalled_matches(idle_seconds=-60) == {"bot_turns": 1,
                                                                  "scorings": 0}
    assert [args for name, args in queued_tasks() if "bot" in name] == [[fresh.pk, 0, 0]]
    with pytest.raises(errors.RulesVersionUnavailable):
        services.submit_move(match_id=stuck.pk, user=ann, move={"type": "take", "count": 1})
    # the admin's page of it still opens: who is to act and the secret parts of its log
    # are what no engine here can tell, so they are not shown
    admin = Client()
    admin.force_login(make_user(is_staff=True, is_superuser=True))
    page = admin.get(reverse("admin:games_match_change", args=[stuck.pk]))
    assert page.status_code == 200 and b"rules version 0 is not kept" in page.content
