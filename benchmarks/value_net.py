"""Fit the search's value network (`mextrain.search.evaluate`, ``value=net``) and measure it.

    python benchmarks/value_net.py [--preset classic] [--players 4] [--rounds 6000]
                                   [--samples 24] [--hidden 12] [--epochs 30]
                                   [--seed 101] [--parts 4] [--jobs 2] [--write]

The rounds are played in ``--parts`` parts, part ``j`` with seed ``--seed + j`` (the same
examples whatever ``--jobs``, the number of processes). The shipped networks (each command
with ``--write``):

    python benchmarks/value_net.py --preset classic --players 4 --rounds 6000 --seed 101
    python benchmarks/value_net.py --preset classic --players 2 --rounds 3000 --seed 301 --parts 1
    python benchmarks/value_net.py --preset relaxed --players 2 --rounds 3000 --seed 201 --parts 1
    python benchmarks/value_net.py --preset cardinal --players 4 --rounds 3000 --seed 401 --parts 1

Needs NumPy and SciPy (``pip install -e ".[bench]"``).

The examples are made as `benchmarks/evaluation.py` makes them: rounds between
``planner`` bots; at a random sixth or so of the decisions with a choice, ``--samples``
determinizations from the deciding seat's `InfoState`, each played to the round's end
with the planner playout (the deciding seat as the ``racer``). An example is one
determinization: every seat's `Evaluator.rich_features` and each seat's win share in
its playout.

The network scores each seat with the same small function of its own inputs (one hidden
layer of tanh units plus a linear term), and the seats' chances are the softmax of those
scores -- the conditional logit of the linear evaluation, with a non-linear utility. It
is fitted by Adam on the cross-entropy against the win shares, on five sixths of the
positions; the rest measure it, next to the linear logit refitted (BFGS) on the same
examples with its own features (`FEATURES`): the log loss per determinization and the error per
iteration for the seat to move (see `benchmarks/evaluation.py`).

``--write`` puts the fitted network into ``src/mextrain/search/nets.json`` under
``preset/players``, keeping the others.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

from evaluation import positions  # (benchmarks/evaluation.py, beside this script)
from mextrain.search.evaluate import FEATURES

NETS = Path(__file__).resolve().parent.parent / "src" / "mextrain" / "search" / "nets.json"

Arrays = tuple[np.ndarray, np.ndarray, np.ndarray]  # features, win shares, deciding seats


def examples(preset: str, players: int, rounds: int, samples: int, seed: int) -> Arrays:
    """The examples of ``rounds`` rounds (`evaluation.positions` with the network's
    inputs): positions x samples x seats x inputs, the win shares (positions x samples x
    seats) and each position's deciding seat."""
    found = positions(preset, players, rounds, samples, seed, read="rich_features")
    return (
        np.array([feats for feats, _, _ in found], dtype=np.float32),
        np.array([wins for _, wins, _ in found], dtype=np.float32),
        np.array([mover for _, _, mover in found]),
    )


