"""Keeping the garbage collector off what a process loaded at start.

A web process holds about 180,000 objects once Django, DRF, strawberry and the engines are
loaded, and CPython's full (oldest-generation) collection walks every one of them: about
140 ms on our development machine, stopping the process's event loop and threads. Under
load such a collection ran every few seconds, and it was the tail of the play socket's
acks (tens of ms at the median, over a hundred at p99 in bench/load_test.py --socket).
Nothing loaded at start is ever garbage, so ``freeze()`` moves it all to the permanent
generation (``gc.freeze``, as Instagram's Django fleet does): later collections walk only
what the process made since. Called once a process has loaded everything it serves
(config/asgi.py for each web process, the worker's ``worker_ready`` in config/celery.py).
"""

from __future__ import annotations

import gc


def freeze() -> None:
    """Collect what start-up left as garbage, then put every object alive now out of the
    collector's reach for good."""
    gc.collect()
    gc.freeze()
