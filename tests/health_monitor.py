"""The health check's latency while something else loads the server: the GraphQL abuse
tests (tests/games/graphql/test_abusive_clients.py) and bench/graphql_alias_flood.py."""

from __future__ import annotations

import json
import subprocess
import sys

#: the monitor runs in a process of its own: in the caller's it would wait for the
#: interpreter's lock behind the clients parsing their answers
MONITOR = """
import json, sys, time, urllib.request
address, seconds = sys.argv[1], float(sys.argv[2])
latencies, deadline = [], time.monotonic() + seconds
while time.monotonic() < deadline:
    started = time.perf_counter()
    with urllib.request.urlopen(f"http://{address}/api/v1/health", timeout=30) as response:
        assert response.status == 200, response.status
    latencies.append((time.perf_counter() - started) * 1000)
    time.sleep(0.05)
print(json.dumps(latencies))
"""


def health_ms(address: str, seconds: float) -> list[float]:
    """Health check latencies, one every 50 ms or so for ``seconds``, sorted."""
    done = subprocess.run([sys.executable, "-c", MONITOR, address, str(seconds)],
                          capture_output=True, text=True, timeout=seconds + 120, check=True)
    return sorted(json.loads(done.stdout))
