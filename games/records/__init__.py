"""Game records: a finished match as one self-contained JSON document (``selectors``),
signed by the service (``signing``), and the check that a record's stated result follows
from its seed and moves and that its signature covers it (``services.verify_record``). The
format is documented in docs/records.md."""
