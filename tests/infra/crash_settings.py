"""The suite's settings with URLs that fail on purpose (tests/infra/crash_urls.py), for a
web tier started in its own process (ROOT_URLCONF is not read from the environment)."""

from tests.settings import *  # noqa: F403

ROOT_URLCONF = "tests.infra.crash_urls"
