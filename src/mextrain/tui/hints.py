"""Hints for the seat to move: the strong bot's analysis or the planner's ranking, and the
personal train the hand can still lay (the planner's plan).

The strong bot's analysis (``mextrain.search.analyze``) ranks the legal actions, with
``mextrain.planner.rank_actions`` as the stand-in. Whatever answers, a hint is one of
``view.legal_actions``: a suggestion that is not legal is never shown.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from mextrain.planner import PlanError, PlanTimeout, plan, rank_actions
from mextrain.rules import Action, SeatView, Tile
from mextrain.search import analyze

__all__ = ["PLAN_TIME_S", "Hint", "PlanTimeout", "hints_for", "planned_train"]


@dataclass(frozen=True, slots=True)
class Hint:
    """A legal action worth considering; ``score`` is the search's chance of winning the
    round (0 to 1) for ``source == "search"``, the planner's own score for ``"planner"``."""

    action: Action
    score: float | None
    source: str


#: the most a hint thinks (the player waits for it): 200 iterations take about 0.3 s on
#: the usual rules, but huge hands (draw_until_playable) made them take 10 s and more
HINT_TIME_MS = 2000


def hints_for(
    view: SeatView, rng: random.Random, iterations: int = 200, time_ms: int | None = HINT_TIME_MS
) -> list[Hint]:
    """Suggested actions for ``view``'s seat, best first (empty when it is not its turn).

    The search bot's analysis answers (``iterations``, or ``time_ms`` if that comes first;
    None: no time limit), each hint with its estimated chance of winning the round; the
    planner's ranking stands in if the analysis finds nothing."""
    legal = view.legal_actions
    if not legal:
        return []
    if len(legal) == 1:
        return [Hint(legal[0], None, "forced")]
    found = [
        Hint(a.action, a.win_probability, "search")
        for a in analyze(view, rng, iterations=iterations, time_ms=time_ms)
        # (one never tried has no chance to show)
        if a.action in legal and a.win_probability is not None
    ]
    if found:
        return found
    return [Hint(s.action, s.score, "planner") for s in rank_actions(view) if s.action in legal]


#: the most the plan key thinks: the exact search is NP-hard, and a rare big hand (many
#: draws, a big set) could keep the player waiting for minutes
PLAN_TIME_S = 10.0


def planned_train(
    view: SeatView, seat: int | None = None, time_limit: float = PLAN_TIME_S
) -> list[Tile]:
    """The longest train ``seat``'s hand can lay on its own train from its open end (the
    planner's plan), in play order. Only the seat's own tiles are used. Raises
    `PlanTimeout` when ``time_limit`` seconds pass before the best train is proven."""
    seat = view.seat if seat is None else seat
    start = view.trains[seat].open_end
    try:
        return list(plan(view.hand, start, view.rules.max_pip, time_limit=time_limit).train.tiles)
    except PlanError:
        return []
