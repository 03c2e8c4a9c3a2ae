"""Every query, for both games, as a player, another player and an anonymous spectator:
the same facts as REST, and nothing hidden (another seat's hand, face-down cards, deck and
bag order, the seed before the end)."""

from __future__ import annotations

import hashlib

import pytest
from rest_framework.test import APIClient

from games.matches import services as match_services
from games.matches.models import Match, Move, Result
from games.matches.replay import replay_state
from rules import get_engine
from tests.games.graphql.support import advance, error_codes, gql, start_match
from tests.games.support import assert_no_leak, eager_celery, every_row, known_card_ids

pytestmark = pytest.mark.django_db

MATCH_QUERY = """
query Match($id: ID!) {
  match(id: $id) {
    id game options players status ply seedCommitment seed rulesVersion createdBy
    yourSeat toAct view
    seats { position kind user botKind }
    log { ply seat move createdAt }
    events(since: 0) { since ply status toAct view moves { ply seat move } }
    result { matchId seed winners results { seat score rank breakdown } }
  }
}
"""

LEGAL_MOVES_QUERY = """
query Legal($id: ID!) { match(id: $id) { legalMoves { seat ply toAct moves } } }
"""

REPLAY_QUERY = """
query Replay($id: ID!, $ply: Int!) {
  replay(matchId: $id, ply: $ply) { matchId ply seat view state }
}
"""

# Plies to play before looking, and the move types to prefer: Hansa's parliament moves put
# cards face down, which must stay hidden from everyone but their owner.
SETUPS = {"han": (7, ()), "hansa": (10, ("parliament",))}


def _known(match, ply: int, reader):
    """Hansa card ids the reader saw legitimately by ``ply`` (Han has no card ids)."""
    return known_card_ids(match, ply, reader) if match.game == "hansa" else frozenset()


def _rest_client(player) -> APIClient:
    client = APIClient()
    if player is not None:
        client.credentials(HTTP_AUTHORIZATION=f"Token {player.token}")
    return client


@pytest.fixture(params=["han", "hansa"])
def running_match(request, players):
    game = request.param
    match_id = start_match(game, players)
    plies, prefer = SETUPS[game]
    advance(match_id, players, plies, prefer=prefer)
    return game, match_id


@pytest.mark.parametrize("reader", [0, 1, None], ids=["player", "other-player", "spectator"])
def test_match_shows_the_readers_view_and_nothing_hidden(running_match, players, reader):
    game, match_id = running_match
    player = players[reader] if reader is not None else None
    body = gql(MATCH_QUERY, {"id": str(match_id)}, token=player.token if player else None)
    assert "errors" not in body, body
    shown = body["data"]["match"]
    match = Match.objects.get(pk=match_id)

    # Hansa card ids that lay face up earlier were public then: not a leak now.
    known = _known(match, match.ply, reader)
    assert_no_leak(body, game=game, state=match.state, seed=match.seed, reader=reader,
                   known=known, where=f"graphql match as {reader}")
    assert shown["yourSeat"] == reader
    assert shown["seed"] is None
    assert shown["seedCommitment"] == hashlib.sha256(match.seed.encode()).hexdigest()
    assert shown["result"] is None
    assert shown["status"] == "ACTIVE" and shown["ply"] == match.ply
    assert [seat["user"] for seat in shown["seats"]] == [p.user.username for p in players]
    assert len(shown["log"]) == match.ply == Move.objects.filter(match_id=match_id).count()

    # Parity: exactly what REST shows the same reader.
    rest = _rest_client(player)
    detail = rest.get(f"/api/v1/matches/{match_id}/").json()
    assert shown["view"] == detail["view"]
    assert shown["toAct"] == detail["to_act"]
    rest_log = every_row(rest, f"/api/v1/matches/{match_id}/moves/")
    assert [entry["move"] for entry in shown["log"]] == [entry["move"] for entry in rest_log]
    assert shown["events"]["view"] == detail["view"]
    assert [m["move"] for m in shown["events"]["moves"]] == [e["move"] for e in rest_log]

    # The view is the engine's view for this reader's seat (the spectator's without one).
    engine = get_engine(game)
    assert shown["view"] == engine.view(engine.from_json(match.state), reader)


