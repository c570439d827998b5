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

    __slots__ = (
        "_doubles",
        "_fallback",
        "_greedy_from",
        "_left",
        "_memo",
        "_pip_mask",
        "_pip_sum",
        "budget",
        "exact",
        "ts",
    )

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
        # the set's tables, read at every state of the search
        self._pip_sum = ts.pip_sum
        self._pip_mask = ts.pip_mask
        #: the bit of the double ``p-p`` for each pip
        self._doubles = tuple(1 << tid for tid in ts.double_id)

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
            return self._best(hand, start)  # (not in the memo: looked up above)
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
        """The best train from ``start`` using ``hand``, searched: the caller has found
        ``(start, hand)`` in no memo. Each state searched is memoised and spends one unit
        of the budget; a state found in the memo costs nothing (each caller looks it up
        before calling, rather than each call on entry: the same states, the same budget,
        fewer calls)."""
        self._left -= 1
        if self._left < 0:
            raise _OutOfBudget
        key = (start, hand)
        memo = self._memo
        pip_sum = self._pip_sum
        count = pips = used = 0
        double = self._doubles[start]
        if hand & double:  # take the double on arrival
            hand ^= double
            count, pips, used = 1, 2 * start, double
        # the best rest of the train: most tiles, then most pips (the first found on a tie)
        rest_count = rest_pips = rest_used = 0
        options = hand & self._pip_mask[start]
        while options:
            low = options & -options
            options ^= low
            tid = low.bit_length() - 1
            total = pip_sum[tid]
            sub = memo.get((total - start, hand ^ low))
            if sub is None:
                sub = self._best(hand ^ low, total - start)
            sub_count = sub[0] + 1
            if sub_count > rest_count or (sub_count == rest_count and sub[1] + total > rest_pips):
                rest_count, rest_pips, rest_used = sub_count, sub[1] + total, sub[2] | low
        result = (count + rest_count, pips + rest_pips, used | rest_used)
        memo[key] = result
        return result
