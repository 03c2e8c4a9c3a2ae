"""A process's cached answer to a question about the database that the hot path would
otherwise ask on every move or read ("has any endpoint subscribed?", "can anyone be
notified?", "has anyone a confirmed mail address?"): asked again at most once per period
(a setting, read at each call so a test can change it), so a service that nobody uses
pays no query for it. Its cost is staleness: a new subscriber is seen within one period.

``__call__`` asks in the caller's thread when the answer is older than the period;
``known`` never asks (an event loop, where a query is not allowed, reads it; something
off the loop calls ``refresh``); ``set`` records an answer learnt otherwise (the process
that made the change knows it at once).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Generic, TypeVar

from django.conf import settings

T = TypeVar("T")


class CheckedEvery(Generic[T]):
    def __init__(self, period_setting: str, ask: Callable[[], T], unknown: T) -> None:
        self._period_setting = period_setting
        self._ask = ask
        # one tuple, replaced whole: a reader in another thread sees an answer and the
        # time it was asked together, never one without the other
        self._seen: tuple[float, T] = (float("-inf"), unknown)
        self._unknown = unknown

    def __call__(self) -> T:
        """The answer, asked now if the last one is older than the period."""
        return self.refresh() if self.stale() else self._seen[1]

    def refresh(self) -> T:
        """Ask now (in the caller's thread), whatever the age of the last answer."""
        asked_at = time.monotonic()
        answer = self._ask()
        self._seen = (asked_at, answer)
        return answer

    def known(self) -> T:
        """The last answer without asking (``unknown`` before the first)."""
        return self._seen[1]

    def stale(self) -> bool:
        """Whether the last answer is older than the period (or there is none)."""
        return time.monotonic() - self._seen[0] >= getattr(settings, self._period_setting)

    def set(self, answer: T) -> None:
        """An answer learnt without asking, as fresh as one just asked."""
        self._seen = (time.monotonic(), answer)

    def forget(self) -> None:
        """Tests: the next call asks."""
        self._seen = (float("-inf"), self._unknown)
