"""The TypeScript client as a package (issue 41: it was ESM-only and said nowhere, so
``require()`` failed): ``npm pack`` ships both builds and nothing else, ``require()`` and
``import`` both load it through the ``exports`` map, and TypeScript resolves its types from
a CommonJS and from an ES module consumer."""

from __future__ import annotations

import json
import subprocess

import pytest

from tests.clients.node import CLIENT, ensure_installed, run

ENTRY_POINTS = ("index", "rest", "socket")


@pytest.fixture(scope="module")
def built():
    ensure_installed()
    run(["npm", "run", "build"])


@pytest.fixture
def consumer(built, tmp_path):
    """A project next to nothing, with the client installed as npm links a local package."""
    scope = tmp_path / "node_modules" / "@hanhansa"
    scope.mkdir(parents=True)
    (scope / "client").symlink_to(CLIENT, target_is_directory=True)
    return tmp_path


def _node(consumer, script: str, suffix: str) -> str:
    path = consumer / f"try.{suffix}"
    path.write_text(script)
    done = subprocess.run(["node", str(path)], cwd=consumer, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_npm_pack_ships_both_builds_their_types_and_no_tests(built):
    packed = json.loads(run(["npm", "pack", "--dry-run", "--json"]).stdout)[0]
    files = {entry["path"] for entry in packed["files"]}
    for name in ENTRY_POINTS:
        for build in ("dist", "dist/cjs"):
            assert {f"{build}/{name}.js", f"{build}/{name}.d.ts"} <= files, (build, name)
    assert {"dist/cjs/package.json", "dist/generated/schema.d.ts",
            "dist/cjs/generated/schema.d.ts", "package.json", "README.md"} <= files
    assert not [path for path in files if path.startswith(("test/", "build/", "node_modules/",
                                                            "example/", "scripts/"))]
    assert json.loads((CLIENT / "dist" / "cjs" / "package.json").read_text()) == \
        {"type": "commonjs"}


def test_require_and_import_load_the_same_api(consumer):
    required = _node(consumer, """
const client = require("@hanhansa/client");
const rest = require("@hanhansa/client/rest");
const socket = require("@hanhansa/client/socket");
console.log(JSON.stringify([Object.keys(client).sort(), typeof rest.createRestClient,
                            typeof socket.connect]));
""", "cjs")
    imported = _node(consumer, """
import * as client from "@hanhansa/client";
import { createRestClient } from "@hanhansa/client/rest";
import { connect } from "@hanhansa/client/socket";
console.log(JSON.stringify([Object.keys(client).filter((k) => k !== "default").sort(),
                            typeof createRestClient, typeof connect]));
""", "mjs")
    names, rest, socket = json.loads(required)
    assert json.loads(imported) == [names, rest, socket]
    assert "createRestClient" in names and rest == socket == "function"


@pytest.mark.parametrize("suffix, module", [("cts", "node16"), ("mts", "node16")])
def test_typescript_finds_the_types_from_either_kind_of_module(consumer, suffix, module):
    source = consumer / f"app.{suffix}"
    source.write_text('import { createRestClient } from "@hanhansa/client";\n'
                      'const api = createRestClient({ baseUrl: "http://127.0.0.1:8000" });\n'
                      'export const games = api.GET("/api/v1/games/");\n')
    done = subprocess.run([str(CLIENT / "node_modules" / ".bin" / "tsc"), "--noEmit",
                           "--strict", "--module", module, "--moduleResolution", module,
                           "--target", "ES2022", "--lib", "ES2022,DOM",
                           "--skipLibCheck", str(source)],
                          cwd=consumer, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
