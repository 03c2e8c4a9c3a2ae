"""REST endpoints of game records: one match's record, a user's records as
newline-delimited JSON (streamed), verification of any record, and the public keys that
sign them."""

from __future__ import annotations

import json

from asgiref.sync import sync_to_async
from django.http import StreamingHttpResponse
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.response import Response

from games.api.examples import RECORD_SIGNING_KEYS_EXAMPLE
from games.api.records.serializers import (
    RecordSerializer,
    RecordSigningKeySetSerializer,
    VerdictSerializer,
)
from games.api.toolkit.endpoints import MATCH_ID, error_responses, represent
from games.matches.parsing import parse_flag
from games.records import selectors, services, signing
from infra.api_views import PUBLIC, ApiView
from infra.parsers import BoundedJSONParser

ANALYSIS_FLAG = OpenApiParameter(
    "analysis", bool, description="true: add the stored analysis (docs/analysis.md) as the "
    "record's \"analysis\" section, null where none is done.")


class MatchRecordView(ApiView):
    query_params = ("analysis",)
    required_scopes = {"GET": PUBLIC}

    @extend_schema(
        summary="The game record of a finished match (docs/records.md)",
        operation_id="get_match_record",
        parameters=[MATCH_ID, ANALYSIS_FLAG],
        responses={200: RecordSerializer, **error_responses(404, 409)},
        tags=["records"],
    )
    def get(self, request, match_id: str):
        return Response(selectors.record_of(match_id, with_analysis=bool(
            parse_flag(request.query_params.get("analysis"), "analysis"))))


class VerifyRecordView(ApiView):
    parser_classes = [BoundedJSONParser]  # a record is JSON; anything else is 415
    required_scopes = {"POST": PUBLIC}

    @extend_schema(
        summary="Re-simulate a record: does its result follow from its seed and moves?",
        operation_id="verify_record",
        request=RecordSerializer,
        responses={200: VerdictSerializer, **error_responses(400, 415)},
        tags=["records"],
    )
    def post(self, request):
        return Response(VerdictSerializer(services.verify_record(request.data)).data)


class RecordSigningKeysView(ApiView):
    required_scopes = {"GET": PUBLIC}

    @extend_schema(
        operation_id="list_record_signing_keys",
        summary="The public keys that sign game records, the current one first "
                "(docs/records.md \"Signatures\")",
        responses={200: RecordSigningKeySetSerializer, **error_responses()},
        examples=[RECORD_SIGNING_KEYS_EXAMPLE],
        tags=["records"],
    )
    def get(self, request):
        response = Response(represent(RecordSigningKeySetSerializer,
                                      {"keys": signing.published_keys()}))
        # public and the same for everyone; a rotation reaches caches within five minutes
        response["Cache-Control"] = "public, max-age=300"
        return response


class UserRecordsView(ApiView):
    query_params = ("game", "after", "limit", "analysis")
    required_scopes = {"GET": PUBLIC}
    # its response is streamed from an async iterator: config/http_split.py serves it
    # through Django's ASGI handler (settings.ASYNC_HTTP_PATHS; a test checks it)
    streams_asynchronously = True
    @extend_schema(
        summary="Every finished match of a user, one record per line (NDJSON, streamed)",
        operation_id="export_user_records",
        parameters=[
            OpenApiParameter("username", str, OpenApiParameter.PATH),
            OpenApiParameter("game", str, description='Only "han" or "hansa".'),
            OpenApiParameter("after", int, description="Only matches with a larger id "
                             "(resume an export)."),
            OpenApiParameter("limit", int, description=f"At most this many, 1 to "
                             f"{selectors.MAX_EXPORT}."),
            ANALYSIS_FLAG,
        ],
        # each line one record (NDJSON): the schema of a line
        responses={(200, "application/x-ndjson"): RecordSerializer,
                   **error_responses(400, 404)},
        tags=["records"],
    )
    def get(self, request, username: str):
        params = request.query_params
        ids = selectors.user_record_ids(
            username, viewer=request.user, game=params.get("game") or None,
            after=params.get("after"), limit=params.get("limit"))
        with_analysis = bool(parse_flag(params.get("analysis"), "analysis"))
        response = StreamingHttpResponse(_ndjson(ids, with_analysis),
                                         content_type="application/x-ndjson")
        response["Cache-Control"] = "no-store"
        return response


async def _ndjson(ids: list[int], with_analysis: bool):
    # Asynchronous, so that the ASGI server sends each chunk as it is built instead of
    # collecting the whole export in memory first; the database is read in a thread.
    for start in range(0, len(ids), selectors.EXPORT_CHUNK):
        chunk = ids[start : start + selectors.EXPORT_CHUNK]
        for record in await sync_to_async(selectors.records_of)(chunk, with_analysis):
            yield (json.dumps(record, separators=(",", ":")) + "\n").encode()
