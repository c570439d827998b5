"""A static evaluation of a full position: each seat's chance to win the round.

The searches can stop a playout after a few plies and score the position instead of
playing the round to its end (``depth``, see `ismcts.finish`). A finished playout gives a
0-or-1 outcome that differs wildly from one determinization to the next; the evaluation
gives a probability, so each iteration says far more, and costs a fraction of a playout.

The model is a conditional logit over the seats: seat ``s`` wins with probability
``exp(u_s) / sum_t exp(u_t)``, where ``u_s`` is linear in the seat's features (all read
off the full state, hidden tiles included -- the searches evaluate determinizations):

- ``train``: the tiles of its best personal train from its train's open end (the bots'
  own exact search, `mextrain.bots.trains.TrainSearch`), and ``extras``: its other
  tiles, which must find a place on the Mexican train or a marked train -- and their
  square;
- whether its marker is up, and that times its extras (others may dump on its train, and
  it may not be stuck for long);
- the pips it holds (tens);
- its extras while the boneyard still has tiles (a draw may fit them);
- how many turns it is behind the seat to move (one weight per place in the order).

The weights were fitted by maximum likelihood on the outcomes of playouts from
determinized positions of rounds between ``planner`` bots (classic rules), one set per
number of seats: ``python benchmarks/evaluation.py --players N`` refits them and reports
how well they predict. Other rule sets use the same weights: the features mean the same
there, the fit is only less exact.
"""

from __future__ import annotations

import math

from mextrain.bots.trains import TrainSearch
from mextrain.rules import RoundState

__all__ = ["FEATURES", "WEIGHTS", "Evaluator"]

#: the per-seat features, in the order of a weight vector (then one weight per place
#: behind the seat to move: 1, 2, ... seats behind)
FEATURES = (
    "train",
    "extras",
    "extras^2",
    "marker",
    "marker*extras",
    "pips/10",
    "stock*extras",
)

#: fitted weights per number of seats (`benchmarks/evaluation.py`)
# fmt: off
WEIGHTS: dict[int, tuple[float, ...]] = {
    2: (0.011, -0.337, 0.01, -0.088, 0.009, -0.005, 0.121, -0.153),
    3: (-0.079, -0.402, 0.015, -0.195, 0.018, 0.01, -0.019, -0.333, -0.377),
    4: (-0.187, -0.664, 0.016, -0.417, 0.061, 0.012, 0.098, -0.415, -0.418, -0.518),
    5: (-0.338, -0.723, 0.014, -0.483, 0.098, 0.03, 0.002, -0.511, -0.542, -0.593, -0.703),
    6: (-0.445, -1.077, 0.014, -0.656, 0.138, 0.035, 0.228, -0.536, -0.572, -0.63, -0.736, -0.829),
    7: (-0.558, -1.179, 0.014, -0.724, 0.161, 0.045, 0.181,
        -0.57, -0.613, -0.738, -0.827, -0.888, -0.987),
    8: (-0.667, -1.589, 0.012, -0.826, 0.181, 0.049, 0.477,
        -0.605, -0.66, -0.749, -0.824, -0.919, -1.004, -1.094),
}
# fmt: on


def weights_for(players: int) -> tuple[float, ...]:
    """The weights for ``players`` seats: those fitted for the nearest number of seats,
    with the turn-order weights cut or extended (the last repeated) to fit."""
    near = WEIGHTS[min(WEIGHTS, key=lambda k: (abs(k - players), k))]
    base, order = near[: len(FEATURES)], near[len(FEATURES) :]
    turns = tuple(order[min(i, len(order) - 1)] for i in range(players - 1))
    return base + turns


class Evaluator:
    """Win chances of every seat in a full position (see the module docstring). Keeps a
    train-search memo across calls: one evaluator per search thread."""

    def __init__(self) -> None:
        self._search: TrainSearch | None = None
        self._weights: dict[int, tuple[float, ...]] = {}

    def _train_search(self, state: RoundState) -> TrainSearch:
        search = self._search
        if search is None or search.ts is not state.ts or len(search._memo) > 200_000:
            search = self._search = TrainSearch(state.ts)
        return search

    def features(self, state: RoundState) -> list[list[float]]:
        """Per seat: the `FEATURES`, then a 0/1 indicator per place behind the seat to
        move (``n - 1`` of them)."""
        search = self._train_search(state)
        ts = state.ts
        n = state.n
        mover = state.seat
        stock = 1.0 if state.boneyard_size > 0 else 0.0
        out = []
        for seat in range(n):
            hand = state.hands[seat]
            train = search.best(hand, state.ends[seat])[0]
            extras = hand.bit_count() - train
            marker = float(state.markers >> seat & 1)
            row = [
                float(train),
                float(extras),
                float(extras * extras),
                marker,
                marker * extras,
                ts.pips_of(hand) / 10.0,
                stock * extras,
            ]
            behind = (seat - mover) % n
            row += [1.0 if behind == k else 0.0 for k in range(1, n)]
            out.append(row)
        return out

    def win_probabilities(self, state: RoundState) -> list[float]:
        """Each seat's chance to win the round from ``state`` (they sum to 1)."""
        n = state.n
        weights = self._weights.get(n)
        if weights is None:
            weights = self._weights[n] = weights_for(n)
        utils = [
            sum(w * f for w, f in zip(weights, row, strict=True)) for row in self.features(state)
        ]
        top = max(utils)
        exps = [math.exp(u - top) for u in utils]
        total = sum(exps)
        return [e / total for e in exps]
