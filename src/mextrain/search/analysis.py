"""Move analysis: every legal action of a position with its estimated outcome.

Used by ``mextrain analyze`` and the hint buttons of the terminal and web interfaces.
The estimates come from one ISMCTS search from the seat's view: each root action's
iterations give the share of rounds the seat won after it and the pips it was left with.
UCB spends most iterations on the best actions, so weak actions get wide error bars;
every legal action is tried at least once when the budget allows.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any

from mextrain.intervals import wilson_interval
from mextrain.rules import Action, SeatView

from .ismcts import SearchConfig, search
from .policy import FastPlannerPlayout, PlayoutPolicy, make_policy

__all__ = ["ActionAnalysis", "analyze"]

DEFAULT_ANALYSIS_ITERATIONS = 1000


@dataclass(frozen=True, slots=True)
class ActionAnalysis:
    """One legal action's estimates. ``stderr`` is the win probability's standard error
    (``inf`` with fewer than two samples); ``score_stderr`` the expected score's. An action
    the search never tried (``visits == 0``) has no estimates: its ``win_probability`` and
    ``expected_score`` are None, not 0 (no sure loss, no score of nothing)."""

    action: Action
    win_probability: float | None
    expected_score: float | None
    visits: int
    stderr: float
    score_stderr: float
    mean_reward: float

    @property
    def win_interval(self) -> tuple[float, float]:
        """A 95% Wilson interval for the win probability over the action's visits (a
        shared win counts as its share); (0, 1) for an action the search never tried.
        Unlike a normal interval it does not shrink to a point when every visit ended
        alike (two losses are not a certain loss)."""
        if self.visits == 0 or self.win_probability is None:
            return (0.0, 1.0)
        wins = min(max(self.win_probability * self.visits, 0.0), float(self.visits))
        return wilson_interval(wins, self.visits)

    def to_dict(self, seat: int | None = None) -> dict[str, Any]:
        """JSON-ready; an action the search never tried has no estimates (``null``)."""

        def finite(x: float) -> float | None:
            return None if math.isinf(x) or math.isnan(x) else round(x, 6)

        def estimate(x: float | None) -> float | None:
            return None if x is None or self.visits == 0 else round(x, 6)

        low, high = self.win_interval
        return {
            "action": str(self.action) if seat is None else self.action.notation(seat),
            "win_probability": estimate(self.win_probability),
            "win_interval": [round(low, 6), round(high, 6)],
            "expected_score": estimate(self.expected_score),
            "visits": self.visits,
            "stderr": finite(self.stderr),
            "score_stderr": finite(self.score_stderr),
        }


def analyze(
    view: SeatView,
    rng: random.Random,
    *,
    iterations: int | None = None,
    time_ms: float | None = None,
    policy: str = "planner",
    own: str = "racer",
) -> list[ActionAnalysis]:
    """Every legal action of ``view`` (the seat to move) with estimates, best first (an
    action the search never tried, last, with ``win_probability`` and ``expected_score``
    None).

    With neither budget, `DEFAULT_ANALYSIS_ITERATIONS` iterations are run. In ``planner``
    playouts the seat plays as the ``own`` bot (``racer`` or ``planner``), as the
    ``ismcts`` bot does, and the other seats as planners.
    """
    if iterations is None and time_ms is None:
        iterations = DEFAULT_ANALYSIS_ITERATIONS
    config = SearchConfig(iterations=iterations, time_ms=time_ms, policy=policy)
    playout: PlayoutPolicy = make_policy(policy)
    if isinstance(playout, FastPlannerPlayout):
        playout = FastPlannerPlayout.for_seat(view.seat, own)
    result = search(view, rng, config, policy=playout)
    return [
        ActionAnalysis(
            action=s.action,
            win_probability=s.win_probability if s.visits else None,
            expected_score=s.expected_score if s.visits else None,
            visits=s.visits,
            stderr=s.win_stderr,
            score_stderr=s.score_stderr,
            mean_reward=s.mean_reward,
        )
        for s in result.stats
    ]
