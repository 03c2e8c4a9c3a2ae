"""The cost estimate (games/graphql/cost_estimate.py) prices each field by its type and
name, as the table says, through fragments, and multiplies by the lists around it."""

from __future__ import annotations

from graphql import parse

from games.graphql.cost_estimate import Estimate, estimate
from games.graphql.field_weights import DEFAULT_WEIGHT, FIELD_WEIGHTS, LIST_SIZES
from games.graphql.schema import schema
from games.matches import parsing


def cost(query: str, variables: dict | None = None) -> Estimate:
    return estimate(schema._schema, parse(query), None, variables)


def w(key: str) -> int:
    return FIELD_WEIGHTS[key].call


def item(key: str) -> int:
    return FIELD_WEIGHTS[key].item


ONE = DEFAULT_WEIGHT.call


def test_a_field_is_priced_by_its_type_not_its_name():
    # Match.view calls the engine; Replay.view is an attribute the replay already built
    assert cost("{ match(id: 1) { view } }").cost == w("Query.match") + w("Match.view")
    assert cost("{ replay(matchId: 1) { view } }").cost == w("Query.replay") + ONE


def test_fragments_and_inline_fragments_carry_their_type():
    direct = cost("{ match(id: 1) { view legalMoves { seat } } }").cost
    spread = cost("query { match(id: 1) { ...M } } fragment M on Match { view "
                  "legalMoves { ...L } } fragment L on LegalMoves { seat }").cost
    inline = cost("{ match(id: 1) { ... on Match { view legalMoves { seat } } } }").cost
    assert direct == spread == inline == (
        w("Query.match") + w("Match.view") + w("Match.legalMoves") + ONE)


def test_a_page_of_matches_counts_its_limit_and_each_row():
    row = item("MatchPage.results") + w("Match.view")
    for limit in (1, 20, 100):
        found = cost(f"{{ matches(limit: {limit}) {{ results {{ view }} }} }}").cost
        assert found == w("Query.matches") + FIELD_WEIGHTS["MatchPage.results"].call + limit * row
    default = cost("{ matches { results { view } } }").cost
    assert default == cost(f"{{ matches(limit: {parsing.DEFAULT_PAGE_SIZE}) "
                           "{ results { view } } }").cost
    assert cost("query($n: Int!) { matches(limit: $n) { results { view } } }",
                {"n": 100}).cost == cost("{ matches(limit: 100) { results { view } } }").cost


def test_a_profile_counts_its_recent_matches_and_its_history_page():
    recent = cost('{ player(username: "a") { recentMatches { view } } }').cost
    assert recent == w("Query.player") + ONE + LIST_SIZES["Player.recentMatches"] * w("Match.view")
    history = cost('{ player(username: "a") { ratingHistory(limit: 100) { rank } } }').cost
    assert history == w("Query.player") + w("Player.ratingHistory") + 100 * (
        item("Player.ratingHistory") + ONE)


def test_logs_count_their_moves():
    log = cost("{ match(id: 1) { log(limit: 50) { move } } }").cost
    assert log == w("Query.match") + w("Match.log") + 50 * (item("Match.log") + ONE)
    events = cost("{ match(id: 1) { events { moves { move } } } }").cost
    assert events == (w("Query.match") + w("Match.events") + FIELD_WEIGHTS[
        "MatchEvents.moves"].call + parsing.MAX_PAGE_SIZE * (item("MatchEvents.moves") + ONE))


def test_mutations_and_their_payloads_are_priced():
    found = cost('mutation { submitMove(matchId: 1, move: {}) { match { view } } }').cost
    assert found == w("Mutation.submitMove") + ONE + w("Match.view")


def test_password_checks_are_counted_through_fragments():
    assert cost('mutation { login(username: "a", password: "b") { token } }').password_checks == 1
    two = ('mutation { ...Twice } fragment Twice on Mutation { '
           'a: login(username: "a", password: "b") { token } '
           'b: register(username: "c", password: "d") { token } }')
    assert cost(two).password_checks == 2


def test_unknown_fields_cost_the_default_and_leave_validation_to_refuse_them():
    assert cost("{ nothing { deeper { still } } }") == Estimate(cost=3, depth=3)
