"""How fast one play socket may send (docs/play.md "Limits"): every frame it sends, the
``hello``, pings, unknown ops and malformed frames included, takes a token from the
socket's own bucket, refilled at ``PLAY_MESSAGES_PER_SECOND`` up to ``PLAY_MESSAGE_BURST``.

The bucket lives in the socket's memory: the check is a few float operations, made before
a frame is parsed, so a flood costs the server no Redis round trip and no handling, and
at most ``FLOOD_CLOSE_AFTER`` small answers before its socket is closed. What a user or an
address may send over all its sockets is bounded by this rate times the sockets it may
hold open (games/play/open_sockets.py). The REST
scopes (infra/throttles.py, counted in Redis) still count ``hello``, ``subscribe``,
``feed`` and ``move`` on top, as every transport's requests are.

A frame over the rate is not handled. Each is answered with an ``error`` ``throttled``
(``details.retry_after_seconds``, as REST's 429) carrying its ``ref`` (read only from a
frame of at most ``protocol.REF_READ_MAX_BYTES``), so every request gets one answer, a
chat op or a move too: before, only the first of a run was answered, without its ref,
and a chat op among the others waited for an answer that never came. A socket that
sends more than ``FLOOD_CLOSE_AFTER`` of them before a frame is allowed again has not
listened: it is closed with 4429, so a run costs at most that many answers.

A flooder closed that way would open a new socket at once and get a new bucket: so the
web process that closed it holds its address in a penalty box (``PenaltyBox``) for
``PLAY_FLOOD_PENALTY_SECONDS``, and answers that address's new sockets at once, before
any count in Redis, any ``hello`` or any frame, with ``throttled`` and close 4429. The box
is per process (a flooder may be closed once by each) and in memory, bounded.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict

#: frames refused in a row (each answered ``throttled``) that close the socket (4429):
#: room for what a client had in flight when it was told, not for a flood
FLOOD_CLOSE_AFTER = 20


class MessageRate:
    """One socket's token bucket; ``rate`` 0 switches the limit off."""

    __slots__ = ("rate", "burst", "_tokens", "_at", "refused_in_a_row")

    def __init__(self, rate: float, burst: int) -> None:
        self.rate, self.burst = rate, max(1, burst)
        self._tokens = float(self.burst)
        self._at = time.monotonic()
        #: frames refused since the last one allowed
        self.refused_in_a_row = 0

    def take(self) -> float | None:
        """Count one frame: None if it may be handled, else the seconds until a frame
        may be (it is refused)."""
        if self.rate <= 0:
            return None
        now = time.monotonic()
        self._tokens = min(self.burst, self._tokens + (now - self._at) * self.rate)
        self._at = now
        if self._tokens >= 1.0:
            self._tokens -= 1.0
            self.refused_in_a_row = 0
            return None
        self.refused_in_a_row += 1
        return (1.0 - self._tokens) / self.rate

    @property
    def flooding(self) -> bool:
        """The socket went on sending after it was told to wait."""
        return self.refused_in_a_row > FLOOD_CLOSE_AFTER


class PenaltyBox:
    """Addresses of this process's sockets closed for flooding, each until its penalty
    ends; at most ``MAX_ADDRESSES`` (the oldest go first), so a flood of addresses cannot
    grow it. Thread-safe; read on the event loop."""

    MAX_ADDRESSES = 10_000

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._until: OrderedDict[str, float] = OrderedDict()

    def hold(self, address: str, seconds: float) -> None:
        if seconds <= 0:
            return
        with self._lock:
            self._until.pop(address, None)
            self._until[address] = time.monotonic() + seconds
            while len(self._until) > self.MAX_ADDRESSES:
                self._until.popitem(last=False)

    def holds(self, address: str) -> float | None:
        """The seconds left of ``address``'s penalty; None when it has none."""
        until = self._until.get(address)
        if until is None:
            return None
        left = until - time.monotonic()
        if left > 0:
            return left
        with self._lock:
            self._until.pop(address, None)
        return None


#: this process's penalty box
penalty_box = PenaltyBox()
