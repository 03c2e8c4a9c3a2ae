"""Settings of the play socket (games/play/, docs/play.md), imported at the end of
config/settings.py."""

from config.env import env_int, env_str

# -- the play socket (games/play/, docs/play.md) ------------------------------------------------
# Threads per web process for the sockets' database work (each holds a pooled connection
# while it works: keep WEB_THREADS + PLAY_THREADS <= DB_POOL_MAX_SIZE).
PLAY_THREADS = env_int("PLAY_THREADS", 4)
# Frames a socket may have waiting to be sent before it is closed with 4408 (a slow reader
# resyncs instead of holding memory or anyone else up).
PLAY_SEND_QUEUE = env_int("PLAY_SEND_QUEUE", 256)
PLAY_HEARTBEAT_SECONDS = env_int("PLAY_HEARTBEAT_SECONDS", 25)
PLAY_MAX_SUBSCRIPTIONS = env_int("PLAY_MAX_SUBSCRIPTIONS", 50)
# Every frame a socket receives (pings, malformed ones and the hello included) takes a token
# from the socket's own bucket, refilled at PLAY_MESSAGES_PER_SECOND up to PLAY_MESSAGE_BURST
# (games/play/message_rate.py): in process, no Redis round trip per frame. With the cap on a
# user's and an address's sockets below, it bounds what one user or address may send too.
PLAY_MESSAGES_PER_SECOND = env_int("PLAY_MESSAGES_PER_SECOND", 20)
PLAY_MESSAGE_BURST = env_int("PLAY_MESSAGE_BURST", 100)
# A socket closed for flooding (4429) puts its address in its web process's penalty box for
# this long: that process answers the address's new sockets with throttled and 4429 at once.
PLAY_FLOOD_PENALTY_SECONDS = env_int("PLAY_FLOOD_PENALTY_SECONDS", 10)
# Open play sockets per user (checked at hello) and per address (checked at the handshake),
# counted across the web processes in Redis (games/play/open_sockets.py); 0: no cap. The
# address cap is generous: many users may share an address (an office, a school, a NAT).
PLAY_MAX_SOCKETS_PER_USER = env_int("PLAY_MAX_SOCKETS_PER_USER", 10)
PLAY_MAX_SOCKETS_PER_ADDRESS = env_int("PLAY_MAX_SOCKETS_PER_ADDRESS", 200)
# How often a web process checks, in one query, that its sockets' tokens still stand (the
# backstop behind the immediate revocation broadcast).
PLAY_ACCESS_CHECK_SECONDS = env_int("PLAY_ACCESS_CHECK_SECONDS", 2)
# How often a web process checks, in one query, that its followers hold every followed
# match's latest ply (the backstop behind the pushes, for a message lost with Redis).
PLAY_RESYNC_SECONDS = env_int("PLAY_RESYNC_SECONDS", 3)
# The play hubs hear of changes over Redis Pub/Sub on the channel layer's Redis, on channels
# named by this prefix and the match id (games/live/channels.py).
PLAY_CHANNEL_PREFIX = env_str("PLAY_CHANNEL_PREFIX", "play:")
# How long a thread of a web process may hold the GIL before another gets it (Python's
# default is 5 ms): a socket's event loop and its threads wait for it after every database
# and Redis round trip, so under load each wait could cost up to that; infra/gil_switch.py.
WEB_GIL_SWITCH_MS = env_int("WEB_GIL_SWITCH_MS", 1)
