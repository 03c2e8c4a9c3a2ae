"""Settings of the match chat (games/chat/, docs/chat.md), imported at the end of
config/settings.py."""

from config.env import env_int

# The longest message, in characters (after trimming its ends).
CHAT_MAX_LENGTH = env_int("CHAT_MAX_LENGTH", 500)
# Per user and room: at most CHAT_BURST messages in any CHAT_BURST_SECONDS window, and
# CHAT_PER_MINUTE in any clock minute (games/chat/rate.py).
CHAT_BURST = env_int("CHAT_BURST", 5)
CHAT_BURST_SECONDS = env_int("CHAT_BURST_SECONDS", 10)
CHAT_PER_MINUTE = env_int("CHAT_PER_MINUTE", 20)
