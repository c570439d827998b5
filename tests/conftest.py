"""Shared test configuration."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

# Machines here are shared and noisy: no per-example deadlines. CI runs derandomized so a
# red build always reproduces; locally HYPOTHESIS_PROFILE=dev explores new examples.
settings.register_profile(
    "ci",
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
