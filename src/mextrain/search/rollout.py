"""Determinized rollouts with racing: one-step policy improvement over a strong policy.

For each decision the search compares the seat's legal actions on the *same* samples of
the unseen tiles (common random numbers). A *batch* is one determinization
(`InfoState.sample`): each action still in the race is applied to a copy of it and the
round is played out by the playout policy (by default every seat plays the ``planner``
bot's move: `policy.FastPlannerPlayout`) -- or, with ``config.depth``, played on for that
many plies and scored by the static evaluation (`evaluate.py`; the ``ismcts`` bot's
default). Every playout counts as one iteration.

Because every action in the race sees the same deals, the search compares actions by
their *paired* differences, whose spread is far smaller than that of the outcomes
themselves (most deals end the same way whatever the move). After ``race_min`` batches an
action is dropped from the race once its mean difference to the leader is below zero by
more than ``race_z`` standard errors of the difference, or when it has given exactly the
leader's outcome on every batch (a move equivalent to the leader's on these deals). The
budget is thus spent telling the plausible moves apart.

This is rollout-based policy improvement (Tesauro & Galperin, 1996; Bertsekas's rollout
algorithms) on determinizations, i.e. perfect-information Monte Carlo with a policy
playout (Ginsberg's GIB, Long et al. 2010): with exact estimates the chosen move is never
worse than the playout policy's own move, in that policy's eyes. The reward is the same
as the tree search's (`ismcts.rewards`).

Deterministic for a view, an RNG state and an iteration budget; with ``time_ms`` it stops
on the clock between batches.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence

from mextrain.rules import Action, SeatView

from .evaluate import Evaluator
from .ismcts import ActionStats, SearchConfig, SearchResult, finish, leaf_evaluator, prepare
from .policy import PlayoutPolicy, _play_table
from .resample import InfoState

__all__ = ["paired_difference", "rollout_search"]


def paired_difference(a: Sequence[float], b: Sequence[float]) -> tuple[float, float]:
    """Mean and standard error of ``a[i] - b[i]`` over the first ``len(a)`` samples."""
    n = len(a)
    total = total_sq = 0.0
    for x, y in zip(a, b, strict=False):
        d = x - y
        total += d
        total_sq += d * d
    mean = total / n
    if n < 2:
        return mean, math.inf
    var = max(0.0, (total_sq - n * mean * mean) / (n - 1))
    return mean, math.sqrt(var / n)


def rollout_search(
    view: SeatView,
    rng: random.Random,
    config: SearchConfig,
    info: InfoState | None = None,
    policy: PlayoutPolicy | None = None,
    prefer: Action | None = None,
    started: float | None = None,
    evaluator: Evaluator | None = None,
) -> SearchResult:
    """Race the legal actions of ``view`` (the seat to move) on shared determinizations.

    ``prefer`` (e.g. the planner's move) wins ties for the lead. The result's ``stats``
    lists every legal action, those still in the race first (best mean reward first).
    """
    start, iterations, deadline, info, policy = prepare(view, rng, config, info, policy, started)
    me = view.seat
    legal = list(view.legal_actions)
    stats = {a: ActionStats(a) for a in legal}
    samples: dict[Action, list[float]] = {a: [] for a in legal}
    alive = list(legal)
    mw, ms = config.margin_weight, config.margin_scale
    z = config.race_z
    depth = config.depth
    evaluator = leaf_evaluator(config, policy, evaluator)
    table = _play_table(view.rules.max_pip, view.players)
    done = 0
    batches = 0
    while len(alive) > 1 or done == 0:
        if iterations is not None and done and done + len(alive) > iterations:
            break
        if deadline is not None and done and time.perf_counter() >= deadline:
            break
        base = info.sample(rng)
        for action in alive:
            state = base.copy()
            state.apply(action)
            all_rewards, wins, scores = finish(
                state, policy, rng, depth, table, evaluator, mw, ms, config.quiet
            )
            reward = all_rewards[me]
            stats[action].add(reward, wins[me], scores[me])
            samples[action].append(reward)
            done += 1
        batches += 1
        if batches < config.race_min:
            continue
        leader = max(alive, key=lambda a: (stats[a].mean_reward, a == prefer))
        lead = samples[leader]
        keep = []
        for action in alive:
            if action == leader:
                keep.append(action)
                continue
            mean, se = paired_difference(samples[action], lead)
            if mean == 0.0 and se == 0.0 and action != prefer:
                continue  # the same outcome as the leader's on every deal so far
            if mean + z * se < 0.0:
                continue
            keep.append(action)
        alive = keep
    order = {a: i for i, a in enumerate(alive)}
    ranked = sorted(
        stats.values(),
        key=lambda s: (
            s.action in order,
            s.mean_reward if s.action in order else s.visits,
            s.action == prefer,
        ),
        reverse=True,
    )
    return SearchResult(
        action=ranked[0].action,
        stats=tuple(ranked),
        iterations=done,
        seconds=time.perf_counter() - start,
        samples={a: tuple(r) for a, r in samples.items()},
    )
