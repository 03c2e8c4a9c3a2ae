"""rules/ is a pure library (docs/architecture.md, "Layers and import contracts": the arrows point
one way): nothing under it may import the web framework, the task queue, or the Django apps that sit
on top of it."""

from __future__ import annotations

import ast
from pathlib import Path

RULES_DIR = Path(__file__).resolve().parents[2] / "rules"

FORBIDDEN_TOP_LEVEL = {
    "django",
    "rest_framework",
    "strawberry",
    "strawberry_django",
    "celery",
    "channels",
    "channels_redis",
    "games",
    "accounts",
    "config",
    "infra",
}

DYNAMIC_IMPORTERS = {"import_module", "__import__"}


def forbidden_imports(source: str, filename: str = "<source>") -> list[str]:
    """Every forbidden import in ``source`` as "line: module", static or dynamic."""
    found = []
    for node in ast.walk(ast.parse(source, filename=filename)):
        modules: list[str] = []
        if isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            modules = [node.module]
        elif isinstance(node, ast.Call):
            # importlib.import_module("django.conf") / __import__("celery"): a string literal
            # is all we can see statically, and it is what a sneaky import would use.
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
            first = node.args[0] if node.args else None
            if name in DYNAMIC_IMPORTERS and isinstance(first, ast.Constant):
                if isinstance(first.value, str):
                    modules = [first.value]
        found += [
            f"{node.lineno}: {module}"
            for module in modules
            if module.split(".")[0] in FORBIDDEN_TOP_LEVEL
        ]
    return found


def test_rules_package_imports_nothing_from_the_service_layers():
    files = sorted(RULES_DIR.rglob("*.py"))
    assert files, "rules/ has no Python files: the walk is looking in the wrong place"
    violations = {
        str(path.relative_to(RULES_DIR.parent)): hits
        for path in files
        if (hits := forbidden_imports(path.read_text(encoding="utf-8"), str(path)))
    }
    assert violations == {}, f"rules/ must stay pure Python: {violations}"


def test_the_checker_catches_every_import_form():
    source = "\n".join(
        [
            "import json",
            "import django.conf",
            "from rest_framework import serializers",
            "from games.models import Match",
            "import celery as c, math",
            "from strawberry_django import type",
            "from . import sibling",
            "from rules.engine import Engine",
            "import importlib",
            "importlib.import_module('accounts.models')",
            "__import__('channels')",
        ]
    )
    assert forbidden_imports(source) == [
        "2: django.conf",
        "3: rest_framework",
        "4: games.models",
        "5: celery",
        "6: strawberry_django",
        "10: accounts.models",
        "11: channels",
    ]
