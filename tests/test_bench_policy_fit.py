"""`benchmarks/policy_fit.py`: each step of policy iteration improves the policy the step
before it fitted, not the racer again."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]


class InlinePool:
    """`multiprocessing.Pool`'s ``map``, in this process."""

    @staticmethod
    def map(job: Callable[[Any], Any], jobs: Iterable[Any]) -> list[Any]:
        return [job(x) for x in jobs]


def test_a_later_step_scores_and_plays_the_last_step_fit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))
    sys.modules.pop("policy_fit", None)
    import policy_fit

    bases: list[list[float] | None] = []
    real = policy_fit._positions

    def positions(job: Any) -> Any:
        bases.append(job[-1])
        return real(job)

    monkeypatch.setattr(policy_fit, "_positions", positions)
    a = argparse.Namespace(preset="classic", players=4, positions=24, samples=2, seed=5, jobs=1)
    first = policy_fit._step(InlinePool, a, 1, None)
    second = policy_fit._step(InlinePool, a, 2, first)
    assert bases == [None, first]
    assert len(second) == len(policy_fit.NAMES)
    # the policy a step plays and scores its positions with is the last fit's
    base = policy_fit._base(first, 2)
    assert isinstance(base, policy_fit.ScoredPlayout)
    assert base.weights == first
    assert base.own_seat == 2
    racer = policy_fit._base(None, 1)
    assert not isinstance(racer, policy_fit.ScoredPlayout)
    assert racer.own_seat == 1
