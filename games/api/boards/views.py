"""REST for a match's board as a picture: ``board.svg`` and ``board.png`` after any ply,
as the reader may see it (games/boards). Cached as the match's other polled reads are
(games/api/matches/polled.py): an ETag per match version, reader, path and language,
``private, no-cache``, and 304 from one narrow query while nothing changed."""

from __future__ import annotations

import hashlib

from django.http import HttpResponse
from django.utils.translation import get_language
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.response import Response

from games.api.examples import ERROR_EXAMPLES
from games.api.matches.polled import CONDITIONAL, poll_headers
from games.api.toolkit.endpoints import MATCH_ID, error_responses
from games.boards import selectors as boards
from games.boards.png import svg_to_png
from games.matches import polling, selectors
from games.matches.models import MatchStatus
from games.matches.parsing import parse_ply
from infra.api_views import PUBLIC, ApiView

PLY = OpenApiParameter("ply", int, description="0 .. the match's ply; default the latest.")


def _tag(request, version: tuple) -> str:
    """The polled reads' ETag (reader, path with its query, match version), also keyed by
    the language the picture's words are in."""
    key = f"{polling.etag(request, version)}|{get_language() or ''}"
    return '"' + hashlib.sha256(key.encode()).hexdigest()[:32] + '"'


def picture_response(request, match_id: str, media_type: str, draw) -> HttpResponse:
    """``draw(svg)`` of the board the reader may see, with the ETag; 304 while the tag the
    client holds is still the current one."""
    ply = request.query_params.get("ply")
    if request.META.get("HTTP_IF_NONE_MATCH"):
        version = polling.version_of(match_id)
        # a bad ply is a 400 even with If-None-Match: *; a match not started has no board
        if ply is not None:
            parse_ply(ply, upper=version[1])
        tag = _tag(request, version)
        if version[2] != MatchStatus.OPEN and polling.not_modified(request, tag):
            return Response(status=status.HTTP_304_NOT_MODIFIED, headers=poll_headers(tag))
    match = selectors.get_match(match_id)
    body = draw(boards.board_svg(match, request.user, ply))
    response = HttpResponse(body, content_type=media_type)
    for name, value in poll_headers(_tag(request, polling.version_of_loaded(match))).items():
        response[name] = value
    response["Vary"] = "Accept-Language, Authorization, Cookie"
    return response


def _schema(operation_id: str, media_type: str, summary: str) -> dict:
    return dict(
        operation_id=operation_id,
        summary=summary,
        parameters=[MATCH_ID, PLY, CONDITIONAL],
        responses={(200, media_type): OpenApiTypes.BINARY, 304: None,
                   **error_responses(400, 404, 409)},
        examples=[ERROR_EXAMPLES["invalid_ply"]],
        tags=["play"],
    )


class PictureView(ApiView):
    query_params = ("ply",)

    def perform_content_negotiation(self, request, force=False):
        # An image client asks for ``Accept: image/png``; the picture is not rendered by
        # DRF, and an error still answers in the API's JSON shape rather than a 406.
        return super().perform_content_negotiation(request, force=True)


class BoardSvgView(PictureView):
    required_scopes = {"GET": PUBLIC}

    @extend_schema(**_schema("get_board_svg", "image/svg+xml",
                             "The board after ply N as you may see it, as SVG"))
    def get(self, request, match_id: str):
        return picture_response(request, match_id, "image/svg+xml; charset=utf-8",
                                lambda svg: svg.encode("utf-8"))


class BoardPngView(PictureView):
    required_scopes = {"GET": PUBLIC}
    # a stricter limit than reads: a PNG costs some 30 times the SVG's CPU (190-420 ms
    # against 6-7 ms at a load of 15: bench/board_pictures.py); a 304 counts too
    throttle_scope = "picture"

    @extend_schema(**_schema("get_board_png", "image/png",
                             "The board after ply N as you may see it, as PNG"))
    def get(self, request, match_id: str):
        return picture_response(request, match_id, "image/png", svg_to_png)
