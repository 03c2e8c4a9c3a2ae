"""Every mutation, for both games: what it does, and each failure as a typed error with
REST's code and nothing written."""

from __future__ import annotations

import pytest
from rest_framework.authtoken.models import Token

from accounts.models import User
from games.matches import selectors
from games.matches import services as match_services
from games.matches.models import Match, Move
from rules import get_engine
from tests.games.graphql.support import (
    advance,
    error_codes,
    gql,
    payload_codes,
    snapshot,
    start_match,
)
from tests.games.support import assert_no_leak, known_card_ids

pytestmark = pytest.mark.django_db

MATCH_FIELDS = (
    "id game status players ply yourSeat toAct view seed seats { position kind user botKind }"
)
ERRORS = "errors { code message field details }"

CREATE = f"""
mutation Create($game: String!, $players: Int!, $options: JSON, $botSeats: [BotSeatInput!],
                $takeSeat: Boolean! = true, $creatorSeat: Int) {{
  createMatch(game: $game, players: $players, options: $options, botSeats: $botSeats,
              takeSeat: $takeSeat, creatorSeat: $creatorSeat) {{
    match {{ {MATCH_FIELDS} options }} {ERRORS}
  }}
}}
"""
JOIN = f"""
mutation Join($id: ID!, $position: Int) {{
  joinMatch(matchId: $id, position: $position) {{ match {{ {MATCH_FIELDS} }} {ERRORS} }}
}}
"""
LEAVE = f"""
mutation Leave($id: ID!) {{ leaveMatch(matchId: $id) {{ match {{ {MATCH_FIELDS} }} {ERRORS} }} }}
"""
START = f"""
mutation Start($id: ID!, $fillWith: String) {{
  startMatch(matchId: $id, fillWith: $fillWith) {{ match {{ {MATCH_FIELDS} }} {ERRORS} }}
}}
"""
ABORT = f"""
mutation Abort($id: ID!, $reason: String! = "") {{
  abortMatch(matchId: $id, reason: $reason) {{ match {{ {MATCH_FIELDS} }} {ERRORS} }}
}}
"""
SUBMIT = f"""
mutation Submit($id: ID!, $move: JSON!, $expectedPly: Int) {{
  submitMove(matchId: $id, move: $move, expectedPly: $expectedPly) {{
    move {{ ply seat move }} events match {{ {MATCH_FIELDS} }} {ERRORS}
  }}
}}
"""


def _options(game: str) -> dict:
    return {"han": {"map": "ways-of-diplomacy", "variant": True}, "hansa": {}}[game]


# -- the lobby ----------------------------------------------------------------------------------
@pytest.mark.parametrize("game", ["han", "hansa"])
def test_create_join_leave_start_a_match(game, players):
    created = gql(CREATE, {"game": game, "players": 3, "options": _options(game)},
                  token=players[0].token)["data"]["createMatch"]
    assert created["errors"] == []
    match = created["match"]
    assert match["status"] == "OPEN" and match["yourSeat"] == 0 and match["view"] is None
    assert match["options"] == get_engine(game).normalize_options(match["players"],
                                                                  _options(game))
    match_id = match["id"]
    stored = Match.objects.get(pk=match_id)
    assert stored.created_by == players[0].user and stored.status == "open"

    joined = gql(JOIN, {"id": match_id}, token=players[1].token)["data"]["joinMatch"]
    assert joined["errors"] == [] and joined["match"]["yourSeat"] == 1

    left = gql(LEAVE, {"id": match_id}, token=players[1].token)["data"]["leaveMatch"]
    assert left["errors"] == [] and left["match"]["yourSeat"] is None
    assert [seat["kind"] for seat in left["match"]["seats"]][1] == "OPEN"

    again = gql(JOIN, {"id": match_id, "position": 1}, token=players[1].token)
    assert again["data"]["joinMatch"]["match"]["yourSeat"] == 1
    # the last seat taken starts the match
    last = gql(JOIN, {"id": match_id}, token=players[2].token)["data"]["joinMatch"]
    assert last["match"]["status"] == "ACTIVE" and last["match"]["yourSeat"] == 2
    engine = get_engine(game)
    state = engine.from_json(Match.objects.get(pk=match_id).state)
    assert last["match"]["view"] == engine.view(state, 2)


