"""Playout policies: how a determinized round is played out to its end, fast.

A playout works on a full `RoundState` (a determinization) and never builds seat views:
the greedy policy reads the engine's legal plays as ``(train, tile mask)`` pairs and picks
with bit tricks. The planner policy asks the `planner` bot through views: stronger, slower.
"""

from __future__ import annotations

import functools
import random
from typing import Protocol

from mextrain.bots import Bot, make_bot
from mextrain.rules import DRAW, MEXICAN, PASS, Action, RoundState, tile_set

__all__ = ["GreedyPlayout", "PlannerPlayout", "PlayoutPolicy", "RandomPlayout", "make_policy"]


class PlayoutPolicy(Protocol):
    name: str

    def playout(self, state: RoundState, rng: random.Random) -> None:
        """Play ``state`` to the end of the round, in place."""
        ...


@functools.cache
def _play_table(max_pip: int, players: int) -> tuple[tuple[Action, ...], ...]:
    """``table[tile_id][train + 1]``: the play action (column 0 is the Mexican train)."""
    ts = tile_set(max_pip)
    return tuple(
        tuple(Action.interned(tile, train, tid, max_pip) for train in range(-1, players))
        for tid, tile in enumerate(ts.tiles)
    )


@functools.cache
def _by_weight(max_pip: int) -> tuple[int, ...]:
    """Masks of the tiles of each pip total, heaviest first."""
    ts = tile_set(max_pip)
    return tuple(
        mask
        for total in range(2 * max_pip, -1, -1)
        if (mask := sum(1 << i for i, s in enumerate(ts.pip_sum) if s == total))
    )


class GreedyPlayout:
    """Every seat plays its heaviest playable tile (own train, then the Mexican train, then
    a marked train); with probability ``epsilon`` a uniformly random play instead."""

    name = "greedy"

    def __init__(self, epsilon: float = 0.0) -> None:
        self.epsilon = epsilon

    def playout(self, state: RoundState, rng: random.Random) -> None:
        ts = state.ts
        table = _play_table(ts.max_pip, state.n)
        weights = _by_weight(ts.max_pip)
        eps = self.epsilon
        rand = rng.random
        while state.ended is None:
            plays = state.legal_plays()
            if not plays:
                state.apply(DRAW if state.legal_actions()[0] is DRAW else PASS)
                continue
            if eps and rand() < eps:
                train, mask = plays[rng.randrange(len(plays))]
                tids = [i for i in range(mask.bit_length()) if mask >> i & 1]
                state.apply(table[tids[rng.randrange(len(tids))]][train + 1])
                continue
            combined = 0
            for _train, mask in plays:
                combined |= mask
            for weight_mask in weights:
                hit = combined & weight_mask
                if hit:
                    break
            low = hit & -hit
            tid = low.bit_length() - 1
            seat = state.seat
            chosen = None
            for train, mask in plays:
                if mask & low:
                    if train == seat:
                        chosen = train
                        break
                    if chosen is None or train == MEXICAN:
                        chosen = train
            assert chosen is not None
            state.apply(table[tid][chosen + 1])


class RandomPlayout:
    """Uniformly random legal actions (a baseline)."""

    name = "random"

    def playout(self, state: RoundState, rng: random.Random) -> None:
        while state.ended is None:
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])


class PlannerPlayout:
    """Every seat plays as a bot (``planner`` by default) from its own seat's view."""

    def __init__(self, spec: str = "planner") -> None:
        self.name = spec
        self.bot: Bot = make_bot(spec)

    def playout(self, state: RoundState, rng: random.Random) -> None:
        bot = self.bot
        while state.ended is None:
            legal = state.legal_actions()
            if len(legal) == 1:
                state.apply(legal[0])
            else:
                state.apply(bot.act(state.view(state.seat), rng))


def make_policy(name: str, epsilon: float = 0.0) -> PlayoutPolicy:
    """``greedy``, ``random`` or ``planner`` (or any registered bot, played via views)."""
    if name == "greedy":
        return GreedyPlayout(epsilon)
    if name == "random":
        return RandomPlayout()
    return PlannerPlayout(name)
