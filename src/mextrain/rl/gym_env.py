"""A Gymnasium environment: one learning seat against bots.

    env = MexicanTrainEnv(rules="classic", players=4, opponents=["planner"])
    obs, info = env.reset(seed=1)
    action = np.flatnonzero(obs["action_mask"])[0]
    obs, reward, terminated, truncated, info = env.step(action)

The agent plays ``seat``; after each of its actions the bots play until it is the agent's
turn again or the episode is over. See docs/RL.md for the spaces and rewards.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, SupportsFloat

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from mextrain.bots import Bot, make_bot
from mextrain.rules import IllegalActionError, Rules

from .game import (
    RENDER_MODES,
    Game,
    action_index,
    check_illegal_reward,
    check_modes,
    check_opponents,
    episode_rules,
    whole_number,
)

__all__ = ["MexicanTrainEnv"]

#: an observation: ``{"observation": float32 vector, "action_mask": int8 vector}``
Observation = dict[str, Any]

#: deals in a row without a choice for the agent before `reset` gives up (every preset
#: table needs far fewer: at most 58 in 2,000 seeds, the worst measured)
MAX_REDEALS = 1000


def observation_space(game: Game) -> spaces.Dict:
    return spaces.Dict(
        {
            "observation": spaces.Box(0.0, 1.0, shape=(game.observations.size,), dtype=np.float32),
            "action_mask": spaces.Box(0, 1, shape=(game.actions.size,), dtype=np.int8),
        }
    )


class MexicanTrainEnv(gym.Env[Observation, np.int64]):
    """Mexican Train for one agent at ``seat``; the other seats are ``opponents`` (bot
    specs: one for all, or one per other seat in seat order).

    ``rounds``: rounds per episode (None: the whole match). ``reward``: ``points`` (minus
    the agent's points at each round's end) or ``win`` (1 at the end if it has the lowest
    total, shared on a tie). An action the mask does not allow changes nothing: with
    ``illegal="penalty"`` (the default) it earns ``illegal_reward`` and the agent moves
    again, ``info["illegal"]`` saying why; with ``illegal="raise"`` it raises the
    engine's `IllegalActionError`. With ``skip_forced`` the agent's forced moves (a single
    legal action: most draws and passes) are played for it, so every step is a choice.
    """

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 4}  # noqa: RUF012

    def __init__(
        self,
        rules: str | Rules | dict[str, Any] = "classic",
        players: int = 2,
        opponents: str | Sequence[str] = ("planner",),
        seat: int = 0,
        rounds: int | None = 1,
        reward: str = "points",
        illegal: str = "penalty",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
        skip_forced: bool | np.bool_ = False,
    ) -> None:
        check_modes(illegal, render_mode)
        if not isinstance(skip_forced, bool | np.bool_):  # (a NumPy one is the one it is)
            raise ValueError(f"skip_forced must be True or False, not {skip_forced!r}")
        # (the game first: it says what is wrong with a player count the rules refuse)
        self.game = Game(episode_rules(rules, rounds), players, reward)
        seat = whole_number(seat)
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < players:
            raise ValueError(f"seat must be 0 to {players - 1}, not {seat!r}")
        self.seat = seat
        self.opponent_specs = check_opponents(opponents, players - 1)
        #: the opponents, by seat: built here (so that a spec no bot answers to is refused
        #: at once) and again for each deal, as a tournament does for each game
        self.bots: dict[int, Bot] = self._make_bots()
        self.illegal = illegal
        self.illegal_reward = check_illegal_reward(illegal_reward)
        self.render_mode = render_mode
        self.skip_forced = bool(skip_forced)
        self.observation_space = observation_space(self.game)
        self.action_space = spaces.Discrete(self.game.actions.size)
        self._bot_rng = random.Random(0)
        self._started = False

    # -- the Gymnasium API -----------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        super().reset(seed=seed)
        deal_seed, bot_seed = (int(x) for x in self.np_random.integers(0, 2**62, size=2))
        self.game.reset(deal_seed)
        self._bot_rng = random.Random(bot_seed)
        # fresh bots: what one remembers of the last episode must not change this one
        self.bots = self._make_bots()
        self._advance()
        redealt = 0
        while self.game.over:  # the episode ended before the agent's first choice
            redealt += 1
            if redealt >= MAX_REDEALS:  # (``redealt`` deals so far, none with a choice)
                # a table where the agent never chooses (a tiny set with skip_forced: each
                # of its turns has one legal action) would deal again for ever
                raise ValueError(
                    f"the agent had no choice to make in {MAX_REDEALS:,} deals in a row: "
                    "these rules leave it none (try skip_forced=False, or a larger set)"
                )
            self.game.reset(int(self.np_random.integers(0, 2**62)))
            self.bots = self._make_bots()
            self._advance()
        # a round of a longer episode that ended before the agent's first move pays its
        # rewards with the first step's
        self._started = True
        obs, info = self._observe()
        info["redealt"] = redealt
        return obs, info

    def step(
        self, action: np.int64 | int
    ) -> tuple[Observation, SupportsFloat, bool, bool, dict[str, Any]]:
        if not self._started:
            raise RuntimeError("call reset() before step()")
        if self.game.over:
            raise RuntimeError("the episode is over: call reset()")
        move = self.game.actions.action(action_index(action), self.seat)
        try:
            self.game.apply(self.seat, move)
        except IllegalActionError as err:
            if self.illegal == "raise":
                raise
            obs, info = self._observe()
            info["illegal"] = str(err)
            info["illegal_code"] = err.code
            return obs, self.illegal_reward, False, False, info
        self._advance()
        reward = self.game.take_rewards()[self.seat]
        obs, info = self._observe()
        return obs, reward, self.game.over, False, info

    def render(self) -> str | None:
        if self.render_mode == "ansi":
            return self.game.describe(self.seat)
        return None

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions as booleans (the name maskable learners look for)."""
        return self.game.mask(self.seat).astype(bool)

    # -- inside ------------------------------------------------------------------------------

    def _make_bots(self) -> dict[int, Bot]:
        others = [s for s in range(self.game.players) if s != self.seat]
        return {s: make_bot(spec) for s, spec in zip(others, self.opponent_specs, strict=True)}

    def _advance(self) -> None:
        """The bots move (and, with ``skip_forced``, the agent's forced moves are made)
        until the agent has a choice or the episode is over."""
        game = self.game
        while not game.over:
            seat = game.to_move
            if seat == self.seat:
                legal = game.match.current.legal_actions()
                if not self.skip_forced or len(legal) != 1:
                    return
                game.apply(seat, legal[0])
            else:
                game.apply(seat, self.bots[seat].act(game.view(seat), self._bot_rng))

    def _observe(self) -> tuple[Observation, dict[str, Any]]:
        """The observation and its info (the mask again, as a copy of its own)."""
        obs = self.game.observe(self.seat)
        match = self.game.match
        info = {
            "round": match.round_index,
            "totals": list(match.totals),
            "action_mask": obs["action_mask"].copy(),
        }
        return obs, info
