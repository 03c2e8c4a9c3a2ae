"""REST endpoint of chat reports: a reader reports a message (docs/chat.md "Moderation")."""
