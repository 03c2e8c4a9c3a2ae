"""One vocabulary for REST and GraphQL (issue 22, item 2): docs/api.md has the one table
of REST answers (OpenAPI components) and their GraphQL twins; this test reads it and checks
that every field of every REST answer has its twin in the GraphQL schema (REST's name
camelCased, or the table's mapping), that no REST answer is missing from the table, and
that the renamed GraphQL names live on as deprecated aliases that still work."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from graphql import GraphQLList, GraphQLNonNull, GraphQLObjectType

from games.graphql.schema import schema as graphql_schema
from games.matches import services as match_services
from tests.games.graphql.support import gql

ROOT = Path(__file__).resolve().parents[3]
HEADER = "| REST (OpenAPI component) | GraphQL type | named otherwise (REST → GraphQL) |"
TYPES = graphql_schema._schema.type_map


def camel(name: str) -> str:
    first, *rest = name.split("_")
    return first + "".join(part[:1].upper() + part[1:] for part in rest)


def table_rows() -> list[tuple[list[str], str, dict[str, str | None], str]]:
    """``(REST components, GraphQL type, {REST field: GraphQL path or None}, the third
    cell)`` for every row of the table."""
    lines = (ROOT / "docs" / "api.md").read_text().splitlines()
    start = lines.index(HEADER) + 2
    rows = []
    for line in lines[start:]:
        if not line.startswith("|"):
            break
        rest, graphql, renamed = (cell.strip() for cell in line.strip("|").split("|"))
        mapping: dict[str, str | None] = {}
        for source, target in re.findall(r"`([\w*]+)` → (`[\w.*]+`|—)", renamed):
            mapping[source] = None if target == "—" else target.strip("`")
        twin = graphql.strip("`") if graphql.startswith("`") else graphql
        rows.append((re.findall(r"`(\w+)`", rest), twin, mapping, renamed))
    return rows


def _named(graphql_type):
    while isinstance(graphql_type, GraphQLNonNull | GraphQLList):
        graphql_type = graphql_type.of_type
    return graphql_type


def resolves(type_name: str, path: str) -> bool:
    current = TYPES[type_name]
    for part in path.split("."):
        if not isinstance(current, GraphQLObjectType) or part not in current.fields:
            return False
        current = _named(current.fields[part].type)
    return True


@pytest.fixture(scope="module")
def document():
    from drf_spectacular.generators import SchemaGenerator

    return SchemaGenerator().get_schema(request=None, public=True)


def answered_components(document) -> set[str]:
    """Every object component (with fields) a 2xx REST answer reaches."""
    schemas = document["components"]["schemas"]
    pending, reached = [], set()
    for operations in document["paths"].values():
        for operation in operations.values():
            for status, response in operation.get("responses", {}).items():
                if str(status).startswith("2"):
                    pending.extend(response.get("content", {}).values())
    while pending:
        node = pending.pop()
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str):
                name = ref.rsplit("/", 1)[1]
                if name not in reached:
                    reached.add(name)
                    pending.append(schemas[name])
            pending.extend(value for key, value in node.items() if key != "$ref")
        elif isinstance(node, list):
            pending.extend(node)
    return {name for name in reached if schemas[name].get("properties")}


def move_components(document) -> set[str]:
    schemas = document["components"]["schemas"]
    return {branch["$ref"].rsplit("/", 1)[1] for game in schemas["Move"]["oneOf"]
            for branch in schemas[game["$ref"].rsplit("/", 1)[1]]["oneOf"]}


def test_every_rest_answer_is_in_the_table(document):
    named = {name for components, *_ in table_rows() for name in components}
    missing = answered_components(document) - named - move_components(document)
    assert not missing, f"REST answers missing from docs/api.md's table: {sorted(missing)}"


def test_every_rest_field_has_its_graphql_twin(document):
    schemas = document["components"]["schemas"]
    missing = []
    for components, twin, mapping, _cell in table_rows():
        if twin not in TYPES or twin == "JSON":
            continue  # a list, the JSON scalar, REST only: checked below
        for component in components:
            for field in schemas[component]["properties"]:
                if field in mapping:
                    path = mapping[field]
                elif "*" in mapping:
                    path = mapping["*"].replace("*", camel(field))
                else:
                    path = camel(field)
                if path is not None and not resolves(twin, path):
                    missing.append(f"{component}.{field} -> {twin}.{path}")
    assert not missing, missing


def test_lists_and_documents_name_real_graphql_fields(document):
    for components, twin, _mapping, cell in table_rows():
        if twin == "a list":
            fields = re.findall(r"`([\w.]+)(?:\([^)]*\))?`", cell)
            assert len(fields) == len(components), (components, fields)
            for field in fields:
                owner, _, name = field.rpartition(".")
                found = TYPES[owner or "Query"].fields[name]
                assert isinstance(_named(found.type), GraphQLObjectType), field
                inner = found.type.of_type if isinstance(found.type, GraphQLNonNull) \
                    else found.type
                assert isinstance(inner, GraphQLList), field
        elif twin == "JSON":
            assert "JSON" in TYPES
        else:
            assert twin in TYPES or twin == "—", twin


def test_the_old_graphql_names_are_deprecated_aliases():
    matches = TYPES["Query"].fields["matches"]
    assert matches.args["openSeats"].deprecation_reason
    assert matches.args["open"].deprecation_reason is None
    for type_name in ("MatchPage", "Leaderboard"):
        assert TYPES[type_name].fields["totalCount"].deprecation_reason
        assert TYPES[type_name].fields["count"].deprecation_reason is None
    assert TYPES["FeedEvent"].fields["data"].deprecation_reason


@pytest.mark.django_db
def test_open_and_its_old_name_filter_alike(make_user):
    ann = make_user()
    match_services.create_match(user=ann, game="han", players=3)
    full = match_services.create_match(user=ann, game="han", players=2, bot_seats={1: "random"})
    assert full.pk
    query = "query($o: Boolean) { matches(%s: $o) { count totalCount results { id } } }"
    for value in (True, False):
        new = gql(query % "open", {"o": value})["data"]["matches"]
        old = gql(query % "openSeats", {"o": value})["data"]["matches"]
        assert new == old and new["count"] == new["totalCount"] == 1


@pytest.mark.django_db
def test_a_feed_event_has_rest_s_fields_typed(make_user):
    from games.feed import selectors as feed_selectors
    from games.graphql.feed import FeedEvent

    ann = make_user()
    match_services.create_match(user=ann, game="han", players=2, bot_seats={1: "random"})
    lines = feed_selectors.events_after(ann, 0)
    assert {line["kind"] for line in lines} >= {"match_started", "your_turn"}
    for line in lines:  # what GET /api/v1/stream/ writes, one per line
        event = FeedEvent.from_event(line)
        for key, value in line.items():
            typed = getattr(event, key)
            assert (str(value) if key.endswith("id") and value is not None else value) == \
                typed, key
