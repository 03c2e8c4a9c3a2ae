"""REST for the game catalogue and for matches (the other capabilities keep theirs in
their own ``views.py``): views, request and response shapes, the OpenAPI parts and the
routes, all under ``/api/v1/``."""
