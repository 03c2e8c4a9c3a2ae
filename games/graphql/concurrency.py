"""How many costly GraphQL operations run at once, per client and per web process
(issue 21, item 3; issue 39).

The cost cap (limits.py) bounds one operation to about 250 ms; it does not bound how many
run side by side. Eight clients each sending a costly query kept every web thread busy,
and health checks, moves and polls queued behind them for 3-5 s. So every operation whose
estimated cost is ``GRAPHQL_EXPENSIVE_COST`` or more, whatever its fields (400 units, 20 ms
of work measured under contention: more than a poll of a match or a move), needs a slot
before it executes. The threshold is what a cheap request may wait behind one operation
that took none: at 1,000 (50 ms, and records priced at half their cost under load), three
``matchRecord`` aliases took no slot and sixteen clients sending them held the health
check for over a second (issue 39; bench/graphql_alias_flood.py). A slot is:

- one of ``GRAPHQL_EXPENSIVE_PER_CLIENT`` for its client: the user, or the address for
  an anonymous caller, as the rate limits count them (``infra.throttles.caller_ident``);
- one of ``GRAPHQL_EXPENSIVE_PER_PROCESS`` in the process (``WEB_THREADS - 1`` by
  default), so that however many clients ask, each process keeps a thread for cheap
  requests;
- and the process must not owe a pause: expensive operations take at most
  ``GRAPHQL_EXPENSIVE_SHARE`` of its time (half by default), so after one that ran d
  seconds the next waits d x (1 - share) / share. One busy thread alone slowed the
  process's other thread (the interpreter's lock) and the machine's other process (the
  cores): the health check under sixteen clients was several times slower without the
  pause (docs/capacity.md).

Without a free slot the operation is refused at once, before any resolver runs, with
``too_many_concurrent`` (HTTP 429 and ``Retry-After: 1``; ``details``: ``scope``
``client`` or ``process``, ``limit``, ``retry_after_seconds``). Nothing waits for a
slot: a waiting request would hold the very thread the slot keeps free.

The slots are counted per process, in memory: no round trip, nothing left behind when a
process dies. Behind a balancer with P web processes a client may thus run up to
P x ``GRAPHQL_EXPENSIVE_PER_CLIENT`` expensive operations at once, and the tier at most
P x ``GRAPHQL_EXPENSIVE_PER_PROCESS``, each process for at most its share of the time.
Subscriptions take no slot: they stay open for as long as the client listens (the cost
cap prices their pushes). Operations under the threshold are bounded by the rate limits
only: each is at most 20 ms of work.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from django.conf import settings
from django.utils.translation import gettext as _
from graphql import ExecutionResult, OperationType
from graphql.utilities import get_operation_ast
from strawberry.extensions import SchemaExtension

from games.graphql.limits import QueryRefused, recorded_estimate
from games.graphql.throttling import request_meta
from infra import throttles

RETRY_AFTER_SECONDS = 1


@dataclass(frozen=True)
class Bounds:
    per_client: int
    per_process: int
    #: the share of the process's time expensive operations may take, over time
    share: float


class Slots:
    """Expensive operations running in this process, in all and per client, and the pause
    the process owes after them (its share of time)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._lock = threading.Lock()
        self._clock = clock
        self._per_client: dict[str, int] = {}
        self._running = 0
        self._pause_until = clock()

    def take(self, client: str, bounds: Bounds) -> str | None:
        """Take a slot for ``client``; None if taken, else the bound that was full
        ("client" or "process")."""
        with self._lock:
            if self._per_client.get(client, 0) >= bounds.per_client:
                return "client"
            if self._running >= bounds.per_process or self._clock() < self._pause_until:
                return "process"
            self._per_client[client] = self._per_client.get(client, 0) + 1
            self._running += 1
            return None

    def give_back(self, client: str, seconds: float, bounds: Bounds) -> None:
        """``client``'s operation ended after ``seconds``: the process takes no other
        expensive operation for as long as keeps them to ``bounds.share`` of its time."""
        with self._lock:
            left = self._per_client[client] - 1
            if left:
                self._per_client[client] = left
            else:
                del self._per_client[client]  # the table holds only clients running now
            self._running -= 1
            pause = seconds * (1 - bounds.share) / bounds.share if bounds.share < 1 else 0.0
            self._pause_until = max(self._pause_until, self._clock() + pause)

    def running(self, client: str | None = None) -> int:
        with self._lock:
            return self._running if client is None else self._per_client.get(client, 0)


#: this process's slots
SLOTS = Slots()


def expensive_cost() -> int:
    return settings.GRAPHQL_EXPENSIVE_COST


def bounds() -> Bounds:
    return Bounds(per_client=settings.GRAPHQL_EXPENSIVE_PER_CLIENT,
                  per_process=settings.GRAPHQL_EXPENSIVE_PER_PROCESS,
                  share=min(1.0, max(0.01, settings.GRAPHQL_EXPENSIVE_SHARE)))


class ExpensiveOperations(SchemaExtension):
    """Take a slot for an expensive query or mutation, or refuse it (module doc)."""

    def on_execute(self) -> Iterator[None]:
        taken = self._take_slot()
        started = time.monotonic()
        try:
            yield
        finally:
            if taken is not None:
                client, limits = taken
                SLOTS.give_back(client, time.monotonic() - started, limits)

    def _take_slot(self) -> tuple[str, Bounds] | None:
        """The client whose slot this operation holds, with the bounds it was taken under;
        None when it needs none or was refused (then the result is set and nothing
        executes)."""
        ctx = self.execution_context
        found = recorded_estimate(ctx)
        if ctx.result is not None or found is None or found.cost < expensive_cost():
            return None  # refused already (rate limits), or cheap
        operation = get_operation_ast(ctx.graphql_document, ctx.operation_name)
        if operation is None or operation.operation == OperationType.SUBSCRIPTION:
            return None
        client = throttles.caller_ident(ctx.context.user, request_meta(ctx.context))
        limits = bounds()
        full = SLOTS.take(client, limits)
        if full is None:
            return client, limits
        self._refuse(full, limits.per_client if full == "client" else limits.per_process)
        return None

    def _refuse(self, scope: str, limit: int) -> None:
        why = (_("you are already running %(limit)s") % {"limit": limit} if scope == "client"
               else _("the server is busy with others"))
        refusal = QueryRefused(
            _("Too many expensive operations at once: %(why)s. Try again in %(seconds)s s, or "
              "ask for less per request.") % {"why": why, "seconds": RETRY_AFTER_SECONDS},
            "too_many_concurrent",
            {"scope": scope, "limit": limit, "retry_after_seconds": RETRY_AFTER_SECONDS})
        self.execution_context.result = ExecutionResult(data=None, errors=[refusal])
        context = self.execution_context.context
        if context.ws is None:
            context.response.status_code = 429
            context.response["Retry-After"] = str(RETRY_AFTER_SECONDS)
