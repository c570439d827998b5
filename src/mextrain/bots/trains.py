"""The bots' own longest-train search, on tile bitmasks.

A personal train is a trail through the hand's graph (pips are vertices, tiles edges,
doubles loops) from the train's open end. The best train has the most tiles, then the most
pips. A double is always taken the moment the trail reaches its pip (a loop can be put
into any trail at any visit of its vertex), so the search never branches on doubles.

The search is a depth-first search with a memo on ``(open end, tiles left)``: exact, and
fast on ordinary hands. A dense hand (25 tiles and more, after many draws) can make the
exact search explode, so each top-level search has a budget of states; past it the train
is built greedily instead (at each step the tile whose far end leaves the most tiles to
continue with, heavier first). A bot must answer in bounded time; an approximate plan for
a rare huge hand is the price. Once a hand of some size has run out of budget, hands of
that size and more are built greedily at once: a playout asks for a huge hand's train move
after move, each time a tile smaller, and spending the budget again on each (thousands of
states, milliseconds) made a search bot's move take a minute there.
"""

from __future__ import annotations

from mextrain.rules import TileSet

__all__ = ["TrainSearch"]

#: memo states one top-level search may add before it falls back to the greedy train
DEFAULT_BUDGET = 4_000

# (tiles, pips, used tile mask) of the best train from a state
_Best = tuple[int, int, int]


class _OutOfBudget(Exception):
    pass


class TrainSearch:
    """Best trains of one hand from any open end; build one per hand (or share the memo)."""

    __slots__ = ("_fallback", "_greedy_from", "_left", "_memo", "budget", "exact", "ts")

    def __init__(self, ts: TileSet, budget: int = DEFAULT_BUDGET) -> None:
        self.ts = ts
        self.budget = budget
        #: False once some search ran out of budget and used the greedy train
        self.exact = True
        self._memo: dict[tuple[int, int], _Best] = {}
        #: the greedy trains of the searches that ran out of budget: the same search
        #: asked again (a playout asks one hand's best train move after move) answers at
        #: once with the same train, instead of spending the budget again
        self._fallback: dict[tuple[int, int], _Best] = {}
        #: the fewest tiles of a hand whose search ran out of budget: no hand of as many
        #: tiles or more is searched again (a set's tile count + 1 until then)
        self._greedy_from = len(ts.tiles) + 1
        self._left = 0

    def best(self, hand: int, start: int) -> _Best:
        """``(tiles, pips, mask)`` of the best train from pip ``start`` using ``hand``
        (the greedy train instead if the exact search runs out of budget)."""
        key = (start, hand)
        found = self._memo.get(key) or self._fallback.get(key)
        if found is not None:
            return found
        size = hand.bit_count()
        if size >= self._greedy_from:
            found = self._fallback[key] = self._greedy(hand, start)
            return found
        self._left = self.budget
        try:
            return self._best(hand, start)
        except _OutOfBudget:
            self.exact = False
            self._greedy_from = size
            found = self._fallback[key] = self._greedy(hand, start)
            return found

    def best_without(self, hand: int, start: int, bit: int) -> _Best:
        """`best` of ``hand`` less the tile ``bit``, from ``start``: the best train of the
        whole hand when that train does not use the tile (it is still there and nothing
        better can be), so one search serves every tile off the plan."""
        key = (start, hand)
        full = self._memo.get(key)
        if full is None:
            self.best(hand, start)
            full = self._memo.get(key)  # (not kept if only the greedy train was found)
        if full is not None and not full[2] & bit:
            self._memo[(start, hand ^ bit)] = full  # the next search of that hand is done
            return full
        return self.best(hand ^ bit, start)

    def _greedy(self, hand: int, start: int) -> _Best:
        ts = self.ts
        pip_sum, pip_mask = ts.pip_sum, ts.pip_mask
        count = pips = used = 0
        end = start
        while True:
            double = 1 << ts.double_id[end]
            if hand & double:
                hand ^= double
                count, pips, used = count + 1, pips + 2 * end, used | double
            options = hand & pip_mask[end]
            if not options:
                return count, pips, used
            pick, pick_key = 0, (-1, -1)
            while options:
                low = options & -options
                options ^= low
                tid = low.bit_length() - 1
                far = pip_sum[tid] - end
                key = ((hand ^ low) & pip_mask[far]).bit_count(), pip_sum[tid]
                if key > pick_key:
                    pick, pick_key = low, key
            tid = pick.bit_length() - 1
            hand ^= pick
            count, pips, used = count + 1, pips + pip_sum[tid], used | pick
            end = pip_sum[tid] - end

    def _best(self, hand: int, start: int) -> _Best:
        key = (start, hand)
        found = self._memo.get(key)
        if found is not None:
            return found
        self._left -= 1
        if self._left < 0:
            raise _OutOfBudget
        ts = self.ts
        count = pips = used = 0
        double = 1 << ts.double_id[start]
        if hand & double:  # take the double on arrival
            hand ^= double
            count, pips, used = 1, 2 * start, double
        best_rest: _Best = (0, 0, 0)
        options = hand & ts.pip_mask[start]
        pip_sum = ts.pip_sum
        while options:
            low = options & -options
            options ^= low
            tid = low.bit_length() - 1
            sub = self._best(hand ^ low, pip_sum[tid] - start)
            value = (sub[0] + 1, sub[1] + pip_sum[tid], sub[2] | low)
            if value[:2] > best_rest[:2]:
                best_rest = value
        result = (count + best_rest[0], pips + best_rest[1], used | best_rest[2])
        self._memo[key] = result
        return result
