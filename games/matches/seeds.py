"""A match's secret seed and its public commitment (provable fairness: docs/architecture.md).

The commitment is public from the match's creation and the seed once it has ended, so
anyone can check that the seed they are shown is the one the deal was made from (record
verification does: games/records/services.py)."""

from __future__ import annotations

import hashlib
import secrets


def new_seed() -> str:
    """A fresh secret seed: 128 random bits, hex."""
    return secrets.token_hex(16)


def seed_commitment(seed: str) -> str:
    """The public SHA-256 commitment of ``seed`` (hex)."""
    return hashlib.sha256(seed.encode()).hexdigest()
