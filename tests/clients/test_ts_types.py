"""The TypeScript client's generated types (clients/ts/src/generated/) are the ones the
current OpenAPI schema gives: regenerated into a temporary folder with the client's own
`generate` script and compared with the committed files (CI fails on a drift).

Regenerate them with `npm run generate` in clients/ts (clients/ts/README.md)."""

from __future__ import annotations

import json
import sys

from django.test import Client

from tests.clients.node import CLIENT, ensure_installed, run

GENERATED = CLIENT / "src" / "generated"
FILES = ("schema.d.ts", "moves.ts")


def test_committed_types_match_the_served_schema(db, tmp_path):
    ensure_installed()
    schema = tmp_path / "openapi.json"
    response = Client().get("/api/v1/schema/?format=json")
    assert response.status_code == 200
    schema.write_text(json.dumps(response.json()), encoding="utf-8")
    out = tmp_path / "generated"
    run(["node", "scripts/generate.mjs", "--input", str(schema), "--out", str(out)])
    for name in FILES:
        assert (out / name).read_text(encoding="utf-8") == \
            (GENERATED / name).read_text(encoding="utf-8"), (
            f"clients/ts/src/generated/{name} is stale: run `npm run generate` in clients/ts "
            "and commit it")


def test_generate_dumps_the_schema_offline_as_the_server_serves_it(tmp_path):
    """`npm run generate` without --input dumps the schema with manage.py spectacular
    (no server, no database): the same types."""
    ensure_installed()
    out = tmp_path / "generated"
    run(["node", "scripts/generate.mjs", "--out", str(out)], env={"PYTHON": sys.executable})
    for name in FILES:
        assert (out / name).read_text(encoding="utf-8") == \
            (GENERATED / name).read_text(encoding="utf-8"), name
