"""REST endpoints of the match chat (docs/chat.md)."""
