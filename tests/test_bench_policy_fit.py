"""`benchmarks/policy_fit.py`: each step of policy iteration improves the policy the step
before it fitted, not the racer again."""

from __future__ import annotations

import argparse
import random
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
    a = argparse.Namespace(
        preset="classic", players=4, positions=24, samples=2, seed=5, jobs=1, model="linear"
    )
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


def test_the_nonlinear_move_score_learns_what_no_linear_one_can(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Two plays a position, the better the one whose two features have the same sign
    (an exclusive or): no linear score picks it more than half the time; the fitted
    network does, and its playout plays the play its score puts first."""
    import numpy as np

    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))
    sys.modules.pop("policy_fit", None)
    import policy_fit

    rng = np.random.default_rng(3)
    n, d = 600, len(policy_fit.NAMES)
    feats = np.zeros((n, 2, d))
    feats[:, :, :2] = rng.choice([-1.0, 1.0], (n, 2, 2))
    feats[:, :, 2:] = rng.normal(0, 1, (n, 2, d - 2)) * 0.01
    value = (feats[:, :, 0] * feats[:, :, 1] > 0).astype(float)
    valid = np.ones((n, 2), bool)
    linear = policy_fit.fit(feats, value, valid, np.zeros(d))
    net = policy_fit.fit_mlp(feats, value, valid, linear)
    by_line = policy_fit._value(value, policy_fit._choose(feats, valid, linear))
    by_net = policy_fit._value(value, policy_fit.net_scores(net, feats).argmax(1))
    best = value.max(1).mean()
    assert by_line < best - 0.15
    assert by_net > best - 0.02

    playout = policy_fit._base(net, 0)
    assert isinstance(playout, policy_fit.NetPlayout)
    from mextrain.rules import RoundState, Rules, iter_bits

    state = RoundState.new(Rules.preset("classic"), 4, 0, random.Random(5))
    while (
        state.seat != 0
        or len(plays := state.legal_plays()) == 0
        or sum(m.bit_count() for _, m in plays) < 2
    ):
        policy_fit.FastPlannerPlayout().move(state, policy_fit._play_table(12, 4))
    cands = [(tid, train) for train, mask in plays for tid in iter_bits(mask)]
    search = policy_fit.TrainSearch(state.ts)
    unseen = policy_fit.unseen_tiles(state, 0)
    rows = np.array([policy_fit.features(state, t, tr, search, unseen) for t, tr in cands])
    assert playout.choose(state, plays) == cands[int(policy_fit.net_scores(net, rows).argmax())]
