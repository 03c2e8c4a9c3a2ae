"""`manage.py generate_vapid_keys`: a fresh VAPID key for Web Push
(WEBPUSH_VAPID_PRIVATE_KEY; docs/notifications.md).

Prints the private key (base64url of the raw 32-byte P-256 key) on one line, for the
environment, and the public key (the browsers' ``applicationServerKey``, also served at
``GET /api/v1/push/key/``) on stderr, so ``KEY=$(manage.py generate_vapid_keys)`` captures
the private key alone. Nothing is stored. A new key invalidates every subscription made
with the old one (browsers must subscribe again)."""

from __future__ import annotations

import base64

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.core.management.base import BaseCommand


def _b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


class Command(BaseCommand):
    help = "Print a new VAPID private key (WEBPUSH_VAPID_PRIVATE_KEY); the public on stderr."

    def handle(self, *args, **options):
        private = ec.generate_private_key(ec.SECP256R1())
        raw = private.private_numbers().private_value.to_bytes(32, "big")
        public = private.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
        self.stdout.write(_b64url(raw))
        self.stderr.write(f"public key (applicationServerKey) {_b64url(public)}")
