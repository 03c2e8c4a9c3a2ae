"""What the runtime database role may do to the analyses' tables beyond SELECT, INSERT and
UPDATE (infra/database_roles.py finds this module beside games/analysis/models.py and
grants it after every ``migrate``).

- DELETE of an analysis's decisions: an analysis another judge made is judged again in
  place, its old decisions deleted first (games.analysis.services._judge_again); without
  it, every analysis made before a judge change answered 500 for ever (issue 40).
"""

from __future__ import annotations

from infra.database_roles import RuntimePrivileges


def runtime_privileges() -> RuntimePrivileges:
    from games.analysis.models import AnalysedDecision

    return RuntimePrivileges(deletable=frozenset({AnalysedDecision._meta.db_table}))
