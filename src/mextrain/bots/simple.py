"""Baseline bots: ``random`` and ``greedy``."""

from __future__ import annotations

import random

from mextrain.rules import Action, SeatView

from .base import register_bot


class RandomBot:
    """Picks uniformly among the legal actions."""

    name = "random"

    def act(self, view: SeatView, rng: random.Random) -> Action:
        return rng.choice(view.legal_actions)


register_bot("random", RandomBot)
