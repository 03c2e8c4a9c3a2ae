"""Exceptions in a fuzzed server's log: a request may be answered politely and still have
raised inside (a resolver's error masked, a socket message's crash). The server logs JSON,
one record per line, the traceback inside the record."""

from __future__ import annotations

from tests.fuzz import known_issues

MARKERS = ("Traceback (most recent call last)", "Internal Server Error",
           "play socket message failed", "GraphQL resolver failed", "engine crashed")


def exceptions_in(log: str, allowed: int = 0) -> list[str]:
    """The log records that say something raised, less those of a known class (their
    record names it: known_issues.KNOWN_LOG_MARKERS) when the run let some pass
    (``allowed``; one such request may log several records: the error, the resolver's)."""
    raised = []
    for line in log.splitlines():
        if not any(marker in line for marker in MARKERS):
            continue
        if allowed and any(known in line for known in known_issues.KNOWN_LOG_MARKERS):
            continue
        raised.append(line[:2000])
    return raised
