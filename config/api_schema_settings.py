"""The OpenAPI document's settings (drf-spectacular): docs/api.md "Generating a client"."""

SPECTACULAR_SETTINGS = {
    "TITLE": "Han and The Queen of Hansa game service",
    "DESCRIPTION": "Play Han and The Queen of Hansa by API. Errors are "
    '{"error": {"code", "message", "details"}} with stable codes.',
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # Issue 10, clients generated from the schema: OpenAPI 3.1 (plain JSON Schema, so the
    # engines' move schemas embed as they are), request components named after their
    # serializers (no "...RequestRequest"), and the games' move schemas added by a hook.
    "OAS_VERSION": "3.1.0",
    "COMPONENT_SPLIT_REQUEST": False,
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "games.api.openapi.postprocess",
    ],
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}
