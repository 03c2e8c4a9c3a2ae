"""The shape of the house (pyproject.toml, [tool.importlinter]) holds, and our own contract
type finds the circles it exists for."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import grimp

from tests.import_contracts import NoCirclesContract

ROOT = Path(__file__).resolve().parent.parent


def _graph(*imports: tuple[str, str]) -> grimp.ImportGraph:
    graph = grimp.ImportGraph()
    for importer, imported in imports:
        graph.add_import(importer=importer, imported=imported)
    return graph


def _contract(*containers: str) -> NoCirclesContract:
    # Built without Contract.__init__: its check of option names walks dir() of the class,
    # and under the test suite zope.interface (daphne's twisted) lists a __provides__ there
    # that getattr then refuses. lint-imports itself (the last test) builds it normally.
    contract = NoCirclesContract.__new__(NoCirclesContract)
    contract.containers = list(containers)
    return contract


def test_a_circle_through_three_files_breaks_the_contract():
    graph = _graph(("shop.a", "shop.b"), ("shop.b", "shop.c"), ("shop.c", "shop.a"))
    graph.add_module("shop")
    check = _contract("shop").check(graph, verbose=False)
    assert not check.kept
    assert len(check.metadata["circles"]) == 1
    assert set(check.metadata["circles"][0]) == {"shop.a", "shop.b", "shop.c"}


def test_a_one_way_house_keeps_it():
    graph = _graph(("shop.a", "shop.b"), ("shop.b", "shop.c"), ("shop.a", "shop.c"))
    graph.add_module("shop")
    assert _contract("shop").check(graph, verbose=False).kept


def test_the_project_keeps_every_contract():
    linter = Path(sys.executable).with_name("lint-imports")
    run = subprocess.run([str(linter)], cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    assert "4 kept, 0 broken" in run.stdout