@pytest.mark.parametrize("game", ["han", "hansa"])
def test_start_by_the_creator_filling_open_seats_with_bots(game, players):
    match_id = match_services.create_match(user=players[0].user, game=game, players=3).pk
    match_services.join_match(user=players[1].user, match_id=match_id)
    not_full = gql(START, {"id": match_id}, token=players[0].token)["data"]["startMatch"]
    assert payload_codes(not_full) == ["match_not_full"]
    assert not_full["errors"][0]["details"] == {"open_seats": [2]}
    assert not_full["match"] is None
    bad_bot = gql(START, {"id": match_id, "fillWith": "oracle"}, token=players[0].token)
    assert payload_codes(bad_bot["data"]["startMatch"]) == ["unknown_bot"]
    assert bad_bot["data"]["startMatch"]["errors"][0]["field"] == "fillWith"
    not_creator = gql(START, {"id": match_id, "fillWith": "random"}, token=players[1].token)
    assert payload_codes(not_creator["data"]["startMatch"]) == ["forbidden"]
    assert Match.objects.get(pk=match_id).status == "open"

    # (No commit in this test, so the bot's turn is never enqueued: only the start is seen.)
    started = gql(START, {"id": match_id, "fillWith": "random"}, token=players[0].token)
    match = started["data"]["startMatch"]["match"]
    assert match["status"] == "ACTIVE" and match["yourSeat"] == 0
    assert [(seat["kind"], seat["botKind"]) for seat in match["seats"]] == [
        ("HUMAN", None), ("HUMAN", None), ("BOT", "random")
    ]
    engine = get_engine(game)
    state = engine.from_json(Match.objects.get(pk=match_id).state)
    assert match["view"] == engine.view(state, 0)
    late = gql(START, {"id": match_id}, token=players[0].token)["data"]["startMatch"]
    assert payload_codes(late) == ["match_not_open"]


@pytest.mark.parametrize("game", ["han", "hansa"])
def test_abort_by_the_creator_reveals_the_seed(game, players):
    match_id = start_match(game, players)
    refused = gql(ABORT, {"id": match_id}, token=players[1].token)["data"]["abortMatch"]
    assert payload_codes(refused) == ["forbidden"]
    aborted = gql(ABORT, {"id": match_id, "reason": "rain"}, token=players[0].token)
    payload = aborted["data"]["abortMatch"]
    assert payload["errors"] == [] and payload["match"]["status"] == "ABORTED"
    stored = Match.objects.get(pk=match_id)
    assert payload["match"]["seed"] == stored.seed and stored.abort_reason == "rain"
    twice = gql(ABORT, {"id": match_id}, token=players[0].token)["data"]["abortMatch"]
    assert payload_codes(twice) == ["match_over"]


@pytest.mark.parametrize(
    "variables, code, field",
    [
        ({"game": "chess", "players": 2}, "unknown_game", "game"),
        ({"game": "han", "players": 6}, "invalid_player_count", "players"),
        ({"game": "hansa", "players": 1}, "invalid_player_count", "players"),
        ({"game": "han", "players": 3, "options": {"map": "atlantis"}}, "invalid_options",
         "options"),
        ({"game": "han", "players": 3, "options": {"colour": "red"}}, "invalid_options",
         "options"),
        ({"game": "han", "players": 3, "options": [1, 2]}, "invalid_options", "options"),
        ({"game": "hansa", "players": 2, "botSeats": [{"position": 1, "kind": "oracle"}]},
         "unknown_bot", "botSeats"),
        ({"game": "hansa", "players": 2, "botSeats": [{"position": 5, "kind": "random"}]},
         "invalid_seat", "botSeats"),
        ({"game": "hansa", "players": 3, "creatorSeat": 1,
          "botSeats": [{"position": 1, "kind": "random"}]}, "seat_taken", "creatorSeat"),
        ({"game": "hansa", "players": 2, "creatorSeat": 2}, "invalid_seat", "creatorSeat"),
        ({"game": "hansa", "players": 2, "botSeats": [{"position": 0, "kind": "random"},
                                                      {"position": 0, "kind": "greedy"}]},
         "invalid_seat", "botSeats"),
    ],
)
def test_create_match_bad_input_is_a_typed_error_and_writes_nothing(
    players, variables, code, field
):
    body = gql(CREATE, variables, token=players[0].token)
    assert "errors" not in body, body
    payload = body["data"]["createMatch"]
    assert payload["match"] is None
    assert payload_codes(payload) == [code]
    assert payload["errors"][0]["field"] == field
    assert payload["errors"][0]["message"]
    assert Match.objects.count() == 0


