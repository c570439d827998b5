"""Information-set Monte Carlo tree search (Cowling, Powley & Whitehouse, 2012).

Single-observer ISMCTS from the deciding seat's point of view. Each iteration

1. **determinizes**: samples a full round consistent with what the seat knows
   (`InfoState.sample`: its hand, the table, hand sizes, the boneyard's size, the voids
   shown by draws and forced passes);
2. **selects** down the tree with UCB1 among the children whose action is legal in this
   determinization, counting each such child as *available* (the ISMCTS form of UCB:
   ``mean + c * sqrt(ln(availability) / visits)``), with each node's mean taken from the
   point of view of the seat that chose it;
3. **expands** one untried legal action;
4. **plays out** the rest of the round with a fast policy (`policy.py`), or with
   ``depth`` only that many plies, then scores the position with the static evaluation
   (`evaluate.py`: each seat's chance to win);
5. **backs up** every seat's reward: its share of the round's win (lowest score; or its
   chance to win) blended with its score margin (or pips held) against the other
   seats' mean.

Moves with a single legal action (a forced draw or pass) are applied without a node, so
the tree's depth is spent on choices. The tree is keyed by ``(seat, action)``.

Deterministic: for a given view, RNG state and iteration budget, the same move comes back.
A time budget stops on the clock instead (then the result depends on the machine's speed).
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field

from mextrain.rules import Action, RoundState, SeatView

from .evaluate import Evaluator
from .policy import FastPlannerPlayout, PlayoutPolicy, _play_table, make_policy
from .resample import InfoState

__all__ = ["ActionStats", "SearchConfig", "SearchResult", "search"]

_Key = tuple[int, Action]


#: the largest search budgets a bot takes (see `SearchConfig.check`)
MAX_ITERATIONS = 1_000_000
MAX_TIME_MS = 3_600_000


@dataclass(frozen=True, slots=True)
class SearchConfig:
    """A search budget and its knobs. With neither budget, `DEFAULT_ITERATIONS` apply."""

    iterations: int | None = None
    time_ms: float | None = None
    policy: str = "planner"
    epsilon: float = 0.0  # random plays in greedy playouts
    exploration: float = 0.7  # UCB's c (rewards are in [0, 1])
    margin_weight: float = 0.25  # share of the reward from the score margin
    margin_scale: float = 50.0  # pips of margin that count fully
    race_z: float = 2.0  # rollout search: standard errors below the leader that drop a move
    race_min: int = 8  # rollout search: batches before any move is dropped
    #: the other seats' moves inside the tree: ``tree`` -- searched like the seat's own
    #: (UCB on their rewards); ``policy`` -- the playout policy's move (the tree then
    #: branches on the seat's own decisions only); needs a policy with ``choose``
    opponents: str = "tree"
    #: plies of playout before the position is scored by the static evaluation (`evaluate.py`);
    #: ``None``: play out to the round's end. The root statistics' win and score are then
    #: the evaluation's win chance and the pips held where the playout stopped
    depth: int | None = None
    #: quiescence: a cut playout plays on past ``depth`` while any seat holds this many
    #: tiles or fewer (the round may end any moment: the evaluation's weakest ground), so
    #: only quiet positions are scored; 0: cut at ``depth`` whatever the hands
    quiet: int = 0

    DEFAULT_ITERATIONS = 300

    def budget(self) -> tuple[int | None, float | None]:
        if self.iterations is None and self.time_ms is None:
            return self.DEFAULT_ITERATIONS, None
        return self.iterations, self.time_ms

    def check(self) -> None:
        # bounded: a budget past these is a bot that never moves (10^6 iterations take
        # minutes a move; an hour is more than anyone waits)
        if self.iterations is not None and not 1 <= self.iterations <= MAX_ITERATIONS:
            raise ValueError(
                f"iterations must be from 1 to {MAX_ITERATIONS:,}, not {self.iterations}"
            )
        if self.time_ms is not None and not 0 < self.time_ms <= MAX_TIME_MS:
            raise ValueError(
                f"time_ms must be a positive number up to {MAX_TIME_MS:,}, not {self.time_ms}"
            )
        for key in ("exploration", "margin_scale", "race_z"):
            if not math.isfinite(getattr(self, key)):
                raise ValueError(f"{key} must be a finite number, not {getattr(self, key)}")
        if not 0.0 <= self.epsilon <= 1.0:
            raise ValueError(f"epsilon must be from 0 to 1, not {self.epsilon}")
        if not 0.0 <= self.margin_weight <= 1.0:
            raise ValueError(f"margin_weight must be from 0 to 1, not {self.margin_weight}")
        if self.exploration < 0:
            raise ValueError(f"exploration must be at least 0, not {self.exploration}")
        if self.race_z < 0:
            raise ValueError(f"race_z must be at least 0, not {self.race_z}")
        if self.race_min < 1:
            raise ValueError(f"race_min must be at least 1, not {self.race_min}")
        if self.margin_scale <= 0:
            raise ValueError(f"margin_scale must be positive, not {self.margin_scale}")
        if self.depth is not None and self.depth < 0:
            raise ValueError(f"depth must be at least 0, not {self.depth}")
        if self.quiet < 0:
            raise ValueError(f"quiet must be at least 0, not {self.quiet}")
        if self.quiet and self.depth is None:
            raise ValueError("quiet needs depth (whole playouts end where the round ends)")
        if self.depth is not None and self.policy != "planner":
            raise ValueError("depth needs policy=planner (other playouts run to the end)")
        if self.opponents not in ("tree", "policy"):
            raise ValueError(f"opponents must be tree or policy, not {self.opponents}")


class _Node:
    __slots__ = ("avail", "children", "reward", "visits")

    def __init__(self) -> None:
        self.children: dict[_Key, _Node] = {}
        self.visits = 0
        self.avail = 1
        self.reward = 0.0  # for the seat that chose the action leading here


@dataclass(slots=True)
class ActionStats:
    """What the search learnt about one of the deciding seat's actions."""

    action: Action
    visits: int = 0
    reward: float = 0.0  # sum of rewards
    reward_sq: float = 0.0
    wins: float = 0.0  # sum of win shares
    wins_sq: float = 0.0
    score: float = 0.0  # sum of the seat's round scores (pips left)
    score_sq: float = 0.0

    def add(self, reward: float, win: float, score: int) -> None:
        self.visits += 1
        self.reward += reward
        self.reward_sq += reward * reward
        self.wins += win
        self.wins_sq += win * win
        self.score += score
        self.score_sq += score * score

    @property
    def mean_reward(self) -> float:
        return self.reward / self.visits if self.visits else 0.0

    @property
    def win_probability(self) -> float:
        return self.wins / self.visits if self.visits else 0.0

    @property
    def expected_score(self) -> float:
        return self.score / self.visits if self.visits else 0.0

    def _stderr(self, total: float, total_sq: float) -> float:
        n = self.visits
        if n < 2:
            return math.inf
        mean = total / n
        var = max(0.0, (total_sq - n * mean * mean) / (n - 1))
        return math.sqrt(var / n)

    @property
    def reward_stderr(self) -> float:
        return self._stderr(self.reward, self.reward_sq)

    @property
    def win_stderr(self) -> float:
        return self._stderr(self.wins, self.wins_sq)

    @property
    def score_stderr(self) -> float:
        return self._stderr(self.score, self.score_sq)


