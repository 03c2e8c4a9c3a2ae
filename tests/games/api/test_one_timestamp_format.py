"""One way to write a moment in every API (issue 41, infra/timestamps.py): ISO 8601 in UTC
ending in ``Z``. A finished match's times read the same in its REST detail, its game
record and GraphQL; the feed's events and the analysis write theirs the same way."""

from __future__ import annotations

import re

import pytest

from games.analysis import selectors as analysis_selectors
from games.analysis.models import Analysis
from games.feed.models import FeedEvent
from games.feed.selectors import event_row
from games.matches import services as match_services
from games.matches.models import Match, MatchStatus
from tests.games.graphql.support import gql
from tests.games.support import eager_celery, match_url

pytestmark = pytest.mark.django_db(transaction=True)  # bot turns run on commit

Z_TIME = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$")


@pytest.fixture
def finished_match():
    with eager_celery():
        match = match_services.create_match(
            user=None, game="hansa", players=2, options={}, take_seat=False,
            bot_seats={0: "random", 1: "random"})
    match = Match.objects.get(pk=match.pk)
    assert match.status == MatchStatus.FINISHED
    return match


def test_a_match_s_times_read_the_same_in_rest_its_record_and_graphql(finished_match,
                                                                       api_client):
    rest = api_client.get(match_url(finished_match.pk)).json()
    record = api_client.get(match_url(finished_match.pk, "record/")).json()["match"]
    graphql = gql("query($id: ID!) { match(id: $id) { createdAt startedAt finishedAt } }",
                  {"id": str(finished_match.pk)})["data"]["match"]
    assert Z_TIME.match(rest["finished_at"]), rest["finished_at"]
    assert record["started_at"] == graphql["startedAt"] == rest["started_at"]
    assert record["finished_at"] == graphql["finishedAt"] == rest["finished_at"]
    assert graphql["createdAt"] == rest["created_at"]


def test_feed_events_and_the_analysis_write_z(finished_match, make_user):
    user = make_user()
    event = FeedEvent.objects.create(user=user, kind="match_finished", payload={},
                                     dedupe_key="test")
    assert Z_TIME.match(event_row(event)["created_at"])
    analysis = Analysis.objects.create(match=finished_match, requested_by=user,
                                       rules_version=finished_match.rules_version,
                                       iterations=1, samples=1)
    body = analysis_selectors.analysis_body(analysis, finished_match)
    assert Z_TIME.match(body["requested_at"]), body["requested_at"]
