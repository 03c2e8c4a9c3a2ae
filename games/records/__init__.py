"""Game records: a finished match as one self-contained JSON document (``selectors``),
and the check that a record's stated result follows from its seed and moves
(``services.verify_record``). The format is documented in docs/records.md."""
