"""GET /api/v1/matches/{id}/board.png: the same picture as board.svg, rasterised by
CairoSVG (scripts/cairo.sh installs Debian's libcairo2), with the same access rules and
caching, and both pictures in the OpenAPI schema (issue 22, item 5)."""

from __future__ import annotations

import os
import struct
import xml.etree.ElementTree as ET

import pytest
from rest_framework.test import APIClient

from games.matches import services
from tests.games.support import TEST_SEED, assert_api_error, match_url

pytestmark = pytest.mark.django_db

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(autouse=True)
def needs_cairo():
    try:
        import cairosvg  # noqa: F401
    except (ImportError, OSError):
        if os.environ.get("CI"):
            raise  # CI installs the images extra and libcairo2 (scripts/cairo.sh)
        pytest.skip("cairosvg or libcairo2 missing (make install; scripts/cairo.sh)")


def test_png_is_the_svg_rasterised_at_its_size(make_user, make_auth_client):
    users = [make_user(), make_user()]
    match = services.create_match(user=users[0], game="hansa", players=2, seed=TEST_SEED)
    services.join_match(user=users[1], match_id=match.pk)
    client = make_auth_client(users[0])
    png = client.get(match_url(match.pk, "board.png"))
    assert png.status_code == 200, png.content[:300]
    assert png["Content-Type"] == "image/png"
    assert png.content.startswith(PNG_MAGIC)
    width, height = struct.unpack(">II", png.content[16:24])  # the IHDR chunk
    svg = ET.fromstring(client.get(match_url(match.pk, "board.svg")).content)
    assert (width, height) == (int(svg.get("width")), int(svg.get("height")))
    assert png["Cache-Control"] == "private, no-cache"
    again = client.get(match_url(match.pk, "board.png"), HTTP_IF_NONE_MATCH=png["ETag"])
    assert again.status_code == 304
    # another seat, another picture: another tag
    other = make_auth_client(users[1]).get(match_url(match.pk, "board.png"))
    assert other.status_code == 200 and other["ETag"] != png["ETag"]
    assert_api_error(client.get(match_url(match.pk, "board.png"), {"ply": "1"}), 400,
                     "invalid_ply")
    assert client.get(match_url(match.pk, "board.png"), HTTP_ACCEPT="image/png"
                      ).status_code == 200


def test_both_pictures_are_in_the_openapi_schema():
    schema = APIClient().get("/api/v1/schema/", HTTP_ACCEPT="application/json").json()
    for suffix, media_type in (("svg", "image/svg+xml"), ("png", "image/png")):
        operation = schema["paths"][f"/api/v1/matches/{{match_id}}/board.{suffix}"]["get"]
        assert operation["operationId"] == f"get_board_{suffix}"
        assert media_type in operation["responses"]["200"]["content"]
        assert {"400", "404", "409"} <= set(operation["responses"])
        assert any(parameter["name"] == "ply" for parameter in operation["parameters"])


def test_png_has_its_own_stricter_rate_limit(settings, make_user, make_auth_client):
    """A PNG costs far more CPU than the SVG (bench/board_pictures.py): board.png counts
    in the ``picture`` scope, board.svg stays a plain read."""
    from django.core.cache import cache

    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {
        **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "picture": "2/min"}}
    cache.clear()
    users = [make_user(), make_user()]
    match = services.create_match(user=users[0], game="han", players=2, seed=TEST_SEED)
    services.join_match(user=users[1], match_id=match.pk)
    client = make_auth_client(users[0])
    url = match_url(match.pk, "board.png")
    assert [client.get(url).status_code for _ in range(2)] == [200, 200]
    refused = assert_api_error(client.get(url), 429, "throttled")
    assert refused["details"]["retry_after_seconds"] > 0
    assert client.get(match_url(match.pk, "board.svg")).status_code == 200
    cache.clear()
