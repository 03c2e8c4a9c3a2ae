"""`manage.py record_signing_key`: a fresh Ed25519 key for RECORD_SIGNING_KEYS.

Prints the private key (base64 of 32 random bytes from the operating system) on one line,
for the environment, and its key id and public key on stderr, so that
``NEW=$(manage.py record_signing_key)`` captures the key alone. Rotation steps:
docs/operations.md "Record signing keys". Nothing is stored: the key lives in the
deployment's secrets, like SECRET_KEY.
"""

from __future__ import annotations

import base64

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import (
    Encoding,
    NoEncryption,
    PrivateFormat,
    PublicFormat,
)
from django.core.management.base import BaseCommand

from games.records.signing import key_id_of


class Command(BaseCommand):
    help = "Print a new record signing key (RECORD_SIGNING_KEYS); its key id on stderr."

    def handle(self, *args, **options):
        private = Ed25519PrivateKey.generate()
        raw = private.private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption())
        public = private.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
        self.stdout.write(base64.b64encode(raw).decode("ascii"))
        self.stderr.write(f"key id {key_id_of(public)}, public key "
                          f"{base64.b64encode(public).decode('ascii')}")
