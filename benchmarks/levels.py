"""How long a move takes at each strength level, against the planner in the same run.

    python benchmarks/levels.py [--rounds 8] [--players 4] [--preset classic] [--seed 5]

Collects the real decisions of ``--rounds`` single rounds played by ``planner`` bots (seats
with a choice, as in `search.py`), then asks each bot for its move at every one of them:
the baseline bots and the strength levels, weakest first (`mextrain.search.BY_STRENGTH`),
each with a fresh bot and generator seeded alike. It prints, per bot, the median time a
move, its slowest tenth (the 90th percentile), the slowest move, and the median as a
multiple of the planner's, measured on the same decisions in the same run: on a shared
machine compare the ratios, not the raw figures.

Times are the process's CPU time, not the wall clock (the machine may be shared). The
levels' budgets are iterations, so their moves (and their work) do not depend on the
machine; the 3 s cap the terminal and web games put on them (`cap_think_time`) is left
off, as the simulator leaves it off.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from mextrain.bots import make_bot
from mextrain.search import BY_STRENGTH
from search import decisions  # (benchmarks/search.py)

#: the process's CPU time: on a machine shared with other work the wall clock measures
#: the others too
clock = time.process_time


def percentile(values: list[float], share: float) -> float:
    """The value below which ``share`` of ``values`` fall (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


def move_times(name: str, found: list, seed: int) -> list[float]:
    """Seconds of CPU time ``name`` takes for its move at each decision of ``found``."""
    bot = make_bot(name)
    rng = random.Random(seed)
    times = []
    for _state, view in found:
        start = clock()
        bot.act(view, rng)
        times.append(clock() - start)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=8, help="rounds of planners to read")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--preset", default="classic")
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument(
        "--bots",
        default=",".join(BY_STRENGTH),
        help="bots to time, comma-separated (default: every level, weakest first)",
    )
    args = parser.parse_args()
    names = [name for name in args.bots.split(",") if name]
    if "planner" not in names:
        names.append("planner")  # the peer of the ratios

    found = decisions(args.preset, args.players, args.rounds, args.seed)
    print(
        f"{args.preset}, {args.players} seats, {args.rounds} rounds of planners: "
        f"{len(found)} decisions (CPU milliseconds a move)"
    )
    results = {name: move_times(name, found, args.seed) for name in names}
    planner = statistics.median(results["planner"])
    print(f"{'bot':<10} {'median':>9} {'slowest 10%':>12} {'slowest':>10} {'x planner':>10}")
    for name in names:
        times = [seconds * 1000 for seconds in results[name]]
        median = statistics.median(times)
        print(
            f"{name:<10} {median:>9.3f} {percentile(times, 0.9):>12.3f} {max(times):>10.1f} "
            f"{median / (planner * 1000):>10.1f}"
        )


if __name__ == "__main__":
    main()
