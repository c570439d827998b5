"""Policy iteration: fit the racer's move to the search's values, then play it; and again.

    python benchmarks/policy_fit.py [--preset classic] [--players 4] [--positions 10000]
                                    [--samples 32] [--steps 1] [--model linear|mlp]
                                    [--deals 2000]
                                    [--search-deals 300] [--search-iterations 200]
                                    [--seed 12] [--jobs 2]

The search bot plays one move better than its own playout policy (the ``racer``) by racing
the legal moves on determinizations. Policy iteration would fold that gain back into the
policy: this measures how much of it a richer move score can learn, what the search
gains from playing on with the better policy, and (``--steps``) whether further steps
gain more.

1. **Positions.** Rounds of one seat playing the policy being improved (the ``racer`` at
   the first step; at each later step the score the step before fitted), every seat in
   turn, against ``planner`` bots, played on the full state; at about a third of its
   decisions with two or more plays, every play is scored like the search scores it
   (``--samples`` determinizations from the seat's own view, each play then 16 plies of
   playout, the seat playing on with that same policy, and the static evaluation; the
   reward of `mextrain.search.ismcts`).
2. **Fit.** A move score linear in per-play features read from the seat's own knowledge
   (the racer's terms -- extras and their pips, planned pips, doubles it can or cannot
   cover, its marker -- and others: the train it goes on, the tile's pips, how many unseen
   tiles and how many of its own extras match the end it leaves on a shared train,
   whether that end is dead, whether it plays on the train of a seat close to going out,
   the tiles it can still play afterwards), chosen to maximise the searched value of its
   choices (a softmax policy, gradient ascent from the policy's own weights). Fitted on
   70% of the positions, it prints for the other 30% the mean value of the policy's
   choice, of the fitted score's, and of the search's (the best play on half the
   determinizations, valued on the other half): what a one-step search gains there.
   At the first step, the same fit restricted to the racer's own terms shows how much
   is just other weights. ``--model mlp`` (one step only) then fits a nonlinear score
   on the same features -- `HIDDEN` tanh units over the linear score, which it starts
   from -- the same way, prints its held-out value too, and plays it.
3. **Play.** Each step's fitted score (fitted again on all its positions) and the racer,
   each as the one seat against planners on the same deals, seat rotated (``--deals``
   deals); and the search bot at ``--search-iterations`` a move with the last step's
   score as its own playout policy against the default bot (``--search-deals``; 0 skips
   it).

Needs numpy (``pip install 'mextrain[bench]'``). This is research, not a bot: nothing in
``mextrain`` uses the fitted weights.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import time
from typing import Any

import numpy as np

from mextrain.bots.trains import TrainSearch
from mextrain.rules import MEXICAN, RoundState, Rules, iter_bits
from mextrain.search import FastPlannerPlayout, InfoState
from mextrain.search.bots import ISMCTSBot
from mextrain.search.evaluate import Evaluator
from mextrain.search.ismcts import finish
from mextrain.search.policy import _play_table

NAMES = (
    "extras_pips",
    "plan_pips",
    "extras",
    "cover_double",
    "uncover_block",
    "marker_own",
    "mexican",
    "other_train",
    "tile_pips",
    "rush_pips",
    "support",
    "unseen_new",
    "block_opp",
    "mobility",
    "is_double",
    "dead_end",
    "own_unseen_new",
)
#: the racer's score in these terms (`mextrain.bots.planner.RacerBot`)
RACER_TERMS = {
    "extras_pips": -1.0,
    "extras": -12.0,
    "cover_double": 10.0,
    "uncover_block": 4.0,
    "marker_own": 6.0,
    "mexican": 0.01,
}
RACER_NAMES = ("extras_pips", "plan_pips", "extras", "cover_double", "uncover_block",
               "marker_own", "mexican")  # fmt: skip
DEPTH = 16
SAMPLE_SHARE = 0.35


def unseen_tiles(state: RoundState, seat: int) -> int:
    """The tiles ``seat`` cannot see: neither in its hand nor on the table (as a mask)."""
    ts = state.ts
    played = 1 << ts.double_id[state.engine]
    for train in state.trains:
        for tid in train:
            played |= 1 << tid
    return ts.all_mask & ~state.hands[seat] & ~played


def features(
    state: RoundState, tid: int, train: int, search: TrainSearch, unseen: int
) -> list[float]:
    """`NAMES` for the seat to move playing tile ``tid`` on ``train``: only its own hand
    and what is public (``unseen`` from `unseen_tiles`)."""
    ts = state.ts
    pm = ts.pip_mask
    seat = state.seat
    hand = state.hands[seat]
    own_end = state.ends[seat]
    own = train == seat
    low = 1 << tid
    total = ts.pip_sum[tid]
    left = hand ^ low
    if own:
        count, plan_pips, used = search.best(left, total - own_end)
    else:
        count, plan_pips, used = search.best_without(hand, own_end, low)
    is_double = bool(low & ts.double_mask)
    cover = is_double and bool(left & pm[total >> 1])
    uncover = is_double and not cover and state.rules.open_doubles_block
    mexican = train == MEXICAN
    other = not own and not mexican
    new_end = total - state.ends[train]
    ends_here = (unseen & pm[new_end]).bit_count()
    support = (left & ~used & pm[new_end]).bit_count() if not own else 0
    dead = not own and ends_here == 0 and not left & pm[new_end]
    sizes = [h.bit_count() for h in state.hands]
    rush = any(sizes[s] <= 2 for s in range(state.n) if s != seat)
    ends = list(state.ends)
    ends[train] = new_end
    reach = pm[ends[seat]] | pm[ends[MEXICAN]]
    marked = state.markers & ~(1 << seat)
    while marked:
        bit = marked & -marked
        reach |= pm[ends[bit.bit_length() - 1]]
        marked ^= bit
    return [
        ts.pips_of(hand) - total - plan_pips,
        plan_pips,
        hand.bit_count() - 1 - count,
        float(cover),
        float(uncover),
        float(own and state.markers >> seat & 1),
        float(mexican),
        float(other),
        total,
        total if rush else 0,
        support,
        ends_here if not own else 0,
        float(other and sizes[train] <= 3),
        (left & reach).bit_count(),
        float(is_double),
        float(dead),
        ends_here if own else 0,
    ]


class ScoredPlayout(FastPlannerPlayout):
    """Seat ``seat`` plays the play with the best linear score of its `features`; the
    other seats play the planner's move."""

    def __init__(self, weights: np.ndarray, seat: int) -> None:
        super().__init__()
        self.weights = [float(w) for w in weights]
        self.own_seat = seat
        self._trains: TrainSearch | None = None

    def train_search(self, state: RoundState) -> TrainSearch:
        """The train search of this playout's own moves (its memo renewed when full)."""
        search = self._trains
        if search is None or search.ts is not state.ts or len(search._memo) > 200_000:
            search = self._trains = TrainSearch(state.ts)
        return search

    def choose(
        self, state: RoundState, plays: tuple[tuple[int, int], ...], hand: int | None = None
    ) -> tuple[int, int]:
        if state.seat != self.own_seat or hand is not None:
            return super().choose(state, plays, hand)
        search = self.train_search(state)
        unseen = unseen_tiles(state, state.seat)
        best, best_score = (-1, 0), -math.inf
        for train, mask in plays:
            for tid in iter_bits(mask):
                f = features(state, tid, train, search, unseen)
                score = sum(w * x for w, x in zip(self.weights, f, strict=True))
                if score > best_score:
                    best_score, best = score, (tid, train)
        return best


