"""The play socket (docs/play.md): one websocket per client at ``/play/`` that carries
moves in, acknowledgements after the commit, and pushes of each reader's view, new moves
and legal moves out. An API, like games/api/ (REST) and games/graphql/: it calls the
match services and selectors and adds no game logic of its own."""
