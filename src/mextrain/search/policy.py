"""Playout policies: how a determinized round is played out to its end, fast.

A playout works on a full `RoundState` (a determinization) and never builds seat views:
the greedy policy reads the engine's legal plays as ``(train, tile mask)`` pairs and picks
with bit tricks. The planner policy asks the `planner` bot through views: stronger, slower.
"""

from __future__ import annotations

import functools
import random
from typing import Protocol

from mextrain.bots import Bot, make_bot
from mextrain.bots.planner import PlannerBot
from mextrain.bots.trains import TrainSearch
from mextrain.rules import DRAW, MEXICAN, PASS, Action, RoundState, tile_set

__all__ = [
    "FastPlannerPlayout",
    "GreedyPlayout",
    "PlanPlayout",
    "PlannerPlayout",
    "PlayoutPolicy",
    "RandomPlayout",
    "make_policy",
]


class PlayoutPolicy(Protocol):
    name: str

    def playout(self, state: RoundState, rng: random.Random) -> None:
        """Play ``state`` to the end of the round, in place."""
        ...


@functools.cache
def _play_table(max_pip: int, players: int) -> tuple[tuple[Action, ...], ...]:
    """``table[tile_id][train + 1]``: the play action (column 0 is the Mexican train)."""
    ts = tile_set(max_pip)
    return tuple(
        tuple(Action.interned(tile, train, tid, max_pip) for train in range(-1, players))
        for tid, tile in enumerate(ts.tiles)
    )


@functools.cache
def _by_weight(max_pip: int) -> tuple[int, ...]:
    """Masks of the tiles of each pip total, heaviest first."""
    ts = tile_set(max_pip)
    return tuple(
        mask
        for total in range(2 * max_pip, -1, -1)
        if (mask := sum(1 << i for i, s in enumerate(ts.pip_sum) if s == total))
    )


class GreedyPlayout:
    """Every seat plays its heaviest playable tile (own train, then the Mexican train, then
    a marked train); with probability ``epsilon`` a uniformly random play instead."""

    name = "greedy"

    def __init__(self, epsilon: float = 0.0) -> None:
        self.epsilon = epsilon

    def playout(self, state: RoundState, rng: random.Random) -> None:
        ts = state.ts
        table = _play_table(ts.max_pip, state.n)
        weights = _by_weight(ts.max_pip)
        eps = self.epsilon
        rand = rng.random
        while state.ended is None:
            plays = state.legal_plays()
            if not plays:
                state.apply(DRAW if state.legal_actions()[0] is DRAW else PASS)
                continue
            if eps and rand() < eps:
                train, mask = plays[rng.randrange(len(plays))]
                tids = [i for i in range(mask.bit_length()) if mask >> i & 1]
                state.apply(table[tids[rng.randrange(len(tids))]][train + 1])
                continue
            combined = 0
            for _train, mask in plays:
                combined |= mask
            for weight_mask in weights:
                hit = combined & weight_mask
                if hit:
                    break
            low = hit & -hit
            _play_tile(state, plays, low.bit_length() - 1, table)


def _play_tile(
    state: RoundState,
    plays: tuple[tuple[int, int], ...],
    tid: int,
    table: tuple[tuple[Action, ...], ...],
) -> None:
    """Play tile ``tid`` on the best train it legally fits: the seat's own train, else the
    Mexican train, else the first marked train."""
    low = 1 << tid
    seat = state.seat
    chosen = None
    for train, mask in plays:
        if mask & low:
            if train == seat:
                chosen = train
                break
            if chosen is None or train == MEXICAN:
                chosen = train
    assert chosen is not None
    state.apply(table[tid][chosen + 1])


def _heaviest(mask: int, weights: tuple[int, ...]) -> int:
    """The lowest id among the heaviest tiles of ``mask`` (non-empty)."""
    for weight_mask in weights:
        hit = mask & weight_mask
        if hit:
            return (hit & -hit).bit_length() - 1
    raise ValueError("empty mask")