#: hidden units of the nonlinear move score (``--model mlp``)
HIDDEN = 16

#: a nonlinear move score: on the features divided by ``scale``, ``x @ w + tanh(x @ W + b)
#: @ v`` (`fit_mlp`)
Net = dict[str, list[Any]]


def net_scores(net: Net | dict[str, np.ndarray], feats: np.ndarray) -> np.ndarray:
    """The move score of ``net`` for each row of features (the last axis)."""
    x = feats / np.asarray(net["scale"])
    hidden = np.tanh(x @ np.asarray(net["W"]) + np.asarray(net["b"]))
    scores: np.ndarray = x @ np.asarray(net["w"]) + hidden @ np.asarray(net["v"])
    return scores


class NetPlayout(ScoredPlayout):
    """`ScoredPlayout` with a nonlinear move score (`Net`)."""

    def __init__(self, net: Net, seat: int) -> None:
        super().__init__(np.zeros(len(NAMES)), seat)
        self.net = {key: np.array(value) for key, value in net.items()}

    def choose(
        self, state: RoundState, plays: tuple[tuple[int, int], ...], hand: int | None = None
    ) -> tuple[int, int]:
        if state.seat != self.own_seat or hand is not None:
            return FastPlannerPlayout.choose(self, state, plays, hand)
        search = self.train_search(state)
        unseen = unseen_tiles(state, state.seat)
        cands = [(tid, train) for train, mask in plays for tid in iter_bits(mask)]
        x = np.array([features(state, tid, train, search, unseen) for tid, train in cands])
        return cands[int(net_scores(self.net, x).argmax())]


