"""Settings for the test suite: the project's own settings (DEBUG off, as in production)
with a test-only secret key, since config/settings.py refuses the development key when
DEBUG is off. Subprocesses the tests start (daphne, Celery) inherit the variable."""

import os

os.environ.setdefault("SECRET_KEY", "tests-only-secret-key-never-used-by-a-server")

from config.settings import *  # noqa: E402,F403
