"""The documentation stands alone: every relative link in the README, docs/ and the rules
READMEs resolves to a file of this repository, and nothing points outside it (a user's
clone has no ../shared)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = sorted(
    [ROOT / "README.md", *(ROOT / "docs").glob("*.md"), *(ROOT / "rules").glob("**/README.md")]
)
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def local_links(text: str) -> list[str]:
    return [
        target for target in LINK.findall(text)
        if not target.startswith(("http://", "https://", "mailto:", "#"))
    ]


def test_the_documents_exist():
    names = {path.relative_to(ROOT).as_posix() for path in DOCUMENTS}
    assert {"README.md", "docs/architecture.md", "docs/rulings.md",
            "rules/han/README.md", "rules/hansa/README.md"} <= names


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_relative_link_resolves_inside_the_repository(document):
    for target in local_links(document.read_text()):
        resolved = (document.parent / target.split("#")[0]).resolve()
        assert resolved.is_relative_to(ROOT), f"{document.name}: {target} leaves the repository"
        assert resolved.exists(), f"{document.name}: {target} does not exist"


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_nothing_points_at_the_shared_folder(document):
    text = document.read_text()
    assert "../shared" not in text and "shared/RULINGS" not in text
    assert "shared/DESIGN" not in text and "shared/rulebooks" not in text


def test_the_readme_links_the_architecture_the_rulings_and_both_move_formats():
    links = set(local_links((ROOT / "README.md").read_text()))
    assert {"docs/architecture.md", "docs/rulings.md", "rules/han/README.md",
            "rules/hansa/README.md"} <= links


def test_every_ruling_cited_in_the_code_is_documented():
    documented = set(re.findall(r"\*\*([HVQC]\d+) ", (ROOT / "docs/rulings.md").read_text()))
    cited = set()
    for folder in ("rules", "games", "tests"):
        for source in (ROOT / folder).glob("**/*.py"):
            cited |= set(re.findall(r"\bruling ([HVQC]\d+)\b", source.read_text()))
    assert cited, "the code cites rulings as `ruling H7`"
    assert cited <= documented, f"cited but not in docs/rulings.md: {sorted(cited - documented)}"
