"""The chat moderation's metric families (Prometheus; multiprocess as
infra/observability/metrics.py explains). Labels are bounded: report reasons, action
kinds, never a user or a match. Every labelled series is created at
zero on import (a series that first appears at its final value is invisible to ``rate``)."""

from __future__ import annotations

from prometheus_client import Counter

from games.chat.moderation.models import ActionKind, ReportReason

REPORTS = Counter("chat_reports_total", "Chat messages reported (new reports), by reason.",
                  ["reason"])
ACTIONS = Counter("chat_moderator_actions_total", "Moderators' chat actions, by kind.",
                  ["kind"])

for _reason in ReportReason.values:
    REPORTS.labels(_reason)
for _kind in ActionKind.values:
    ACTIONS.labels(_kind)
