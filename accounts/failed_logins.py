"""Failed logins, limited per account as well as per address (issue 21, item 8).

The rate limit of the ``auth`` scope (THROTTLE_AUTH, infra/throttles.py) bounds what one
address may try; alone, it let many addresses guess one account's password together. The
rule added here (docs/security.md "Failed logins"):

- **Per account and address: exponential back-off.** The first ``FREE_FAILURES`` (3)
  failed logins of an address at an account cost nothing (typos). After the 4th that
  address waits 1 s before it may try that account again, after the 5th 2 s, then 4, 8 ...
  at most ``MAX_WAIT_SECONDS`` (15 minutes), whatever password it sends. The failures are
  remembered for ``FAILURE_MEMORY_SECONDS`` (a day) after the last one; a successful login
  from the address forgets them.
- **Per account: a bound that locks nobody out.** Once an account has had
  ``ACCOUNT_FAILURES_PER_HOUR`` (20) failures in the current clock hour, from all
  addresses together, an address that has a failure on record for it may not try again
  until the hour ends. An address with no failure is never refused by this rule: the owner
  signs in from their own address while an attack runs, and each attacking address gets
  one guess before the bound stops it.

An account is its username as login finds it (NFKC, any case: accounts/usernames.py),
whether or not it exists, so the answers do not tell which names are taken. Counts go
through the rate limits' store (infra/counters.py): shared in Redis, per process while
Redis is down. REST and GraphQL share them. A refusal is 429 ``throttled`` with
``details: {retry_after_seconds, reason: "failed_logins"}``.
"""

from __future__ import annotations

import hashlib
import math
import time

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from accounts import usernames
from infra import counters
from infra.api_errors import ApiError

FREE_FAILURES = 3
MAX_WAIT_SECONDS = 15 * 60
FAILURE_MEMORY_SECONDS = 24 * 3600
ACCOUNT_FAILURES_PER_HOUR = 20
_HOUR = 3600


class FailedLoginsBackoff(ApiError):
    status_code = 429
    default_code = "throttled"
    default_detail = _("Too many failed logins to this account from your address.")

    def __init__(self, seconds: float) -> None:
        wait = max(1, math.ceil(seconds))
        super().__init__(
            gettext("Too many failed logins to this account from your address: try again in "
                    "%(seconds)s s.") % {"seconds": wait},
            details={"retry_after_seconds": wait, "reason": "failed_logins"})
        self.wait = wait  # DRF's exception handler turns it into Retry-After


def check(username: str, address: str) -> None:
    """Before the password is checked: raise ``FailedLoginsBackoff`` if ``address`` must
    wait before trying ``username`` again."""
    pair, now = _pair(username, address), time.time()
    waiting_until = counters.get(f"{pair}:until") / 1000
    if waiting_until > now:
        raise FailedLoginsBackoff(waiting_until - now)
    if counters.get(f"{pair}:failures") and (
            counters.get(_account_hour(username, now)) >= ACCOUNT_FAILURES_PER_HOUR):
        raise FailedLoginsBackoff(_HOUR - now % _HOUR)


def record_failure(username: str, address: str) -> None:
    pair, now = _pair(username, address), time.time()
    failures = counters.add(f"{pair}:failures", FAILURE_MEMORY_SECONDS, extend=True)
    counters.add(_account_hour(username, now), _HOUR + 1)
    if failures > FREE_FAILURES:
        wait = min(2 ** (failures - FREE_FAILURES - 1), MAX_WAIT_SECONDS)
        counters.put(f"{pair}:until", int((now + wait) * 1000), wait + 1)


def record_success(username: str, address: str) -> None:
    pair = _pair(username, address)
    counters.delete(f"{pair}:failures")
    counters.delete(f"{pair}:until")


def _account(username: str) -> str:
    # hashed: a key of bounded size whatever was typed
    name = usernames.normalize(username).lower()
    return hashlib.sha256(name.encode()).hexdigest()[:32]


def _pair(username: str, address: str) -> str:
    where = hashlib.sha256(address.encode()).hexdigest()[:16]
    return f"login:{_account(username)}:{where}"


def _account_hour(username: str, now: float) -> str:
    return f"login:{_account(username)}:hour:{int(now // _HOUR)}"
