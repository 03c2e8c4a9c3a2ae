"""A throwaway app whose migrations show what the migration linter catches
(tests/migrations_check/test_backward_compatible.py). It is installed only inside that
test, so its tables never reach a database."""
