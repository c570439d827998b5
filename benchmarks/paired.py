"""Two bots compared on the same games, by their per-deal difference.

Entry 0 is bot A in one job and bot B in the other; every other seat and every deal,
rotation and seed are the same, so the two jobs' games differ only by entry 0's play.
For each deal the script takes entry 0's mean win share over the deal's rotations, once
with A and once with B, and reports the mean of the per-deal differences with a Student t
interval over deals, beside each bot's own win rate and Wilson interval. Deals that are
easy or hard for everyone cancel in the difference, so it can separate two bots with
fewer rounds than comparing their intervals -- as far as the two jobs' per-deal results
go together (the script prints their correlation: the higher, the more the pairing helps;
for two search bots it was near 0, docs/BOTS.md).

    python benchmarks/paired.py --a "ismcts:iterations=200" --b planner \\
        --others planner,planner,planner --games 400 --seed 1001 --jobs 2

With an iteration budget the games are exactly repeatable; with ``time_ms`` they are not.
"""

from __future__ import annotations

import argparse
import statistics
import time

from mextrain.rules import Rules
from mextrain.sim import SimConfig, game_rules, run_games
from mextrain.sim.report import deal_means
from mextrain.sim.stats import mean_interval, wilson_interval


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--a", required=True, help="bot spec for entry 0 in the first job")
    parser.add_argument("--b", required=True, help="bot spec for entry 0 in the second job")
    parser.add_argument("--others", default="planner,planner,planner", help="other entries")
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1001)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    others = tuple(x for x in args.others.split(",") if x) if args.others else ()
    players = 1 + len(others)
    rules = game_rules(Rules.from_spec(args.rules), args.rounds)
    shares: list[list[float]] = []
    for spec in (args.a, args.b):
        config = SimConfig(rules, players, (spec, *others), args.games, args.seed)
        config.check()
        start = time.perf_counter()
        results = run_games(config, jobs=args.jobs)
        seconds = time.perf_counter() - start
        wins = sum(r.wins[0] for r in results)
        lo, hi = wilson_interval(wins, len(results))
        print(
            f"{spec}: win rate {wins / len(results):.3f} [{lo:.3f}, {hi:.3f}] over "
            f"{len(results)} games ({seconds:.0f} s)"
        )
        # entry 0's win share per deal (the same deals, in the same order, in both jobs)
        shares.append(deal_means(results, [r.wins[0] for r in results]))
    a, b = shares
    mean, lo, hi = mean_interval([x - y for x, y in zip(a, b, strict=True)])
    try:
        said = f"{statistics.correlation(a, b):.2f}"
    except statistics.StatisticsError:
        # a bot seated against copies of itself has the same share, 1/players, on every deal
        said = "n/a, one side is the same on every deal"
    print(
        f"A - B, paired over {len(a)} deals: {mean:+.3f} [{lo:+.3f}, {hi:+.3f}] "
        f"(per-deal correlation of A and B: {said})"
    )


if __name__ == "__main__":
    main()
