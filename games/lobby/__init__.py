"""The lobby beyond open seats: private (unlisted) matches joined by invite code or by
invitation, invitations accepted or declined, and rematches (``services``, ``selectors``).
See docs/lobby.md."""
