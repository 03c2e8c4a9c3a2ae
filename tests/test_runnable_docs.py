"""Every shell block marked ``<!-- runnable -->`` in README.md and docs/*.md runs as
written and exits 0 (tests/runnable_docs.py finds them; docs/development.md, "Runnable
documentation").

Each block runs in a fresh ``bash -eo pipefail`` at the checkout's root with a bare
environment (PATH, HOME, the locale): nothing this suite exported (DATABASE_URL, the test
settings) reaches it. The blocks' ``make services`` starts a PostgreSQL and a Redis of
this test's own, a fresh cluster under .var/docs on free ports, as a new checkout's first
``make services`` would; they are stopped and removed at the end."""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest

from tests.ports import free_port
from tests.runnable_docs import ROOT, blocks_in, documents, runnable_blocks

pytestmark = pytest.mark.slow

SERVICES_DIR = ROOT / ".var" / "docs"
BLOCKS = runnable_blocks()


def _stop_and_remove(env: dict[str, str]) -> None:
    if SERVICES_DIR.exists():
        subprocess.run([str(ROOT / "scripts" / "services.sh"), "stop"], env=env, cwd=ROOT,
                       capture_output=True, timeout=120)
        shutil.rmtree(SERVICES_DIR, ignore_errors=True)


@pytest.fixture(scope="module")
def fresh_shell_env():
    env = {name: os.environ[name] for name in ("PATH", "HOME", "LANG", "LC_ALL", "TMPDIR")
           if name in os.environ}
    env.update(SERVICES_DIR=str(SERVICES_DIR), PG_PORT=str(free_port()),
               REDIS_PORT=str(free_port()))
    _stop_and_remove(env)  # what a killed earlier run left: start from nothing
    yield env
    _stop_and_remove(env)


def test_the_recipes_users_copy_are_marked_runnable():
    names = {(block.document, line) for block in BLOCKS for line in block.script.splitlines()}
    for document in ("README.md", "docs/bots.md"):
        assert any(doc == document and "play_bots" in line for doc, line in names), document
        assert any(doc == document and "DATABASE_URL=$DATABASE_OWNER_URL" in line
                   and "migrate" in line for doc, line in names), document
    assert any("validate.mjs docs/asyncapi.yaml" in line for _, line in names)


def test_a_marker_without_a_shell_block_is_an_error(tmp_path):
    document = tmp_path / "recipe.markdown"
    document.write_text("text\n<!-- runnable -->\n```python\nprint(1)\n```\n")
    with pytest.raises(ValueError, match="not followed by"):
        blocks_in(document)
    for path in documents():  # and none of ours has such a marker (this raises)
        blocks_in(path)


@pytest.mark.parametrize("block", BLOCKS, ids=lambda block: block.name)
def test_the_block_runs_as_written(block, fresh_shell_env):
    done = subprocess.run(["bash", "-eo", "pipefail", "-c", block.script], cwd=ROOT,
                          env=fresh_shell_env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, (
        f"{block.name} exited {done.returncode}\n--- script\n{block.script}"
        f"--- stdout\n{done.stdout[-3000:]}\n--- stderr\n{done.stderr[-3000:]}")
