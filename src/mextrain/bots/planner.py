"""The ``planner`` bot: plays the way good players do, from its own seat's view only.

Every decision re-plans from scratch: for each legal play the bot asks how long a personal
train the hand left behind can still lay from its train's open end (most tiles, then most
pips). Tiles on that train are *planned*: they will go out one a turn on a train nobody
else may touch while the marker is down. The other tiles are *extras*: they need the
Mexican train, a marked train or an open double, which may never come. Each legal play is
scored by the hand it leaves:

- **risk** = pips of extras + ``plan_weight`` x pips of planned tiles + ``extra_cost`` per
  extra, so extras are spent on the Mexican and marked trains first and the planned train
  is kept (and re-planned whenever a play, a block, a draw or a marker changes it);
- **marker**: with its marker up, a play on its own train (which takes the marker down)
  earns ``marker_bonus``;
- **doubles**: a double it can cover itself earns ``double_bonus`` (two tiles out in one
  turn); a double it cannot cover, under ``open_doubles_block``, costs ``double_penalty``
  (the table waits on it, the bot included);
- **endgame**: once another seat holds ``endgame`` tiles or fewer, the round may end any
  moment, so the bot dumps its heaviest tile first (risk only breaks ties).

Draws and passes are taken only when no tile can be played.

The train values come from the planner's exact search, `mextrain.planner.train_value`
(``search=exact``, the default), or from the bots' own memoised search, `TrainSearch`
(``search=memo``): it shares its memo across the plays of one decision and bounds its work
on huge hands, so it runs about 1.6x faster, with the same values on all but huge hands.
The exact search is bounded too: a value not proven within `EXACT_STEPS` steps (a rare
big hand; the NP-hard search could take minutes) hands the rest of that decision to the
memoised search. A bound in steps, not seconds, so a simulation stays reproducible.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from mextrain.planner import PlanStepLimit, train_value
from mextrain.rules import DRAW, MEXICAN, PASS, Action, SeatView, tile_set

from .base import BotSpecError, register_bot
from .trains import TrainSearch

__all__ = ["PlannerBot", "RacerBot"]

SEARCHES = ("memo", "exact")

#: the steps the exact search may take for one train's value (`train_value`'s
#: ``max_steps``): dealt hands of the double-12 set take a few thousand at most, random
#: hands of the double-15 and double-18 sets rarely more than 25,000 (one of 1,500 took
#: 1.2 million); a step is a few microseconds
EXACT_STEPS = 250_000


class PlannerBot:
    """Keeps its planned train, spends extras first, dumps pips when a seat is nearly out."""

    name = "planner"

    def __init__(
        self,
        endgame: int = 2,
        plan_weight: float = 0.3,
        extra_cost: float = 6.0,
        marker_bonus: float = 6.0,
        double_bonus: float = 4.0,
        double_penalty: float = 6.0,
        search: str = "exact",
    ) -> None:
        if search not in SEARCHES:
            raise BotSpecError(f"planner search must be one of {', '.join(SEARCHES)}")
        self.endgame = endgame
        self.plan_weight = plan_weight
        self.extra_cost = extra_cost
        self.marker_bonus = marker_bonus
        self.double_bonus = double_bonus
        self.double_penalty = double_penalty
        self.search = search

    def act(self, view: SeatView, rng: random.Random) -> Action:
        legal = view.legal_actions
        plays = [a for a in legal if a.kind == "play"]
        if not plays:
            return DRAW if DRAW in legal else PASS
        return self.rank(view, plays)[0][1]

    def rank(self, view: SeatView, plays: list[Action]) -> list[tuple[float, Action]]:
        """The plays with their scores, best first (ties keep the engine's order)."""
        max_pip = view.rules.max_pip
        ts = tile_set(max_pip)
        memo = TrainSearch(ts) if self.search == "memo" else None
        seat = view.seat
        own = view.trains[seat]
        hand = view.hand_mask
        pip_sum = ts.pip_sum
        pip_mask = ts.pip_mask
        endgame = any(size <= self.endgame for s, size in enumerate(view.hand_sizes) if s != seat)
        block = view.rules.open_doubles_block
        out: list[tuple[float, int, Action]] = []
        for order, action in enumerate(plays):
            tile, train = action.tile, action.train
            assert tile is not None
            assert train is not None
            tid = ts.ids[tile]
            left = hand ^ (1 << tid)
            plan_end = pip_sum[tid] - own.open_end if train == seat else own.open_end
            if memo is None:
                try:
                    count, plan_pips = train_value(
                        ts.tiles_of(left), plan_end, max_pip, max_steps=EXACT_STEPS
                    )
                except PlanStepLimit:
                    memo = TrainSearch(ts)  # (and for the rest of this decision)
            if memo is not None:
                if train == seat:
                    count, plan_pips, _used = memo.best(left, plan_end)
                else:
                    count, plan_pips, _used = memo.best_without(hand, plan_end, 1 << tid)
            extras = left.bit_count() - count
            extra_pips = ts.pips_of(left) - plan_pips
            score = -(extra_pips + self.plan_weight * plan_pips + self.extra_cost * extras)
            if train == seat and own.marker_up:
                score += self.marker_bonus
            if tile.is_double:
                if left & pip_mask[tile.low]:
                    score += self.double_bonus
                elif block:
                    score -= self.double_penalty
            if train == MEXICAN:
                score += 0.01  # on equal terms, keep marked trains for their owners
            if endgame:
                score += 1000.0 * pip_sum[tid]
            out.append((score, order, action))
        out.sort(key=lambda item: (-item[0], item[1]))
        return [(score, action) for score, _order, action in out]


class RacerBot(PlannerBot):
    """The planner's plan, weighted to win the round rather than to save points.

    The same scores as `PlannerBot`, other weights: it never dumps its heaviest tile when
    another seat is nearly out (``endgame=0``: that saves points, but a round is won by
    going out first, and the pips dumped are tiles the plan needed); planned pips do not
    count (``plan_weight=0``: the planned train is safe, only the extras are at risk); each
    extra weighs more (``extra_cost=12``); and doubles are welcome, those it can cover
    (``double_bonus=10``) and, under ``open_doubles_block``, those it cannot
    (``double_penalty=-4``: the double and its follow-up are two tiles out in one turn, and
    the table has to cover it before playing anywhere else). It wins about 30% of 4-seat
    classic rounds against three planners (docs/BOTS.md) and scores fewer points too.
    """

    name = "racer"

    #: its defaults; any weight can still be set, as for the planner
    WEIGHTS: ClassVar[dict[str, Any]] = {
        "endgame": 0,
        "plan_weight": 0.0,
        "extra_cost": 12.0,
        "double_bonus": 10.0,
        "double_penalty": -4.0,
    }

    def __init__(self, **weights: Any) -> None:
        super().__init__(**{**self.WEIGHTS, **weights})


register_bot("planner", PlannerBot)
register_bot("racer", RacerBot)
