"""A match's life apart from its moves (those are ``games.matches.services``, the move service):
creating, seating, starting, stopping and scoring matches, and the checks and locks every
writer of a match shares (``guards``, ``setup_checks``). docs/architecture.md, "Layers and
import contracts"."""
