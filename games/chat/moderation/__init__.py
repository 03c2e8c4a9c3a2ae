"""Chat moderation (docs/chat.md "Moderation"): players report messages, moderators work
the reports in the admin (hide, time out, ban, dismiss, clear on appeal), every action is
logged, and a user in time-out or banned is refused on every way of sending."""
