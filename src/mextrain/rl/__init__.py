"""Reinforcement-learning interfaces: a Gymnasium environment (one learning seat against
bots, `MexicanTrainEnv`) and a PettingZoo AEC environment (every seat an agent,
`mextrain.rl.pettingzoo_env`), on the same seat-relative observations, action indices and
legal-action masks (`ActionCodec`, `ObservationCodec`). Needs the ``rl`` extra
(``pip install -e '.[rl]'`` in a clone). See docs/RL.md.
"""

from __future__ import annotations

import gymnasium

from .encoding import ActionCodec, ObservationCodec
from .game import REWARDS, episode_rules
from .gym_env import MexicanTrainEnv
from .policy import PolicyBot

__all__ = [
    "ENV_ID",
    "REWARDS",
    "ActionCodec",
    "MexicanTrainEnv",
    "ObservationCodec",
    "PolicyBot",
    "episode_rules",
]

#: the Gymnasium id: ``gymnasium.make("mextrain/MexicanTrain-v0", players=4)``
ENV_ID = "mextrain/MexicanTrain-v0"
if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point="mextrain.rl.gym_env:MexicanTrainEnv")
