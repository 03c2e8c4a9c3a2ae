"""GET /api/v1/asyncapi.yaml and .json: the play socket's AsyncAPI document beside the
OpenAPI schema, served from docs/asyncapi.yaml itself (YAML as written, JSON converted),
to anyone, offline, with an ETag."""

from __future__ import annotations

import json

import pytest

from tests import asyncapi
from tests.games.support import API


@pytest.mark.django_db
@pytest.mark.parametrize("path", [f"{API}/asyncapi.yaml", f"{API}/asyncapi.yaml/"])
def test_the_yaml_is_the_file_itself(client, path):
    response = client.get(path, HTTP_AUTHORIZATION="Token not-a-real-token")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/yaml")
    assert response.content == asyncapi.DOCUMENT.read_bytes()
    again = client.get(path, HTTP_IF_NONE_MATCH=response["ETag"])
    assert again.status_code == 304 and not again.content


@pytest.mark.django_db
def test_the_json_is_the_same_document(client):
    response = client.get(f"{API}/asyncapi.json")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert json.loads(response.content) == asyncapi.document()
    assert response["ETag"] != client.get(f"{API}/asyncapi.yaml")["ETag"]


@pytest.mark.django_db
def test_only_get_and_no_page_from_elsewhere(client):
    response = client.post(f"{API}/asyncapi.yaml", data={}, content_type="application/json")
    assert response.status_code == 405
    assert response.json()["error"]["code"] == "method_not_allowed"
    # a document, not a page: nothing in it loads from the internet
    text = asyncapi.DOCUMENT.read_text()
    assert "<script" not in text and "http://" not in text and "https://" not in text


@pytest.mark.django_db
def test_the_openapi_schema_leaves_it_out(client):
    paths = client.get(f"{API}/schema/?format=json").json()["paths"]
    assert not [path for path in paths if "asyncapi" in path]
