"""What a web processes' forkserver loads before it forks them (infra/preforked_uvicorn.py):
the whole ASGI application and uvicorn's modules, then the heap frozen
(infra/startup_heap.py), so that all of it is shared copy-on-write. (Not
infra.preforked_uvicorn itself: each process runs it as its main module.)

Nothing here may leave a thread running: a fork copies only the forking thread, and a lock
another thread held at that moment would stay locked in the child for good. So the pools'
sampler (the one thread loading the app starts) waits, and starts in each forked process.
"""

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from infra.observability import pool_metrics  # noqa: E402

pool_metrics.start_in_forked_processes()

import uvicorn.main  # noqa: E402, F401 - what each process runs: shared too

# imported after uvicorn's modules: config/asgi.py ends by freezing the heap, theirs too
import config.asgi  # noqa: E402, F401
