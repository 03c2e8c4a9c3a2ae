"""Game records: every finished match exports a record that verifies; a record with one
move changed, another seed or another result fails at the right ply; only finished
matches have a record; a user's records stream as NDJSON; bad input is a 4xx that writes
nothing."""

from __future__ import annotations

import copy
import json

import pytest
from asgiref.sync import async_to_sync

from games.matches import services as match_services
from games.matches.models import Match, MatchStatus
from games.matches.replay import replay_state
from games.records.format import MAX_RECORD_MOVES
from games.records.services import verify_record
from rules import get_engine
from tests.games.graphql.support import error_codes, gql
from tests.games.support import (
    API,
    TEST_SEED,
    assert_api_error,
    eager_celery,
    match_url,
    play_human_turns,
    row_counts,
)

pytestmark = pytest.mark.django_db(transaction=True)

VERIFY = f"{API}/records/verify/"


def _bot_match(game, players, options=None, seed=None):
    with eager_celery():
        match = match_services.create_match(
            user=None, game=game, players=players, options=options or {}, take_seat=False,
            seed=seed,
            bot_seats={seat: ("greedy" if seat % 2 else "random") for seat in range(players)},
        )
    return Match.objects.get(pk=match.pk)


@pytest.fixture
def human_match(make_user, make_auth_client):
    """A finished 2-player Han match: a person (seat 0) against a greedy bot."""
    alice = make_user()
    client = make_auth_client(alice)
    with eager_celery():
        response = client.post(f"{API}/matches/", {
            "game": "han", "players": 2, "bot_seats": {"1": "greedy"},
        }, format="json")
        assert response.status_code == 201
        match_id = response.json()["id"]
        play_human_turns({0: client}, match_id)
    return alice, client, Match.objects.get(pk=match_id)


@pytest.fixture
def finished(human_match):
    _bot_match("han", 4, {"map": "border-disputes", "variant": True})
    _bot_match("han", 3, seed=TEST_SEED)
    _bot_match("hansa", 2)
    _bot_match("hansa", 4)
    return human_match


def test_every_finished_match_exports_a_record_that_verifies(finished, api_client):
    matches = list(Match.objects.filter(status=MatchStatus.FINISHED))
    assert len(matches) == 5
    for match in matches:
        response = api_client.get(match_url(match.pk, "record/"))
        assert response.status_code == 200
        record = response.json()
        assert record["format"] == "han-hansa-record" and record["format_version"] == 1
        assert record["game"] == match.game and record["seed"] == match.seed
        assert len(record["moves"]) == match.ply
        verdict = api_client.post(VERIFY, record, format="json")
        assert verdict.status_code == 200
        assert verdict.json()["valid"] is True, verdict.json()
        assert verdict.json()["diverges_at_ply"] is None
        assert verdict.json()["plies_checked"] == match.ply


def _record(client, match):
    return client.get(match_url(match.pk, "record/")).json()


def _other_legal_move(match, record, ply):
    """A legal move at ``ply`` other than the recorded one that leads to another state (a
    tampered but legal move; two moves with the same effect are the same game)."""
    engine = get_engine(match.game)
    state = replay_state(match, upto=ply)
    seat = record["moves"][ply]["seat"]
    recorded = engine.to_json(engine.apply(state, seat, record["moves"][ply]["move"])[0])
    for move in engine.legal_moves(state, seat):
        if engine.to_json(engine.apply(state, seat, move)[0]) != recorded:
            return move
    return None


