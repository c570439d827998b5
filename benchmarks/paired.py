"""Two bots compared on the same games: a paired difference, tighter than two intervals.

Entry 0 is bot A in one job and bot B in the other; every other seat and every deal,
rotation and seed are the same, so the two jobs' games differ only by entry 0's play.
For each deal the script takes entry 0's mean win share over the deal's rotations, once
with A and once with B, and reports the mean of the per-deal differences with a Student t
interval over deals, beside each bot's own win rate and Wilson interval. Deals that are
easy or hard for everyone cancel in the difference, so it separates two bots with fewer
rounds than comparing their intervals does (the script prints how correlated the two
jobs' per-deal results are: the higher, the more the pairing helps).

    python benchmarks/paired.py --a "ismcts:iterations=200" --b planner \\
        --others planner,planner,planner --games 400 --seed 1001 --jobs 2

With an iteration budget the games are exactly repeatable; with ``time_ms`` they are not.
"""

from __future__ import annotations

import argparse
import math
import time

from mextrain.rules import Rules
from mextrain.sim import SimConfig, game_rules, run_games
from mextrain.sim.games import GameResult
from mextrain.sim.stats import mean_interval, wilson_interval


def per_deal(results: list[GameResult]) -> dict[int, float]:
    """Entry 0's mean win share over each deal's rotations."""
    sums: dict[int, float] = {}
    counts: dict[int, int] = {}
    for r in results:
        sums[r.deal] = sums.get(r.deal, 0.0) + r.wins[0]
        counts[r.deal] = counts.get(r.deal, 0) + 1
    return {d: sums[d] / counts[d] for d in sums}


def correlation(xs: list[float], ys: list[float]) -> float:
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True))
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    return sxy / math.sqrt(sxx * syy) if sxx > 0 and syy > 0 else math.nan


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
    shares = []
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
        shares.append(per_deal(results))
    deals = sorted(shares[0])
    a = [shares[0][d] for d in deals]
    b = [shares[1][d] for d in deals]
    mean, lo, hi = mean_interval([x - y for x, y in zip(a, b, strict=True)])
    rho = correlation(a, b)
    # a bot seated against copies of itself has the same share, 1/players, on every deal
    said = "n/a, one side is the same on every deal" if math.isnan(rho) else f"{rho:.2f}"
    print(
        f"A - B, paired over {len(deals)} deals: {mean:+.3f} [{lo:+.3f}, {hi:+.3f}] "
        f"(per-deal correlation of A and B: {said})"
    )


if __name__ == "__main__":
    main()
