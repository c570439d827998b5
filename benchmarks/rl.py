"""What the RL environments cost over the bare engine.

    python benchmarks/rl.py [--seconds 3] [--players 2,4]

Three ways of playing whole single rounds of classic with uniformly random legal actions
for a fixed time, in the same run:

- ``engine``: `RoundState.legal_actions` + `apply` (what any bot pays);
- ``pettingzoo``: the AEC environment, every seat an agent, choosing from the mask of
  each observation (the observation vector and the mask are built at every step);
- ``gymnasium``: the single-agent environment against ``random`` bots (only the agent's
  moves are steps; the bots' moves are counted as actions too).

It prints actions per second and each environment's ratio to the engine; compare the
ratios, since machines are noisy.
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

from mextrain.rl import MexicanTrainEnv
from mextrain.rl.pettingzoo_env import raw_env
from mextrain.rules import RoundState, Rules


def engine(players: int, seconds: float) -> float:
    rules = Rules.preset("classic")
    rng = random.Random(1)
    actions = 0
    deadline = time.perf_counter() + seconds
    start = time.perf_counter()
    while time.perf_counter() < deadline:
        state = RoundState.new(rules, players, 0, rng)
        while not state.is_over:
            state.apply(rng.choice(state.legal_actions()))
            actions += 1
    return actions / (time.perf_counter() - start)


def pettingzoo(players: int, seconds: float) -> float:
    env = raw_env(players=players)
    rng = np.random.default_rng(1)
    actions = 0
    start = time.perf_counter()
    deadline = start + seconds
    seed = 0
    while time.perf_counter() < deadline:
        env.reset(seed=seed)
        seed += 1
        for _agent in env.agent_iter():
            obs, _, termination, truncation, _ = env.last()
            if termination or truncation:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            actions += 1
    return actions / (time.perf_counter() - start)


def gymnasium_env(players: int, seconds: float) -> float:
    env = MexicanTrainEnv(players=players, opponents=["random"])
    rng = np.random.default_rng(1)
    actions = 0
    start = time.perf_counter()
    deadline = start + seconds
    seed = 0
    while time.perf_counter() < deadline:
        obs, _ = env.reset(seed=seed)
        seed += 1
        done = False
        while not done:
            obs, _, done, _, _ = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        actions += sum(len(r.history) for r in env.game.match.rounds)
    return actions / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--players", default="2,4")
    args = parser.parse_args()
    heads = ("players", "engine/s", "pettingzoo/s", "ratio", "gym/s", "ratio")
    widths = (7, 10, 13, 6, 9, 6)
    print(" ".join(h.rjust(w) for h, w in zip(heads, widths, strict=True)))
    for players in (int(p) for p in args.players.split(",")):
        base = engine(players, args.seconds)
        pz = pettingzoo(players, args.seconds)
        gym = gymnasium_env(players, args.seconds)
        cells = (f"{players}", f"{base:.0f}", f"{pz:.0f}", f"{pz / base:.2f}")
        cells += (f"{gym:.0f}", f"{gym / base:.2f}")
        print(" ".join(c.rjust(w) for c, w in zip(cells, widths, strict=True)))


if __name__ == "__main__":
    main()
