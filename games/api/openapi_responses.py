"""The error answers every operation may give whatever its view checks, added to the
OpenAPI document in one place (games/api/openapi.py's hook calls ``add_common_errors``),
so that no view repeats them and a generated client types each of them (issue 41: a
client generated without them returned ``None`` on a 503 or a rate limit).

- 429 ``throttled``: every view counted by ``infra.throttles.ApiRateThrottle`` (all but
  those with ``throttle_classes = []``: the health check); a ``Retry-After`` header and
  ``details.retry_after_seconds``.
- 503 ``service_unavailable`` / ``database_busy``: the database or Redis does not answer
  (infra/api_errors.py, infra/outages.py); a ``Retry-After`` header.
- 415 ``unsupported_media_type``: an operation with a body takes JSON only.

A view's own declaration of one of these statuses (the health check's 503 is its own
body) is kept.
"""

from __future__ import annotations

ERROR_REF = "#/components/schemas/Error"

RETRY_AFTER = {"Retry-After": {
    "description": "Seconds to wait before trying again.",
    "schema": {"type": "integer", "minimum": 0}}}


def _error(description: str, *, retry_after: bool = False) -> dict:
    response = {"description": description,
                "content": {"application/json": {"schema": {"$ref": ERROR_REF}}}}
    if retry_after:
        response["headers"] = RETRY_AFTER
    return response


THROTTLED = _error("Over a rate limit (throttled): details.retry_after_seconds says how long "
                   "to wait (docs/limits.md).", retry_after=True)
UNAVAILABLE = _error("The database or Redis does not answer (service_unavailable) or is "
                     "busy (database_busy): try again after Retry-After.", retry_after=True)
NOT_JSON = _error("The body is not application/json (unsupported_media_type).")


def _unthrottled_operations(generator) -> set[tuple[str, str]]:
    """(path, method) of the operations whose view counts no rate limit."""
    found = set()
    for path, _regex, method, callback in generator.endpoints:
        view_class = getattr(callback, "cls", None)
        if view_class is not None and list(getattr(view_class, "throttle_classes", [None])) == []:
            found.add((path, method.lower()))
    return found


def add_common_errors(result: dict, generator) -> None:
    unthrottled = _unthrottled_operations(generator) if generator is not None else set()
    for path, operations in result.get("paths", {}).items():
        for method, operation in operations.items():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            responses = operation["responses"]
            if (path, method) not in unthrottled:
                responses.setdefault("429", THROTTLED)
            responses.setdefault("503", UNAVAILABLE)
            if "requestBody" in operation:
                responses.setdefault("415", NOT_JSON)
            operation["responses"] = dict(sorted(responses.items()))