def test_hansa_log_hides_other_seats_secret_choices(players):
    match_id = start_match("hansa", players)
    advance(match_id, players, 3)  # the three simultaneous "keep 2 of 4" choices
    logged = list(Move.objects.filter(match_id=match_id).order_by("ply"))
    assert {move.move["type"] for move in logged} == {"keep"}
    for reader in range(3):
        log = gql(MATCH_QUERY, {"id": str(match_id)}, token=players[reader].token)[
            "data"]["match"]["log"]
        for entry, stored in zip(log, logged, strict=True):
            if stored.seat == reader:
                assert entry["move"] == stored.move  # your own choice, in full
            else:
                assert entry["move"] == {"type": "keep"}  # the cards kept stay secret (Q6)
    spectator_log = gql(MATCH_QUERY, {"id": str(match_id)})["data"]["match"]["log"]
    assert all(entry["move"] == {"type": "keep"} for entry in spectator_log)


def test_legal_moves_for_the_seat_to_act_others_and_spectators(running_match, players):
    game, match_id = running_match
    match = Match.objects.get(pk=match_id)
    engine = get_engine(game)
    state = engine.from_json(match.state)
    to_act = engine.to_act(state)
    for seat, player in enumerate(players):
        body = gql(LEGAL_MOVES_QUERY, {"id": str(match_id)}, token=player.token)
        legal = body["data"]["match"]["legalMoves"]
        assert legal["seat"] == seat and legal["ply"] == match.ply and legal["toAct"] == to_act
        expected = engine.legal_moves(state, seat) if seat in to_act else []
        assert legal["moves"] == expected
        assert legal["moves"] or seat not in to_act
    spectator = gql(LEGAL_MOVES_QUERY, {"id": str(match_id)})
    assert error_codes(spectator) == ["not_seated"]
    assert spectator["errors"][0]["path"] == ["match", "legalMoves"]
    assert spectator["data"] == {"match": {"legalMoves": None}}