class PlanPlayout:
    """A fast version of the ``planner`` bot's idea, one train search per move.

    The seat plans its best personal train (most tiles, then pips) from its hand; tiles
    off that plan are *extras*. It plays its heaviest extra that fits the Mexican train or
    a marked train; otherwise a planned tile on its own train (a double first); otherwise
    its heaviest playable tile. Once another seat is down to ``endgame`` tiles it just
    dumps its heaviest playable tile. The train searches share one memo across playouts.
    """

    name = "plan"

    def __init__(self, endgame: int = 2) -> None:
        self.endgame = endgame
        self._search: TrainSearch | None = None

    def playout(self, state: RoundState, rng: random.Random) -> None:
        ts = state.ts
        table = _play_table(ts.max_pip, state.n)
        weights = _by_weight(ts.max_pip)
        search = self._search
        if search is None or search.ts is not ts or len(search._memo) > 150_000:
            search = self._search = TrainSearch(ts)
        double_mask = ts.double_mask
        endgame = self.endgame
        while state.ended is None:
            plays = state.legal_plays()
            if not plays:
                state.apply(DRAW if state.legal_actions()[0] is DRAW else PASS)
                continue
            seat = state.seat
            hands = state.hands
            combined = 0
            for _train, mask in plays:
                combined |= mask
            rush = False
            for other, hand in enumerate(hands):
                if other != seat and hand.bit_count() <= endgame:
                    rush = True
                    break
            if rush or (len(plays) == 1 and plays[0][1] & (plays[0][1] - 1) == 0):
                tid = _heaviest(combined, weights)
            else:
                hand = hands[seat]
                planned = search.best(hand, state.ends[seat])[2]
                extras = hand & ~planned
                off_plan = 0
                own_planned = 0
                for train, mask in plays:
                    if train == seat:
                        own_planned |= mask & planned
                    else:
                        off_plan |= mask & extras
                if off_plan:
                    tid = _heaviest(off_plan, weights)
                elif own_planned:
                    doubles = own_planned & double_mask
                    tid = _heaviest(doubles or own_planned, weights)
                else:
                    tid = _heaviest(combined, weights)
            _play_tile(state, plays, tid, table)


def planner_style(spec: str) -> PlannerBot:
    """The bot ``spec`` names, which must play the planner's way with its own weights
    (``planner``, ``racer``): a style the planner playouts can play."""
    bot = make_bot(spec)
    if not isinstance(bot, PlannerBot):
        raise ValueError(f"own must be a planner-style bot (planner, racer), not {spec}")
    return bot


