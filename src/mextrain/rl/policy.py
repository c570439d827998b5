"""A learnt policy as a mextrain bot, so that it can play wherever bots are built by name
in your program: `simulate` tournaments, or as an opponent in `MexicanTrainEnv`.

    register_bot("mine", lambda: PolicyBot(my_policy, "mine"))
    simulate("classic", 4, ["mine", "planner", "planner", "planner"], games=400, seed=1)

``my_policy`` gets the observation an environment gives (``{"observation", "action_mask"}``)
and returns an action index. Where a bot plays a match (tournaments, the environments'
opponents, the terminal and web tables) its view carries the match totals so far, so the
observation is the one the environment gives; a bare round's view has 0 there.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from mextrain.rules import Action, Rules, SeatView

from .encoding import ActionCodec, ObservationCodec
from .game import action_index

__all__ = ["PolicyBot"]


class PolicyBot:
    """Plays the action index ``policy(observation)`` chooses; an index that is not a
    legal action is a `ValueError` naming it (a policy should follow the mask), and so is
    anything that is not a whole number (``273.9`` or ``"273"``), as the environments'
    ``step`` refuses it."""

    def __init__(self, policy: Callable[[dict[str, Any]], int], name: str = "policy") -> None:
        self.policy = policy
        self.name = name
        self._codecs: dict[tuple[Rules, int], tuple[ObservationCodec, ActionCodec]] = {}

    def act(self, view: SeatView, rng: random.Random) -> Action:
        key = (view.rules, view.players)
        codecs = self._codecs.get(key)
        if codecs is None:
            codecs = (ObservationCodec(*key), ActionCodec(*key))
            self._codecs[key] = codecs
        observations, actions = codecs
        raw = self.policy(
            {"observation": observations.encode(view), "action_mask": actions.mask(view)}
        )
        legal = ", ".join(str(a) for a in view.legal_actions)
        try:
            chosen = action_index(raw)
        except ValueError as err:
            raise ValueError(f"{self.name} chose {raw!r}: {err}") from None
        if not 0 <= chosen < actions.size:
            raise ValueError(
                f"{self.name} chose action {chosen}, which is no action index "
                f"(0 to {actions.size - 1}); the legal actions are {legal}"
            )
        wanted = actions.action(chosen, view.seat)
        for action in view.legal_actions:
            if action == wanted:
                return action
        raise ValueError(
            f"{self.name} chose action {chosen} ({wanted}), which is not legal here; "
            f"the legal actions are {legal}"
        )
