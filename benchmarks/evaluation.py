"""Fit the search's static evaluation (`mextrain.search.evaluate`) and measure it.

    python benchmarks/evaluation.py [--players 4] [--preset classic] [--rounds 300]
                                    [--samples 24] [--seed 1] [--jobs 2]

Needs NumPy and SciPy (``pip install -e ".[bench]"``).

Plays rounds between ``planner`` bots. At a random sixth or so of the decisions with a
choice it builds the deciding seat's `InfoState`, draws ``--samples`` determinizations
and plays each to the round's end with the planner playout (the deciding seat as the
``racer``, as in the search). Each determinization is one training example: the
`Evaluator.features` of every seat and each seat's win share in that playout.

The weights maximise the likelihood of those outcomes under the conditional logit
(BFGS), on two thirds of the positions; the rest measure it:

- **log loss** per determinization against the outcome, next to the uniform guess's
  (``log n``) -- lower is better;
- **error per iteration**: what the searches care about. A search averages one value per
  iteration to estimate a position's worth, here the mean outcome over the position's
  samples. A playout's value (0 or 1) misses it by its spread; the evaluation's by its
  own spread plus its bias. Both are printed as mean squared errors, for the deciding
  seat and for all seats.

``shipped`` is what the evaluation uses for that preset now (`weights_for`). The last line
is the weight tuple for `WEIGHTS` (classic) or `RULE_WEIGHTS[preset]` in
``src/mextrain/search/evaluate.py``.
"""

from __future__ import annotations

import argparse
import math
import random
from concurrent.futures import ProcessPoolExecutor

import numpy as np

from mextrain.bots import make_bot
from mextrain.rules import RoundState, Rules
from mextrain.search import FastPlannerPlayout, InfoState
from mextrain.search.evaluate import FEATURES, Evaluator, weights_for
from mextrain.search.ismcts import win_shares

Example = tuple[list[list[list[float]]], list[list[float]], int]  # features, outcomes, mover


def positions(
    preset: str, players: int, rounds: int, samples: int, seed: int, read: str = "features"
) -> list[Example]:
    """The training examples of ``rounds`` rounds: per position read, each sample's
    features (the `Evaluator` method ``read``: ``features``, or ``rich_features`` for
    `benchmarks/value_net.py`) and each seat's win share in its playout, and the deciding
    seat."""
    rules = Rules.preset(preset)
    rng = random.Random(seed)
    bot = make_bot("planner")
    evaluator = Evaluator()
    out: list[Example] = []
    for _ in range(rounds):
        state = RoundState.new(
            rules,
            players,
            rng.randrange(rules.round_count),
            rng,
            starter=rng.randrange(players),
        )
        while not state.is_over:
            legal = state.legal_actions()
            if len(legal) == 1:
                state.apply(legal[0])
                continue
            view = state.view(state.current_seat)
            if rng.random() < 0.15:
                info = InfoState(view, rng)
                policy = FastPlannerPlayout.for_seat(view.seat, "racer")
                feats, wins = [], []
                for _ in range(samples):
                    sample = info.sample(rng)
                    feats.append(getattr(evaluator, read)(sample))
                    policy.playout(sample, rng)
                    scores = sample.scores()
                    assert scores is not None
                    wins.append(win_shares(scores))
                out.append((feats, wins, view.seat))
            state.apply(bot.act(view, rng))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--preset", default="classic")
    parser.add_argument("--rounds", type=int, default=300)
    parser.add_argument("--samples", type=int, default=24)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    n = args.players
    shares = [args.rounds // args.jobs + (j < args.rounds % args.jobs) for j in range(args.jobs)]
    with ProcessPoolExecutor(args.jobs) as pool:
        parts = pool.map(
            positions,
            [args.preset] * args.jobs,
            [n] * args.jobs,
            shares,
            [args.samples] * args.jobs,
            [args.seed * 1000 + j for j in range(args.jobs)],
        )
        data = [example for part in parts for example in part]
    x = np.array([feats for feats, _, _ in data])  # positions x samples x seats x features
    z = np.array([wins for _, wins, _ in data])  # positions x samples x seats
    mover = np.array([[[float(s == m) for s in range(n)]] for _, _, m in data])
    count = len(data)
    order = np.random.RandomState(0).permutation(count)
    train, test = order[: count * 2 // 3], order[count * 2 // 3 :]

    def probabilities(w: np.ndarray, rows: np.ndarray) -> np.ndarray:
        u = rows @ w
        u = u - u.max(-1, keepdims=True)
        p = np.exp(u)
        return p / p.sum(-1, keepdims=True)

    def loss(w: np.ndarray, idx: np.ndarray) -> float:
        p = probabilities(w, x[idx])
        return float(-(z[idx] * np.log(p + 1e-12)).sum() / (len(idx) * args.samples))

    from scipy.optimize import minimize  # the bench extra: after --help, which needs none

    fitted = minimize(lambda w: loss(w, train), np.zeros(x.shape[-1]), method="BFGS").x
    shipped = np.array(weights_for(n, Rules.preset(args.preset)))
    value = z[test].mean(1, keepdims=True)  # the positions' worth (mean over samples)
    print(
        f"{args.preset}, {n} seats: {count} positions x {args.samples} samples"
        f" ({len(test)} held out)"
    )
    print(f"uniform guess log loss {math.log(n):.4f}")
    playout_err = ((z[test] - value) ** 2 * mover[test]).sum(-1).mean()
    playout_all = ((z[test] - value) ** 2).mean()
    print(f"playout: error per iteration {playout_err:.4f} (seat to move), {playout_all:.4f} (all)")
    for name, w in (("fitted", fitted), ("shipped", shipped)):
        p = probabilities(w, x[test])
        err = ((p - value) ** 2 * mover[test]).sum(-1).mean()
        every = ((p - value) ** 2).mean()
        print(
            f"{name}: log loss {loss(w, test):.4f}; error per iteration {err:.4f} (seat to move),"
            f" {every:.4f} (all)"
        )
    names = [*FEATURES, *(f"behind {k}" for k in range(1, n))]
    print("weights:", ", ".join(f"{name} {w:+.3f}" for name, w in zip(names, fitted, strict=True)))
    print(f"    {n}: {tuple(round(float(w), 3) for w in fitted)},")


if __name__ == "__main__":
    main()
