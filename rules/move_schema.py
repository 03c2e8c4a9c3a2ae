"""Building blocks for ``Engine.move_schema``: each move type is one object schema whose
``type`` property is a one-value enum, and the whole is a ``oneOf`` with a ``type``
discriminator, the shape OpenAPI client generators turn into one class per move type.

Plain ``enum`` rather than ``const`` and no ``$ref``: the schema is embedded as is in the
OpenAPI document (3.0 tools read it) and in the catalogue (a client validates with it).
"""

from __future__ import annotations


def move_type(name: str, description: str, properties: dict | None = None,
              required: list[str] | None = None) -> dict:
    """One branch: ``{"type": <name>, **properties}``, no other key allowed."""
    return {
        "type": "object",
        "title": name,
        "description": description,
        "required": ["type", *(required or [])],
        "properties": {"type": {"type": "string", "enum": [name]}, **(properties or {})},
        "additionalProperties": False,
    }


def one_of(*branches: dict) -> dict:
    """The whole schema of a game's moves."""
    return {
        "oneOf": list(branches),
        "discriminator": {"propertyName": "type"},
    }
