"""What the runtime database role may do to the match's tables beyond SELECT, INSERT and
UPDATE (infra/database_roles.py finds this module beside games/matches/models.py and
grants it after every ``migrate``). Tables are named by their models' ``Meta``, so a
renamed table keeps its rules.

- a match: no UPDATE of the columns fixed at creation (the seed and its commitment, the
  game, players, options, rules version, the chat option); every other column, a future
  one too, is updatable: play changes them;
- no UPDATE at all on the append-only logs (moves, incidents: their triggers refuse it
  too) and on results (rewritten whole);
- DELETE only where the code deletes: seats (leave), results (re-scoring).
"""

from __future__ import annotations

from infra.database_roles import RuntimePrivileges

#: columns of a match fixed at creation: the seed, its commitment and what was agreed to
#: play
MATCH_FIXED = ("id", "game", "players", "options", "seed", "seed_commitment",
               "rules_version", "created_at", "players_read_spectator_chat")


def runtime_privileges() -> RuntimePrivileges:
    """The tables' rules (their models loaded: called after the app registry is ready)."""
    from games.matches.incidents import Incident
    from games.matches.models import Match, Move, Result, Seat

    return RuntimePrivileges(
        fixed_columns={Match._meta.db_table: MATCH_FIXED},
        no_update=frozenset({Move._meta.db_table, Incident._meta.db_table,
                             Result._meta.db_table}),
        deletable=frozenset({
            Seat._meta.db_table,  # games.matches.services.leave_match
            Result._meta.db_table,  # games.matches.scoring.score_match(rescore=True)
        }),
    )