def test_one_changed_move_fails_at_its_ply(human_match, api_client):
    _alice, _client, match = human_match
    record = _record(api_client, match)
    for ply in (0, 5, match.ply // 2, match.ply - 1):
        other = _other_legal_move(match, record, ply)
        if other is None:
            continue
        tampered = copy.deepcopy(record)
        tampered["moves"][ply]["move"] = other
        verdict = verify_record(tampered)
        assert (verdict["valid"], verdict["diverges_at_ply"]) == (False, ply), verdict
        assert verdict["reason"] == "state_mismatch"
        # Without the digests only legality and the result are checked: a changed move
        # may still add up (another legal move to the same final scores), but a failure
        # is never reported before the change. (Nor a signature: the service's signature
        # would refuse any change, tests/games/records/test_signatures.py.)
        tampered.pop("signature")
        for entry in tampered["moves"]:
            entry.pop("state_digest")
        tampered.pop("initial_state_digest")
        verdict = verify_record(tampered)
        assert verdict["valid"] or verdict["diverges_at_ply"] >= ply


def test_an_illegal_move_fails_at_its_ply(human_match, api_client):
    _alice, _client, match = human_match
    record = _record(api_client, match)
    record["moves"][3]["move"] = {"type": "no-such-move"}
    verdict = api_client.post(VERIFY, record, format="json").json()
    assert verdict["valid"] is False
    assert (verdict["diverges_at_ply"], verdict["reason"]) == (3, "illegal_move")
    record = _record(api_client, match)
    record["moves"][4]["seat"] = 1 - record["moves"][4]["seat"]  # the other seat moves
    verdict = verify_record(record)
    assert (verdict["valid"], verdict["diverges_at_ply"]) == (False, 4)


def test_a_changed_seed_fails_at_the_deal(human_match, api_client):
    _alice, _client, match = human_match
    record = _record(api_client, match)
    record["seed"] = record["seed"] + "x"
    verdict = verify_record(record)
    assert (verdict["valid"], verdict["diverges_at_ply"], verdict["reason"]) == (
        False, 0, "seed_commitment_mismatch")
    # With a commitment that matches the new seed, the deal itself differs.
    import hashlib
    record["seed_commitment"] = hashlib.sha256(record["seed"].encode()).hexdigest()
    verdict = verify_record(record)
    assert (verdict["valid"], verdict["diverges_at_ply"], verdict["reason"]) == (
        False, 0, "state_mismatch")
    # Without digests or commitment, the other deal makes some recorded move fail.
    del record["seed_commitment"], record["initial_state_digest"]
    for entry in record["moves"]:
        del entry["state_digest"]
    verdict = verify_record(record)
    assert verdict["valid"] is False and verdict["diverges_at_ply"] is not None


def test_a_changed_result_fails_at_the_end(human_match, api_client):
    _alice, _client, match = human_match
    record = _record(api_client, match)
    for change in ("scores", "ranks", "winners"):
        tampered = copy.deepcopy(record)
        if change == "winners":
            tampered["result"]["winners"] = [1 - record["result"]["winners"][0]]
        else:
            tampered["result"][change][0] += 1
        verdict = api_client.post(VERIFY, tampered, format="json").json()
        assert verdict["valid"] is False
        assert verdict["diverges_at_ply"] == match.ply
        assert verdict["reason"] == "result_mismatch" and change in verdict["message"]
        assert verdict["computed_result"]["scores"] == record["result"]["scores"]
    # A record cut short: the game is not over at its end.
    short = copy.deepcopy(record)
    short["moves"] = short["moves"][:-1]
    verdict = verify_record(short)
    assert (verdict["diverges_at_ply"], verdict["reason"]) == (match.ply - 1, "game_not_over")


def test_only_finished_matches_have_a_record(make_user, make_auth_client, api_client):
    alice, bob = make_user(), make_user()
    client = make_auth_client(alice)
    with eager_celery():
        open_match = match_services.create_match(user=alice, game="han", players=3, seed=TEST_SEED)
        active = match_services.create_match(user=alice, game="hansa", players=2,
                                             bot_seats={1: "random"}, seed=TEST_SEED)
        aborted = match_services.create_match(user=bob, game="han", players=3, seed=TEST_SEED)
        match_services.abort_match(user=bob, match_id=aborted.pk)
    for match in (open_match, active, aborted):
        for reader in (api_client, client):
            response = reader.get(match_url(match.pk, "record/"))
            assert_api_error(response, 409, "not_finished")
            assert TEST_SEED not in response.content.decode()
    assert_api_error(api_client.get(match_url(999999, "record/")), 404, "match_not_found")
    assert_api_error(api_client.get(match_url("x", "record/")), 404, "match_not_found")
    body = gql("query($id: ID!) { matchRecord(matchId: $id) }", {"id": active.pk})
    assert error_codes(body) == ["not_finished"] and TEST_SEED not in json.dumps(body)


def _ndjson(response) -> list[dict]:
    assert response["Content-Type"] == "application/x-ndjson"
    # the stream is asynchronous (the ASGI server sends each record as it is built)
    async def collect():
        return b"".join([chunk async for chunk in response.streaming_content])

    text = async_to_sync(collect)().decode()
    return [json.loads(line) for line in text.splitlines()]


def test_a_users_records_stream_as_ndjson(finished, make_user, api_client):
    alice, client, first = finished
    with eager_celery():
        second = client.post(f"{API}/matches/", {
            "game": "han", "players": 2, "bot_seats": {"1": "random"}}, format="json").json()
        play_human_turns({0: client}, second["id"])
        match_services.create_match(user=alice, game="hansa", players=2, bot_seats={1: "random"})
    url = f"{API}/users/{alice.username}/records/"
    records = _ndjson(api_client.get(url))
    assert [record["match"]["id"] for record in records] == [first.pk, second["id"]]
    assert all(verify_record(record)["valid"] for record in records)
    assert records[0]["seats"][0]["user"] == alice.username
    resumed = _ndjson(api_client.get(f"{url}?after={first.pk}"))
    assert [record["match"]["id"] for record in resumed] == [second["id"]]
    assert len(_ndjson(api_client.get(f"{url}?limit=1&game=han"))) == 1
    assert _ndjson(api_client.get(f"{url}?game=hansa")) == []
    assert _ndjson(api_client.get(f"{API}/users/{make_user().username}/records/")) == []


@pytest.mark.parametrize("query, status, code", [
    ("?limit=0", 400, "invalid_request"),
    ("?limit=10001", 400, "invalid_request"),
    ("?limit=x", 400, "invalid_request"),
    ("?after=-1", 400, "invalid_request"),
    ("?game=chess", 400, "unknown_game"),
])
def test_bulk_export_refuses_bad_arguments(make_user, api_client, query, status, code):
    user = make_user()
    assert_api_error(api_client.get(f"{API}/users/{user.username}/records/{query}"),
                     status, code)


def test_bulk_export_of_an_unknown_user_is_404(api_client):
    assert_api_error(api_client.get(f"{API}/users/nobody-here/records/"), 404,
                     "user_not_found")


def _bad_records(record):
    def edit(**changes):
        changed = copy.deepcopy(record)
        for key, value in changes.items():
            if value is None:
                changed.pop(key)
            else:
                changed[key] = value
        return changed

    def with_move(index, entry):
        changed = copy.deepcopy(record)
        changed["moves"][index] = entry
        return changed

    return [
        ([1, 2], "invalid_record"),
        ({}, "invalid_record"),
        (edit(format="pgn"), "invalid_record"),
        (edit(format_version=2), "invalid_record"),
        (edit(game="chess"), "unknown_game"),
        (edit(game=None), "unknown_game"),
        (edit(rules_version="0"), "invalid_record"),
        (edit(players=9), "invalid_record"),
        (edit(players=True), "invalid_record"),
        (edit(options={"map": "atlantis"}), "invalid_record"),
        (edit(options=[]), "invalid_record"),
        (edit(seed=""), "invalid_record"),
        (edit(seed="x" * 129), "invalid_record"),
        (edit(seed=12), "invalid_record"),
        (edit(moves={"0": {}}), "invalid_record"),
        (edit(moves=[{"seat": 0, "move": {}}] * (MAX_RECORD_MOVES + 1)), "invalid_record"),
        (with_move(0, {"seat": 7, "move": {}}), "invalid_record"),
        (with_move(0, {"seat": 0, "move": "pass"}), "invalid_record"),
        (with_move(1, {"ply": 0, "seat": 0, "move": {}}), "invalid_record"),
        (with_move(0, {**record["moves"][0], "state_digest": "zz"}), "invalid_record"),
        (edit(result=None), "invalid_record"),
        (edit(result={"scores": [1], "ranks": [1, 2]}), "invalid_record"),
        (edit(result={"scores": [1, "2"], "ranks": [1, 2]}), "invalid_record"),
        (edit(seed_commitment="abc"), "invalid_record"),
    ]


def test_verify_refuses_bad_records_and_writes_nothing(human_match, api_client):
    _alice, _client, match = human_match
    record = _record(api_client, match)
    before = row_counts()
    for bad, code in _bad_records(record):
        response = api_client.post(VERIFY, bad, format="json")
        assert_api_error(response, 400, code)
    response = api_client.post(VERIFY, "not json", content_type="application/json")
    assert_api_error(response, 400, "malformed_json")
    response = api_client.post(VERIFY, {"format": "x"})  # multipart, not JSON
    assert_api_error(response, 415, "unsupported_media_type")
    assert row_counts() == before


def test_graphql_exports_and_verifies_the_same_record(human_match, api_client):
    _alice, _client, match = human_match
    body = gql("query($id: ID!) { matchRecord(matchId: $id) }", {"id": match.pk})
    record = body["data"]["matchRecord"]
    assert record == _record(api_client, match)
    query = ("query($r: JSON!) { verifyRecord(record: $r) "
             "{ valid divergesAtPly reason pliesChecked } }")
    assert gql(query, {"r": record})["data"]["verifyRecord"] == {
        "valid": True, "divergesAtPly": None, "reason": None, "pliesChecked": match.ply}
    record["result"]["scores"][0] += 1
    assert gql(query, {"r": record})["data"]["verifyRecord"]["divergesAtPly"] == match.ply
    assert error_codes(gql(query, {"r": {"format": "x"}})) == ["invalid_record"]


def test_a_resignation_is_part_of_the_record(make_user, api_client):
    from games.clocks import services as clock_services

    alice, bob = make_user(), make_user()
    with eager_celery():
        match = match_services.create_match(user=alice, game="hansa", players=2)
        match_services.join_match(user=bob, match_id=match.pk)
        clock_services.resign(user=alice, match_id=match.pk)
    match = Match.objects.get(pk=match.pk)
    assert match.status == MatchStatus.FINISHED  # two players: it ends at once
    record = _record(api_client, match)
    assert [entry["kind"] for entry in record["incidents"]] == ["resign"]
    assert record["result"]["ranks"] == [2, 1]
    assert verify_record(record)["valid"] is True
    without = copy.deepcopy(record)
    without["incidents"] = []
    verdict = verify_record(without)
    assert (verdict["valid"], verdict["reason"]) == (False, "game_not_over")
    record["incidents"][0]["seat"] = 1  # the other seat resigned: another result
    verdict = verify_record(record)
    assert (verdict["valid"], verdict["reason"]) == (False, "result_mismatch")
    for bad in ({"ply": 0, "seat": 0, "kind": "sulk"}, {"ply": 999, "seat": 0,
                                                        "kind": "resign"}, "resign"):
        record["incidents"] = [bad]
        assert_api_error(api_client.post(VERIFY, record, format="json"), 400,
                         "invalid_record")
