"""How often the thread holding the GIL of a web process must offer it to the others.

A web process runs one event loop (every socket) and a few threads (the play sockets'
database work, the WSGI requests). A thread that gives the GIL up for a round trip to
PostgreSQL or Redis must get it back afterwards, and while another thread computes it
waits until that one is told to let go: every ``sys.getswitchinterval()``, 5 ms by
default. A move makes several round trips, so under load those waits added up to tens of
milliseconds in the tail of the play socket's acks (bench/load_test.py --socket). A
shorter interval (``WEB_GIL_SWITCH_MS``, 1 ms) bounds each wait, for a few more switches
of a thread that computes long (docs/capacity.md).
"""

from __future__ import annotations

import sys

from django.conf import settings


def apply() -> None:
    sys.setswitchinterval(settings.WEB_GIL_SWITCH_MS / 1000)