@pytest.mark.parametrize("reader", [0, 1, None], ids=["player", "other-player", "spectator"])
def test_replay_of_a_running_match_reveals_no_more_than_the_live_view(
    running_match, players, reader
):
    game, match_id = running_match
    match = Match.objects.get(pk=match_id)
    engine = get_engine(game)
    token = players[reader].token if reader is not None else None
    for ply in sorted({0, match.ply // 2, match.ply}):
        body = gql(REPLAY_QUERY, {"id": str(match_id), "ply": ply}, token=token)
        assert "errors" not in body, body
        replay = body["data"]["replay"]
        past = replay_state(match, upto=ply)
        assert replay["ply"] == ply and replay["seat"] == reader
        assert replay["view"] == engine.view(past, reader)  # what the live view was then
        assert replay["state"] is None
        assert_no_leak(body, game=game, state=engine.to_json(past), seed=match.seed,
                       reader=reader, known=_known(match, ply, reader),
                       where=f"replay {ply}")
    for bad_ply in (-1, match.ply + 1):
        bad = gql(REPLAY_QUERY, {"id": str(match_id), "ply": bad_ply}, token=token)
        assert error_codes(bad) == ["invalid_ply"]
        assert_no_leak(bad, game=game, state=match.state, seed=match.seed, reader=reader,
                       known=_known(match, match.ply, reader), where="replay error")


def test_replay_before_the_start_and_of_unknown_matches(players):
    open_match = match_services.create_match(user=players[0].user, game="han", players=3)
    body = gql(REPLAY_QUERY, {"id": str(open_match.pk), "ply": 0})
    assert error_codes(body) == ["match_not_active"]
    for bad_id in ("999999", "abc", "-1", "1e3", "99999999999999999999999"):
        assert error_codes(gql(REPLAY_QUERY, {"id": bad_id, "ply": 0})) == ["match_not_found"]


@pytest.mark.parametrize("bad_id", ["999999", "abc", "", " 1", "0", "99999999999999999999999"])
def test_match_with_malformed_or_unknown_id_is_match_not_found(bad_id):
    body = gql(MATCH_QUERY, {"id": bad_id})
    assert error_codes(body) == ["match_not_found"]
    assert body["data"] is None


LOG_PAGE_QUERY = """
query Log($id: ID!, $since: Int!) { match(id: $id) { log(since: $since) { ply move } } }
"""


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("game", ["han", "hansa"])
def test_finished_match_shows_result_seed_and_whole_log(game, players):
    # One person and bots; eager Celery lets the bots and the scoring run inline.
    with eager_celery():
        created = match_services.create_match(
            user=players[0].user, game=game, players=3,
            bot_seats={1: "random", 2: "greedy"},
        )
        match_id = created.pk
        while Match.objects.get(pk=match_id).status == "active":
            advance(match_id, players, 1)
    match = Match.objects.get(pk=match_id)
    assert match.status == "finished"

    for token in (players[0].token, players[1].token, None):
        shown = gql(MATCH_QUERY, {"id": str(match_id)}, token=token)["data"]["match"]
        assert shown["status"] == "FINISHED"
        assert shown["seed"] == match.seed  # revealed after the end
        assert hashlib.sha256(shown["seed"].encode()).hexdigest() == shown["seedCommitment"]
        stored = list(Move.objects.filter(match_id=match_id).order_by("ply"))
        # The log comes in pages of at most 100 moves: read on from where it stopped.
        log = list(shown["log"])
        while len(log) < match.ply:
            page = gql(LOG_PAGE_QUERY, {"id": str(match_id), "since": len(log)},
                       token=token)["data"]["match"]["log"]
            assert 0 < len(page) <= 100
            log += page
        assert [entry["move"] for entry in log] == [move.move for move in stored]
        rows = list(Result.objects.filter(match_id=match_id).order_by("seat"))
        assert shown["result"]["seed"] == match.seed
        assert [(r["seat"], r["score"], r["rank"]) for r in shown["result"]["results"]] == [
            (row.seat, row.score, row.rank) for row in rows
        ]
        assert shown["result"]["winners"] == [row.seat for row in rows if row.rank == 1]

    # Replay after the end: the full state, equal to replaying the whole log.
    replay = gql(REPLAY_QUERY, {"id": str(match_id), "ply": match.ply})["data"]["replay"]
    engine = get_engine(game)
    assert replay["state"] == engine.to_json(replay_state(match)) == match.state


def test_aborted_match_reveals_the_seed(players):
    match_id = start_match("han", players)
    match_services.abort_match(user=players[0].user, match_id=match_id, reason="test")
    shown = gql(MATCH_QUERY, {"id": str(match_id)})["data"]["match"]
    assert shown["status"] == "ABORTED"
    assert shown["seed"] == Match.objects.get(pk=match_id).seed
    assert shown["result"] is None


GAMES_QUERY = """
{ games { game title players { min max } options rulesVersion botKinds botLevels maps } }
"""


def test_games_lists_both_catalogue_entries_with_option_schemas():
    games = gql(GAMES_QUERY)["data"]["games"]
    assert [entry["game"] for entry in games] == ["han", "hansa"]
    for entry in games:
        described = get_engine(entry["game"]).describe()
        assert entry["options"] == described["options"]
        assert entry["players"] == described["players"]
        assert entry["title"] == described["title"]
        assert entry["botKinds"]
        assert [level["kind"] for level in entry["botLevels"]] == entry["botKinds"]
        # Han serves its board data so clients can draw the maps; Hansa has none (REST parity).
        assert entry["maps"] == described.get("maps")
    rest = APIClient().get("/api/v1/games/").json()["results"]
    assert [e["options"] for e in rest] == [e["options"] for e in games]


def test_game_by_key_and_unknown_game():
    body = gql('{ game(game: "hansa") { game players { min max } } }')
    assert body["data"]["game"] == {"game": "hansa", "players": {"min": 2, "max": 4}}
    unknown = gql('{ game(game: "chess") { game } }')
    assert error_codes(unknown) == ["unknown_game"]


MATCHES_QUERY = """
query List($game: String, $status: MatchStatus, $mine: Boolean! = false,
           $open: Boolean, $limit: Int! = 20, $offset: Int! = 0) {
  matches(game: $game, status: $status, mine: $mine, open: $open,
          limit: $limit, offset: $offset) {
    count limit offset
    results { id game status yourSeat seats { position kind user } }
  }
}
"""


def test_matches_filters_and_pagination_as_rest(players, outsider):
    active_han = start_match("han", players)
    active_hansa = start_match("hansa", players[:2])
    open_han = match_services.create_match(user=outsider.user, game="han", players=3).pk
    aborted = match_services.create_match(user=outsider.user, game="hansa", players=2).pk
    match_services.abort_match(user=outsider.user, match_id=aborted)

    def ids(variables, token=None):
        body = gql(MATCHES_QUERY, variables, token=token)
        assert "errors" not in body, body
        return [int(row["id"]) for row in body["data"]["matches"]["results"]]

    assert ids({}) == [aborted, open_han, active_hansa, active_han]  # newest first
    assert ids({"game": "han"}) == [open_han, active_han]
    assert ids({"status": "ACTIVE"}) == [active_hansa, active_han]
    assert ids({"open": True}) == [open_han]
    assert ids({"open": False}) == [aborted, active_hansa, active_han]
    assert ids({"mine": True}, token=players[2].token) == [active_han]
    assert ids({"mine": True}, token=outsider.token) == [aborted, open_han]
    assert ids({"mine": True}) == []  # anonymous: nobody's matches

    page = gql(MATCHES_QUERY, {"limit": 2, "offset": 1})["data"]["matches"]
    assert page["count"] == 4 and page["limit"] == 2 and page["offset"] == 1
    assert [int(row["id"]) for row in page["results"]] == [open_han, active_hansa]

    rows = gql(MATCHES_QUERY, {}, token=players[1].token)["data"]["matches"]["results"]
    assert {int(row["id"]): row["yourSeat"] for row in rows} == {
        aborted: None, open_han: None, active_hansa: 1, active_han: 1
    }
    open_row = next(row for row in rows if int(row["id"]) == open_han)
    assert [seat["kind"] for seat in open_row["seats"]] == ["HUMAN", "OPEN", "OPEN"]

    # The same filters through REST list the same matches.
    rest = APIClient().get("/api/v1/matches/?game=han&open=true").json()
    assert [row["id"] for row in rest["results"]] == ids({"game": "han", "open": True})


@pytest.mark.parametrize(
    "variables, code",
    [
        ({"game": "chess"}, "unknown_game"),
        ({"limit": 0}, "invalid_request"),
        ({"limit": 101}, "invalid_request"),
        ({"offset": -1}, "invalid_request"),
    ],
)
def test_matches_bad_filters(variables, code):
    assert error_codes(gql(MATCHES_QUERY, variables)) == [code]


def test_unknown_status_is_refused_by_the_schema():
    body = gql(MATCHES_QUERY, {"status": "PAUSED"})
    assert error_codes(body) == ["graphql_validation_failed"]


ME_QUERY = "{ me { id username email isStaff } }"


def test_me(players):
    assert gql(ME_QUERY) == {"data": {"me": None}}
    me = gql(ME_QUERY, token=players[0].token)["data"]["me"]
    assert me["username"] == players[0].user.username and me["id"] == str(players[0].user.pk)
    rest = _rest_client(players[0]).get("/api/v1/me").json()
    assert me["email"] == rest["email"] and me["isStaff"] == rest["is_staff"]


def test_log_since_out_of_range_is_invalid_ply(players):
    match_id = start_match("han", players)
    advance(match_id, players, 2)
    body = gql('query Q($id: ID!) { match(id: $id) { log(since: 1) { ply } } }',
               {"id": str(match_id)})
    assert [entry["ply"] for entry in body["data"]["match"]["log"]] == [1]
    for since in (-1, 3):
        bad = gql('query Q($id: ID!, $s: Int!) { match(id: $id) { log(since: $s) { ply } } }',
                  {"id": str(match_id), "s": since})
        assert error_codes(bad) == ["invalid_ply"]


def test_no_query_shows_another_users_private_data(players, outsider):
    for index, player in enumerate(players):
        player.user.email = f"private-{index}@example.org"
        player.user.save()
    match_id = start_match("hansa", players)
    query = """query Q($id: ID!) {
      match(id: $id) { createdBy seats { user } view log { move } }
      matches { results { createdBy seats { user } } }
      me { username email }
    }"""
    body = gql(query, {"id": str(match_id)}, token=outsider.token)
    text = str(body)
    assert "private-" not in text and "password" not in text
    assert body["data"]["me"]["email"] == outsider.user.email
    own = gql(query, {"id": str(match_id)}, token=players[0].token)
    assert "private-0@example.org" in str(own) and "private-1" not in str(own)