def test_join_failures(players, outsider):
    match_id = match_services.create_match(user=players[0].user, game="hansa", players=2).pk
    assert payload_codes(gql(JOIN, {"id": match_id}, token=players[0].token)["data"][
        "joinMatch"]) == ["already_seated"]
    assert payload_codes(gql(JOIN, {"id": match_id, "position": 0}, token=players[1].token)[
        "data"]["joinMatch"]) == ["seat_taken"]
    assert payload_codes(gql(JOIN, {"id": match_id, "position": 7}, token=players[1].token)[
        "data"]["joinMatch"]) == ["invalid_seat"]
    match_services.join_match(user=players[1].user, match_id=match_id)
    before = snapshot(match_id)
    full = gql(JOIN, {"id": match_id}, token=outsider.token)["data"]["joinMatch"]
    assert payload_codes(full) == ["match_full"]  # as REST: every seat is taken
    assert payload_codes(gql(LEAVE, {"id": match_id}, token=players[1].token)["data"][
        "leaveMatch"]) == ["match_not_open"]
    assert snapshot(match_id) == before


def test_leave_without_a_seat(players, outsider):
    match_id = match_services.create_match(user=players[0].user, game="hansa", players=2).pk
    payload = gql(LEAVE, {"id": match_id}, token=outsider.token)["data"]["leaveMatch"]
    assert payload_codes(payload) == ["not_seated"]


@pytest.mark.parametrize("bad_id", ["424242", "abc", "", "-3", "1.5", "99999999999999999999"])
def test_malformed_and_unknown_match_ids(players, bad_id):
    match_id = start_match("hansa", players[:2])
    before = snapshot(match_id)
    for mutation, field, extra in (
        (JOIN, "joinMatch", {}),
        (LEAVE, "leaveMatch", {}),
        (START, "startMatch", {}),
        (ABORT, "abortMatch", {}),
        (SUBMIT, "submitMove", {"move": {"type": "keep", "cards": []}}),
    ):
        payload = gql(mutation, {"id": bad_id, **extra}, token=players[0].token)["data"][field]
        assert payload_codes(payload) == ["match_not_found"], (field, payload)
        assert payload["errors"][0]["field"] == "matchId"
    assert snapshot(match_id) == before


def test_unauthenticated_mutations_are_refused_and_write_nothing(players):
    match_id = start_match("hansa", players[:2])
    before = snapshot(match_id)
    legal = selectors.legal_moves_for(selectors.get_match(match_id), players[0].user)["moves"]
    for mutation, field, variables in (
        (CREATE, "createMatch", {"game": "han", "players": 3}),
        (JOIN, "joinMatch", {"id": match_id}),
        (LEAVE, "leaveMatch", {"id": match_id}),
        (START, "startMatch", {"id": match_id}),
        (ABORT, "abortMatch", {"id": match_id}),
        (SUBMIT, "submitMove", {"id": match_id, "move": legal[0]}),
    ):
        payload = gql(mutation, variables)["data"][field]
        assert payload_codes(payload) == ["not_authenticated"], field
        assert payload["match"] is None
    assert snapshot(match_id) == before
    assert Match.objects.count() == 1


