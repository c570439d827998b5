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
determinized positions of rounds between ``planner`` bots, one set per number of seats:
``python benchmarks/evaluation.py --players N [--preset P]`` refits them and reports how
well they predict. `WEIGHTS` are the classic rules' fits; `RULE_WEIGHTS` those of the
presets whose play differs enough that the classic weights mispredict (cardinal, where
a marker goes up whenever a turn skips the seat's own train). A rule set uses the fits
of the preset it is closest to (`family`: the most options that shape play alike).
"""

from __future__ import annotations

import functools
import json
import math
from importlib import resources
from operator import mul

from mextrain.bots.trains import TrainSearch
from mextrain.rules import MEXICAN, PRESETS, RoundState, Rules

__all__ = ["FEATURES", "RULE_WEIGHTS", "WEIGHTS", "Evaluator", "family", "weights_for"]

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

#: fitted weights of other presets, per number of seats (`benchmarks/evaluation.py
#: --preset P`); a preset not listed uses `WEIGHTS` (relaxed: a fit of its own predicted
#: no better)
RULE_WEIGHTS: dict[str, dict[int, tuple[float, ...]]] = {
    "cardinal": {
        4: (-0.081, -0.698, 0.018, 0.172, -0.018, 0.027, 0.151, -0.258, -0.392, -0.492),
        5: (-0.11, -0.932, 0.021, 0.205, -0.023, 0.038, 0.22, -0.235, -0.328, -0.428, -0.499),
        6: (-0.154, -1.033, 0.021, 0.318, -0.041, 0.05, 0.193,
            -0.141, -0.29, -0.388, -0.47, -0.569),
        7: (-0.193, -1.12, 0.019, 0.288, -0.055, 0.047, 0.176,
            -0.12, -0.274, -0.415, -0.525, -0.597, -0.672),
        8: (-0.258, -1.231, 0.014, 0.26, -0.042, 0.064, 0.197,
            -0.06, -0.206, -0.346, -0.497, -0.573, -0.702, -0.714),
        9: (-0.376, -1.307, 0.008, 0.276, -0.049, 0.081, 0.115,
            -0.209, -0.288, -0.443, -0.594, -0.704, -0.813, -0.924, -1.046),
        10: (-0.416, -1.384, 0.008, 0.297, -0.077, 0.095, 0.102,
            -0.079, -0.175, -0.33, -0.451, -0.554, -0.728, -0.73, -0.894, -0.951),
    },
}
# fmt: on

#: the value network's per-seat inputs after `FEATURES` (then the places behind)
NET_FEATURES = (
    "playable",
    "no play",
    "doubles",
    "own end",
    "tiles",
    "answers the oldest open double",
    "cannot answer it",
    "boneyard/10",
    "Mexican train started",
)

#: the evaluations: the linear logit, or the value network
VALUES = ("logit", "net")

#: a value network: per hidden unit its input weights, the hidden biases, the hidden
#: units' output weights, and the inputs' direct (linear) weights
Net = tuple[tuple[tuple[float, ...], ...], tuple[float, ...], tuple[float, ...], tuple[float, ...]]


@functools.cache
def nets() -> dict[str, Net]:
    """The fitted value networks by ``family/seats`` (``nets.json``, written by
    ``python benchmarks/value_net.py --write``): per hidden unit its input weights, the
    hidden biases, the hidden units' output weights, the inputs' direct weights."""
    text = resources.files(__package__).joinpath("nets.json").read_text(encoding="utf-8")
    out: dict[str, Net] = {}
    for key, (hidden, bias, output, skip) in json.loads(text).items():
        out[key] = (tuple(tuple(row) for row in hidden), tuple(bias), tuple(output), tuple(skip))
    return out


#: the options that shape play (and so what the features are worth)
_PLAY_OPTIONS = (
    "first_turn",
    "double_follow_up",
    "open_doubles_block",
    "own_train_first",
    "marker_rule",
)


def family(rules: Rules) -> str:
    """The preset whose play ``rules`` is closest to: the one that agrees with it on
    the most options that shape play (the first preset, classic, on a tie)."""

    def agree(name: str) -> int:
        preset = PRESETS[name]
        return sum(getattr(rules, o) == getattr(preset, o) for o in _PLAY_OPTIONS)

    return max(PRESETS, key=agree)


def weights_for(players: int, rules: Rules | None = None) -> tuple[float, ...]:
    """The weights for ``players`` seats under ``rules`` (classic if not given): those
    fitted for the rules' `family` (or classic) and the nearest number of seats, with the
    turn-order weights cut or extended (the last repeated) to fit."""
    table = WEIGHTS if rules is None else RULE_WEIGHTS.get(family(rules), WEIGHTS)
    near = table[min(table, key=lambda k: (abs(k - players), k))]
    base, order = near[: len(FEATURES)], near[len(FEATURES) :]
    turns = tuple(order[min(i, len(order) - 1)] for i in range(players - 1))
    return base + turns


class Evaluator:
    """Win chances of every seat in a full position (see the module docstring). Keeps a
    train-search memo across calls: one evaluator per search thread. ``weights`` picks
    the fits: ``rules`` (those of the rule set being played) or a preset's name."""

    def __init__(self, weights: str = "rules", value: str = "logit") -> None:
        if weights != "rules" and weights not in PRESETS:
            names = ", ".join(("rules", *PRESETS))
            raise ValueError(f"weights must be one of {names}, not {weights}")
        if value not in VALUES:
            raise ValueError(f"value must be one of {', '.join(VALUES)}, not {value}")
        #: ``logit``: the linear conditional logit; ``net``: the value network where one
        #: is fitted for the rules' family and number of seats (else the logit)
        self.value = value
        #: ``rules``: the fits of the position's rule set's `family`; a preset name: that
        #: preset's fits whatever the rules
        self.weights = weights
        self._search: TrainSearch | None = None
        # the weights (and network, if any) of the last rule set and number of seats seen
        self._last: tuple[Rules | None, int, tuple[float, ...], Net | None] = (None, 0, (), None)

    def _train_search(self, state: RoundState) -> TrainSearch:
        search = self._search
        if search is None or search.ts is not state.ts or len(search._memo) > 200_000:
            search = self._search = TrainSearch(state.ts)
        return search

    def features(self, state: RoundState) -> list[list[float]]:
        """Per seat: the `FEATURES`, then a 0/1 indicator per place behind the seat to
        move (``n - 1`` of them)."""
        return self._rows(state, rich=False)

    def rich_features(self, state: RoundState) -> list[list[float]]:
        """Per seat: the `FEATURES`, then `NET_FEATURES`, then a 0/1 indicator per place
        behind the seat to move (``n - 1`` of them): the value network's inputs."""
        return self._rows(state, rich=True)

    def _rows(self, state: RoundState, rich: bool) -> list[list[float]]:
        search = self._train_search(state)
        ts = state.ts
        n = state.n
        mover = state.seat
        pip_mask = ts.pip_mask
        bone = state.boneyard_size
        stock = 1.0 if bone > 0 else 0.0
        opened = state.open_doubles
        oldest = pip_mask[state.ends[opened[0]]] if opened else 0
        mexican = 1.0 if state.trains[MEXICAN] else 0.0
        ends = state.ends
        places = _places(n)
        out = []
        for seat in range(n):
            hand = state.hands[seat]
            train = search.best(hand, ends[seat])[0]
            size = hand.bit_count()
            extras = size - train
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
            if rich:
                playable = state.playable_tiles(seat).bit_count()
                answers = 1.0 if hand & oldest else 0.0
                row += [
                    float(playable),
                    0.0 if playable else 1.0,
                    float((hand & ts.double_mask).bit_count()),
                    float((hand & pip_mask[ends[seat]]).bit_count()),
                    float(size),
                    answers,
                    1.0 - answers if opened else 0.0,
                    bone / 10.0,
                    mexican,
                ]
            row += places[(seat - mover) % n]
            out.append(row)
        return out

    def _net_utilities(self, state: RoundState, net: Net) -> list[float]:
        hidden, bias, out, skip = net
        utils = []
        tanh = math.tanh
        for row in self.rich_features(state):
            u = sum(map(mul, skip, row))
            for weights, b, o in zip(hidden, bias, out, strict=True):
                u += o * tanh(b + sum(map(mul, weights, row)))
            utils.append(u)
        return utils

    def win_probabilities(self, state: RoundState) -> list[float]:
        """Each seat's chance to win the round from ``state`` (they sum to 1)."""
        n = state.n
        rules, seats, weights, net = self._last
        if rules is not state.rules or seats != n:
            chosen = state.rules if self.weights == "rules" else PRESETS[self.weights]
            weights = weights_for(n, chosen)
            net = nets().get(f"{family(state.rules)}/{n}") if self.value == "net" else None
            if net is not None:
                _check_net(net, len(FEATURES) + len(NET_FEATURES) + n - 1)
            self._last = (state.rules, n, weights, net)
        if net is not None:
            return _softmax(self._net_utilities(state, net))
        # (the builtin ``sum`` of the products, in order: from Python 3.12 it adds floats
        # with compensation, so a sum written out by hand would change the figures there)
        return _softmax([sum(map(mul, weights, row)) for row in self.features(state)])


def _check_net(net: Net, inputs: int) -> None:
    """Refuse a network whose weights do not fit ``inputs`` inputs (its products are
    summed without checking the lengths at each evaluation)."""
    hidden, bias, output, skip = net
    sizes = {len(skip), *(len(row) for row in hidden)} != {inputs}
    if sizes or len(bias) != len(hidden) or len(output) != len(hidden):
        raise ValueError(f"the value network does not fit {inputs} inputs")


@functools.cache
def _places(players: int) -> tuple[tuple[float, ...], ...]:
    """``_places(n)[k]``: the 0/1 indicators of the place ``k`` seats behind the seat to
    move (``k`` from 0, the seat to move: all zero, to ``n - 1``)."""
    return tuple(
        tuple(1.0 if k == place else 0.0 for k in range(1, players)) for place in range(players)
    )


def _softmax(utils: list[float]) -> list[float]:
    """The seats' chances from their utilities (the conditional logit)."""
    top = max(utils)
    exps = [math.exp(u - top) for u in utils]
    total = sum(exps)
    return [e / total for e in exps]
