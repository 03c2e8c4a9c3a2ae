"""The checked-in schema.graphql is the schema the code serves (CI fails on a drift).

Regenerate it with:

    .venv/bin/python manage.py export_schema games.graphql.schema --path schema.graphql
"""

from pathlib import Path

from strawberry.printer import print_schema

from games.graphql.schema import schema

SCHEMA_FILE = Path(__file__).resolve().parents[3] / "schema.graphql"


def test_checked_in_schema_matches_the_code():
    assert SCHEMA_FILE.exists(), "schema.graphql is missing at the repository root"
    checked_in = SCHEMA_FILE.read_text(encoding="utf-8")
    assert checked_in == print_schema(schema), (
        "schema.graphql is stale: run `.venv/bin/python manage.py export_schema "
        "games.graphql.schema --path schema.graphql` and commit it"
    )
