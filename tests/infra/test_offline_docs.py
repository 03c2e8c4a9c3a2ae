"""Docs that work offline: Swagger UI, ReDoc and GraphiQL load every script, style and
font from this server (drf-spectacular-sidecar; games/static/graphiql/ for GraphiQL, see
scripts/vendor_graphiql.sh). The browser test (tests/browser/) renders them; these tests
check the pages' markup and that each asset they name is served."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders

ROOT = Path(__file__).resolve().parents[2]
PAGES = ["/api/v1/docs/", "/api/v1/redoc/", "/graphql/"]


def page(client, path):
    response = client.get(path, HTTP_ACCEPT="text/html")
    assert response.status_code == 200, response.content[:300]
    assert response["Content-Type"].startswith("text/html")
    return response.content.decode()


def asset_urls(html: str) -> list[str]:
    return re.findall(r'(?:src|href)="([^"]+)"', html)


@pytest.mark.django_db
@pytest.mark.parametrize("path", PAGES)
def test_every_asset_of_the_page_is_ours_and_served(client, path):
    html = page(client, path)
    urls = [url for url in asset_urls(html) if not url.startswith("data:")]
    assert urls, "the page names its assets"
    for url in urls:
        assert url.startswith("/"), f"{path} loads {url} from another host"
        if url.startswith("/static/"):
            assert finders.find(url.removeprefix("/static/")), f"{url} is not a static file"
    assert "unpkg.com" not in html and "googleapis" not in html and "jsdelivr" not in html


@pytest.mark.django_db
def test_graphiql_keeps_the_pinned_integrity_hashes(client):
    html = page(client, "/graphql/")
    assert html.count('integrity="sha384-') == 7
    assert "graphiql-3.8.3/graphiql.min.js" in html


def test_the_vendored_graphiql_files_match_their_pinned_hashes():
    done = subprocess.run([str(ROOT / "scripts/vendor_graphiql.sh"), "--check"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


@pytest.mark.django_db
def test_graphiql_can_be_switched_off(settings):
    from django.test import RequestFactory

    from games.graphql.schema import schema
    from games.graphql.views import GameGraphQLView

    settings.GRAPHIQL = False  # read when the view is built, as at start-up
    view = GameGraphQLView.as_view(schema=schema)
    response = view(RequestFactory().get("/graphql/", HTTP_ACCEPT="text/html"))
    assert b"GraphiQL" not in response.content