Position = tuple[list[list[float]], list[list[float]], int]  # features, values, racer's


#: a policy `_base` makes: the racer (None), a linear move score's weights, or a `Net`
Policy = list[float] | Net | None


def _base(weights: Policy, seat: int) -> FastPlannerPlayout:
    """The policy being improved, for ``seat``: the fitted score with ``weights`` (linear,
    or a `Net`), else the racer (the other seats play the planner's moves either way)."""
    if weights is None:
        return FastPlannerPlayout.for_seat(seat, "racer")
    if isinstance(weights, dict):
        return NetPlayout(weights, seat)
    return ScoredPlayout(np.array(weights), seat)


def _positions(job: tuple[str, int, int, int, int, Policy]) -> list[Position]:
    preset, players, count, samples, seed, weights = job
    rules = Rules.preset(preset)
    rng = random.Random(seed)
    evaluator = Evaluator()
    table = _play_table(rules.max_pip, players)
    search = TrainSearch(RoundState.new(rules, players, 0, rng).ts)
    out: list[Position] = []
    r = 0
    while len(out) < count:
        me = r % players
        r += 1
        state = RoundState.new(rules, players, rng.randrange(rules.round_count), rng)
        game = _base(weights, me)
        inner = _base(weights, me)
        while state.ended is None and len(out) < count:
            plays = state.legal_plays()
            cands = [(tid, train) for train, mask in plays for tid in iter_bits(mask)]
            if state.seat == me and len(cands) >= 2 and rng.random() < SAMPLE_SHARE:
                info = InfoState(state.view(me), rng)
                unseen = unseen_tiles(state, me)
                feats = [features(state, tid, train, search, unseen) for tid, train in cands]
                values: list[list[float]] = [[] for _ in cands]
                for _ in range(samples):
                    base = info.sample(rng)
                    for i, (tid, train) in enumerate(cands):
                        s = base.copy()
                        s.apply(table[tid][train + 1])
                        reward, _w, _s = finish(s, inner, rng, DEPTH, table, evaluator, 0.25, 50.0)
                        values[i].append(reward[me])
                out.append((feats, values, cands.index(game.choose(state, plays))))
            game.move(state, table)
    return out


