"""Log lines as JSON, one object per line: time, level, logger, message, the request id
(infra/observability/request_id.py) and, in a worker, the task; an exception's
traceback in ``exc``; a record's ``fields`` (``extra={"fields": {...}}``: the access line,
access_log.py) as keys of their own. settings.LOGGING uses it for every handler.

A last guard: whatever a line says, the value of an ``Authorization`` header, a token
key after ``Token ``, and ``password``/``token``/``secret`` values written as ``key=value``
or ``"key": "value"`` are masked. Nothing of ours logs them; this catches a library that
would (a request repr, a query's variables)."""

from __future__ import annotations

import json
import logging
import re
from datetime import UTC, datetime

from celery import current_task

from infra.observability import request_id

MASK = "[masked]"
#: a credential after its scheme: "Token 0123...", "Bearer abc..."
_SCHEME_VALUE = re.compile(r"(?i)\b((?:token|bearer)\s+)[A-Za-z0-9._\-]{8,}")
#: a value written under a secret's name: password=..., "token": "...", authToken: ...
_NAMED_VALUE = re.compile(
    r"(?i)([\"']?\b(?:password|passwd|new_password|old_password|token|auth_token|authtoken"
    r"|secret|secret_key|authorization)[\"']?\s*[=:]\s*)([\"']?)[^\s\"',}]+")


def mask_secrets(text: str) -> str:
    text = _SCHEME_VALUE.sub(lambda found: found.group(1) + MASK, text)
    return _NAMED_VALUE.sub(lambda found: found.group(1) + found.group(2) + MASK, text)


class JsonLinesFormatter(logging.Formatter):
    """One JSON object per record (module doc)."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # Python's warnings (a library's deprecation, celery's as root) are lines too
        logging.captureWarnings(True)

    def format(self, record: logging.LogRecord) -> str:
        line = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(
                timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": mask_secrets(record.getMessage()),
        }
        # Django logs a 4xx/5xx answer after the middleware (its id unset by then): the
        # request rides on the record
        rid = request_id.current() or getattr(getattr(record, "request", None),
                                              "request_id", None)
        if rid:
            line["request_id"] = rid
        # structured fields of a line (the access line's method, path, status ...): never
        # a secret by construction, masked all the same
        for name, value in (getattr(record, "fields", None) or {}).items():
            line.setdefault(name, mask_secrets(value) if isinstance(value, str) else value)
        task = current_task
        if task and task.request.id:
            line["task"] = task.name
        if record.exc_info:
            line["exc"] = mask_secrets(self.formatException(record.exc_info))
        elif record.stack_info:
            line["exc"] = mask_secrets(self.formatStack(record.stack_info))
        return json.dumps(line, ensure_ascii=False, default=str)
