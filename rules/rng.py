"""The one documented source of randomness for every game (docs/architecture.md, "The engine
contract", determinism).

The stream is SHA-256 over ``f"{seed}:{counter}"`` for counter = 0, 1, 2, ...; each block
gives one 64-bit unsigned integer (its first 8 bytes, big-endian). Integers in a range are
drawn by rejection sampling, shuffles are Fisher-Yates from the last index down. Python's
``random`` is never used: its algorithms are not promised stable across versions, and a
match must replay identically on any machine, forever.

The generator is a small value (seed + counter) so it lives inside a game state, is copied
with it and round-trips through JSON.
"""

from __future__ import annotations

import hashlib

_TWO_64 = 1 << 64


class SeededRng:
    __slots__ = ("seed", "counter")

    def __init__(self, seed: str, counter: int = 0) -> None:
        self.seed = str(seed)
        self.counter = int(counter)

    def next_u64(self) -> int:
        digest = hashlib.sha256(f"{self.seed}:{self.counter}".encode()).digest()
        self.counter += 1
        return int.from_bytes(digest[:8], "big")

    def randbelow(self, n: int) -> int:
        """A uniform integer in [0, n), unbiased by rejection sampling."""
        if n <= 0:
            raise ValueError("randbelow needs n >= 1")
        limit = _TWO_64 - (_TWO_64 % n)
        while True:
            value = self.next_u64()
            if value < limit:
                return value % n

    def shuffle(self, items: list) -> None:
        """Fisher-Yates in place, from the last index down to 1."""
        for i in range(len(items) - 1, 0, -1):
            j = self.randbelow(i + 1)
            items[i], items[j] = items[j], items[i]

    def copy(self) -> SeededRng:
        return SeededRng(self.seed, self.counter)

    def to_json(self) -> dict:
        return {"seed": self.seed, "counter": self.counter}

    @classmethod
    def from_json(cls, data: dict) -> SeededRng:
        return cls(data["seed"], data["counter"])

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, SeededRng)
            and self.seed == other.seed
            and self.counter == other.counter
        )

    def __repr__(self) -> str:  # never print the seed: it is hidden until the match ends
        return f"SeededRng(counter={self.counter})"