@dataclass(frozen=True, slots=True)
class SearchResult:
    """The chosen action and the root statistics, best first."""

    action: Action
    stats: tuple[ActionStats, ...]
    iterations: int
    seconds: float
    #: rollout search only: each action's rewards, one per batch it ran in (paired by batch)
    samples: dict[Action, tuple[float, ...]] = field(default_factory=dict)


def rewards(state: RoundState, margin_weight: float, margin_scale: float) -> list[float]:
    """Each seat's reward in [0, 1] for a finished round (see the module docstring)."""
    scores = state.scores()
    assert scores is not None
    return blend(win_shares(scores), scores, margin_weight, margin_scale)


def blend(
    wins: list[float], points: list[int], margin_weight: float, margin_scale: float
) -> list[float]:
    """Each seat's reward from its win share (or chance) and its margin of ``points``
    against the other seats' mean, ``margin_scale`` points counting fully."""
    n = len(points)
    total = sum(points)
    out = []
    for win, s in zip(wins, points, strict=True):
        margin = ((total - s) / (n - 1) - s) / margin_scale
        margin = -1.0 if margin < -1.0 else 1.0 if margin > 1.0 else margin
        out.append((1.0 - margin_weight) * win + margin_weight * (0.5 + 0.5 * margin))
    return out


def leaf_evaluator(
    config: SearchConfig, policy: PlayoutPolicy, evaluator: Evaluator | None
) -> Evaluator:
    """The evaluator `finish` scores cut playouts with (a new one if not given); checks
    that ``depth`` comes with the planner playouts, which play the plies before it."""
    if config.depth is not None and not isinstance(policy, FastPlannerPlayout):
        raise ValueError("depth needs the planner playout policy")
    return Evaluator() if evaluator is None else evaluator


