"""Metrics (Prometheus, multiprocess) and correlated JSON logs: docs/operations.md
"Metrics" and "Logs"."""
