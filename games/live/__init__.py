"""What goes out after a commit (docs/architecture.md "What goes out after a commit").

A match's writers record one ``games.matches.changes.MatchChanged`` per commit; this package
is its one after-commit receiver for readers (``fanout.send_change``): it builds what each
reader may see once per seat and once for spectators (``frames``), hands it to this
process's play sockets and publishes it to the other processes, with the GraphQL
subscribers' and the feeds' channel-layer messages, in one round trip. The transports (the
play socket's hub, GraphQL subscriptions, the NDJSON feed) only deliver what it sends.
"""
