"""The search bots: ``ismcts`` with parameters, and the named strength levels.

By default the ``ismcts`` bot races its legal actions on shared determinizations
(``algorithm=rollout``, `rollout.py`): each determinization is played on by the planner
playouts for ``depth=16`` plies, and the position reached is scored by the static
evaluation (`evaluate.py`) instead of being played to the round's end. A score is a win
chance rather than a 0-or-1 outcome, so each iteration tells the moves apart far better,
and it costs a fraction of a whole playout. ``algorithm=ismcts`` grows the information-set
tree instead (`ismcts.py`), with the same leaves; ``depth=end`` plays every playout out.

=========  ==========================================================================
level      budget and policy
=========  ==========================================================================
easy       40 iterations, tree search, greedy playouts to the end with 30% random
           plays, no prior
medium     16 iterations of the default search (planner playouts with the seat itself
           as the racer, 16 plies, then the evaluation), no prior: about the planner's
           strength (a search this short often picks a move on a few deals' luck)
hard       600 iterations of the default search, the racer's move on ties (0.02 s a move
           at the median, 0.17 s at the 90th percentile: the race stops once one move
           is clearly best)
expert     2000 iterations, the same (0.02 s at the median, 0.33 s at the 90th)
=========  ==========================================================================

The seat's *own style* (``own``, default ``racer``): in the planner playouts the seat
makes the ``racer``'s moves and the others the ``planner``'s; and the *prior*: the
``own`` bot's move wins ties, and with ``confidence=K`` the bot keeps it unless the search
finds another move better by more than K standard errors of the difference (by default
``confidence=0`` with the race: its best move, whatever its margin; ``confidence=1`` with
the tree).

``infer=planner`` also reads the other seats' recent plays as the planner's when dealing
their hands (`resample.py`), and ``infer=history`` every play of the round, across draws
(``infer_beta``, ``infer_reuse`` and ``infer_warm`` temper it and make it cheaper);
``opponents=policy`` plays the other seats by the planner inside the tree; ``quiet=N`` plays
cut playouts on while a seat holds N tiles or fewer (`ismcts.finish`). These are options:
at 200 ms a move against the planner none was measurably stronger (see docs/BOTS.md).
``weights=P`` scores cut playouts with preset P's evaluation weights whatever the rules
(by default, ``rules``, those fitted for the rules being played: `evaluate.weights_for`).
``voids=false`` deals the hidden tiles without the voids the history shows, to measure
what they are worth (nothing measurable against planners: docs/BOTS.md). ``value=net``
scores cut playouts with the value network fitted for the table, where there is one
(`evaluate.nets`), instead of the linear logit.

Levels use iteration budgets, not the clock, so they play the same on every machine and
the same seed gives the same game. ``ismcts:time_ms=200`` thinks for a fixed time instead.
Where a person waits for the move (the terminal and web games), `cap_think_time` stops a
search bot at a time limit too: swollen hands make playouts slow, and ``expert`` took
7 s on a 2-seat classic move whose other seat held 21 tiles, 45 s under
``draw_until_playable``.
"""

from __future__ import annotations

import dataclasses
import math
import random
import time
from typing import Any

from mextrain.bots import Bot, make_bot, register_bot
from mextrain.rules import Action, SeatView

from .evaluate import Evaluator
from .ismcts import MAX_TIME_MS, SearchConfig, SearchResult, search
from .policy import FastPlannerPlayout, PlannerPlayout, make_policy, planner_style
from .resample import InfoState, OpponentModel, ResampleError
from .rollout import paired_difference, rollout_search

__all__ = ["BY_STRENGTH", "LEVELS", "ISMCTSBot", "cap_think_time"]

ALGORITHMS = ("ismcts", "rollout")
INFERENCE = ("none", "planner", "history")

#: plies of planner playout before the evaluation, by default (with the planner playouts)
DEFAULT_DEPTH = 16

LEVELS: dict[str, dict[str, Any]] = {
    "easy": {
        "iterations": 40,
        "algorithm": "ismcts",
        "policy": "greedy",
        "epsilon": 0.3,
        "prior": "none",
    },
    "medium": {"iterations": 16, "prior": "none"},
    "hard": {"iterations": 600},
    "expert": {"iterations": 2000},
}

#: the built-in bots, weakest first, as measured against each other (docs/BOTS.md, *Are
#: the levels ordered?*): the order the play interfaces offer them in
BY_STRENGTH = ("random", "greedy", "easy", "medium", "planner", "racer", "hard", "expert")


