"""What the runtime database role may do to the games' tables beyond SELECT, INSERT and
UPDATE (infra/database_roles.py grants it after every ``migrate``; declared in
``GamesConfig.ready``). Tables are named by their models' ``Meta`` (through the app registry),
so a renamed table or a model moved between capabilities keeps its rules.

- a match: no UPDATE of the columns fixed at creation (the seed and its commitment, the
  game, players, options, rules version); every other column, a future one too, is
  updatable: play changes them;
- no UPDATE at all on the append-only logs (moves, incidents: their triggers refuse it
  too) and on results (rewritten whole);
- DELETE only where the code deletes: seats (leave), results (re-scoring), a leaver's
  feed events (erasure).
"""

from __future__ import annotations

from django.apps import apps

from infra.database_roles import RuntimePrivileges

#: columns of a match fixed at creation: the seed, its commitment and what was agreed to
#: play
MATCH_FIXED = ("id", "game", "players", "options", "seed", "seed_commitment",
               "rules_version", "created_at")


def runtime_privileges() -> RuntimePrivileges:
    """The tables' rules (their models loaded: call from ``ready``)."""
    def table(model: str) -> str:
        return apps.get_model("games", model)._meta.db_table

    return RuntimePrivileges(
        fixed_columns={table("Match"): MATCH_FIXED},
        no_update=frozenset({table("Move"), table("Incident"), table("Result")}),
        deletable=frozenset({
            table("Seat"),  # games.matches.services.leave_match
            table("Result"),  # games.matches.scoring.score_match(rescore=True) rewrites them
            table("FeedEvent"),  # games.leaving.services: an erased account's feed goes too
        }),
    )
