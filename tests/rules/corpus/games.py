"""The frozen corpus of seeded games, one folder per game and rules version
(``<game>/<version>/*.json``): what proves that every rules version this service keeps
still replays its old logs to the same states and results (docs/records.md, "Rules
versions"; tests/rules/test_rules_corpus.py replays them, make_corpus.py writes them).

A corpus file is written once, when its version is the current one, and never rewritten:
it is what that version did, to be compared with what the code does today.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

CORPUS = Path(__file__).resolve().parent


def digest(state_json: dict) -> str:
    """SHA-256 of an engine's JSON state, as records state it (docs/records.md)."""
    text = json.dumps(state_json, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def version_folder(game: str, rules_version: str) -> Path:
    return CORPUS / game / rules_version


def corpus_versions() -> list[tuple[str, str]]:
    """Every ``(game, rules_version)`` with a corpus folder."""
    return sorted((folder.parent.name, folder.name) for folder in CORPUS.glob("*/*")
                  if folder.is_dir() and any(folder.glob("*.json")))


def corpus_files(game: str, rules_version: str) -> list[Path]:
    return sorted(version_folder(game, rules_version).glob("*.json"))


def load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))
