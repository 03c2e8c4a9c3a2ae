"""The project's URLs plus endpoints that fail on purpose, for the URL policy tests."""

import redis
from django.http import Http404
from django.urls import path
from rest_framework.views import APIView

from config import urls as project_urls


def crash(request):
    raise RuntimeError("a bug, with a secret in its message: s3cr3t")


class CrashingApiView(APIView):
    def get(self, request):
        raise RuntimeError("a bug inside a DRF view: s3cr3t")

    post = get


def redis_down(request):
    raise redis.exceptions.ConnectionError(
        "Error 111 connecting to 127.0.0.1:6379. Connection refused.")


def plain_404(request):
    raise Http404("raised by a plain Django view")


urlpatterns = [
    *project_urls.urlpatterns,
    path("api/v1/test-crash/", crash),
    path("api/v1/test-drf-crash", CrashingApiView.as_view()),
    path("api/v1/test-404/", plain_404),
    path("api/v1/test-redis-down/", redis_down),
    path("graphql/test-crash/", crash),
]
handler404 = project_urls.handler404
handler500 = project_urls.handler500
