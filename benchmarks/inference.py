"""How well the resampler's deals match the hidden truth, per inference setting.

    python benchmarks/inference.py [--positions 12] [--samples 60] [--players 4]
                                   [--preset classic] [--decisions 3,8]

Plays rounds with ``planner`` bots; at seat 0's ``k``-th decision (each of ``--decisions``)
it builds the seat's `InfoState` under each setting, draws ``--samples`` determinizations
and compares them with the real hidden tiles. For every unseen tile (in another hand or
in the boneyard) it counts the share of samples that put it where it really is:

- **right**: that share, averaged: how many tiles a sample puts in the right place;
- **log score**: the mean natural log of that share (add-half smoothing over the
  ``players`` places a tile can be in). A proper scoring rule: samples that crowd onto a
  few deals are punished for every tile they are sure of and wrong about, so a sampler
  that is not better than the plain one here has not learnt anything usable;
- **train** and **own**: what the samples make of the other seats' prospects -- the mean
  length of the best personal train each could still lay from its train's open end, and
  the share that holds a tile for its own train -- next to the truth's (the ``truth``
  row). Samples that get these wrong make the opponents look weaker or stronger than
  they are, whatever their score;
- **ms**: building the `InfoState` and drawing the samples, per position.

The settings: ``plain`` (voids only, exact where tractable), ``planner`` (recent plays
read as the planner's, every play explained where possible -- the ``infer=planner``
defaults), the same chain tempered (``beta``) and with more steps between samples, and
the whole history (``history``) hard and tempered.
"""

from __future__ import annotations

import argparse
import math
import random
import time
from collections.abc import Callable

from mextrain.bots import make_bot
from mextrain.bots.trains import TrainSearch
from mextrain.rules import RoundState, Rules, SeatView, iter_bits
from mextrain.search import FastPlannerPlayout, InfoState

Maker = Callable[[SeatView, random.Random], InfoState]


def position(preset: str, players: int, seed: int, skip: int) -> RoundState | None:
    """Seat 0's ``skip``-th decision (0 = its first) in a round of planners."""
    rules = Rules.preset(preset)
    rng = random.Random(seed)
    state = RoundState.new(rules, players, 0, rng, starter=rng.randrange(players))
    bot = make_bot("planner")
    seen = 0
    while not state.is_over:
        legal = state.legal_actions()
        if len(legal) == 1:
            state.apply(legal[0])
            continue
        if state.current_seat == 0:
            if seen == skip:
                return state
            seen += 1
        state.apply(bot.act(state.view(state.current_seat), rng))
    return None


def score(true: RoundState, samples: list[RoundState]) -> tuple[float, float, int]:
    """(sum of right shares, sum of log scores, tiles) over seat 0's unseen tiles."""
    n = true.n
    places = n  # the other n - 1 hands and the boneyard
    where = {tid: seat for seat in range(1, n) for tid in iter_bits(true.hands[seat])}
    for tid in true.boneyard[true.bone_pos :]:
        where[tid] = n
    right = logs = 0.0
    for tid, place in where.items():
        bit = 1 << tid
        if place < n:
            hits = sum(1 for s in samples if s.hands[place] & bit)
        else:
            hits = sum(1 for s in samples if not any(h & bit for h in s.hands))
        right += hits / len(samples)
        logs += math.log((hits + 0.5) / (len(samples) + 0.5 * places))
    return right, logs, len(where)


def prospects(state: RoundState, search: TrainSearch) -> tuple[float, float]:
    """Sums over seats 1.. of (best personal train length, holds a tile for its train)."""
    train = own = 0.0
    for seat in range(1, state.n):
        hand, end = state.hands[seat], state.ends[seat]
        train += search.best(hand, end)[0]
        own += bool(hand & state.ts.pip_mask[end])
    return train, own


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=12)
    parser.add_argument("--samples", type=int, default=60)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--preset", default="classic")
    parser.add_argument("--decisions", default="3,8")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    model = FastPlannerPlayout()
    settings: dict[str, Maker] = {
        "plain": lambda v, r: InfoState(v, r),
        "planner (12 steps)": lambda v, r: InfoState(v, r, model=model),
        "planner, beta 2 (60 steps)": lambda v, r: InfoState(
            v, r, model=model, beta=2.0, model_swaps=60
        ),
        "history (40 steps)": lambda v, r: InfoState(
            v, r, model=model, depth=30, history=True, settle=1500, model_swaps=40
        ),
        "history, beta 2 (150 steps)": lambda v, r: InfoState(
            v, r, model=model, depth=30, history=True, settle=1500, model_swaps=150, beta=2.0
        ),
    }
    print(
        f"{args.preset}, {args.players} seats, {args.positions} positions, "
        f"{args.samples} samples each\n"
    )
    head = f"{'decision':>8}  {'setting':<28} {'right':>6} {'log score':>9}"
    print(f"{head} {'train':>6} {'own':>6} {'ms':>7}")
    for skip in (int(k) for k in args.decisions.split(",")):
        found = [
            p
            for seed in range(args.seed, args.seed + 10 * args.positions)
            if (p := position(args.preset, args.players, seed, skip)) is not None
        ][: args.positions]
        search = TrainSearch(found[0].ts)
        others = sum(p.n - 1 for p in found)
        train = own = 0.0
        for true in found:
            t, o = prospects(true, search)
            train, own = train + t, own + o
        line = f"{skip:>8}  {'truth':<28} {'':>6} {'':>9}"
        print(f"{line} {train / others:6.2f} {own / others:6.3f}")
        for name, make in settings.items():
            right = logs = 0.0
            tiles = 0
            seconds = 0.0
            train = own = 0.0
            for k, true in enumerate(found):
                rng = random.Random(k)
                start = time.perf_counter()
                info = make(true.view(0), rng)
                samples = [info.sample(rng) for _ in range(args.samples)]
                seconds += time.perf_counter() - start
                r, lg, t = score(true, samples)
                right, logs, tiles = right + r, logs + lg, tiles + t
                for sample in samples:
                    t, o = prospects(sample, search)
                    train, own = train + t / len(samples), own + o / len(samples)
            ms = 1000 * seconds / len(found)
            line = f"{skip:>8}  {name:<28} {right / tiles:6.3f} {logs / tiles:9.3f}"
            print(f"{line} {train / others:6.2f} {own / others:6.3f} {ms:7.0f}")


if __name__ == "__main__":
    main()
