"""Speed of the exact train planner against a plain memoised search, on the same hands.

    python benchmarks/planner.py                    # everything, the naive search capped at 120 s
    python benchmarks/planner.py --naive-limit 10   # a quick run (more ratios are lower bounds)

Three groups of hands:

* random 15-16-tile hands from a double-12 set (a real deal): planner and naive search,
  median and worst time per hand;
* dense hands: 24 of the 28 double-6 tiles, 30 tiles of a double-9 set, the whole
  double-7 set (36 tiles) — the naive search takes seconds to minutes on these;
* the whole double-12 set (91 tiles) and the 90 without the engine, from every start:
  Eulerian hands, where the naive search has no chance (it is run once, capped);
* a sweep, planner only: random hands of every size from double-6 to double-18 sets;
* the step limit the planner bot gives each value (`EXACT_STEPS`): the steps random
  hands of 10 to 60 tiles take, and how long the limit takes to run out on the hardest
  hand known (the first 40 tiles of the double-12 set, from pip 3: minutes unbounded).

The naive search is the textbook one: depth-first over (open pip, tiles left) with a
dictionary of results. Both are run on the same hands in the same process, one after the
other, and the ratio is naive time / planner time. When the naive search hits its time
limit the ratio is printed as a lower bound (``>=``). Both answers are compared whenever
the naive search finishes.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence

from mextrain.bots.planner import EXACT_STEPS
from mextrain.planner.trails import PlanStepLimit, TrailSolver, unpack
from mextrain.rules import Tile, tile_set


class _OutOfTime(Exception):
    pass


def naive_value(hand: Sequence[Tile], start: int, limit: float) -> tuple[int, int] | None:
    """(tiles, pips) by plain memoised depth-first search; None past ``limit`` seconds."""
    tiles = list(hand)
    ends = [(t.low, t.high) for t in tiles]
    at = [[i for i, t in enumerate(tiles) if t.has(p)] for p in range(max(start, 0) + 31)]
    memo: dict[tuple[int, int], tuple[int, int]] = {}
    deadline = time.perf_counter() + limit
    calls = 0

    def best(pip: int, left: int) -> tuple[int, int]:
        nonlocal calls
        key = (pip, left)
        found = memo.get(key)
        if found is not None:
            return found
        calls += 1
        if not calls & 0xFFF and time.perf_counter() > deadline:
            raise _OutOfTime
        out = (0, 0)
        for i in at[pip]:
            if left >> i & 1:
                low, high = ends[i]
                n, p = best(high if pip == low else low, left & ~(1 << i))
                if (n + 1, p + low + high) > out:
                    out = (n + 1, p + low + high)
        memo[key] = out
        return out

    limit_before = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit_before, 10_000))
    try:
        return best(start, (1 << len(tiles)) - 1)
    except _OutOfTime:
        return None
    finally:
        sys.setrecursionlimit(limit_before)


def planner_train(hand: Sequence[Tile], start: int) -> tuple[int, int]:
    """The planner as `best_train` runs it (value and the train itself), without caches."""
    _, value = TrailSolver(sorted(hand)).best_trail(start)
    return unpack(value)


def timed(fn: Callable[[], tuple[int, int] | None]) -> tuple[float, tuple[int, int] | None]:
    t0 = time.perf_counter()
    out = fn()
    return time.perf_counter() - t0, out


def best_of(fn: Callable[[], tuple[int, int]], repeat: int) -> tuple[float, tuple[int, int]]:
    times = []
    out = (0, 0)
    for _ in range(repeat):
        t, out = timed(fn)  # type: ignore[assignment]
        times.append(t)
    return statistics.median(times), out


def ms(seconds: float) -> str:
    return f"{seconds * 1e3:,.3f} ms" if seconds < 1 else f"{seconds:,.2f} s"


def random_hands(samples: int, limit: float) -> None:
    rng = random.Random(1)
    full = tile_set(12).tiles
    cases = [(rng.sample(full, rng.choice((15, 16))), rng.randint(0, 12)) for _ in range(samples)]
    planner_times = []
    naive_times = []
    for hand, start in cases:
        t, got = timed(lambda: planner_train(hand, start))  # noqa: B023
        planner_times.append(t)
        n, want = timed(lambda: naive_value(hand, start, limit))  # noqa: B023
        naive_times.append(n)
        if want is not None and want != got:
            raise SystemExit(f"MISMATCH on {hand} from {start}: planner {got}, naive {want}")
    p_med = statistics.median(planner_times)
    n_med = statistics.median(naive_times)
    print(f"random 15-16-tile hands from double-12 ({samples} hands, same hands for both)")
    print(f"  planner: median {ms(p_med)}, worst {ms(max(planner_times))}")
    print(f"  naive:   median {ms(n_med)}, worst {ms(max(naive_times))}")
    print(f"  ratio of medians (naive / planner): {n_med / p_med:,.1f}x")


def dense_hands() -> list[tuple[str, list[Tile], int]]:
    rng = random.Random(7)
    out: list[tuple[str, list[Tile], int]] = []
    for k in range(2):
        hand = rng.sample(tile_set(6).tiles, 24)
        out.append((f"24 of the double-6 set #{k + 1}", hand, rng.randint(0, 6)))
    for k in range(2):
        hand = rng.sample(tile_set(9).tiles, 30)
        out.append((f"30 of the double-9 set #{k + 1}", hand, rng.randint(0, 9)))
    full7 = list(tile_set(7).tiles)
    out.append(("the whole double-7 set, start 7", full7, 7))
    out.append(("the whole double-7 set, start 0", full7, 0))
    return out


def dense(limit: float, repeat: int) -> None:
    print(f"\ndense hands (naive search capped at {limit:g} s; '>=' marks a capped ratio)")
    print(f"  {'hand':<34} {'tiles, pips':>12} {'planner':>12} {'naive':>12} {'ratio':>12}")
    for name, hand, start in dense_hands():
        p_time, got = best_of(lambda: planner_train(hand, start), repeat)  # noqa: B023
        n_time, want = timed(lambda: naive_value(hand, start, limit))  # noqa: B023
        if want is not None and want != got:
            raise SystemExit(f"MISMATCH on {name}: planner {got}, naive {want}")
        capped = want is None
        ratio = f"{'>=' if capped else ''}{n_time / p_time:,.0f}x"
        naive = f"{'>' if capped else ''}{ms(n_time)}"
        print(f"  {name:<34} {got[0]:>5}, {got[1]:>5} {ms(p_time):>12} {naive:>12} {ratio:>12}")


def eulerian(limit: float, repeat: int) -> None:
    full = list(tile_set(12).tiles)
    print("\nthe whole double-12 set and the 90 tiles without the engine, every start")
    worst = 0.0
    for start in range(13):
        for hand, size in ((full, 91), ([t for t in full if t != Tile(start, start)], 90)):
            t, got = best_of(lambda: planner_train(hand, start), repeat)  # noqa: B023
            if got[0] != size:
                raise SystemExit(f"the {size} tiles from {start} gave a train of {got[0]}")
            worst = max(worst, t)
    print(f"  planner: all tiles in one train from every start; worst {ms(worst)}")
    n_time, want = timed(lambda: naive_value(full, 12, limit))
    note = "finished" if want is not None else "did not finish"
    p_time, _ = best_of(lambda: planner_train(full, 12), repeat)
    print(
        f"  naive, 91 tiles from 12: {note} in {ms(n_time)}; "
        f"ratio {'>=' if want is None else ''}{n_time / p_time:,.0f}x"
    )


def sweep(samples: int) -> None:
    """The planner alone on hands of every density: the hard cases of a longest-trail
    search are neither the sparse nor the dense hands but those in between."""
    print(f"\nevery density, planner only ({samples} random hands per set, any size, any start)")
    print(f"  {'set':<10} {'median':>10} {'99th pct':>10} {'worst':>10}  worst hand")
    rng = random.Random(3)
    for max_pip in (6, 9, 12, 15, 18):
        full = tile_set(max_pip).tiles
        times = []
        for _ in range(samples):
            hand = rng.sample(full, rng.randint(1, len(full)))
            start = rng.randint(0, max_pip)
            t, _ = timed(lambda: planner_train(hand, start))  # noqa: B023
            times.append((t, len(hand), start))
        times.sort()
        worst = times[-1]
        print(
            f"  double-{max_pip:<3} {ms(times[len(times) // 2][0]):>10} "
            f"{ms(times[len(times) * 99 // 100][0]):>10} {ms(worst[0]):>10}  "
            f"{worst[1]} tiles from {worst[2]}"
        )


def step_counts(samples: int) -> None:
    """What the planner bot's bound leaves room for: the steps of one value (the searches'
    calls and the enumerations' steps) on random hands, against `EXACT_STEPS`."""
    print(f"\nsteps of one value against the planner bot's limit of {EXACT_STEPS:,}")
    print(f"  {'set':<10} {'median':>10} {'99th pct':>10} {'worst':>10}  over the limit")
    rng = random.Random(4)
    never = 10**15
    for max_pip in (12, 15, 18):
        full = tile_set(max_pip).tiles
        counts = []
        for _ in range(samples):
            hand = sorted(rng.sample(full, min(len(full), rng.randint(10, 60))))
            start = rng.randint(0, max_pip)
            solver = TrailSolver(hand, max_steps=never)
            solver.value(start)
            counts.append(never - (solver._steps_left or 0))
        counts.sort()
        over = sum(c > EXACT_STEPS for c in counts)
        print(
            f"  double-{max_pip:<3} {counts[len(counts) // 2]:>10,} "
            f"{counts[len(counts) * 99 // 100]:>10,} {counts[-1]:>10,}  {over} of {samples}"
        )
    hard = list(tile_set(12).tiles[:40])
    began = time.perf_counter()
    try:
        TrailSolver(hard, max_steps=EXACT_STEPS).value(3)
        print("  the hardest hand known finished within the limit")
    except PlanStepLimit:
        took = time.perf_counter() - began
        print(
            f"  the first 40 double-12 tiles from pip 3: the limit runs out in {ms(took)} "
            f"({took / EXACT_STEPS * 1e6:.2f} us a step)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--naive-limit", type=float, default=120.0, help="seconds per hand")
    parser.add_argument("--samples", type=int, default=300, help="random hands")
    parser.add_argument("--repeat", type=int, default=5, help="planner runs per dense hand")
    parser.add_argument("--sweep", type=int, default=400, help="hands per set, every density")
    parser.add_argument("--steps", type=int, default=500, help="hands per set, step counts")
    args = parser.parse_args()
    random_hands(args.samples, args.naive_limit)
    dense(args.naive_limit, args.repeat)
    eulerian(min(args.naive_limit, 20.0), args.repeat)
    sweep(args.sweep)
    step_counts(args.steps)


if __name__ == "__main__":
    main()
