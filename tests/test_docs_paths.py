"""docs/architecture.md names only paths that exist: every file and folder of its layout
("The parts") and every path it quotes in its prose (`infra/paging.py`,
`infra/wire.py`, `games/matches/`). A module moved or renamed without the document fails
here, naming the path.

In the layout a name is read relative to the folder it is listed under (``engine.py``
under ``rules/`` is ``rules/engine.py``); a path starting with a top folder of the
repository (``docs/capacity.md``) is read from the root. In the prose a quoted path is read
from the root, and a bare file name (``url_policy.py``) must exist somewhere in the
repository. Templates (``rules/<game>/``) are not paths.

And the code cites only documents of the repository: every ``.md`` a module names, in a
comment or a docstring, exists (a path from the root, or a page of docs/ by its name)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCUMENT = ROOT / "docs" / "architecture.md"
TOP_FOLDERS = {path.name for path in ROOT.iterdir() if path.is_dir()
               and not path.name.startswith(".")}
EXTENSIONS = (".py", ".md", ".json", ".graphql", ".toml", ".yaml", ".yml", ".sh", ".mjs",
              ".html", ".cfg", ".txt")
#: a path-like word: letters, digits, _ - . and /, ending in a known extension or a /
PATH_WORD = re.compile(r"(?<![\w./<>-])[\w][\w./-]*(?:/|\.[a-z]+)(?![\w/<>-])")
#: a line of the layout naming entries (not continuing a description): at most 6 spaces in
LAYOUT_INDENT = 6
#: such a line: its entries (``apps.py, urls.py``), then their description
LAYOUT_ENTRY = re.compile(r"([\w./-]+(?:,\s*[\w./-]+)*)\s*(.*)")


def _is_path(word: str) -> bool:
    return "..." not in word and (word.endswith("/") or word.endswith(EXTENSIONS))


def _from_root(word: str) -> bool:
    return word.split("/", 1)[0] in TOP_FOLDERS and "/" in word


def layout_block(text: str) -> str:
    section = text.split("## The parts", 1)[1]
    return section.split("```", 2)[1]


def layout_paths(text: str) -> list[str]:
    """Every path the layout names, resolved against the folder each is listed under."""
    folders: dict[int, str] = {}  # indentation -> the folder last listed there
    current = ""  # where the description being read is relative to
    paths = []
    for line in layout_block(text).splitlines()[1:]:
        if not line.strip():
            continue
        indent = len(line) - len(line.lstrip())
        if indent <= LAYOUT_INDENT:
            head, description = LAYOUT_ENTRY.match(line.strip()).groups()
            parent = next((folders[level] for level in sorted(folders, reverse=True)
                           if level < indent), "")
            for level in [level for level in folders if level >= indent]:
                del folders[level]
            names = [name.strip() for name in head.split(",") if name.strip()]
            for name in names:
                paths.append(parent + name)
            # one folder: what follows is in it; a list (clocks/, lobby/, ...): in its parent
            folder = parent + names[0] if len(names) == 1 and names[0].endswith("/") else parent
            folders[indent] = folder
            current = folder
        else:
            description = line
        for word in PATH_WORD.findall(description):
            if _is_path(word):
                paths.append(word if _from_root(word) else current + word)
    return paths


def prose_paths(text: str) -> list[str]:
    """Every path quoted in backticks outside the layout."""
    prose = text.replace(layout_block(text), "")
    paths = []
    for quoted in re.findall(r"`([^`\n]+)`", prose):
        if "<" in quoted or quoted.startswith("/") or " " in quoted:
            continue
        module = "/" not in quoted and quoted.split(".", 1)[0] in TOP_FOLDERS  # games.api
        if _is_path(quoted) and not module:
            paths.append(quoted)
    return paths


def _exists(path: str) -> bool:
    if (ROOT / path).exists() or "/" in path.rstrip("/"):
        return (ROOT / path).exists()
    # a bare name: somewhere in the repository's own folders
    return any(True for folder in TOP_FOLDERS for _ in (ROOT / folder).rglob(path.rstrip("/")))


def test_the_document_names_paths_at_all():
    text = DOCUMENT.read_text()
    assert "rules/engine.py" in layout_paths(text)
    assert "games/matches/services.py" in layout_paths(text)
    assert "infra/api_views.py" in prose_paths(text)


@pytest.mark.parametrize("reader", [layout_paths, prose_paths], ids=["layout", "prose"])
def test_every_path_the_architecture_names_exists(reader):
    missing = [path for path in reader(DOCUMENT.read_text()) if not _exists(path)]
    assert not missing, f"docs/architecture.md names paths that do not exist: {missing}"


#: the code that may cite a document
CODE_FOLDERS = ("accounts", "bench", "config", "games", "infra", "rules", "scripts", "tests",
                "tools")
DOCUMENT_NAME = re.compile(r"(?<![\w./*-])((?:\.\./)*\w[\w./-]*\.md)\b")


def _cited_documents() -> list[tuple[str, str]]:
    cited = []
    for folder in CODE_FOLDERS:
        for source in sorted((ROOT / folder).rglob("*.py")):
            if "node_modules" in source.parts:
                continue
            for name in DOCUMENT_NAME.findall(source.read_text()):
                cited.append((source.relative_to(ROOT).as_posix(), name))
    return cited


def test_the_code_cites_only_documents_of_the_repository():
    # a path from the root (docs/api.md), or a page of docs/ by its name (api.md)
    missing = [f"{source}: {name}" for source, name in _cited_documents()
               if not (ROOT / name).is_file() and not (ROOT / "docs" / name).is_file()]
    assert not missing, f"comments cite documents that are not in the repository: {missing}"
