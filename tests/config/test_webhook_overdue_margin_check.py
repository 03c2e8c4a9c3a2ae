"""config.E006's second half: the overdue sweep's margin must exceed the broker's
visibility timeout, or the sweep would send again a delivery whose task a busy or dead
worker still holds (games/webhooks/overdue.py)."""

from __future__ import annotations

from infra.config_checks import webhook_batches_fit


def _margin_errors():
    return [error for error in webhook_batches_fit()
            if "WEBHOOK_OVERDUE_MARGIN_SECONDS" in error.msg]


def test_the_defaults_pass(settings):
    assert settings.WEBHOOK_OVERDUE_MARGIN_SECONDS > settings.CELERY_VISIBILITY_TIMEOUT
    assert _margin_errors() == []


def test_a_margin_not_above_the_visibility_timeout_is_refused(settings):
    settings.CELERY_VISIBILITY_TIMEOUT = 120
    settings.WEBHOOK_OVERDUE_MARGIN_SECONDS = 120
    (error,) = _margin_errors()
    assert error.id == "config.E006"
    settings.WEBHOOK_OVERDUE_MARGIN_SECONDS = 121
    assert _margin_errors() == []
