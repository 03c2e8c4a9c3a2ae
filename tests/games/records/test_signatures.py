"""Records signed by the service (issue 39; docs/records.md "Signatures").

The attack: an invented reclaim after a real takeover, and invented added time, verified,
since they could have happened and nothing but the replay vouched for the incidents. Now
every finished record carries the service's Ed25519 signature over its deal, moves,
incidents, result and match id; verification refuses a record whose signed parts changed
(``signature_mismatch``) or whose key is not published (``signature_unknown_key``), and a
record without a signature is still checked by replay, as before. Keys rotate: a record
signed with an older key verifies while that key is published.
"""

from __future__ import annotations

import base64
import copy
import hashlib
import json
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from games.clocks import services as clock_services
from games.matches import services as match_services
from games.matches.models import Match, MatchStatus
from games.records.selectors import record_of
from games.records.services import verify_record
from tests.games.graphql.support import gql
from tests.games.support import API, eager_celery, row_counts

pytestmark = pytest.mark.django_db(transaction=True)  # bots play on commit

VERIFY = f"{API}/records/verify/"
KEYS = f"{API}/records/keys/"
T0 = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)
#: two keys besides the test suite's (tests/settings.py), for the rotation
OLD_KEY = base64.b64encode(hashlib.sha256(b"rotation test: old").digest()).decode()
NEW_KEY = base64.b64encode(hashlib.sha256(b"rotation test: new").digest()).decode()


def _verdict(record: dict) -> tuple:
    verdict = verify_record(record)
    return verdict["valid"], verdict["reason"], verdict["signature"]


@pytest.fixture
def timed_out(make_user):
    """A clocked three-seat match whose human seat runs out of time and is taken over by
    its bot (a real timeout and takeover), then played out by the bots."""
    ann = make_user()
    with eager_celery(), time_machine.travel(T0, tick=False) as traveller:
        match = match_services.create_match(user=ann, game="hansa", players=3,
                                            bot_seats={1: "greedy", 2: "random"},
                                            time_control="realtime-3+10")
        traveller.shift(timedelta(minutes=4))
        clock_services.sweep_expired_clocks()
    assert Match.objects.get(pk=match.pk).status == MatchStatus.FINISHED
    record = record_of(match.pk)
    assert [entry["kind"] for entry in record["incidents"]] == ["timeout", "takeover"]
    assert _verdict(record) == (True, None, "valid")
    return record


# -- the two findings ---------------------------------------------------------------------------
def test_an_invented_reclaim_after_a_real_takeover_fails_on_the_signature(timed_out,
                                                                           api_client):
    takeover = timed_out["incidents"][1]
    tampered = copy.deepcopy(timed_out)
    tampered["incidents"].append({"ply": takeover["ply"] + 1, "seat": takeover["seat"],
                                  "kind": "reclaim", "user": takeover["user"]})
    before = row_counts()
    response = api_client.post(VERIFY, tampered, format="json")
    assert response.status_code == 200
    verdict = response.json()
    assert (verdict["valid"], verdict["reason"], verdict["signature"],
            verdict["diverges_at_ply"]) == (False, "signature_mismatch", "mismatch", None)
    assert "incident" in verdict["message"]
    assert row_counts() == before
    # the replay alone cannot tell it (what the attack found): a reclaim answers a takeover
    del tampered["signature"]
    assert _verdict(tampered) == (True, None, "absent")


def test_invented_added_time_fails_on_the_signature(timed_out):
    tampered = copy.deepcopy(timed_out)
    tampered["incidents"].insert(0, {"ply": 1, "seat": 0, "kind": "time_added",
                                     "user": None})
    assert _verdict(tampered) == (False, "signature_mismatch", "mismatch")
    del tampered["signature"]
    assert _verdict(tampered) == (True, None, "absent")


