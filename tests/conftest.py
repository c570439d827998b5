"""Shared test configuration."""

from __future__ import annotations

import os

import pytest
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

#: "skip" or "only": the browser tests run in a pytest process of their own (they drive
#: their own event loop), so `scripts/test` runs the suite twice, once each way; a
#: variable, not `-m`, so that a `-m` of the user's own still applies to both
BROWSER_TESTS = "MEXTRAIN_BROWSER_TESTS"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    which = os.environ.get(BROWSER_TESTS)
    if which not in ("skip", "only"):
        return
    keep, drop = [], []
    for item in items:
        browser = item.get_closest_marker("browser") is not None
        (keep if browser == (which == "only") else drop).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


@pytest.fixture(autouse=True)
def english_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    """Commands that speak the locale's language (``play``, ``stats``, ``solve``) speak
    English in the tests, whatever the machine's locale; a test that wants another sets
    it (or passes ``--lang``)."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANGUAGE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
