"""The metrics endpoint: its own small HTTP server, on its own port, never the service's
(``python -m infra.observability.exporter``; scripts/run.sh starts it, compose runs it in
each web and worker container). Nothing public reaches it: it listens on METRICS_HOST
(127.0.0.1 by default) at METRICS_PORT (9100), and compose publishes no port for it.

At each scrape it adds up what every process wrote to PROMETHEUS_MULTIPROC_DIR (every
uvicorn process and Celery worker on this host: infra/observability/metrics.py), after
folding away the files of processes that have exited (their counts into one archive, their
gauges dropped: infra/observability/dead_processes.py), reads the CPU and memory of the
live ones (infra/observability/process_metrics.py), and asks Redis how many tasks wait in
each Celery queue (``celery_queue_length``)."""

from __future__ import annotations

import logging
import os
import threading
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

import django
from prometheus_client import CollectorRegistry, make_wsgi_app, multiprocess
from prometheus_client.core import GaugeMetricFamily

from infra.observability.dead_processes import fold_dead_processes
from infra.observability.process_metrics import ProcessCollector

logger = logging.getLogger(__name__)

class QueueLengthCollector:
    """``celery_queue_length{queue}``: the messages waiting in each of the service's
    queues (their Redis lists, priorities included), read at scrape time."""

    def __init__(self, broker_url: str, queues: list[str]) -> None:
        import redis

        self.redis = redis.Redis.from_url(broker_url, socket_timeout=2,
                                          socket_connect_timeout=2)
        self.queues = queues

    def collect(self):
        family = GaugeMetricFamily("celery_queue_length",
                                   "Tasks waiting in a Celery queue (not yet taken).",
                                   labels=["queue"])
        try:
            with self.redis.pipeline(transaction=False) as pipe:
                for queue in self.queues:
                    # kombu keeps priorities 1-9 in lists named queue + "\x06\x16" + n
                    for suffix in ["", *(f"\x06\x16{n}" for n in range(1, 10))]:
                        pipe.llen(queue + suffix)
                lengths = pipe.execute()
        except Exception:  # noqa: BLE001 - the broker is away: no sample rather than none at all
            logger.warning("could not read the queue lengths", exc_info=True)
            return
        for index, queue in enumerate(self.queues):
            family.add_metric([queue], sum(lengths[index * 10:(index + 1) * 10]))
        yield family


class _MultiProcess:
    def __init__(self, directory: str) -> None:
        self.directory = directory
        self.inner = multiprocess.MultiProcessCollector(None, path=directory)

    def collect(self):
        fold_dead_processes(self.directory)
        return self.inner.collect()


def registry(directory: str, broker_url: str, queues: list[str]) -> CollectorRegistry:
    reg = CollectorRegistry()
    reg.register(_MultiProcess(directory))
    reg.register(ProcessCollector(directory))  # after the fold: live processes only
    reg.register(QueueLengthCollector(broker_url, queues))
    return reg


class _QuietHandler(WSGIRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 - one line per scrape is noise
        pass


class _ThreadingServer(WSGIServer):
    daemon_threads = True

    def process_request(self, request, client_address):
        threading.Thread(target=self._serve, args=(request, client_address),
                         daemon=True).start()

    def _serve(self, request, client_address):
        try:
            self.finish_request(request, client_address)
        finally:
            self.shutdown_request(request)


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()
    from django.conf import settings

    directory = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if not directory:
        raise SystemExit("exporter: PROMETHEUS_MULTIPROC_DIR is not set (docs/operations.md)")
    queues = [settings.CELERY_TASK_DEFAULT_QUEUE, settings.CELERY_BOT_QUEUE,
              settings.CELERY_ANALYSIS_QUEUE]
    app = make_wsgi_app(registry(directory, settings.CELERY_BROKER_URL, queues))
    host, port = settings.METRICS_HOST, settings.METRICS_PORT
    server = make_server(host, port, app, server_class=_ThreadingServer,
                         handler_class=_QuietHandler)
    logger.info("metrics on http://%s:%s/metrics", host, port)
    server.serve_forever()


if __name__ == "__main__":
    main()
