"""Keep-alive connections for one batch's first attempts (games/webhooks/batches.py): a
new TCP (and TLS) connection per delivery was a good part of a delivery's cost at load.

A connection is kept per checked target, ``(scheme, host, port, address)``: the address
check (``addresses.check_url``) still runs before every send, and a connection is reused
only when that check lands on the very address it was opened to, so a name that resolves
elsewhere now gets a new connection to the newly checked address. One ``Connections``
serves one thread (http.client connections are not shared between threads) and is closed
at the end of the batch: nothing idles open between batches.
"""

from __future__ import annotations

import http.client

from games.webhooks import sending
from games.webhooks.addresses import Target

#: errors of a reused connection the receiver had closed while it idled: the POST is sent
#: again once on a fresh connection (the receiver drops a repeat by its ``webhook-id``)
_STALE = ("RemoteDisconnected", "BrokenPipeError", "ConnectionResetError",
          "ConnectionAbortedError")


class Connections:
    def __init__(self) -> None:
        self._open: dict[tuple, http.client.HTTPConnection] = {}

    def post(self, target: Target, body: bytes, headers: dict[str, str]) -> sending.Outcome:
        key = (target.scheme, target.host, target.port, target.address)
        connection = self._open.pop(key, None)
        reused = connection is not None
        if connection is None:
            connection = sending.open_connection(target)
        outcome, reusable = sending.exchange(connection, target, body, headers)
        if reused and outcome.status_code is None and outcome.error.startswith(_STALE):
            connection.close()
            connection = sending.open_connection(target)
            outcome, reusable = sending.exchange(connection, target, body, headers)
        if reusable:
            self._open[key] = connection
        else:
            connection.close()
        return outcome

    def close(self) -> None:
        for connection in self._open.values():
            connection.close()
        self._open.clear()
