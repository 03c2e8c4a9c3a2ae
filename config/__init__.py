from config.process_dirs import create_process_dirs

create_process_dirs()  # before config.celery defines its first metric

from config.celery import app as celery_app  # noqa: E402

__all__ = ["celery_app"]