def _pack(
    positions: list[Position], names: tuple[str, ...]
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    cols = [NAMES.index(n) for n in names]
    k = max(len(p[0]) for p in positions)
    n = len(positions)
    feats = np.zeros((n, k, len(cols)))
    value = np.zeros((n, k))
    half_a = np.zeros((n, k))
    half_b = np.zeros((n, k))
    valid = np.zeros((n, k), bool)
    racer = np.zeros(n, int)
    for j, (f, v, r) in enumerate(positions):
        arr = np.array(v)
        h = arr.shape[1] // 2
        m = len(f)
        feats[j, :m] = np.array(f)[:, cols]
        value[j, :m] = arr.mean(1)
        half_a[j, :m] = arr[:, :h].mean(1)
        half_b[j, :m] = arr[:, h:].mean(1)
        valid[j, :m] = True
        racer[j] = r
    return feats, value, half_a, half_b, valid, racer


def fit(feats: np.ndarray, value: np.ndarray, valid: np.ndarray, start: np.ndarray) -> np.ndarray:
    """Weights that maximise the mean value of a softmax policy's choices (Adam, from
    ``start``, on standardised features); returned in the features' own units."""
    scale = feats[valid].std(0)
    scale[scale == 0] = 1.0
    x = feats / scale
    w = start * scale
    centred = value - (value * valid).sum(1, keepdims=True) / valid.sum(1, keepdims=True)
    temp = 0.02
    m1 = np.zeros_like(w)
    m2 = np.zeros_like(w)
    for t in range(1, 2001):
        s = np.where(valid, x @ w / temp, -1e18)
        p = np.exp(s - s.max(1, keepdims=True)) * valid
        p /= p.sum(1, keepdims=True)
        mean = (p * centred).sum(1, keepdims=True)
        grad = np.einsum("pk,pkd->d", p * (centred - mean), x) / len(x) / temp
        m1 = 0.9 * m1 + 0.1 * grad
        m2 = 0.999 * m2 + 0.001 * grad * grad
        w = w + 0.05 * (m1 / (1 - 0.9**t)) / (np.sqrt(m2 / (1 - 0.999**t)) + 1e-8)
    result: np.ndarray = w / scale
    return result


def fit_mlp(
    feats: np.ndarray, value: np.ndarray, valid: np.ndarray, linear: np.ndarray, seed: int = 0
) -> Net:
    """A nonlinear move score (`Net`, `HIDDEN` tanh units over a linear one that starts as
    the fitted ``linear`` weights) chosen as `fit` chooses: the mean value of a softmax
    policy's choices, by Adam, with a little weight decay on the hidden units."""
    scale = feats[valid].std(0)
    scale[scale == 0] = 1.0
    x = feats / scale
    n, k, d = x.shape
    flat = x.reshape(-1, d)
    rng = np.random.default_rng(seed)
    params = [linear * scale, rng.normal(0.0, 0.3, (d, HIDDEN)), np.zeros(HIDDEN), np.zeros(HIDDEN)]
    m1 = [np.zeros_like(q) for q in params]
    m2 = [np.zeros_like(q) for q in params]
    centred = value - (value * valid).sum(1, keepdims=True) / valid.sum(1, keepdims=True)
    temp = 0.02
    for t in range(1, 1001):
        w, W, b, v = params
        hidden = np.tanh(flat @ W + b)  # (n k, HIDDEN)
        s = np.where(valid, (flat @ w + hidden @ v).reshape(n, k) / temp, -1e18)
        p = np.exp(s - s.max(1, keepdims=True)) * valid
        p /= p.sum(1, keepdims=True)
        mean = (p * centred).sum(1, keepdims=True)
        g = (p * (centred - mean)).reshape(-1) / n / temp  # d(objective)/d(score)
        dh = g[:, None] * v * (1 - hidden * hidden)
        grads = [
            flat.T @ g,
            flat.T @ dh - 1e-4 * W,
            dh.sum(0),
            hidden.T @ g - 1e-4 * v,
        ]
        for i, grad in enumerate(grads):
            m1[i] = 0.9 * m1[i] + 0.1 * grad
            m2[i] = 0.999 * m2[i] + 0.001 * grad * grad
            step = 0.05 * (m1[i] / (1 - 0.9**t)) / (np.sqrt(m2[i] / (1 - 0.999**t)) + 1e-8)
            params[i] = params[i] + step
    w, W, b, v = params
    return {"scale": scale.tolist(), "w": w.tolist(), "W": W.tolist(), "b": b.tolist(),
            "v": v.tolist()}  # fmt: skip


def _choose(feats: np.ndarray, valid: np.ndarray, w: np.ndarray) -> np.ndarray:
    picked: np.ndarray = np.where(valid, feats @ w, -np.inf).argmax(1)
    return picked


def _value(value: np.ndarray, picks: np.ndarray) -> float:
    return float(value[np.arange(len(value)), picks].mean())


def _racer_start(names: tuple[str, ...]) -> np.ndarray:
    return np.array([RACER_TERMS.get(n, 0.0) for n in names])


def _play(job: tuple[str, int, int, int, Policy, int | None]) -> list[float]:
    """Win shares of the one seat (fitted score, or the racer with ``None``; with
    ``iterations`` the search bot playing on with it) on deals ``range(first, first +
    count)``, each with the seat in every place."""
    preset, players, first, count, weights, iterations = job
    rules = Rules.preset(preset)
    table = _play_table(rules.max_pip, players)
    shares = []
    for d in range(first, first + count):
        rng = random.Random(1_000_003 * 7 + d)
        base = RoundState.new(rules, players, rng.randrange(rules.round_count), rng)
        for me in range(players):
            state = base.copy()
            policy = _base(weights, me)
            bot = None
            if iterations is not None:
                bot = ISMCTSBot(iterations=iterations)
                if weights is not None:
                    bot._policy = policy  # the search plays on with the fitted score
            others = FastPlannerPlayout()
            bot_rng = random.Random(d * 31 + me)
            while state.ended is None:
                if state.seat != me:
                    others.move(state, table)
                elif bot is None:
                    policy.move(state, table)
                else:
                    legal = state.legal_actions()
                    one = len(legal) == 1
                    state.apply(legal[0] if one else bot.act(state.view(me), bot_rng))
            scores = state.scores()
            assert scores is not None
            best = min(scores)
            shares.append(1.0 / scores.count(best) if scores[me] == best else 0.0)
    return shares


def _paired(a: list[float], b: list[float]) -> str:
    d = [x - y for x, y in zip(a, b, strict=True)]
    mean = sum(d) / len(d)
    se = math.sqrt(sum((x - mean) ** 2 for x in d) / (len(d) - 1) / len(d))
    return (
        f"{sum(a) / len(a):.4f} against {sum(b) / len(b):.4f} over {len(a)} rounds: "
        f"{mean:+.4f} (standard error {se:.4f})"
    )


def _run(pool: Any, jobs: int, job: Any, count: int, *rest: Any) -> list[Any]:
    chunks = [count // jobs + (i < count % jobs) for i in range(jobs)]
    starts = [sum(chunks[:i]) for i in range(jobs)]
    parts = pool.map(
        job, [(*rest[:2], s, c, *rest[2:]) for s, c in zip(starts, chunks, strict=True)]
    )
    return [x for part in parts for x in part]


def _step(pool: Any, a: argparse.Namespace, step: int, base: Policy) -> Policy:
    """One step of policy iteration from ``base`` (the racer with ``None``): its positions
    scored by the search playing on with it, the held-out report, and the fitted weights."""
    started = time.perf_counter()
    per = [a.positions // a.jobs + (i < a.positions % a.jobs) for i in range(a.jobs)]
    seed = a.seed * 1000 + 100 * (step - 1)
    jobs = [(a.preset, a.players, n, a.samples, seed + i, base) for i, n in enumerate(per)]
    positions = [p for part in pool.map(_positions, jobs) for p in part]
    print(f"step {step}: {len(positions)} positions ({time.perf_counter() - started:.0f} s)")
    cut = int(len(positions) * 0.7)
    # the racer's own terms alone: only the first step's question (how much is other weights)
    sets = ((NAMES, "all features"), (RACER_NAMES, "the racer's terms"))
    for names, label in sets if base is None else sets[:1]:
        tr = _pack(positions[:cut], names)
        te = _pack(positions[cut:], names)
        start = _racer_start(names) if base is None else np.array(base)
        w = fit(tr[0], tr[1], tr[4], start)
        feats, value, half_a, half_b, valid, chosen = te
        searched = np.where(valid, half_a, -np.inf).argmax(1)
        print(
            f"held out, {label}: the base policy {_value(value, chosen):.4f}, fitted "
            f"{_value(value, _choose(feats, valid, w)):.4f}; the search's pick (half "
            f"the samples) valued on the other half {_value(half_b, searched):.4f}, "
            f"the base policy's there {_value(half_b, chosen):.4f}"
        )
        if a.model == "mlp" and names is NAMES:
            net = fit_mlp(tr[0], tr[1], tr[4], w)
            picks = np.where(valid, net_scores(net, feats), -np.inf).argmax(1)
            print(f"held out, {HIDDEN} hidden units over them: {_value(value, picks):.4f}")
    every = _pack(positions, NAMES)
    start = _racer_start(NAMES) if base is None else np.array(base)
    weights = fit(every[0], every[1], every[4], start)
    shown = ", ".join(f"{n} {w:.2f}" for n, w in zip(NAMES, weights, strict=True))
    print(f"step {step} weights (all positions): {shown}")
    if a.model == "mlp":
        return fit_mlp(every[0], every[1], every[4], weights)
    return [float(x) for x in weights]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--preset", default="classic")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--positions", type=int, default=10_000)
    parser.add_argument("--samples", type=int, default=32, help="determinizations a position")
    parser.add_argument("--steps", type=int, default=1, help="steps of policy iteration")
    parser.add_argument(
        "--model", choices=("linear", "mlp"), default="linear", help="the move score fitted"
    )
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--search-deals", type=int, default=300)
    parser.add_argument("--search-iterations", type=int, default=200)
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument("--jobs", type=int, default=2)
    a = parser.parse_args()
    if a.model == "mlp" and a.steps != 1:
        parser.error("--model mlp fits one step only")
    started = time.perf_counter()
    with multiprocessing.Pool(a.jobs) as pool:
        steps: list[Policy] = [None]
        for step in range(1, a.steps + 1):
            steps.append(_step(pool, a, step, steps[-1]))
        alone = [_run(pool, a.jobs, _play, a.deals, a.preset, a.players, w, None) for w in steps]
        for step in range(1, len(steps)):
            print(f"alone against planners, step {step}: fitted {_paired(alone[step], alone[0])}")
            if step > 1:
                print(f"  against step {step - 1}: {_paired(alone[step], alone[step - 1])}")
        if a.search_deals:
            it = a.search_iterations
            last = steps[-1]
            on_fitted = _run(pool, a.jobs, _play, a.search_deals, a.preset, a.players, last, it)
            default = _run(pool, a.jobs, _play, a.search_deals, a.preset, a.players, None, it)
            print(f"search ({it} iterations) playing on with the fitted score of step "
                  f"{a.steps}: {_paired(on_fitted, default)}")  # fmt: skip
    print(f"{time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
