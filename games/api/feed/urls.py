"""REST route of the feed (under /api/v1/): the NDJSON stream, a plain asynchronous Django
view (games/api/feed/views.py)."""

from django.urls import path

from games.api.feed.views import stream_view

urlpatterns = [
    path("stream/", stream_view, name="feed-stream"),
]
