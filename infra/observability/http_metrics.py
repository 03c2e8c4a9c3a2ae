"""Request latency per route, through django-prometheus: its latency histogram by view
(the URL pattern's name) and method, and its responses by status, view and method, and
nothing else of its middleware pair (a dozen updates per request, most of them never
graphed).

One middleware, first in MIDDLEWARE: its clock starts before every other middleware and
stops after all of them, and by then the URL is resolved, so the view is known."""

from __future__ import annotations

from django_prometheus.middleware import Metrics, PrometheusAfterMiddleware
from django_prometheus.utils import Time, TimeSince

from infra.observability import metrics
from infra.observability.pool_metrics import start_sampling


class RouteMetricsMiddleware(PrometheusAfterMiddleware):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # a web process builds its middleware once: its pools are sampled from now on, and
        # its counters exist at zero before their first count
        start_sampling()
        metrics.create_known_series()

    def process_request(self, request):
        request.prometheus_after_middleware_event = Time()

    def process_view(self, request, view_func, *view_args, **view_kwargs):
        return None

    def process_template_response(self, request, response):
        return response

    def process_response(self, request, response):
        view, method = self._get_view_name(request), self._method(request)
        metrics.http_answered(response.status_code)
        self.metrics.responses_by_status_view_method.labels(
            status=str(response.status_code), view=view, method=method).inc()
        started = getattr(request, "prometheus_after_middleware_event", None)
        if started is not None:
            self.metrics.requests_latency_by_view_method.labels(
                view=view, method=method).observe(TimeSince(started))
        return response

    def process_exception(self, request, exception):
        return None


__all__ = ["Metrics", "RouteMetricsMiddleware"]
