"""E-mail notifications for players (issue 42; docs/webhooks.md, "E-mail for players"): a
verified address, the mails of the notification fan-out (``tasks.mail_event``), "your turn"
only after the player has not looked, a daily digest and a signed unsubscribe link in
every mail."""