# -- genuine records ----------------------------------------------------------------------------
def test_a_genuine_record_is_signed_and_verifies_on_both_apis(timed_out, api_client):
    signature = timed_out["signature"]
    assert signature["algorithm"] == "Ed25519"
    assert len(base64.b64decode(signature["value"])) == 64
    response = api_client.post(VERIFY, timed_out, format="json")
    assert response.status_code == 200
    assert (response.json()["valid"], response.json()["signature"]) == (True, "valid")
    query = "query($r: JSON!) { verifyRecord(record: $r) { valid reason signature } }"
    assert gql(query, {"r": timed_out})["data"]["verifyRecord"] == {
        "valid": True, "reason": None, "signature": "valid"}
    # the same signature on every export: Ed25519 is deterministic
    assert record_of(timed_out["match"]["id"])["signature"] == signature


def test_an_outside_verifier_rebuilds_the_signed_bytes_from_the_documentation(timed_out,
                                                                              api_client):
    """docs/records.md's recipe, followed literally with the published key."""
    keys = api_client.get(KEYS).json()["keys"]
    key = next(key for key in keys if key["key_id"] == timed_out["signature"]["key_id"])
    public = base64.b64decode(key["public_key"])
    assert key["key_id"] == hashlib.sha256(public).hexdigest()[:16]
    record = json.loads(json.dumps(timed_out))  # as it reads from a file
    signed = {field: record[field] for field in (
        "format", "format_version", "game", "rules_version", "players", "options",
        "time_control", "seed", "seed_commitment", "initial_state_digest", "result")}
    signed["moves"] = [{field: move[field] for field in ("ply", "seat", "move",
                                                         "state_digest")}
                       for move in record["moves"]]
    signed["incidents"] = [{field: incident[field] for field in ("ply", "seat", "kind")}
                           for incident in record["incidents"]]
    signed["match_id"] = record["match"]["id"]
    message = json.dumps(signed, sort_keys=True, separators=(",", ":"),
                         ensure_ascii=False).encode("utf-8")
    Ed25519PublicKey.from_public_bytes(public).verify(
        base64.b64decode(record["signature"]["value"]), message)  # raises when not


# -- tampering with any signed part -------------------------------------------------------------
def _set(record: dict, path: str, value) -> None:
    *parents, last = path.split(".")
    for part in parents:
        record = record[int(part)] if part.isdigit() else record[part]
    record[int(last) if last.isdigit() else last] = value


SIGNED_CHANGES = [
    ("match.id", 10**6),
    ("time_control.initial_seconds", 10**5),
    ("time_control.preset", "custom"),
    ("incidents.1.kind", "forfeit"),
    ("result.breakdown", [{}, {}, {}]),
    ("result.winners", [2, 1]),
    ("moves.3.state_digest", "0" * 64),
    ("moves.3.seat", 2),
    ("seed_commitment", "0" * 64),
]


#: the signed parts the replay does not read: only the signature protects them
REPLAY_BLIND = {"match.id", "time_control.initial_seconds", "time_control.preset"}


@pytest.mark.parametrize(("path", "value"), SIGNED_CHANGES)
def test_a_change_to_any_signed_part_fails(timed_out, path, value):
    tampered = copy.deepcopy(timed_out)
    _set(tampered, path, value)
    verdict = verify_record(tampered)
    assert verdict["valid"] is False, verdict
    if path in REPLAY_BLIND:
        assert (verdict["reason"], verdict["signature"]) == (
            "signature_mismatch", "mismatch"), verdict
        del tampered["signature"]
        assert _verdict(tampered) == (True, None, "absent")  # the signature alone told
    else:
        # the replay finds it first: its reason names a ply, and the signature's check
        # (as much work again) is saved
        assert verdict["signature"] == "unchecked" and verdict["diverges_at_ply"] is not None


@pytest.mark.parametrize(("path", "value"), [
    ("seats.0.user", "deleted-0001"),  # an erased account's tombstone
    ("incidents.0.user", "deleted-0001"),
    ("match.finished_at", "2030-01-01T00:00:00+00:00"),
    ("analysis", None),
])
def test_the_informative_parts_are_not_signed(timed_out, path, value):
    changed = copy.deepcopy(timed_out)
    _set(changed, path, value)
    assert _verdict(changed) == (True, None, "valid")


