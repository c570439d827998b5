"""A PettingZoo AEC environment: every seat an agent (``player_0``, ``player_1``, …), taking
turns as the rules say (a seat may act several times in a row: a draw, then a play or a
pass; a double, then its follow-up).

    env = mextrain.rl.pettingzoo_env.env(players=4)
    env.reset(seed=1)
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        action = None if termination or truncation else policy(obs)
        env.step(action)

See docs/RL.md for the spaces and rewards.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from mextrain.rules import IllegalActionError, Rules

from .game import (
    RENDER_MODES,
    Game,
    action_index,
    check_illegal_reward,
    check_modes,
    episode_rules,
    whole_number,
)
from .gym_env import Observation, observation_space

__all__ = ["MexicanTrainAECEnv", "env", "raw_env"]


class MexicanTrainAECEnv(AECEnv[str, Observation, int | None]):  # type: ignore[misc]
    """Every seat of a Mexican Train game as an agent. ``rounds`` (None: the whole match),
    ``reward`` and ``illegal`` / ``illegal_reward`` as in `MexicanTrainEnv`; an illegal
    action changes nothing and the same agent moves again. ``max_steps`` (None: no limit)
    truncates the episode for every agent after that many steps, refused ones included:
    agents that ignore the mask could otherwise be refused for ever."""

    metadata = {  # noqa: RUF012 - PettingZoo reads this attribute
        "name": "mextrain_v0",
        "render_modes": list(RENDER_MODES),
        "render_fps": 4,
        "is_parallelizable": False,
    }

    def __init__(
        self,
        rules: str | Rules | dict[str, Any] = "classic",
        players: int = 2,
        rounds: int | None = 1,
        reward: str = "points",
        illegal: str = "penalty",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
        max_steps: int | None = None,
    ) -> None:
        super().__init__()
        check_modes(illegal, render_mode)
        max_steps = whole_number(max_steps)
        if max_steps is not None and (
            isinstance(max_steps, bool) or not isinstance(max_steps, int) or max_steps < 1
        ):
            raise ValueError(f"max_steps must be a whole number from 1, or None, not {max_steps!r}")
        self.max_steps = max_steps
        self.steps = 0
        self.game = Game(episode_rules(rules, rounds), players, reward)
        self.illegal = illegal
        self.illegal_reward = check_illegal_reward(illegal_reward)
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        self._observation_space = observation_space(self.game)
        self._action_space = spaces.Discrete(self.game.actions.size)
        self.observation_spaces = dict.fromkeys(self.possible_agents, self._observation_space)
        self.action_spaces = dict.fromkeys(self.possible_agents, self._action_space)
        self._seed_rng = np.random.default_rng()

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self._observation_space

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self._action_space

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seed_rng = np.random.default_rng(seed)
        self.game.reset(int(self._seed_rng.integers(0, 2**62)))
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.steps = 0
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.game.to_move]
        self._refresh_infos()

    def observe(self, agent: str) -> Observation:
        return self.game.observe(self.agent_name_mapping[agent])

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to move: None is only for agents that are done")
        seat = self.agent_name_mapping[agent]
        move = self.game.actions.action(action_index(action), seat)
        refused = None
        try:
            self.game.apply(seat, move)
        except IllegalActionError as err:
            if self.illegal == "raise":
                raise  # nothing has changed: not even the reward the agent has to collect
            refused = err
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if refused is not None:  # the same agent moves again
            self.rewards[agent] = self.illegal_reward
        else:
            for s, value in enumerate(self.game.take_rewards()):
                self.rewards[self.possible_agents[s]] += value
            if self.game.over:
                self.terminations = dict.fromkeys(self.agents, True)
            else:
                self.agent_selection = self.possible_agents[self.game.to_move]
        self.steps += 1
        if self.max_steps is not None and self.steps >= self.max_steps and not self.game.over:
            self.truncations = dict.fromkeys(self.agents, True)
        self._refresh_infos()
        if refused is not None:
            self.infos[agent]["illegal"] = str(refused)
            self.infos[agent]["illegal_code"] = refused.code
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode == "ansi":
            return self.game.describe()
        return None

    def close(self) -> None:
        pass

    def _refresh_infos(self) -> None:
        """Each agent's info, as `MexicanTrainEnv`'s: its mask, the round, the totals."""
        match = self.game.match
        self.infos = {
            a: {
                "action_mask": self.game.mask(self.agent_name_mapping[a]),
                "round": match.round_index,
                "totals": list(match.totals),
            }
            for a in self.agents
        }


def raw_env(**kwargs: Any) -> MexicanTrainAECEnv:
    """The environment without PettingZoo's checking wrappers."""
    return MexicanTrainAECEnv(**kwargs)


def env(**kwargs: Any) -> AECEnv[str, Observation, int | None]:
    """The environment in PettingZoo's usual wrappers (order enforcing, out-of-bounds
    actions refused)."""
    wrapped: AECEnv[str, Observation, int | None] = raw_env(**kwargs)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    wrapped = wrappers.OrderEnforcingWrapper(wrapped)
    return wrapped
