"""The one percentile the benches print: nearest rank (the smallest sample with at least
``fraction`` of the samples at or below it), so a p99 of 100 samples is the 99th, never an
interpolation between two, and every bench's p99 means the same thing."""

from __future__ import annotations

import math


def percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(fraction * len(ordered)) - 1))]