class ISMCTSBot:
    """Searches each decision with ISMCTS from its own seat's view (see `ismcts.py`)."""

    def __init__(
        self,
        iterations: int | None = None,
        time_ms: float | None = None,
        policy: str = "planner",
        epsilon: float = 0.0,
        exploration: float = 0.7,
        margin_weight: float = 0.25,
        fallback: str = "planner",
        prior: str = "own",
        confidence: float | None = None,
        algorithm: str = "rollout",
        race_z: float = 2.0,
        race_min: int = 8,
        opponents: str = "tree",
        infer: str = "none",
        infer_depth: int | None = None,
        infer_swaps: int | None = None,
        infer_settle: int | None = None,
        infer_beta: float | None = None,
        infer_reuse: int = 1,
        infer_warm: bool = False,
        own: str = "racer",
        name: str = "ismcts",
        depth: int | str | None = None,
        quiet: int = 0,
        weights: str = "rules",
        voids: bool = True,
        value: str = "logit",
    ) -> None:
        self.name = name
        if algorithm not in ALGORITHMS:
            raise ValueError(f"algorithm must be one of {', '.join(ALGORITHMS)}, not {algorithm}")
        self.algorithm = algorithm
        plies = _depth(depth, policy)
        self.config = SearchConfig(
            iterations=iterations,
            time_ms=time_ms,
            policy=policy,
            epsilon=epsilon,
            exploration=exploration,
            margin_weight=margin_weight,
            race_z=race_z,
            race_min=race_min,
            opponents=opponents,
            depth=plies,
            quiet=quiet,
        )
        self.config.check()
        self._policy = make_policy(policy, epsilon)
        if isinstance(self._policy, PlannerPlayout) and isinstance(self._policy.bot, ISMCTSBot):
            raise ValueError(
                f"policy={policy} is a search bot: a playout cannot search at every move "
                "(use planner, plan, greedy, random or another bot that does not search)"
            )
        if opponents == "policy" and not isinstance(self._policy, FastPlannerPlayout):
            raise ValueError("opponents=policy needs policy=planner")
        self._evaluator = Evaluator(weights, value)
        own_bot = planner_style(own)
        self.own = own
        if isinstance(self._policy, FastPlannerPlayout):
            # the seat plays its own style in the playouts (its seat is set at each move);
            # the others stay planners
            self._policy.own = own_bot
        if infer not in INFERENCE:
            raise ValueError(f"infer must be one of {', '.join(INFERENCE)}, not {infer}")
        self._model: OpponentModel | None = None
        if infer != "none":
            self._model = (
                self._policy
                if isinstance(self._policy, FastPlannerPlayout)
                else FastPlannerPlayout()
            )
        history = infer == "history"
        if history and not voids:
            raise ValueError("infer=history reads every void of the round: not with voids=false")
        #: deal by the voids the history shows (false: a measurement of their worth)
        self.voids = voids
        self.infer_history = history
        # reading the whole history takes more plays and a longer chain to settle
        self.infer_depth = (30 if history else 3) if infer_depth is None else infer_depth
        self.infer_swaps = (40 if history else 12) if infer_swaps is None else infer_swaps
        self.infer_settle = (1500 if history else 300) if infer_settle is None else infer_settle
        for key in ("infer_depth", "infer_swaps", "infer_settle"):
            if getattr(self, key) < 1:
                raise ValueError(f"{key} must be at least 1, not {getattr(self, key)}")
        if infer_beta is not None and infer_beta <= 0:
            raise ValueError(f"infer_beta must be positive, not {infer_beta}")
        self.infer_beta = infer_beta
        if infer_reuse < 1:
            raise ValueError(f"infer_reuse must be at least 1, not {infer_reuse}")
        self.infer_reuse = infer_reuse
        self.infer_warm = infer_warm
        #: (round, actions seen, hidden hands or None): the last decision's deal, to start
        #: the next decision's chain from (``infer_warm``); the history it had seen, so
        #: that only a later decision of the same round (not of another game) starts there
        self._warm: tuple[int, tuple[tuple[int, Action], ...], tuple[int, ...] | None] | None = None
        self._fallback_spec = fallback
        #: built now, so that a mistyped fallback is refused before any game starts
        self._fallback: Bot | None = make_bot(fallback)
        self._prior: Bot | None = (
            None if prior == "none" else own_bot if prior == "own" else make_bot(prior)
        )
        if confidence is None:
            # the race compares moves on the same deals (paired differences); the tree's
            # means come from different deals and a rarely visited move's mean is a fluke
            # more often, so the tree keeps the prior's move unless it is beaten clearly
            confidence = 0.0 if algorithm == "rollout" else 1.0
        if not 0 <= confidence < math.inf:  # (refuses nan too)
            raise ValueError(f"confidence must be a number at least 0, not {confidence}")
        self.confidence = confidence
        #: decisions taken by the fallback bot because the history could not be resampled
        self.fallbacks = 0
        self.last: SearchResult | None = None

    def act(self, view: SeatView, rng: random.Random) -> Action:
        legal = view.legal_actions
        if len(legal) == 1:
            return legal[0]
        started = time.perf_counter()  # a time budget counts the resampling set-up too
        if isinstance(self._policy, FastPlannerPlayout):
            self._policy.own_seat = view.seat
        hint = None
        warm = self._warm
        if (
            warm is not None
            and warm[0] == view.round_index
            and len(warm[1]) < len(view.history)
            and view.history[: len(warm[1])] == warm[1]
        ):
            hint = warm[2]
        try:
            info = InfoState(
                view,
                rng,
                model=self._model,
                depth=self.infer_depth,
                model_swaps=self.infer_swaps,
                settle=self.infer_settle,
                history=self.infer_history,
                beta=self.infer_beta,
                reuse=self.infer_reuse,
                hint=hint,
                voids=self.voids,
            )
        except ResampleError:
            self.fallbacks += 1
            if self._fallback is None:
                self._fallback = make_bot(self._fallback_spec)
            return self._fallback.act(view, rng)
        if self.algorithm == "rollout":
            action = self._race(view, rng, info, started)
        else:
            action = self._tree(view, rng, info, started)
        if self.infer_warm and self._model is not None:
            self._warm = (view.round_index, view.history, info.hands())
        return action

    def _tree(self, view: SeatView, rng: random.Random, info: InfoState, started: float) -> Action:
        self.last = result = search(
            view,
            rng,
            self.config,
            info=info,
            policy=self._policy,
            started=started,
            evaluator=self._evaluator,
        )
        if self._prior is None:
            return result.action
        # keep the prior bot's move unless the search is confident that another is better
        prior = self._prior.act(view, rng)
        best = max(result.stats, key=lambda s: (s.mean_reward, s.visits))
        mine = next((s for s in result.stats if s.action == prior), None)
        if mine is None or best.action == prior:
            return best.action if mine is None else prior
        spread = math.hypot(best.reward_stderr, mine.reward_stderr)
        # (a move seen once has no spread: nothing to judge the lead by, even at confidence 0)
        if math.isfinite(spread) and best.mean_reward - mine.mean_reward > self.confidence * spread:
            return best.action
        return prior

    def _race(self, view: SeatView, rng: random.Random, info: InfoState, started: float) -> Action:
        prior = None if self._prior is None else self._prior.act(view, rng)
        self.last = result = rollout_search(
            view,
            rng,
            self.config,
            info=info,
            policy=self._policy,
            prefer=prior,
            started=started,
            evaluator=self._evaluator,
        )
        if prior is None or result.action == prior:
            return result.action
        leader = result.stats[0]
        mine = next(s for s in result.stats if s.action == prior)
        if mine.visits < leader.visits:  # dropped from the race
            return result.action
        # both ran on the same deals: compare their paired difference
        mean, se = paired_difference(result.samples[leader.action], result.samples[prior])
        if math.isfinite(se) and mean > self.confidence * se:
            return result.action
        return prior


