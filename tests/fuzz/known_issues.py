"""Failures the fuzzers know about and let pass, each while another part of issue 39 fixes
it. Remove an allowance once its fix has merged (the integrator of issue 39 does): the
fuzzers then hold the fix.

- Huge numbers: a digit string past Python's 4,300-digit limit for ``int()`` in a
  numeric field (the socket's ``subscribe`` ``match``/``since``, ``move`` ``match``/
  ``expected_ply``, ``feed`` ``after``; GraphQL ``match(id:)`` and other ID arguments) is
  an ``internal_error`` frame or a GraphQL ``server_error`` with a ValueError in the log
  ("Exceeds the limit (4300 digits)"). Fixed by the one number parser of issue 39.
"""

from __future__ import annotations

import re

#: issue 39 (huge numbers): a run of digits long enough for int() to refuse it
HUGE_DIGITS = re.compile(r"\d{4300,}")
#: the log line of that refusal (CPython's int() max_str_digits limit)
HUGE_DIGITS_LOG = "Exceeds the limit (4300 digits)"


def allowed(request_text: str) -> str | None:
    """Which known issue-39 class this request belongs to (None: no allowance)."""
    if HUGE_DIGITS.search(request_text):
        return "issue 39: huge digit string (number parser)"
    return None
