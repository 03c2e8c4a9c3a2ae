"""Every field of the schema is priced (issue 21, item 3): a resolver field (one that runs
SQL, calls the engine, builds a profile, record or replay) has its measured weight in
games/graphql/field_weights.py, every list of objects a size, and the table names only
fields the schema has. A new resolver without a weight fails here, by name."""

from __future__ import annotations

import strawberry
from graphql import GraphQLList, GraphQLNonNull, GraphQLObjectType, get_named_type
from strawberry.types.base import StrawberryObjectDefinition

from games.graphql import field_weights
from games.graphql.schema import schema


def unweighted_resolvers(some_schema: strawberry.Schema) -> list[str]:
    """``Type.field`` of every field with a resolver of its own and no line in the table
    (plain attributes of a type share the default weight)."""
    missing = []
    for graphql_type in some_schema.schema_converter.type_map.values():
        definition = graphql_type.definition
        if not isinstance(definition, StrawberryObjectDefinition) or definition.is_input:
            continue
        for field in definition.fields:
            name = some_schema.config.name_converter.get_graphql_name(field)
            key = f"{definition.name}.{name}"
            if field.base_resolver is not None and key not in field_weights.FIELD_WEIGHTS:
                missing.append(key)
    return sorted(missing)


def _object_fields(graphql_schema):
    for type_name, graphql_type in graphql_schema.type_map.items():
        if isinstance(graphql_type, GraphQLObjectType) and not type_name.startswith("__"):
            for field_name, field in graphql_type.fields.items():
                yield f"{type_name}.{field_name}", field


def test_every_resolver_field_has_a_weight():
    missing = unweighted_resolvers(schema)
    assert not missing, (
        f"no weight for {', '.join(missing)}: time it with bench/graphql_field_costs.py "
        "and add its line to games/graphql/field_weights.py")


def test_a_new_resolver_without_a_weight_is_named():
    @strawberry.type
    class Query:
        plain: int = 1

        @strawberry.field
        def freshly_added(self) -> int:
            return 1

        @strawberry.field
        def me(self) -> int:  # Query.me is in the table
            return 1

    assert unweighted_resolvers(strawberry.Schema(query=Query)) == ["Query.freshlyAdded"]


def test_the_resolvers_that_do_real_work_weigh_more_than_an_attribute():
    default = field_weights.DEFAULT_WEIGHT.call
    for key in ("Match.view", "Match.legalMoves", "Match.log", "Match.events", "Match.result",
                "Match.incidents", "Query.matches", "Player.ratingHistory"):
        assert field_weights.FIELD_WEIGHTS[key].call > default, key
    # a profile, a record, a replay, a verification: milliseconds each
    for key in ("Query.player", "Query.replay", "Query.matchRecord", "Query.verifyRecord"):
        assert field_weights.FIELD_WEIGHTS[key].call * field_weights.UNIT_MS >= 5, key


def test_the_tables_name_only_fields_of_the_schema():
    known = {key for key, _field in _object_fields(schema._schema)}
    tables = {"FIELD_WEIGHTS": field_weights.FIELD_WEIGHTS, "OWN_PAGES": field_weights.OWN_PAGES,
              "PARENT_PAGES": field_weights.PARENT_PAGES, "LIST_SIZES": field_weights.LIST_SIZES,
              "PASSWORD_CHECKS": field_weights.PASSWORD_CHECKS}
    stale = [f"{table}: {key}" for table, keys in tables.items() for key in keys
             if key not in known]
    assert not stale, stale
    owners = {owner for owner, _argument, _default in field_weights.PARENT_PAGES.values()}
    assert owners <= known


def test_every_list_of_objects_has_a_size():
    """A list the tables do not bound counts as one item: right for scalars (their
    reading is the parent's work), wrong for objects, whose fields may do real work."""
    sized = (field_weights.LIST_SIZES.keys() | field_weights.OWN_PAGES.keys()
             | field_weights.PARENT_PAGES.keys())
    unbounded = []
    for key, field in _object_fields(schema._schema):
        field_type = field.type
        while isinstance(field_type, GraphQLNonNull):
            field_type = field_type.of_type
        if (isinstance(field_type, GraphQLList)
                and isinstance(get_named_type(field_type), GraphQLObjectType)
                and key not in sized):
            unbounded.append(key)
    assert not unbounded, unbounded
