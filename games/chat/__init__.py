"""Talk at the table (issue 43, docs/chat.md): each match's players' room and spectators'
room, who may read and write each, the messages, their rate limit and their push to the
room's readers after the commit."""
