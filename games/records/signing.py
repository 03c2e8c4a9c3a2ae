"""The service's signature on a game record (issue 39; docs/records.md "Signatures").

Replay checks that a record's incidents could have happened; it cannot tell an invented
reclaim after a real takeover, or invented added time, from a real one. The service's
signature can: every finished record it builds carries an Ed25519 signature over what
replay reads (the deal, the moves, the incidents, the result) and the match's id, made
with a key only the service holds; its public keys are published
(``GET /api/v1/records/keys/``), so anyone can check that a record is the one the
service wrote. A record without a signature is still checked by replay, as before.

What is signed is ``signed_document(record)``, in the canonical form ``canonical_bytes``
gives it: JSON with sorted keys, no whitespace, UTF-8 (docs/records.md says it so an
outside verifier can rebuild it). Left out, since they change after the end or are only
informative: ``seats`` and each incident's ``user`` (an erased account's name becomes its
tombstone, and its records must still verify), ``match`` but its id, ``analysis``.

Keys come from ``settings.RECORD_SIGNING_KEYS`` (config/settings.py): the first signs, the
others are older keys still published, so records signed before a rotation verify.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from django.conf import settings

ALGORITHM = "Ed25519"
#: the record's top-level fields that are signed as they are
SIGNED_FIELDS = ("format", "format_version", "game", "rules_version", "players", "options",
                 "time_control", "seed", "seed_commitment", "initial_state_digest", "result")
MOVE_FIELDS = ("ply", "seat", "move", "state_digest")
INCIDENT_FIELDS = ("ply", "seat", "kind")
#: hex digits of the public key's SHA-256 that name it
KEY_ID_LENGTH = 16

#: what checking a record's signature can find (the verdict's ``signature``); UNCHECKED:
#: the replay refused the record first (games/records/services.py)
VALID, ABSENT, UNKNOWN_KEY, MISMATCH, UNCHECKED = (
    "valid", "absent", "unknown_key", "mismatch", "unchecked")


@dataclass(frozen=True)
class SigningKey:
    key_id: str
    private: Ed25519PrivateKey
    public_raw: bytes

    @property
    def public(self) -> Ed25519PublicKey:
        return self.private.public_key()


def key_id_of(public_raw: bytes) -> str:
    """A key's name: the first 16 hex digits of the SHA-256 of its 32 raw bytes."""
    return hashlib.sha256(public_raw).hexdigest()[:KEY_ID_LENGTH]


@lru_cache(maxsize=4)
def _keys_from(configured: tuple[str, ...]) -> tuple[SigningKey, ...]:
    keys = []
    for text in configured:
        # config/settings.py checked each one: base64 of 32 bytes
        private = Ed25519PrivateKey.from_private_bytes(base64.b64decode(text, validate=True))
        public_raw = private.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
        keys.append(SigningKey(key_id_of(public_raw), private, public_raw))
    return tuple(keys)


def signing_keys() -> tuple[SigningKey, ...]:
    """The configured keys, the current (signing) one first. Cached per configuration,
    so a test's override_settings (a rotation) takes effect at once."""
    return _keys_from(tuple(settings.RECORD_SIGNING_KEYS))


def published_keys() -> list[dict]:
    """What ``GET /api/v1/records/keys/`` answers: every key a record may be signed
    with, the current one first."""
    return [{"key_id": key.key_id, "algorithm": ALGORITHM,
             "public_key": base64.b64encode(key.public_raw).decode("ascii"),
             "current": index == 0}
            for index, key in enumerate(signing_keys())]


def signed_document(record: dict) -> dict:
    """The parts of ``record`` its signature covers (a missing part reads as null)."""
    document = {field: record.get(field) for field in SIGNED_FIELDS}
    moves, incidents, match = (record.get("moves"), record.get("incidents"),
                               record.get("match"))
    document["moves"] = [{field: entry.get(field) for field in MOVE_FIELDS}
                         if isinstance(entry, dict) else entry
                         for entry in moves] if isinstance(moves, list) else moves
    document["incidents"] = [{field: entry.get(field) for field in INCIDENT_FIELDS}
                             if isinstance(entry, dict) else entry
                             for entry in incidents] if isinstance(incidents,
                                                                   list) else incidents
    document["match_id"] = match.get("id") if isinstance(match, dict) else None
    return document


def canonical_bytes(document: Any) -> bytes:
    """``document`` as JSON with sorted keys, no whitespace, non-ASCII characters as
    they are, UTF-8: the bytes that are signed. Read back from JSON first, so a value
    built here (an int key) encodes as it will after a round trip through a file."""
    readable = json.loads(json.dumps(document))
    # surrogatepass: a lone surrogate (a "\ud800" escape in a posted record) encodes
    # instead of raising; no record the service writes holds one
    return json.dumps(readable, sort_keys=True, separators=(",", ":"),
                      ensure_ascii=False).encode("utf-8", "surrogatepass")


def sign(record: dict) -> dict:
    """The ``signature`` of ``record`` by the current key."""
    key = signing_keys()[0]
    value = key.private.sign(canonical_bytes(signed_document(record)))
    return {"key_id": key.key_id, "algorithm": ALGORITHM,
            "value": base64.b64encode(value).decode("ascii")}


def decoded_signature(value: Any) -> bytes | None:
    """The 64 bytes of a ``signature.value`` (base64), or None when it is not one."""
    if not isinstance(value, str) or len(value) > 200:
        return None
    try:
        raw = base64.b64decode(value, validate=True)
    except (binascii.Error, ValueError):
        return None
    return raw if len(raw) == 64 else None


def check(record: dict, key_id: str, signature: bytes) -> str:
    """VALID when ``signature`` by the published key ``key_id`` covers ``record``;
    UNKNOWN_KEY when no published key has that id, MISMATCH otherwise."""
    key = next((key for key in signing_keys() if key.key_id == key_id), None)
    if key is None:
        return UNKNOWN_KEY
    try:
        key.public.verify(signature, canonical_bytes(signed_document(record)))
    except InvalidSignature:
        return MISMATCH
    return VALID