# -- playing ------------------------------------------------------------------------------------
@pytest.mark.parametrize("game", ["han", "hansa"])
def test_submit_move_appends_to_the_log(game, players):
    match_id = start_match(game, players)
    match = selectors.get_match(match_id)
    seat = selectors.to_act_of(match)[0]
    move = selectors.legal_moves_for(match, players[seat].user)["moves"][0]
    body = gql(SUBMIT, {"id": match_id, "move": move, "expectedPly": 0},
               token=players[seat].token)
    payload = body["data"]["submitMove"]
    assert payload["errors"] == []
    assert payload["move"] == {"ply": 0, "seat": seat, "move": move}
    assert payload["match"]["ply"] == 1 and payload["match"]["yourSeat"] == seat
    logged = Move.objects.get(match_id=match_id)
    assert (logged.ply, logged.seat, logged.move) == (0, seat, move)
    engine = get_engine(game)
    stored = Match.objects.get(pk=match_id)
    assert payload["match"]["view"] == engine.view(engine.from_json(stored.state), seat)
    assert isinstance(payload["events"], list)
    assert_no_leak(body, game=game, state=stored.state, seed=stored.seed, reader=seat,
                   known=known_card_ids(stored, 1, seat) if game == "hansa" else frozenset(),
                   where="submitMove payload")


@pytest.mark.parametrize("game", ["han", "hansa"])
def test_submit_move_failures_are_typed_and_write_nothing(game, players, outsider):
    match_id = start_match(game, players)
    advance(match_id, players, 1)
    match = selectors.get_match(match_id)
    to_act = selectors.to_act_of(match)
    seat = to_act[0]
    legal = selectors.legal_moves_for(match, players[seat].user)["moves"]
    before = snapshot(match_id)

    def failure(token, **variables):
        payload = gql(SUBMIT, {"id": match_id, **variables}, token=token)["data"]["submitMove"]
        assert payload["move"] is None and payload["match"] is None
        assert snapshot(match_id) == before, "a refused move wrote something"
        return payload["errors"][0]

    # a ply from the future is stale in any phase (an older one is not stale in Hansa's
    # simultaneous keep: docs/api.md, expected_ply)
    stale = failure(players[seat].token, move=legal[0], expectedPly=2)
    assert stale["code"] == "stale_ply" and stale["field"] == "expectedPly"
    assert stale["details"] == {"expected_ply": 2, "current_ply": 1}

    illegal_move = {"han": {"type": "discard", "card": "purple"},
                    "hansa": {"type": "keep", "cards": ["no-such-card", "nor-this"]}}[game]
    illegal = failure(players[seat].token, move=illegal_move)
    assert illegal["field"] == "move" and illegal["code"] not in ("", None)
    assert illegal["code"] not in {"stale_ply", "not_your_turn", "malformed_move"}

    for malformed in ("pass", [1, 2], 7):
        assert failure(players[seat].token, move=malformed)["code"] == "malformed_move"
    assert failure(players[seat].token, move={"type": "teleport"})["field"] == "move"
    assert failure(players[seat].token, move=legal[0], expectedPly=-1)["code"] == "invalid_ply"

    waiting = [s for s in range(3) if s not in to_act]
    if waiting:  # Han: one seat acts at a time
        assert failure(players[waiting[0]].token, move=legal[0])["code"] == "not_your_turn"
    assert failure(outsider.token, move=legal[0])["code"] == "not_seated"

    # And the right move still lands afterwards.
    ok = gql(SUBMIT, {"id": match_id, "move": legal[0], "expectedPly": 1},
             token=players[seat].token)["data"]["submitMove"]
    assert ok["errors"] == [] and ok["move"]["ply"] == 1


def test_move_after_abort_is_refused(players):
    match_id = start_match("han", players)
    match = selectors.get_match(match_id)
    seat = selectors.to_act_of(match)[0]
    move = selectors.legal_moves_for(match, players[seat].user)["moves"][0]
    match_services.abort_match(user=players[0].user, match_id=match_id)
    payload = gql(SUBMIT, {"id": match_id, "move": move}, token=players[seat].token)[
        "data"]["submitMove"]
    assert payload_codes(payload) == ["match_not_active"]
    assert Move.objects.filter(match_id=match_id).count() == 0


