"""What a client generator can only read as "any value" in an OpenAPI document: a
property (or array item, or map value) with no type at all, and an object without
properties whose values may be anything. Parts marked ``x-free-form`` (games/api/
openapi.py ``FREE_FORM``) are counted apart: they are documented as the engines' own."""

from __future__ import annotations

FREE_FORM = "x-free-form"
TYPING_KEYS = {"type", "$ref", "oneOf", "anyOf", "allOf", "enum", "const"}


def _is_bare_object(schema: dict) -> bool:
    more = schema.get("additionalProperties", True)
    return (schema.get("type") == "object" and not schema.get("properties")
            and not ({"oneOf", "anyOf", "allOf"} & set(schema))
            and (more is True or more == {}))


def open_objects(document: dict) -> list[str]:
    """Objects with typed properties that also take more keys (an event's facts, an
    error's details by code): their extra keys are the only ``unknown`` a generated
    TypeScript type gives them."""
    return loose_parts(document, with_open=True)[3]


def loose_parts(document: dict, *, with_open: bool = False):
    """(untyped fields, bare objects, free-form parts), each as ``Component.path``; with
    ``with_open`` the open objects too (``open_objects``)."""
    untyped, bare, free, opened = [], [], [], []
    pending = [(name, schema) for name, schema in document["components"]["schemas"].items()]
    for path, operations in document["paths"].items():  # bodies declared in place
        for method, operation in operations.items():
            if not isinstance(operation, dict):
                continue
            bodies = [("body", operation.get("requestBody") or {})] + list(
                operation.get("responses", {}).items())
            for status, body in bodies:
                for media, content in (body.get("content") or {}).items():
                    pending.append((f"{method} {path} {status} {media}",
                                    content.get("schema", {})))
    while pending:
        where, schema = pending.pop()
        if not isinstance(schema, dict):
            continue
        if schema.get(FREE_FORM):
            free.append(where)
            continue
        if _is_bare_object(schema):
            bare.append(where)
        elif schema.get("properties") and schema.get("additionalProperties") is True:
            opened.append(where)
        for name, child in (schema.get("properties") or {}).items():
            if isinstance(child, dict) and not (TYPING_KEYS & set(child)) and not child.get(
                    FREE_FORM):
                untyped.append(f"{where}.{name}")
            pending.append((f"{where}.{name}", child))
        for key in ("items", "additionalProperties"):
            child = schema.get(key)
            if isinstance(child, dict):
                if not child and key == "items":
                    untyped.append(f"{where}[]")
                pending.append((f"{where}[{key}]", child))
        for key in ("oneOf", "anyOf", "allOf"):
            pending.extend((f"{where}|{index}", child)
                           for index, child in enumerate(schema.get(key) or []))
    found = sorted(untyped), sorted(bare), sorted(free)
    return (*found, sorted(opened)) if with_open else found