class FastPlannerPlayout:
    """Every seat plays the ``planner`` bot's move, computed on the full state.

    The same scores as `mextrain.bots.planner.PlannerBot` (the weights are read from a
    planner bot; the train search is the memoised one, ``search=memo``) and the same tie
    order, without building a view per move, and with one train-search memo shared by
    every move of every playout. It is the search's model of a good player. With ``own``
    weights (a `RacerBot`'s, say), seat ``own_seat`` plays those instead: the search bot
    sets it to its own seat, so it plays itself its own way and models the others as
    planners.
    """

    name = "planner"

    def __init__(self, planner: PlannerBot | None = None, own: PlannerBot | None = None) -> None:
        #: the bot whose weights are played (its defaults unless given)
        self.planner = planner if planner is not None else PlannerBot(search="memo")
        #: the weights seat `own_seat` plays instead (the searching seat's own style, e.g.
        #: the ``racer``'s, while the others are modelled as ``planner``)
        self.own = own
        self.own_seat = -1
        self._search: TrainSearch | None = None

    @classmethod
    def for_seat(cls, seat: int, own: str) -> FastPlannerPlayout:
        """Seat ``seat`` plays as the bot named ``own`` (``planner`` or ``racer``, or any
        `PlannerBot` spec), every other seat as the ``planner``."""
        policy = cls(own=planner_style(own))
        policy.own_seat = seat
        return policy

    def choose(
        self, state: RoundState, plays: tuple[tuple[int, int], ...], hand: int | None = None
    ) -> tuple[int, int]:
        """The planner's play as ``(tile id, train)`` among ``plays`` (not empty), as the
        seat to move would make it holding ``hand`` (its own hand by default: the opponent
        model of `InfoState` asks about other hands)."""
        ts = state.ts
        search = self._search
        if search is None or search.ts is not ts or len(search._memo) > 200_000:
            search = self._search = TrainSearch(ts)
        seat = state.seat
        hands = state.hands
        if hand is None:
            hand = hands[seat]
        own_end = state.ends[seat]
        weights = self.own if self.own is not None and seat == self.own_seat else self.planner
        endgame = weights.endgame
        rush = False
        for other, other_hand in enumerate(hands):
            if other != seat and other_hand.bit_count() <= endgame:
                rush = True
                break
        pip_sum = ts.pip_sum
        pip_mask = ts.pip_mask
        double_mask = ts.double_mask
        block = state.rules.open_doubles_block
        left_count = hand.bit_count() - 1
        hand_pips = ts.pips_of(hand)
        pw, ec = weights.plan_weight, weights.extra_cost
        double_bonus, double_penalty = weights.double_bonus, weights.double_penalty
        best_score = -1e18
        best_tid, best_train = -1, 0
        # a tile's score before the train's own bonus, once per tile and plan start: the
        # plays elsewhere than on the seat's own train all plan from its open end (so do
        # its own train's double of that pip, if any)
        from_end: dict[int, float] = {}
        for train, mask in plays:
            own = train == seat
            # the train's own bonus: the seat's marker goes down on its own train; on
            # equal terms the Mexican train is preferred to another seat's marked train
            if own:
                bonus = weights.marker_bonus if state.markers >> seat & 1 else None
            elif train == MEXICAN:
                bonus = 0.01
            else:
                bonus = None
            m = mask
            while m:
                low = m & -m
                m ^= low
                tid = low.bit_length() - 1
                total = pip_sum[tid]
                plan_end = total - own_end if own else own_end
                base = from_end.get(tid) if plan_end == own_end else None
                if base is None:
                    if own:
                        count, plan_pips, _used = search.best(hand ^ low, plan_end)
                    else:
                        count, plan_pips, _used = search.best_without(hand, own_end, low)
                    base = -(
                        (hand_pips - total - plan_pips) + pw * plan_pips + ec * (left_count - count)
                    )
                    if low & double_mask:
                        if (hand ^ low) & pip_mask[total >> 1]:
                            base += double_bonus
                        elif block:
                            base -= double_penalty
                    if rush:
                        base += 1000.0 * total
                    if plan_end == own_end:
                        from_end[tid] = base
                score = base if bonus is None else base + bonus
                if score > best_score:
                    best_score, best_tid, best_train = score, tid, train
        return best_tid, best_train

    def move(self, state: RoundState, table: tuple[tuple[Action, ...], ...]) -> None:
        """Apply the planner's move for the seat to move (``table``: `_play_table`'s for
        the state): a play if it has one, else its draw or pass."""
        plays = state.legal_plays()
        if not plays:
            state.apply(DRAW if state.legal_actions()[0] is DRAW else PASS)
            return
        if len(plays) == 1 and plays[0][1] & (plays[0][1] - 1) == 0:
            train, mask = plays[0]
            tid = mask.bit_length() - 1
        else:
            tid, train = self.choose(state, plays)
        state.apply(table[tid][train + 1])

    def playout(self, state: RoundState, rng: random.Random) -> None:
        table = _play_table(state.ts.max_pip, state.n)
        move = self.move
        while state.ended is None:
            move(state, table)


class RandomPlayout:
    """Uniformly random legal actions (a baseline)."""

    name = "random"

    def playout(self, state: RoundState, rng: random.Random) -> None:
        while state.ended is None:
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])


class PlannerPlayout:
    """Every seat plays as a bot (``planner`` by default) from its own seat's view."""

    def __init__(self, spec: str = "planner") -> None:
        self.name = spec
        self.bot: Bot = make_bot(spec)

    def playout(self, state: RoundState, rng: random.Random) -> None:
        bot = self.bot
        while state.ended is None:
            legal = state.legal_actions()
            if len(legal) == 1:
                state.apply(legal[0])
            else:
                state.apply(bot.act(state.view(state.seat), rng))


def make_policy(name: str, epsilon: float = 0.0) -> PlayoutPolicy:
    """``greedy``, ``plan``, ``random`` or ``planner`` (or any registered bot, played via views)."""
    if name == "greedy":
        return GreedyPlayout(epsilon)
    if name == "plan":
        return PlanPlayout()
    if name == "random":
        return RandomPlayout()
    if name == "planner":
        return FastPlannerPlayout()
    return PlannerPlayout(name)
