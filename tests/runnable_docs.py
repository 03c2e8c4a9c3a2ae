"""The shell blocks of README.md and docs/*.md that a reader is meant to copy and run.

A block is runnable when the line just before its opening fence is ``<!-- runnable -->``
(invisible on GitHub and in any Markdown viewer). tests/test_runnable_docs.py runs each one
on its own, in a fresh bash at the checkout's root, against a PostgreSQL and Redis of the
test's own (issue 41: the README's "watch bots" recipe migrated as the runtime role and
failed on every fresh checkout, and nothing ran it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MARKER = "<!-- runnable -->"
_FENCE = re.compile(r"^```(sh|bash)\s*$")


@dataclass(frozen=True)
class Block:
    document: str  # path from the checkout's root
    line: int  # 1-based line of the opening fence
    script: str

    @property
    def name(self) -> str:
        return f"{self.document}:{self.line}"


def documents() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def blocks_in(path: Path) -> list[Block]:
    """The runnable blocks of one document; a marker not followed by a sh/bash fence is an
    error, so a typo cannot silently drop a recipe from the test."""
    lines = path.read_text(encoding="utf-8").splitlines()
    found = []
    for index, line in enumerate(lines):
        if line.strip() != MARKER:
            continue
        fence = index + 1
        if fence >= len(lines) or not _FENCE.match(lines[fence]):
            raise ValueError(f"{path.name}:{index + 1}: {MARKER} is not followed by a ```sh fence")
        end = fence + 1
        while end < len(lines) and lines[end].strip() != "```":
            end += 1
        if end == len(lines):
            raise ValueError(f"{path.name}:{fence + 1}: the runnable block is never closed")
        found.append(Block(str(path.relative_to(ROOT)), fence + 1,
                           "\n".join(lines[fence + 1:end]) + "\n"))
    return found


def runnable_blocks() -> list[Block]:
    return [block for path in documents() for block in blocks_in(path)]
