"""Baseline bots: ``random`` and ``greedy``."""

from __future__ import annotations

import random

from mextrain.rules import MEXICAN, Action, SeatView

from .base import register_bot

__all__ = ["GreedyBot", "RandomBot"]


class RandomBot:
    """Picks uniformly among the legal actions."""

    name = "random"

    def act(self, view: SeatView, rng: random.Random) -> Action:
        return rng.choice(view.legal_actions)


class GreedyBot:
    """Plays its heaviest playable tile; draws or passes only when it has no play.

    Ties between equal tiles go to its own train, then the Mexican train, then another
    seat's train, then to the engine's order of legal actions. With ``random_ties=true``
    every choice of the heaviest tile is equally likely, drawn with the bot's RNG.
    """

    name = "greedy"

    def __init__(self, random_ties: bool = False) -> None:
        self.random_ties = random_ties

    def act(self, view: SeatView, rng: random.Random) -> Action:
        legal = view.legal_actions
        seat = view.seat
        best: list[Action] = []
        best_key: tuple[int, int, int] | None = None
        for action in legal:
            tile, train = action.tile, action.train
            if tile is None or train is None:
                continue
            where = 2 if train == seat else 1 if train == MEXICAN else 0
            key = (tile.pips, where, -train)
            if self.random_ties:
                key = (tile.pips, 0, 0)
            if best_key is None or key > best_key:
                best_key, best = key, [action]
            elif key == best_key:
                best.append(action)
        if best:
            return rng.choice(best) if self.random_ties and len(best) > 1 else best[0]
        # no play: draw when allowed, else pass (these are the only other actions)
        for action in legal:
            if action.kind == "draw":
                return action
        return legal[0]


register_bot("random", RandomBot)
register_bot("greedy", GreedyBot)
