"""The analysis where a match is shown: the records export's optional section (one
record and a user's NDJSON export) and the admin's replay page (the evaluation graph per
seat as SVG, the decision at the ply shown and the board after the best move)."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET

import pytest
from asgiref.sync import async_to_sync
from django.test import Client
from django.urls import reverse

from games.analysis import running, services
from games.analysis.models import AnalysedDecision, Analysis
from tests.games.analysis.support import finished_match
from tests.games.support import API, assert_api_error, isolate_test_celery

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def analysed(make_user):
    isolate_test_celery()
    player = make_user()
    match = finished_match(player, "hansa")
    analysis, _created = services.request_analysis(match.pk, player)
    running.run_analysis(analysis.pk)
    return player, match, Analysis.objects.get(pk=analysis.pk)


def _ndjson(response) -> list[dict]:
    async def collect():  # the export streams from an asynchronous iterator
        return b"".join([chunk async for chunk in response.streaming_content])

    return [json.loads(line) for line in async_to_sync(collect)().decode().splitlines()]


def test_records_carry_the_analysis_when_asked(analysed, api_client, make_user):
    player, match, analysis = analysed
    url = f"{API}/matches/{match.pk}/record/"
    assert "analysis" not in api_client.get(url).json()
    section = api_client.get(url, {"analysis": "true"}).json()["analysis"]
    assert section["status"] == "done" and len(section["decisions"]) == match.ply
    assert section["seats"] == analysis.seats
    assert_api_error(api_client.get(url, {"analysis": "perhaps"}), 400, "invalid_request")

    export = Client().get(f"{API}/users/{player.username}/records/", {"analysis": "1"})
    assert [record["analysis"]["status"] for record in _ndjson(export)] == ["done"]
    plain = Client().get(f"{API}/users/{player.username}/records/")
    assert ["analysis" in record for record in _ndjson(plain)] == [False]
    # a match without a final analysis says so with null
    other = finished_match(make_user(), "hansa")
    assert api_client.get(f"{API}/matches/{other.pk}/record/",
                          {"analysis": "yes"}).json()["analysis"] is None


def test_the_replay_page_draws_the_graph_and_the_best_move(analysed, make_user):
    _player, match, _analysis = analysed
    client = Client()
    client.force_login(make_user(is_staff=True, is_superuser=True))
    changed = (AnalysedDecision.objects.filter(analysis__match=match)
               .exclude(choices=1).order_by("ply"))
    different = next((row for row in changed if row.best != row.played), None)
    ply = different.ply if different else changed[0].ply
    page = client.get(reverse("admin:games_match_replay", args=[match.pk]), {"ply": ply})
    html = page.content.decode()
    assert page.status_code == 200 and "Analysis (each decision judged" in html
    start = html.index('<div class="analysis-graph"')
    svg = html[html.index("<svg", start):html.index("</svg>", start) + len("</svg>")]
    graph = ET.fromstring(svg)
    lines = graph.findall("{http://www.w3.org/2000/svg}polyline")
    assert [line.get("class") for line in lines if line.get("class") != "outline"] == [
        "seat-0", "seat-1"]
    assert "Best move found" in html
    if different is not None:
        assert "Board after the best move found" in html
        assert json.dumps(different.best, sort_keys=True).replace('"', "&quot;") in html


#: the board's own mark of each seat's colour: Han's seat legend, Hansa's Kontor bar
BOARD_SEAT_MARK = re.compile(
    r'<rect class="(?:legend|kontor-seat)" data-seat="(\d)"[^>]*? fill="(#[0-9a-f]{6})"')
SVG = "{http://www.w3.org/2000/svg}"


@pytest.mark.parametrize("game", ["han", "hansa"])
@pytest.mark.parametrize(("language", "x_axis", "y_axis", "legend"), [
    ("en", "ply (moves played)", "expected lead (points)", "Legend:"),
    ("de", "Zug (gespielte Züge)", "erwarteter Vorsprung (Punkte)", "Legende:")])
def test_the_graph_draws_each_seat_in_its_board_colour_with_axes_and_a_legend(
        game, language, x_axis, y_axis, legend, make_user):
    """Issue 41: the graph's seat colours differed from the board's and it had no axis
    labels. The colours are read from the boards drawn on the same page."""
    isolate_test_celery()
    player = make_user()
    match = finished_match(player, game)
    analysis, _created = services.request_analysis(match.pk, player)
    running.run_analysis(analysis.pk)
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(make_user(is_staff=True, is_superuser=True))
    html = client.get(reverse("admin:games_match_replay", args=[match.pk]),
                      {"ply": match.ply}).content.decode()
    start = html.index('<div class="analysis-graph"')
    board_colours = dict(BOARD_SEAT_MARK.findall(html))  # the board, and the best move's
    assert set(board_colours) == {"0", "1"}
    graph = ET.fromstring(html[html.index("<svg", start):html.index("</svg>", start) + 6])
    for seat in (0, 1):
        line = graph.find(f"{SVG}polyline[@class='seat-{seat}']")
        swatch = graph.find(f"{SVG}rect[@class='legend-seat'][@data-seat='{seat}']")
        assert line.get("stroke") == swatch.get("fill") == board_colours[str(seat)]
    texts = {text.get("class"): text.text for text in graph.iter(f"{SVG}text")}
    assert (texts["x-axis"], texts["y-axis"], texts["legend"]) == (x_axis, y_axis, legend)
    names = [text.text for text in graph.iter(f"{SVG}text")
             if text.get("class") == "legend-name"]
    assert names[0] == player.username and len(names) == 2 and names[1]
