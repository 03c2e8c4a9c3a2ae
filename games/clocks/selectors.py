"""Re-export of ``games.matches.clock_selectors``, where the reads of a match's clocks and
incidents now live (the match's own record: docs/architecture.md). Kept only for the
modules still importing this path and being rewritten (issue 37 post-commit events:
games/matches/pushes.py, games/feed/services.py, games/graphql/subscriptions.py) and
games/graphql/types.py; new code imports ``games.matches.clock_selectors``."""

from games.matches.clock_selectors import (  # noqa: F401
    clocks_of,
    incident_rows,
    incidents_of,
    reclaimable_seat,
    result_incidents,
    time_control_of,
)