def test_move_json_must_be_valid_graphql_input(players):
    # A value that is not JSON at all never reaches the service: GraphQL refuses it.
    match_id = start_match("hansa", players[:2])
    body = gql(f'mutation {{ submitMove(matchId: "{match_id}") {{ errors {{ code }} }} }}',
               token=players[0].token)
    assert error_codes(body) == ["graphql_validation_failed"]
    assert Move.objects.count() == 0


# -- accounts -----------------------------------------------------------------------------------
REGISTER = """
mutation Register($username: String!, $password: String!, $email: String! = "") {
  register(username: $username, password: $password, email: $email) {
    token user { id username email } errors { code message field details }
  }
}
"""
LOGIN = """
mutation Login($username: String!, $password: String!) {
  login(username: $username, password: $password) {
    token user { username } errors { code message field details }
  }
}
"""


def test_register_login_and_revoke(db):
    registered = gql(REGISTER, {"username": "ada", "password": "an-unguessable-phrase-42",
                                "email": "ada@example.org"})["data"]["register"]
    assert registered["errors"] == [] and registered["user"]["username"] == "ada"
    token = registered["token"]
    assert Token.objects.get(key=token).user.username == "ada"
    assert gql("{ me { username } }", token=token)["data"]["me"]["username"] == "ada"

    logged_in = gql(LOGIN, {"username": "ada", "password": "an-unguessable-phrase-42"})[
        "data"]["login"]
    assert logged_in["errors"] == [] and logged_in["token"] == token

    wrong = gql(LOGIN, {"username": "ada", "password": "nope"})["data"]["login"]
    assert payload_codes(wrong) == ["invalid_credentials"] and wrong["token"] is None
    blank = gql(LOGIN, {"username": "", "password": "x"})["data"]["login"]
    assert payload_codes(blank) == ["invalid_input"] and blank["errors"][0]["field"] == "username"

    revoked = gql("mutation { revokeToken { revoked errors { code } } }", token=token)
    assert revoked["data"]["revokeToken"] == {"revoked": True, "errors": []}
    assert not Token.objects.filter(key=token).exists()
    anonymous = gql("mutation { revokeToken { revoked errors { code } } }")
    assert payload_codes(anonymous["data"]["revokeToken"]) == ["not_authenticated"]


@pytest.mark.parametrize(
    "variables, field, reason",
    [
        ({"username": "bob", "password": "short"}, "password", "password_too_short"),
        ({"username": "bob", "password": "password123"}, "password", "password_too_common"),
        ({"username": "bob", "password": "9876543210123"}, "password",
         "password_entirely_numeric"),
        ({"username": "taken", "password": "an-unguessable-phrase-42"}, "username", "unique"),
        ({"username": "", "password": "an-unguessable-phrase-42"}, "username", "blank"),
        ({"username": "bob", "password": "an-unguessable-phrase-42", "email": "not-an-email"},
         "email", "invalid"),
    ],
)
def test_register_bad_input(make_user, variables, field, reason):
    make_user(username="taken")
    users_before = User.objects.count()
    payload = gql(REGISTER, variables)["data"]["register"]
    assert payload["token"] is None and payload["user"] is None
    assert payload_codes(payload) == ["invalid_input"]
    error = next(error for error in payload["errors"] if error["field"] == field)
    codes = [problem["code"] for problem in error["details"][field]]
    assert reason in codes
    assert User.objects.count() == users_before


def test_an_abort_reason_with_a_nul_character_is_bad_input_and_aborts_nothing(players):
    # PostgreSQL text cannot hold NUL: the reason used to reach the database and fail
    # there (a masked server_error). Since issue 21 every argument's control characters
    # are refused before execution (test_control_characters.py has every argument).
    match_id = start_match("hansa", players)
    answer = gql(ABORT, {"id": match_id, "reason": "rain\x00"}, token=players[0].token)
    assert answer["data"] is None
    assert error_codes(answer) == ["invalid_input"]
    assert list(answer["errors"][0]["extensions"]["details"]) == ["reason"]
    assert Match.objects.get(pk=match_id).status == "active"
