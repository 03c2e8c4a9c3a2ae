"""``GET /api/v1/asyncapi.yaml`` and ``.json``: the play socket's AsyncAPI 3 document.

The document is written by hand in ``docs/asyncapi.yaml`` (docs/play.md is the same
protocol in words) and served from that file as it is: YAML as written, JSON converted
from it. Tests validate it with the AsyncAPI parser and check every frame the server
sends against its message schemas. Read once per process, or again
when the file changed (development).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

import yaml
from django.conf import settings
from django.http import HttpResponse
from drf_spectacular.utils import extend_schema
from rest_framework.permissions import AllowAny

from infra.api_views import PUBLIC, ApiView


def document_path() -> Path:
    return Path(settings.BASE_DIR) / "docs" / "asyncapi.yaml"


@dataclass(frozen=True)
class _Served:
    stamp: tuple[int, int]  # the file's mtime and size when read
    yaml_bytes: bytes
    json_bytes: bytes
    yaml_etag: str
    json_etag: str


_served: _Served | None = None


def load_document() -> dict:
    """The document as data (yaml.safe_load of the file)."""
    return yaml.safe_load(document_path().read_text(encoding="utf-8"))


def _current() -> _Served:
    global _served
    path = document_path()
    status = path.stat()
    stamp = (status.st_mtime_ns, status.st_size)
    if _served is None or _served.stamp != stamp:
        raw = path.read_bytes()
        converted = json.dumps(yaml.safe_load(raw), indent=1, ensure_ascii=False).encode()
        digest = hashlib.sha256(raw).hexdigest()[:32]
        _served = _Served(stamp, raw, converted, f'"{digest}-yaml"', f'"{digest}-json"')
    return _served


class _AsyncApiView(ApiView):
    authentication_classes: list = []  # a document for everyone: a bad token is no 401
    permission_classes = [AllowAny]
    content_type = ""

    def _answer(self, request, body: bytes, etag: str) -> HttpResponse:
        headers = {"ETag": etag, "Cache-Control": "public, no-cache"}
        if etag in request.headers.get("If-None-Match", ""):
            return HttpResponse(status=304, headers=headers)
        return HttpResponse(body, content_type=self.content_type, headers=headers)


class AsyncApiYamlView(_AsyncApiView):
    content_type = "application/yaml; charset=utf-8"
    required_scopes = {"GET": PUBLIC}

    @extend_schema(exclude=True)
    def get(self, request):
        served = _current()
        return self._answer(request, served.yaml_bytes, served.yaml_etag)


class AsyncApiJsonView(_AsyncApiView):
    content_type = "application/json"
    required_scopes = {"GET": PUBLIC}

    @extend_schema(exclude=True)
    def get(self, request):
        served = _current()
        return self._answer(request, served.json_bytes, served.json_etag)
