"""The per-user live feed: events stored per user (``models.FeedEvent``), written by
``services`` when something concerns the user (your turn, match started or ended,
invitation received, matched by quick match), read back from any event id by
``selectors``, pushed live over ``GET /api/v1/stream/`` and GraphQL ``myEvents``.
See docs/feed.md."""
