"""Move suggestions for the seat to move: its legal actions ranked by how they serve its plan.

Used by the planner bot and by the interfaces' hint button. Only the seat's `SeatView` is
read (its hand, the trains, markers, open doubles, hand sizes): a hint never knows more
than the player asking for it.

The idea is the players' one: the tiles of your best train are plays you can always make
yourself, one a turn, so keep them; get rid of the extras wherever they fit (they are the
tiles that get stuck), heavy ones first; take your marker down when you can; and a double
wants a follow-up.
"""

from __future__ import annotations

from dataclasses import dataclass

from mextrain.rules import MEXICAN, Action, SeatView, Tile

from .trains import train_value

__all__ = ["Suggestion", "best_action", "rank_actions"]


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


def _rate_play(view: SeatView, tile: Tile, train: int, best: tuple[int, int]) -> Suggestion:
    seat = view.seat
    own_end = view.trains[seat].open_end
    rest = [t for t in view.hand if t != tile]
    max_pip = view.rules.max_pip
    if train == seat:
        after = train_value(rest, tile.other_end(own_end), max_pip)
        kept = 1 + after[0]
    else:
        after = train_value(rest, own_end, max_pip)
        kept = after[0]
    lost = best[0] - kept
    weight = tile.pips / (2 * max(max_pip, 1))  # 0..1: shed heavy tiles first
    notes: list[str] = []
    if train == seat:
        score = 1.0 + weight - 3.0 * lost
        if lost:
            notes.append(f"shortens your best train from {best[0]} to {kept} tiles")
        else:
            notes.append(f"next tile of your best train ({best[0]} tiles)")
        if view.trains[seat].marker_up:
            score += 2.0
            notes.append("takes your marker down")
    else:
        score = 2.0 + weight - 3.0 * lost
        where = _train_label(view, train)
        if lost:
            notes.append(f"on {where}, but shortens your best train from {best[0]} to {kept} tiles")
        else:
            notes.append(f"spare tile on {where}; your best train stays {best[0]} tiles")
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
    best = train_value(view.hand, view.trains[view.seat].open_end, view.rules.max_pip)
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
