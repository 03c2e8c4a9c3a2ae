"""A records export reads the database a fixed number of times, however many matches it
holds: the moves, results and incidents of a chunk of matches are read together, not once
per match (they were three statements per match)."""

from __future__ import annotations

import json

import pytest
from asgiref.sync import async_to_sync
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.matches import services as match_services
from games.matches.models import Match, MatchStatus, Seat
from games.records import selectors
from tests.games.support import API, eager_celery

pytestmark = pytest.mark.django_db(transaction=True)

MATCHES = 5


@pytest.fixture
def exported(make_user):
    """A person who sat at seat 0 of five finished matches (bots played them; the seat is
    then given to the person, as a takeover's reclaim would), and the matches' ids."""
    alice = make_user()
    ids = []
    for index in range(MATCHES):
        with eager_celery():
            match = match_services.create_match(
                user=None, game="hansa" if index % 2 else "han", players=2, take_seat=False,
                bot_seats={0: "random", 1: "greedy"})
        assert Match.objects.get(pk=match.pk).status == MatchStatus.FINISHED
        Seat.objects.filter(match=match, position=0).update(user=alice, bot_kind=None)
        ids.append(match.pk)
    return alice, ids


def _statements(read) -> tuple[int, object]:
    with CaptureQueriesContext(connection) as captured:
        answer = read()
    return len(captured.captured_queries), answer


def test_records_of_a_chunk_read_the_same_statements_for_one_match_or_five(exported):
    _alice, ids = exported
    one, first = _statements(lambda: selectors.records_of(ids[:1]))
    five, all_five = _statements(lambda: selectors.records_of(ids))
    assert [record["match"]["id"] for record in all_five] == ids
    assert all(record["moves"] for record in all_five)  # real games, with their moves
    assert one == five <= 5  # matches, seats with users, moves, results, incidents
    # the chunk's records are exactly the ones each match exports alone
    assert all_five == [selectors.record_of(match_id) for match_id in ids]
    assert first == all_five[:1]


def test_a_users_export_reads_the_same_statements_for_one_match_or_five(exported,
                                                                        api_client):
    alice, ids = exported
    url = f"{API}/users/{alice.username}/records/"

    def export(limit: int):
        response = api_client.get(f"{url}?limit={limit}")
        assert response.status_code == 200

        async def collect():  # the stream is asynchronous, as the ASGI server reads it
            return b"".join([chunk async for chunk in response.streaming_content])

        return [json.loads(line) for line in async_to_sync(collect)().decode().splitlines()]

    one, first = _statements(lambda: export(1))
    five, all_five = _statements(lambda: export(MATCHES))
    assert [record["match"]["id"] for record in all_five] == ids
    assert first == all_five[:1]
    assert one == five
