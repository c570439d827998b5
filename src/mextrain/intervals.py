"""The interval of a proportion, for every layer that reports one: a tournament's win
rates (`mextrain.sim.stats`), a person's (`mextrain stats`), a move's chance in the
search's analysis. Standard library only, so the search may use it as the simulator does.
"""

from __future__ import annotations

import math
from statistics import NormalDist

__all__ = ["normal_quantile", "wilson_interval"]


def normal_quantile(p: float) -> float:
    """The standard normal quantile: ``normal_quantile(0.975) ≈ 1.959964``."""
    return NormalDist().inv_cdf(p)


def wilson_interval(successes: float, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """The Wilson score interval for a proportion ``successes / n``.

    ``successes`` may be fractional (split wins). Returns ``(lo, hi)`` within [0, 1].
    """
    if n <= 0:
        raise ValueError("a proportion needs at least one trial")
    if not 0 <= successes <= n:
        raise ValueError(f"successes must be between 0 and n={n}, not {successes}")
    z = normal_quantile(0.5 + confidence / 2)
    p = successes / n
    z2n = z * z / n
    centre = (p + z2n / 2) / (1 + z2n)
    half = z / (1 + z2n) * math.sqrt(p * (1 - p) / n + z2n / (4 * n))
    lo = 0.0 if successes == 0 else max(0.0, centre - half)
    hi = 1.0 if successes == n else min(1.0, centre + half)
    return lo, hi
