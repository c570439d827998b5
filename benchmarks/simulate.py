"""Speed of the simulator: random bots in one process, and with J worker processes.

    python benchmarks/simulate.py [--games 240] [--players 4] [--jobs 2] [--rounds 13]

Prints rounds and actions per second for, in the same run:

1. ``engine loop``: the same number of rounds played by a bare loop over the engine
   (`legal_actions` + `apply` with a random choice, no views, no bots, no bookkeeping):
   the engine's raw speed, the ceiling for everything else;
2. ``simulate, 1 job``: ``mextrain simulate`` with ``random`` bots in this process (views
   built for every real choice, duplicate deals, per-entry results), with its ratio
   against the bare loop;
3. ``simulate, J jobs``: the same job on a pool of J processes, with its speed-up over
   one job (on a 2-core machine shared with other work, 2 jobs cannot exceed 2x);
4. ``planner vs greedy``: the same job with the strong bots, for scale.

Each line also shows how many cores the job kept busy on average (CPU time of this process
and its worker processes over wall time): on a machine shared with other work, 2 jobs
only help when a second core is actually free. Compare ratios, not raw figures: machines
are noisy.
"""

from __future__ import annotations

import argparse
import random
import resource
import time
from collections.abc import Callable
from typing import TypeVar

from mextrain.rules import RoundState, Rules
from mextrain.sim import deal_for, simulate


def engine_loop(rules: Rules, players: int, deals: int, seed: int) -> tuple[int, int, float]:
    """Rounds and actions of random play straight on the engine, and the seconds taken."""
    rng = random.Random(seed)
    choice = rng.choice
    rounds = actions = 0
    start = time.perf_counter()
    for deal in range(deals):
        for _rotation in range(players):
            starter = None
            for k in range(rules.round_count):
                hands, boneyard, first = deal_for(rules, players, seed, deal, k)
                if first is not None:
                    starter = first
                elif starter is not None:
                    starter = (starter + 1) % players
                state = RoundState.from_deal(rules, players, k, hands, boneyard, starter)
                legal_actions, apply = state.legal_actions, state.apply
                while state.ended is None:
                    apply(choice(legal_actions()))
                actions += len(state.history)
                rounds += 1
    return rounds, actions, time.perf_counter() - start


T = TypeVar("T")


def cpu_seconds() -> float:
    """CPU time used so far by this process and its finished worker processes."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    workers = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + workers.ru_utime + workers.ru_stime


def timed(job: Callable[[], T]) -> tuple[T, float]:
    """The job's result and the cores it kept busy on average."""
    cpu, wall = cpu_seconds(), time.perf_counter()
    result = job()
    return result, (cpu_seconds() - cpu) / (time.perf_counter() - wall)


def line(
    label: str, rounds: int, actions: int, seconds: float, cores: float, note: str = ""
) -> None:
    print(
        f"{label:<24} {rounds / seconds:>10.1f} rounds/s {actions / seconds:>12.0f} actions/s"
        f" {cores:>5.2f} cores   {note}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=240, help="a multiple of --players")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=13)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    n = args.players
    bots = ["random"] * n
    rules = Rules.preset("classic", rounds=args.rounds) if args.rounds != 13 else Rules()
    print(f"classic, {n} players, {args.games} games of {args.rounds} round(s), seed {args.seed}")

    (rounds, actions, seconds), cores = timed(
        lambda: engine_loop(rules, n, args.games // n, args.seed)
    )
    raw = rounds / seconds
    line("engine loop", rounds, actions, seconds, cores)

    one, cores = timed(lambda: simulate(rules, n, bots, args.games, args.seed, jobs=1))
    ratio = one.rounds / one.seconds / raw
    line(
        "simulate, 1 job",
        one.rounds,
        one.actions,
        one.seconds,
        cores,
        f"{ratio:.2f}x the engine loop",
    )

    many, cores = timed(lambda: simulate(rules, n, bots, args.games, args.seed, jobs=args.jobs))
    ratio = (many.rounds / many.seconds) / (one.rounds / one.seconds)
    line(
        f"simulate, {args.jobs} jobs",
        many.rounds,
        many.actions,
        many.seconds,
        cores,
        f"{ratio:.2f}x one job",
    )

    strong = ["planner", "greedy"] * (n // 2) + ["random"] * (n % 2)
    games = max(n, args.games // 4 // n * n)
    slow, cores = timed(lambda: simulate(rules, n, strong, games, args.seed, jobs=1))
    ratio = (slow.rounds / slow.seconds) / (one.rounds / one.seconds)
    line(
        "planner vs greedy, 1 job",
        slow.rounds,
        slow.actions,
        slow.seconds,
        cores,
        f"{ratio:.2f}x random bots",
    )


if __name__ == "__main__":
    main()