def finish(
    state: RoundState,
    policy: PlayoutPolicy,
    rng: random.Random,
    depth: int | None,
    table: tuple[tuple[Action, ...], ...],
    evaluator: Evaluator,
    margin_weight: float,
    margin_scale: float,
    quiet: int = 0,
) -> tuple[list[float], list[float], list[int]]:
    """Play ``state`` out with ``policy``: to the round's end, or (``depth``, the planner
    playouts) for that many plies -- and on while a seat holds ``quiet`` tiles or fewer --
    then score it with ``evaluator``. Every seat's reward, win share (or chance) and score
    (or the pips it holds)."""
    if state.ended is None:
        if depth is None:
            policy.playout(state, rng)
        else:
            assert isinstance(policy, FastPlannerPlayout)  # (`leaf_evaluator` checks it)
            k = depth
            while state.ended is None and k > 0:
                policy.move(state, table)
                k -= 1
            if quiet:
                hands = state.hands
                while state.ended is None and min(h.bit_count() for h in hands) <= quiet:
                    policy.move(state, table)
    if state.ended is None:
        wins = evaluator.win_probabilities(state)
        pips = [state.ts.pips_of(h) for h in state.hands]
        return blend(wins, pips, margin_weight, margin_scale), wins, pips
    scores = state.scores()
    assert scores is not None
    return rewards(state, margin_weight, margin_scale), win_shares(scores), scores


def prepare(
    view: SeatView,
    rng: random.Random,
    config: SearchConfig,
    info: InfoState | None,
    policy: PlayoutPolicy | None,
    started: float | None,
) -> tuple[float, int | None, float | None, InfoState, PlayoutPolicy]:
    """What every search starts with: the checks, the start time (``started`` if given),
    the iteration budget, the deadline, and the information set and playout policy
    (built unless given)."""
    if not view.is_my_turn:
        raise ValueError(f"it is not seat {view.seat}'s turn to decide")
    config.check()
    start = time.perf_counter() if started is None else started
    iterations, time_ms = config.budget()
    deadline = None if time_ms is None else start + time_ms / 1000.0
    if info is None:
        info = InfoState(view, rng)
    if policy is None:
        policy = make_policy(config.policy, config.epsilon)
    return start, iterations, deadline, info, policy


def win_shares(scores: list[int]) -> list[float]:
    """Each seat's share of the round's win (the lowest score; ties share it)."""
    best = min(scores)
    winners = sum(1 for s in scores if s == best)
    return [1.0 / winners if s == best else 0.0 for s in scores]


def search(
    view: SeatView,
    rng: random.Random,
    config: SearchConfig,
    info: InfoState | None = None,
    policy: PlayoutPolicy | None = None,
    started: float | None = None,
    evaluator: Evaluator | None = None,
) -> SearchResult:
    """Search the seat's decision in ``view`` (it must be the seat's turn). With
    ``config.depth`` playouts stop after that many plies and ``evaluator`` (a new one if
    not given) scores the position."""
    start, iterations, deadline, info, policy = prepare(view, rng, config, info, policy, started)
    me = view.seat
    root = _Node()
    stats: dict[Action, ActionStats] = {a: ActionStats(a) for a in view.legal_actions}
    c = config.exploration
    mw, ms = config.margin_weight, config.margin_scale
    done = 0
    log = math.log
    sqrt = math.sqrt
    model = policy if config.opponents == "policy" else None
    if model is not None and not isinstance(model, FastPlannerPlayout):
        raise ValueError("opponents=policy needs the planner playout policy")
    table = _play_table(view.rules.max_pip, view.players)
    depth = config.depth
    evaluator = leaf_evaluator(config, policy, evaluator)
    while True:
        if iterations is not None and done >= iterations:
            break
        if deadline is not None and done and time.perf_counter() >= deadline:
            break
        state = info.sample(rng)
        node = root
        path: list[tuple[_Node, int]] = []
        first: Action | None = None
        expanded = False
        while state.ended is None and not expanded:
            legal = state.legal_actions()
            seat = state.seat
            if len(legal) == 1 and not (seat == me and node is root):
                state.apply(legal[0])
                continue
            if model is not None and seat != me:
                model.move(state, table)
                continue
            children = node.children
            untried: list[Action] = []
            best_value = -math.inf
            best_key: _Key | None = None
            best_child: _Node | None = None
            for action in legal:
                child = children.get((seat, action))
                if child is None:
                    untried.append(action)
                    continue
                child.avail += 1
                if not untried:
                    value = child.reward / child.visits + c * sqrt(log(child.avail) / child.visits)
                    if value > best_value:
                        best_value, best_key, best_child = value, (seat, action), child
            if untried:
                action = untried[rng.randrange(len(untried))] if len(untried) > 1 else untried[0]
                child = _Node()
                children[(seat, action)] = child
                expanded = True
            else:
                assert best_key is not None
                assert best_child is not None
                action, child = best_key[1], best_child
            if node is root:
                first = action
            state.apply(action)
            path.append((child, seat))
            node = child
        reward, wins, scores = finish(
            state, policy, rng, depth, table, evaluator, mw, ms, config.quiet
        )
        for child, seat in path:
            child.visits += 1
            child.reward += reward[seat]
        assert first is not None
        stats[first].add(reward[me], wins[me], scores[me])
        done += 1
    ranked = sorted(stats.values(), key=lambda s: (s.visits, s.mean_reward), reverse=True)
    return SearchResult(
        action=ranked[0].action,
        stats=tuple(ranked),
        iterations=done,
        seconds=time.perf_counter() - start,
    )