def softmax(u: np.ndarray) -> np.ndarray:
    u = u - u.max(-1, keepdims=True)
    e = np.exp(u)
    return e / e.sum(-1, keepdims=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="classic")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=6000)
    parser.add_argument("--samples", type=int, default=24)
    parser.add_argument("--hidden", type=int, default=12)
    parser.add_argument("--epochs", type=int, default=30)
    parser.add_argument("--seed", type=int, default=101)
    parser.add_argument("--parts", type=int, default=4)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    n, count = args.players, args.parts
    started = time.time()
    shares = [args.rounds // count + (j < args.rounds % count) for j in range(count)]
    with ProcessPoolExecutor(args.jobs) as pool:
        parts = list(
            pool.map(
                examples,
                [args.preset] * count,
                [n] * count,
                shares,
                [args.samples] * count,
                [args.seed + j for j in range(count)],
            )
        )
    x = np.concatenate([p[0] for p in parts]).astype(np.float64)
    z = np.concatenate([p[1] for p in parts]).astype(np.float64)
    movers = np.concatenate([p[2] for p in parts])
    count, samples, _, width = x.shape
    print(
        f"{args.preset}, {n} seats: {count} positions x {samples} samples"
        f" ({time.time() - started:.0f} s to play)"
    )
    order = np.random.RandomState(0).permutation(count)
    train, test = order[: count * 5 // 6], order[count * 5 // 6 :]
    mover = np.zeros((count, 1, n))
    mover[np.arange(count), 0, movers] = 1.0
    value = z.mean(1, keepdims=True)  # the positions' worth (mean over samples)

    def report(name: str, p: np.ndarray) -> None:
        loss = float(-(z[test] * np.log(p + 1e-12)).sum() / (len(test) * samples))
        err = float(((p - value[test]) ** 2 * mover[test]).sum(-1).mean())
        print(f"{name}: log loss {loss:.4f}; error per iteration {err:.4f} (seat to move)")

    print(f"uniform guess log loss {math.log(n):.4f}")
    spread = float(((z[test] - value[test]) ** 2 * mover[test]).sum(-1).mean())
    print(f"playout: error per iteration {spread:.4f} (seat to move)")

    # the linear logit on its own features (the first len(FEATURES), then the places)
    base = x[..., [*range(len(FEATURES)), *range(width - (n - 1), width)]]
    from scipy.optimize import minimize  # the bench extra: after --help, which needs none

    def logit_loss(w: np.ndarray) -> tuple[float, np.ndarray]:
        p = softmax(base[train] @ w)
        loss = -(z[train] * np.log(p + 1e-12)).sum() / (len(train) * samples)
        grad = np.einsum("psnf,psn->f", base[train], p - z[train]) / (len(train) * samples)
        return float(loss), grad

    w = minimize(logit_loss, np.zeros(base.shape[-1]), jac=True, method="BFGS").x
    report("logit (refitted)", softmax(base[test] @ w))

    # the network, on standardised inputs (folded back into the weights at the end)
    flat = x[train].reshape(-1, width)
    mu, sd = flat.mean(0), flat.std(0)
    sd[sd < 1e-6] = 1.0
    xs = (x - mu) / sd
    rng = np.random.RandomState(1)
    hidden = args.hidden
    params = [
        rng.randn(width, hidden) / math.sqrt(width),
        np.zeros(hidden),
        rng.randn(hidden) * 0.1,
        np.zeros(width),
    ]
    moments = [(np.zeros_like(q), np.zeros_like(q)) for q in params]
    step, batch = 0, 256
    for epoch in range(args.epochs):
        rate = 3e-3 if epoch < args.epochs * 0.6 else 1e-3 if epoch < args.epochs * 0.85 else 3e-4
        shuffled = rng.permutation(train)
        for k in range(0, len(shuffled), batch):
            rows = shuffled[k : k + batch]
            xb, zb = xs[rows], z[rows]
            w1, b1, w2, v = params
            h = np.tanh(xb @ w1 + b1)
            gu = (softmax(h @ w2 + xb @ v) - zb) / (len(rows) * samples)
            gh = gu[..., None] * w2 * (1 - h * h)
            grads = [
                np.einsum("psnd,psnh->dh", xb, gh) + 1e-5 * w1,
                gh.sum((0, 1, 2)),
                np.einsum("psnh,psn->h", h, gu) + 1e-5 * w2,
                np.einsum("psnd,psn->d", xb, gu),
            ]
            step += 1
            for q, g, (a, b) in zip(params, grads, moments, strict=True):
                a *= 0.9
                a += 0.1 * g
                b *= 0.999
                b += 0.001 * g * g
                q -= rate * (a / (1 - 0.9**step)) / (np.sqrt(b / (1 - 0.999**step)) + 1e-8)
    w1, b1, w2, v = params
    w1f, b1f, vf = w1 / sd[:, None], b1 - (mu / sd) @ w1, v / sd
    net = (
        tuple(tuple(round(float(a), 5) for a in w1f[:, j]) for j in range(hidden)),
        tuple(round(float(a), 5) for a in b1f),
        tuple(round(float(a), 5) for a in w2),
        tuple(round(float(a), 5) for a in vf),
    )
    h = np.tanh(x[test] @ np.array(net[0]).T + np.array(net[1]))
    utilities = h @ np.array(net[2]) + x[test] @ np.array(net[3])
    report(f"net ({hidden} hidden units)", softmax(utilities))
    if args.write:
        write(args.preset, n, net)
        print(f"written to {NETS}")


def write(preset: str, players: int, net: tuple[object, ...]) -> None:
    """Put ``net`` into nets.json under ``preset/players``, keeping the others."""
    nets = json.loads(NETS.read_text()) if NETS.exists() else {}
    nets[f"{preset}/{players}"] = net
    body = ",\n".join(
        f"  {json.dumps(key)}: {json.dumps(nets[key], separators=(',', ':'))}"
        for key in sorted(nets)
    )
    NETS.write_text("{\n" + body + "\n}\n")


if __name__ == "__main__":
    main()
