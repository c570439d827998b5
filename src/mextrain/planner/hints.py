"""Move suggestions for the seat to move: its legal actions ranked by how they serve its plan.

Used by the planner bot and by the interfaces' hint button. Only the seat's `SeatView` is
read (its hand, the trains, markers, open doubles, hand sizes): a hint never knows more
than the player asking for it.

The idea is the players' one: the tiles of your best train are plays you can always make
yourself, one a turn, so keep them; get rid of the extras wherever they fit (they are the
tiles that get stuck), heavy ones first; take your marker down when you can; and a double
wants a follow-up.

A rare big hand can make the exact train search run for minutes (`HINT_STEPS` bounds each
value): past the bound the ranking goes on without the train's part, and says so.
"""

from __future__ import annotations

from dataclasses import dataclass

from mextrain.rules import MEXICAN, Action, SeatView, Tile

from .trails import PlanStepLimit
from .trains import train_value

__all__ = ["HINT_STEPS", "Suggestion", "best_action", "rank_actions"]

#: the steps the exact search may take for one train value of a hint (see `train_value`)
HINT_STEPS = 250_000


@dataclass(frozen=True, slots=True)
class Suggestion:
    """A legal action, a score (higher is better) and the reason in a few words."""

    action: Action
    score: float
    reason: str


def _train_label(view: SeatView, train: int) -> str:
    if train == MEXICAN:
        return "the Mexican train"
    if train == view.seat:
        return "your train"
    return f"seat {train}'s train"


def _value(hand: list[Tile] | tuple[Tile, ...], start: int, max_pip: int) -> int | None:
    """The tiles of the best train from ``start``, None past `HINT_STEPS`."""
    try:
        return train_value(hand, start, max_pip, max_steps=HINT_STEPS)[0]
    except PlanStepLimit:
        return None


def _rate_play(view: SeatView, tile: Tile, train: int, best: int | None) -> Suggestion:
    seat = view.seat
    own_end = view.trains[seat].open_end
    rest = [t for t in view.hand if t != tile]
    max_pip = view.rules.max_pip
    after = None
    if best is not None:
        after = _value(rest, tile.other_end(own_end) if train == seat else own_end, max_pip)
    weight = tile.pips / (2 * max(max_pip, 1))  # 0..1: shed heavy tiles first
    where = _train_label(view, train)
    lost = 0
    if best is None or after is None:
        too_big = "your hand is too big to plan its best train"
        notes = [too_big if train == seat else f"on {where}; {too_big}"]
    elif train == seat:
        kept = 1 + after
        lost = best - kept
        if lost:
            notes = [f"shortens your best train from {best} to {kept} tiles"]
        else:
            notes = [f"next tile of your best train ({best} tiles)"]
    else:
        lost = best - after
        if lost:
            notes = [f"on {where}, but shortens your best train from {best} to {after} tiles"]
        else:
            notes = [f"spare tile on {where}; your best train stays {best} tiles"]
    score = (1.0 if train == seat else 2.0) + weight - 3.0 * lost
    if train == seat and view.trains[seat].marker_up:
        score += 2.0
        notes.append("takes your marker down")
    if train == MEXICAN and not view.mexican.started:
        score += 0.5
        notes.append("opens the Mexican train")
    target = view.trains[train]
    if target.open_double:
        score += 1.0
        notes.append("satisfies the open double")
    if tile.is_double:
        if any(t.has(tile.low) for t in rest):
            score += 0.5
            notes.append("you hold its follow-up")
        elif len(rest) > 0:
            score -= 1.5
            notes.append("no follow-up in hand")
    if not rest:
        score += 100.0
        notes = ["goes out"]
    return Suggestion(Action.play(tile, train), round(score, 3), "; ".join(notes))


def rank_actions(view: SeatView) -> list[Suggestion]:
    """The seat's legal actions, best first (ties keep the engine's order).

    Empty when it is not this seat's turn.
    """
    if not view.is_my_turn or not view.legal_actions:
        return []
    best = _value(view.hand, view.trains[view.seat].open_end, view.rules.max_pip)
    plays = any(a.is_play for a in view.legal_actions)
    out: list[Suggestion] = []
    for action in view.legal_actions:
        if action.tile is not None and action.train is not None:
            out.append(_rate_play(view, action.tile, action.train, best))
        elif action.kind == "draw":
            out.append(Suggestion(action, 0.0, "nothing fits: draw"))
        elif plays:
            out.append(Suggestion(action, 0.5, "stop here and keep the rest for later turns"))
        else:
            out.append(Suggestion(action, 0.0, "nothing fits: pass"))
    order = {id(s): i for i, s in enumerate(out)}
    out.sort(key=lambda s: (-s.score, order[id(s)]))
    return out


def best_action(view: SeatView) -> Action:
    """The top suggestion's action (the view must be the seat to move's)."""
    ranked = rank_actions(view)
    if not ranked:
        raise ValueError(f"seat {view.seat} has no action to take: it is not its turn")
    return ranked[0].action
