"""REST for the lobby (games/lobby/): private matches, invitations, rematches."""
