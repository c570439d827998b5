"""Hints for the seat to move: the strong bot's analysis or the planner's ranking, and the
personal train the hand can still lay (the planner's plan).

The strong bot's ``mextrain.search.analyze`` is used when it is installed; otherwise
``mextrain.planner.rank_actions`` answers. Whatever answers, a hint is one of
``view.legal_actions``: a suggestion that is not legal is never shown.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from mextrain.planner import PlanError, plan, rank_actions
from mextrain.rules import Action, SeatView, Tile

__all__ = ["Hint", "hints_for", "planned_train"]


@dataclass(frozen=True, slots=True)
class Hint:
    """A legal action worth considering; ``score`` is the source's own number, if any."""

    action: Action
    score: float | None
    source: str


def _lookup(module: str, name: str) -> Callable[..., Any] | None:
    try:
        mod = importlib.import_module(module)
    except ImportError:
        return None
    found = getattr(mod, name, None)
    return found if callable(found) else None


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _as_hints(items: Any, legal: tuple[Action, ...], source: str) -> list[Hint]:
    """Read a ranking in any of the shapes the sources use: actions, ``(score, action)``
    or ``(action, score)`` pairs, or objects with an ``action`` attribute."""
    if items is None:
        return []
    if isinstance(items, Action):
        items = [items]
    elif hasattr(items, "ranked"):
        items = items.ranked
    elif hasattr(items, "actions") and not isinstance(items, dict):
        items = items.actions
    elif isinstance(items, dict):
        items = sorted(items.items(), key=lambda kv: -float(kv[1]))
    out: list[Hint] = []
    if not isinstance(items, Iterable):
        return out
    for item in items:
        action: Action | None = None
        score: float | None = None
        if isinstance(item, Action):
            action = item
        elif isinstance(item, tuple | list):
            for part in item:
                if isinstance(part, Action):
                    action = part
                elif _is_number(part):
                    score = float(part)
        else:
            found = getattr(item, "action", None)
            action = found if isinstance(found, Action) else None
            for attr in ("score", "value", "win_rate", "mean"):
                value = getattr(item, attr, None)
                if _is_number(value):
                    score = float(value)  # type: ignore[arg-type]
                    break
        if action is not None and action in legal and all(h.action != action for h in out):
            out.append(Hint(action, score, source))
    return out


def hints_for(view: SeatView, rng: random.Random, iterations: int = 200) -> list[Hint]:
    """Suggested actions for ``view``'s seat, best first (empty when it is not its turn)."""
    legal = view.legal_actions
    if not legal:
        return []
    if len(legal) == 1:
        return [Hint(legal[0], None, "forced")]
    analyze = _lookup("mextrain.search", "analyze")
    if analyze is not None:
        try:
            found = _as_hints(analyze(view, rng, iterations=iterations), legal, "search")
        except (TypeError, ValueError):
            found = []
        if found:
            return found
    return [Hint(s.action, s.score, "planner") for s in rank_actions(view) if s.action in legal]


def planned_train(view: SeatView, seat: int | None = None) -> list[Tile]:
    """The longest train ``seat``'s hand can lay on its own train from its open end (the
    planner's plan), in play order. Only the seat's own tiles are used."""
    seat = view.seat if seat is None else seat
    start = view.trains[seat].open_end
    try:
        return list(plan(view.hand, start, view.rules.max_pip).train.tiles)
    except PlanError:
        return []
