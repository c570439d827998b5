"""Interval estimates for tournament results, written out so they can be checked by hand.

- Win rates use the Wilson score interval. A shared win counts as a fraction of a win
  (two winners: half a win each), so ``successes`` may be fractional; the interval is the
  Wilson formula with that count, which treats each game as one Bernoulli-like trial of
  mean ``successes / n``.
- Means use Student's t interval. The t quantile comes from the regularized incomplete
  beta function (Lentz's continued fraction), inverted by bisection.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from mextrain.intervals import normal_quantile, wilson_interval

__all__ = [
    "mean_interval",
    "normal_quantile",
    "regularized_beta",
    "student_t_cdf",
    "student_t_quantile",
    "wilson_interval",
]


def _beta_continued_fraction(a: float, b: float, x: float) -> float:
    """Lentz's evaluation of the continued fraction of the incomplete beta function."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c = 1.0
    d = 1.0 - qab * x / qap
    d = tiny if abs(d) < tiny else d
    d = 1.0 / d
    h = d
    for m in range(1, 1000):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = tiny if abs(d) < tiny else d
        c = 1.0 + aa / c
        c = tiny if abs(c) < tiny else c
        d = 1.0 / d
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = tiny if abs(d) < tiny else d
        c = 1.0 + aa / c
        c = tiny if abs(c) < tiny else c
        d = 1.0 / d
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-15:
            break
    return h


def regularized_beta(x: float, a: float, b: float) -> float:
    """The regularized incomplete beta function ``I_x(a, b)``."""
    if not 0.0 <= x <= 1.0:
        raise ValueError(f"x must be in [0, 1], not {x}")
    if x in (0.0, 1.0):
        return x
    log_front = (
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    )
    front = math.exp(log_front)
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _beta_continued_fraction(a, b, x) / a
    return 1.0 - front * _beta_continued_fraction(b, a, 1.0 - x) / b


def student_t_cdf(t: float, df: float) -> float:
    """P(T <= t) for Student's t with ``df`` degrees of freedom."""
    if df <= 0:
        raise ValueError("degrees of freedom must be positive")
    tail = 0.5 * regularized_beta(df / (df + t * t), df / 2.0, 0.5)
    return 1.0 - tail if t > 0 else tail


def student_t_quantile(p: float, df: float) -> float:
    """The ``p`` quantile of Student's t: ``student_t_quantile(0.975, 10) ≈ 2.228139``."""
    if not 0.0 < p < 1.0:
        raise ValueError(f"p must be strictly between 0 and 1, not {p}")
    if p < 0.5:
        return -student_t_quantile(1.0 - p, df)
    if p == 0.5:
        return 0.0
    lo, hi = 0.0, 1.0
    while student_t_cdf(hi, df) < p:
        lo, hi = hi, hi * 2.0
    for _ in range(200):
        mid = (lo + hi) / 2.0
        if student_t_cdf(mid, df) < p:
            lo = mid
        else:
            hi = mid
        if hi - lo <= 1e-12 * max(1.0, hi):
            break
    return (lo + hi) / 2.0


def mean_interval(values: Sequence[float], confidence: float = 0.95) -> tuple[float, float, float]:
    """``(mean, lo, hi)``: the sample mean and its Student t interval.

    With fewer than two values there is no interval: ``lo`` and ``hi`` are NaN.
    """
    n = len(values)
    if n == 0:
        raise ValueError("a mean needs at least one value")
    mean = math.fsum(values) / n
    if n < 2:
        return mean, math.nan, math.nan
    var = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    half = student_t_quantile(0.5 + confidence / 2, n - 1) * math.sqrt(var / n)
    return mean, mean - half, mean + half
