"""What a fuzz run saw, per transport, printed as one line that bench/fuzz_all.py reads:

    [fuzz] socket: cases=300 server_errors=0 internal_errors=0 allowed=2 other=0

``server_errors``: HTTP 5xx (GraphQL) or a close 1011 (socket); ``internal_errors``: an
``internal_error`` frame, or a GraphQL error without a stable code / ``server_error``;
``allowed``: failures of a known issue-39 class (tests/fuzz/known_issues.py); ``other``:
any other failure (no answer, a frame that is not JSON, an unexpected close)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

#: examples per fuzz test: a few hundred in `make test`, FUZZ_EXAMPLES for a bigger run
EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "300"))
#: the random seed: the same cases in every run (CI reproduces what it found), another
#: seed other cases (bench/fuzz_all.py --seed)
SEED = int(os.environ.get("FUZZ_SEED", "1"))
#: count failures and go on (bench/fuzz_all.py) instead of failing at the first one
KEEP_GOING = os.environ.get("FUZZ_KEEP_GOING", "") not in ("", "0", "false")


@dataclass
class Tally:
    transport: str
    cases: int = 0
    server_errors: int = 0
    internal_errors: int = 0
    allowed: int = 0
    other: int = 0
    examples: list[str] = field(default_factory=list)  # the first few failures, reproducible

    def add(self, request, problems: list[str], allowed: str | None) -> None:
        self.cases += 1
        if not problems:
            return
        if allowed:
            self.allowed += 1
            return
        text = " | ".join(problems)
        if "HTTP 5" in text or "closed with 1011" in text:
            self.server_errors += 1
        elif "internal_error" in text or "stable code" in text:
            self.internal_errors += 1
        else:
            self.other += 1
        if len(self.examples) < 10:
            self.examples.append(f"{request!r:.600} -> {text:.600}")

    @property
    def failures(self) -> int:
        return self.server_errors + self.internal_errors + self.other

    def line(self) -> str:
        return (f"[fuzz] {self.transport}: cases={self.cases} server_errors="
                f"{self.server_errors} internal_errors={self.internal_errors} "
                f"allowed={self.allowed} other={self.other}")