def cap_think_time(bot: Bot, time_ms: float) -> Bot:
    """``bot``, its thinking cut off after ``time_ms`` a move: for a person waiting on it.

    A search bot (``ismcts`` or a level) is changed in place to stop at its iteration
    budget or after ``time_ms``, whichever comes first (a shorter time budget of its own
    stands); any other bot is returned as it is. The levels' iteration budgets keep a
    seed's games the same on every machine, but a hand swollen by draws makes every
    playout slow: a move that hits the cap depends on the machine's speed.
    """
    if not 0 < time_ms <= MAX_TIME_MS:
        raise ValueError(f"time_ms must be more than 0 and at most {MAX_TIME_MS:,}, not {time_ms}")
    if isinstance(bot, ISMCTSBot):
        own = bot.config.time_ms
        capped = time_ms if own is None else min(own, time_ms)
        bot.config = dataclasses.replace(bot.config, time_ms=capped)
    return bot


def _depth(depth: int | str | None, policy: str) -> int | None:
    """The plies before the evaluation: ``None`` (the default) -- `DEFAULT_DEPTH` with the
    planner playouts, else to the end; ``end`` -- to the end; or a count of plies."""
    if depth is None:
        return DEFAULT_DEPTH if policy == "planner" else None
    if isinstance(depth, str):
        if depth != "end":
            raise ValueError(f"depth must be a number of plies or end, not {depth!r}")
        return None
    return depth  # (`SearchConfig.check` refuses it with other playouts)


def _level(name: str) -> Any:
    def factory(**params: Any) -> ISMCTSBot:
        return ISMCTSBot(**{**LEVELS[name], **params, "name": name})

    factory.__doc__ = f"The {name!r} strength level: ISMCTS with {LEVELS[name]}."
    factory.__wrapped__ = ISMCTSBot  # type: ignore[attr-defined]  # (its parameters)
    return factory


register_bot("ismcts", ISMCTSBot)
for _name in LEVELS:
    register_bot(_name, _level(_name))