# -- keys: unknown, rotated, published ----------------------------------------------------------
def test_a_record_signed_by_an_unknown_key_fails(timed_out, settings):
    settings.RECORD_SIGNING_KEYS = [NEW_KEY]  # the test suite's key is no longer published
    verdict = verify_record(timed_out)
    assert (verdict["valid"], verdict["reason"], verdict["signature"]) == (
        False, "signature_unknown_key", "unknown_key")
    assert timed_out["signature"]["key_id"] in verdict["message"]


def test_rotation_keeps_old_records_valid_and_signs_new_ones_with_the_new_key(
        timed_out, settings, api_client):
    settings.RECORD_SIGNING_KEYS = [OLD_KEY]
    match_id = timed_out["match"]["id"]
    signed_before = record_of(match_id)
    old_id = signed_before["signature"]["key_id"]
    assert _verdict(signed_before) == (True, None, "valid")

    settings.RECORD_SIGNING_KEYS = [NEW_KEY, OLD_KEY]  # rotated: the old key still published
    keys = api_client.get(KEYS).json()["keys"]
    assert [(key["key_id"] == old_id, key["current"]) for key in keys] == [
        (False, True), (True, False)]
    assert _verdict(signed_before) == (True, None, "valid")
    signed_after = record_of(match_id)
    assert signed_after["signature"]["key_id"] == keys[0]["key_id"] != old_id
    assert _verdict(signed_after) == (True, None, "valid")

    settings.RECORD_SIGNING_KEYS = [NEW_KEY]  # the old key withdrawn
    assert _verdict(signed_before)[1] == "signature_unknown_key"
    assert _verdict(signed_after) == (True, None, "valid")


def test_the_keys_are_published_on_both_apis(api_client, settings):
    settings.RECORD_SIGNING_KEYS = [NEW_KEY, OLD_KEY]
    response = api_client.get(KEYS)
    assert response.status_code == 200
    assert "public" in response["Cache-Control"]
    keys = response.json()["keys"]
    assert [key["algorithm"] for key in keys] == ["Ed25519", "Ed25519"]
    assert all(len(base64.b64decode(key["public_key"])) == 32 for key in keys)
    assert NEW_KEY not in response.content.decode()  # never the private key
    body = gql("{ recordSigningKeys { keys { keyId algorithm publicKey current } } }")
    assert body["data"]["recordSigningKeys"]["keys"] == [
        {"keyId": key["key_id"], "algorithm": key["algorithm"],
         "publicKey": key["public_key"], "current": key["current"]} for key in keys]


# -- a malformed signature ----------------------------------------------------------------------
@pytest.mark.parametrize("signature", [
    "abc", [], {"key_id": "x", "algorithm": "RSA", "value": "AAAA"},
    {"key_id": "x", "algorithm": "Ed25519", "value": "not base64!"},
    {"key_id": "x", "algorithm": "Ed25519", "value": base64.b64encode(b"short").decode()},
    {"key_id": 7, "algorithm": "Ed25519", "value": base64.b64encode(bytes(64)).decode()},
])
def test_a_malformed_signature_is_invalid_record(timed_out, api_client, signature):
    tampered = copy.deepcopy(timed_out)
    tampered["signature"] = signature
    before = row_counts()
    response = api_client.post(VERIFY, tampered, format="json")
    assert response.status_code == 400
    error = response.json()["error"]
    assert (error["code"], error["details"]["field"]) == ("invalid_record", "signature")
    assert row_counts() == before


def test_a_well_formed_signature_of_zeros_is_a_mismatch(timed_out):
    tampered = copy.deepcopy(timed_out)
    tampered["signature"]["value"] = base64.b64encode(bytes(64)).decode()
    assert _verdict(tampered) == (False, "signature_mismatch", "mismatch")
