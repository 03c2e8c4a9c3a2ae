"""Post-game analysis of a finished match (docs/analysis.md): every decision of every seat
judged from that seat's view at its ply (rules/analysis/), computed by a task on its own
queue, stored per rules version, served over REST, GraphQL, the records export and the
admin's replay page."""
