"""The whole stack as production runs it, for the observability tests: the web tier
(scripts/serve_web.sh, two uvicorn processes), a Celery worker and the metrics exporter,
all writing their metrics to one PROMETHEUS_MULTIPROC_DIR and their logs to files, on the
test database, the test broker queues and a channel-layer Redis db of their own."""

from __future__ import annotations

import contextlib
import json
import os
import re
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from prometheus_client.parser import text_string_to_metric_families

from config.celery import app as celery_app
from tests.games.graphql.asgi_server import channel_redis_url, running_web_tier
from tests.games.support import TEST_BOT_QUEUE, TEST_QUEUE
from tests.ports import free_port, served_by
from tests.workers import ROOT, purge_test_queue, start_worker, stop_worker


@dataclass
class Stack:
    web: str  # host:port of the service
    metrics_url: str
    logs: list[Path]

    def scrape(self) -> dict[str, list]:
        """The exporter's families: name -> samples (name, labels, value)."""
        with urllib.request.urlopen(self.metrics_url, timeout=10) as response:
            text = response.read().decode()
        return {family.name: family.samples for family in text_string_to_metric_families(text)}

    def request(self, method: str, path: str, body: dict | None = None, *,
                token: str | None = None, request_id: str | None = None,
                ) -> tuple[int, dict, dict]:
        """(status, parsed body, response headers, names in lower case)."""
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Token {token}"
        if request_id:
            headers["X-Request-Id"] = request_id
        request = urllib.request.Request(
            f"http://{self.web}{path}", method=method, headers=headers,
            data=json.dumps(body).encode() if body is not None else None)
        try:
            with urllib.request.urlopen(request, timeout=20) as response:
                return (response.status, json.loads(response.read() or b"{}"),
                        {k.lower(): v for k, v in response.headers.items()})
        except urllib.error.HTTPError as error:
            return (error.code, json.loads(error.read() or b"{}"),
                    {k.lower(): v for k, v in error.headers.items()})


def _stack_env(directory: Path) -> dict:
    return {
        "PROMETHEUS_MULTIPROC_DIR": str(directory),
        "CELERY_BROKER_URL": celery_app.conf.broker_url,
        "CELERY_TASK_DEFAULT_QUEUE": TEST_QUEUE,
        "CELERY_BOT_QUEUE": TEST_BOT_QUEUE,
        # the worker's announcements must reach the web tier's play hubs
        "CHANNEL_REDIS_URL": channel_redis_url(),
        "LOG_LEVEL": "INFO",
    }


@contextlib.contextmanager
def running_exporter(env: dict, log_path: Path):
    port = free_port()
    with open(log_path, "ab") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "infra.observability.exporter"], cwd=ROOT,
            env={**os.environ, **env, "METRICS_PORT": str(port)}, stdout=log,
            stderr=subprocess.STDOUT, start_new_session=True)
    url = f"http://127.0.0.1:{port}/metrics"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if not served_by(port, process.pid):  # only our exporter counts (issue 39)
                    raise ConnectionError("not (yet) our exporter on the port")
                urllib.request.urlopen(url, timeout=2).close()
                break
            except (urllib.error.URLError, ConnectionError):
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("the exporter did not start: "
                                       + log_path.read_text()[-2000:]) from None
                time.sleep(0.2)
        yield url
    finally:
        process.terminate()
        process.wait(timeout=10)


@contextlib.contextmanager
def running_stack(tmp_path: Path, **web_env):
    """Yield a ``Stack``; its logs are complete once the block has ended."""
    directory = tmp_path / "prometheus"
    directory.mkdir()
    env = _stack_env(directory)
    logs = [tmp_path / "web.log", tmp_path / "worker.log", tmp_path / "exporter.log"]
    purge_test_queue()
    # --quiet: no banner on stdout, only log lines
    worker = start_worker(logs[1], "observed", env=env, level="info",
                          celery_options=("--quiet",))
    try:
        with running_web_tier(processes=2, log_path=logs[0], extra_env={
                **env, "CELERY_TASK_ALWAYS_EAGER": "0", **web_env}) as web, \
                running_exporter(env, logs[2]) as metrics_url:
            yield Stack(web=web, metrics_url=metrics_url, logs=logs)
    finally:
        stop_worker(worker)


#: what Celery prints from its signal handler when told to stop (logging there could
#: deadlock on a lock the interrupted thread holds): a console notice, not a log line
CELERY_SHUTDOWN_NOTICE = re.compile(r"worker: (Warm|Cold) shutdown \(MainProcess\)")


def log_lines(paths: list[Path]) -> list[dict]:
    """Every line of every log, each parsed as the JSON object it must be."""
    lines = []
    for path in paths:
        for number, text in enumerate(path.read_text().splitlines(), 1):
            if not text.strip() or CELERY_SHUTDOWN_NOTICE.fullmatch(text):
                continue
            try:
                line = json.loads(text)
            except json.JSONDecodeError:
                raise AssertionError(f"{path.name}:{number} is not JSON: {text[:200]}") from None
            assert isinstance(line, dict), f"{path.name}:{number}: {text[:200]}"
            lines.append(line)
    return lines
