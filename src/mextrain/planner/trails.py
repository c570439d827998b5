"""The exact longest-train search: longest trails in a hand's graph.

A hand is a graph: pips are vertices, tiles are edges, doubles are loops. A train from the
engine pip is a trail (no tile twice) starting at that vertex, so the longest train is a
longest-trail problem — NP-hard in general, but a hand has at most ``max_pip + 1``
vertices, and the search below is exact on every hand and fast on the hands of a game.

How it stays fast:

* **Doubles are absorbed.** A double can always be laid the moment the train reaches its
  pip, so the value search takes it on arrival and never branches on it.
* **Parity bound.** The rest of a trail from ``v`` uses only tiles of ``v``'s connected
  component; every odd-degree pip other than ``v`` and the train's last pip must keep a
  tile in the hand, so at least ``cut = floor(|odd Δ {v}| / 2)`` tiles stay out.
* **The tight case is decided, not searched.** Leaving out exactly ``cut`` tiles means
  leaving out a perfect matching on the odd pips but one (``w``, where the train ends).
  A tile's pips are the sum of its ends, so such a matching costs exactly the pips of the
  pips it covers, whichever matching it is: the best train is then the one that ends on
  the largest ``w`` for which some matching leaves the rest in one piece (an Euler trail
  from ``v`` to ``w``). A few matchings are tried per ``w``; if none works for any ``w``,
  one tile more stays out and the bound drops by one.
* **Eulerian cases are recognised.** When ``cut`` is 0 the component has an Euler trail
  from ``v`` and its value is known without search (the whole double-12 set).
* **Near-tight cases are decided too.** When one or two more tiles must stay out, the
  tiles left out form a small T-join (they make exactly the right pips odd); `_decide`
  enumerates them, checking that the rest is one piece and counting cut-off doubles.
  Odd dead ends holding a double lose their double unless the train ends there, which
  raises the number of tiles out before any enumeration. Enumerations have a budget per
  solve; past it, a case falls back to the search below, which stays exact.
* **Bridges.** A train that crosses a bridge never comes back: when two or more bridges
  leave ``v``'s 2-edge-connected piece, each way out (or none) is solved on its own.
* **Small remainders are searched plainly.** With few tiles left (a dealt hand, or the end
  of a dense one) a memoised search without bounds is cheaper than computing them.
* **Dead ends are dominated.** Going to a pip of degree one ends the train: it is scored
  at once, without a recursive call.
* **Fail-low search with a transposition table, iterative deepening on the bound.** The
  search takes the value it must beat (``alpha``) and prunes whenever the bound cannot
  beat it; results are stored by ``(pip, remaining tiles bitmask)`` either as exact values
  or as upper bounds. The root first asks for the bound itself, then for one tile less,
  and so on, so that the first trains tried are the ones that prune hardest.

Values are packed into one integer, ``tiles * _K + pips``, so that comparing two packed
values compares (tiles, pips) lexicographically.

The train itself is then built tile by tile: at each step the smallest tile (in the
set's order) after which the optimum is still reachable is laid. That makes the answer
the lexicographically smallest optimal sequence, independent of the search's internals.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from mextrain.rules import Tile

__all__ = ["PlanLimit", "PlanStepLimit", "PlanTimeout", "TrailSolver", "pack", "unpack"]


class PlanLimit(Exception):
    """The search reached a limit it was given before it proved the best train: no answer
    is given rather than one that may not be the best."""


class PlanTimeout(PlanLimit):
    """The search reached its time limit (``time_limit``: the seconds it had)."""

    def __init__(self, time_limit: float) -> None:
        super().__init__(f"no best train proven within {time_limit:g} s")
        self.time_limit = time_limit


class PlanStepLimit(PlanLimit):
    """The search took as many steps as it was allowed (``max_steps``): a bound that,
    unlike a time limit, gives the same answer on every machine (a bot's, in a
    reproducible simulation)."""

    def __init__(self, max_steps: int) -> None:
        super().__init__(f"no best train proven within {max_steps:,} search steps")
        self.max_steps = max_steps


#: How many tiles beyond the parity bound the search decides by enumerating what to leave
#: out, before it falls back to searching trains.
_LEVELS = 2
#: Smaller components are searched directly: the shortcuts would cost more than they save.
_SPLIT_FROM = 8
#: Up to this many non-double tiles left, a plain memoised search is the fastest.
_PLAIN_UPTO = 14
_DECIDE_FROM = 12
#: Enumeration steps per solve that near-tight decisions may spend generously.
_EFFORT = 200_000

#: Packing base: larger than the pips of any hand (a double-30 set has 14,880 pips).
_K = 1 << 16


def pack(tiles: int, pips: int) -> int:
    return tiles * _K + pips


def unpack(value: int) -> tuple[int, int]:
    return divmod(value, _K)


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _reach(v: int, adj: Sequence[int], cut: Sequence[int] | None = None) -> int:
    """The pips reachable from ``v`` (a bitmask), leaving out the edges ``cut[p]`` at each
    pip ``p`` when given."""
    seen = 1 << v
    todo = adj[v] if cut is None else adj[v] & ~cut[v]
    while todo:
        seen |= todo
        nxt = 0
        while todo:
            low = todo & -todo
            p = low.bit_length() - 1
            nxt |= adj[p] if cut is None else adj[p] & ~cut[p]
            todo ^= low
        todo = nxt & ~seen
    return seen


class TrailSolver:
    """Longest trails in one hand. Build once per hand; solve from any start.

    ``tiles`` must be distinct and sorted (the set's order). Tiles are numbered locally
    ``0..len(tiles)-1`` in that order, so comparing local ids compares tiles.
    """

    __slots__ = (
        "_adj",
        "_by_pips",
        "_deadline",
        "_deg",
        "_effort",
        "_ends",
        "_gain",
        "_inc",
        "_loop",
        "_loop_pips",
        "_max_steps",
        "_memo",
        "_odd",
        "_plain_tiles",
        "_steps_left",
        "_time_limit",
        "tiles",
    )

    def __init__(
        self, tiles: Sequence[Tile], time_limit: float | None = None, max_steps: int | None = None
    ) -> None:
        """``time_limit``: seconds from now after which a search raises `PlanTimeout`;
        ``max_steps``: the steps (the searches' calls and the enumerations' steps, of all
        the searches of this solver together) after which one raises `PlanStepLimit`
        (None: no limit; the problem is NP-hard, and a rare hand of a big set takes
        minutes or more). A step is a few microseconds."""
        self.tiles = tuple(tiles)
        self._time_limit = time_limit
        self._deadline = None if time_limit is None else time.monotonic() + time_limit
        self._max_steps = max_steps
        self._steps_left = max_steps
        n = max((t.high for t in self.tiles), default=0) + 1
        self._inc = [0] * n  # non-double tiles at each pip (local bitmask)
        self._loop = [0] * n  # the double at each pip (local bit), or 0
        self._ends: list[int] = []  # low + high of each tile
        self._gain: list[int] = []  # packed value of laying each tile
        self._adj = [0] * n  # neighbouring pips through the remaining tiles (vertex bitmask)
        self._deg = [0] * n  # remaining non-double tiles at each pip
        self._odd = 0
        for i, t in enumerate(self.tiles):
            self._ends.append(t.low + t.high)
            self._gain.append(pack(1, t.low + t.high))
            if t.is_double:
                self._loop[t.low] = 1 << i
            else:
                self._inc[t.low] |= 1 << i
                self._inc[t.high] |= 1 << i
        #: non-double tiles, cheapest first: (local bit, pips)
        self._by_pips = sorted(
            ((1 << i, t.pips) for i, t in enumerate(self.tiles) if not t.is_double),
            key=lambda item: item[1],
        )
        self._memo: dict[int, int] = {}
        self._loop_pips = 0
        self._plain_tiles = sum(1 << i for i, t in enumerate(self.tiles) if not t.is_double)
        #: enumeration steps the near-tight decisions may still spend in this solve before
        #: each is cut short early (the search falls back on the bound then)
        self._effort = _EFFORT

    @property
    def full_mask(self) -> int:
        return (1 << len(self.tiles)) - 1

    def _load(self, remaining: int) -> None:
        """Set the adjacency, degree and parity tables for ``remaining``."""
        adj = self._adj
        deg = self._deg
        for p in range(len(adj)):
            adj[p] = 0
            deg[p] = 0
        for i in _bits(remaining):
            t = self.tiles[i]
            if t.low != t.high:
                adj[t.low] |= 1 << t.high
                adj[t.high] |= 1 << t.low
                deg[t.low] += 1
                deg[t.high] += 1
        self._odd = sum(1 << p for p in range(len(deg)) if deg[p] & 1)

    # -- the value search ---------------------------------------------------------------

    def value(self, start: int, remaining: int | None = None, alpha: int = -1) -> int:
        """Packed (tiles, pips) of the best trail from pip ``start`` using ``remaining``.

        Exact when it exceeds ``alpha``; otherwise an upper bound no larger than ``alpha``.
        """
        if remaining is None:
            remaining = self.full_mask
        if start >= len(self._inc):
            return 0
        self._load(remaining)
        self._effort = _EFFORT
        return self._deepen(start, remaining, alpha)

    def _deepen(self, start: int, remaining: int, alpha: int) -> int:
        """`value` with the tables loaded."""
        # iterative deepening on the bound: first ask for a train as long as the bound
        # allows, which prunes hardest, and lower the demand one tile at a time
        bound = self._from(start, remaining, 1 << 62)
        val = self._from(start, remaining, max(bound - 1, alpha))
        if val >= bound or bound - 1 <= alpha:
            return val
        tiles = unpack(bound)[0]
        while True:
            floor = max(pack(tiles, 0) - 1, alpha)
            val = self._from(start, remaining, floor)
            if val > floor or floor == alpha:
                return val
            tiles -= 1

    def _from(self, v: int, remaining: int, alpha: int) -> int:
        """Like `value`, with the tables already loaded; takes the double at ``v`` first."""
        loop = self._loop[v]
        if remaining & loop:
            gain = pack(1, 2 * v)
            return gain + self._search(v, remaining ^ loop, self._odd, alpha - gain)
        return self._search(v, remaining, self._odd, alpha)

    def _search(self, v: int, remaining: int, odd: int, alpha: int) -> int:
        if self._deadline is not None and time.monotonic() > self._deadline:
            assert self._time_limit is not None
            raise PlanTimeout(self._time_limit)
        if self._steps_left is not None:
            self._spend(1)
        memo = self._memo
        key = remaining << 5 | v
        hit = memo.get(key)
        if hit is not None:
            val = hit >> 1
            if hit & 1 or val <= alpha:
                return val
        if (remaining & self._plain_tiles).bit_count() <= _PLAIN_UPTO:
            return self._plain(v, remaining)
        adj = self._adj
        deg = self._deg
        loop = self._loop
        # the component of v
        seen = _reach(v, adj)
        degrees = 0
        pips = 0
        loops = 0
        comp = seen
        while comp:
            low = comp & -comp
            p = low.bit_length() - 1
            comp ^= low
            d = deg[p]
            degrees += d
            pips += p * d
            if remaining & loop[p]:
                loops += 1
                pips += 2 * p
        # the odd pips that must lose a tile: all odd ones but v and the train's last pip
        j0 = (odd & seen) ^ (1 << v)
        cut = j0.bit_count() // 2
        edges = degrees // 2
        top = j0.bit_length() - 1
        left_out = 0
        stuck = 0  # odd dead ends holding a double: all but the last lose the double too
        rest = j0
        while rest:
            low = rest & -rest
            p = low.bit_length() - 1
            left_out += p
            rest ^= low
            if deg[p] == 1 and remaining & loop[p]:
                stuck += 1
        extra = stuck - 1 if stuck > 1 else 0
        bound = pack(edges - cut - extra + loops, pips - left_out + top)
        if cut == 0:  # an Euler trail from v uses the whole component
            memo[key] = bound << 1 | 1
            return bound
        if bound > alpha:
            w = -1
            if not extra:
                # Leaving out exactly `cut` tiles means leaving out a perfect matching on
                # the odd pips but one (w, where the train ends), which costs the pips of
                # the others.
                w, exact = self._tight(v, j0, edges - cut + loops, remaining)
                if w >= 0:
                    bound = pack(edges - cut + loops, pips - left_out + w)
                    if exact:
                        memo[key] = bound << 1 | 1
                        return bound
                extra = 1
            if w < 0:
                # more tiles stay out, doubles or not: the tiles left out are still
                # at least `cut`, and cost at least as much as the `cut` cheapest ones
                tiles_in = 0
                comp = seen
                while comp:
                    low = comp & -comp
                    tiles_in |= self._inc[low.bit_length() - 1]
                    comp ^= low
                tiles_in &= remaining
                cheapest = 0
                need = cut
                for bit, cost in self._by_pips:
                    if tiles_in & bit:
                        cheapest += cost
                        need -= 1
                        if not need:
                            break
                most = pips - max(left_out - top, cheapest)
                if edges >= _SPLIT_FROM and pack(edges - cut - extra + loops, most) > alpha:
                    parts = self._split(v, seen, remaining)
                    if parts:
                        best = 0
                        for part in parts:
                            floor = best if best > alpha else alpha
                            val = self._within(v, remaining, part, odd, floor)
                            if val > best:
                                best = val
                        memo[key] = best << 1 | (best > alpha)
                        return best
                out = extra  # tiles beyond `cut` known to stay out
                while out < extra + (_LEVELS if edges >= _DECIDE_FROM else 0):
                    bound = pack(edges - cut - out + loops, most)
                    if bound <= alpha:
                        break
                    lost, status = self._decide(v, j0, seen, edges, loops, remaining, cut + out)
                    if status > 0:
                        bound = pack(edges - cut - out + loops, pips - lost)
                        memo[key] = bound << 1 | 1
                        return bound
                    if status < 0:
                        break
                    out += 1
                else:
                    bound = pack(edges - cut - out + loops, most)
        if bound <= alpha:
            memo[key] = bound << 1
            return bound
        best = 0
        ends = self._ends
        gains = self._gain
        vbit = 1 << v
        cand = self._inc[v] & remaining
        while cand:
            low = cand & -cand
            cand ^= low
            e = low.bit_length() - 1
            u = ends[e] - v
            gain = gains[e]
            rest = remaining ^ low
            lu = loop[u]
            if rest & lu:
                rest ^= lu
                gain += pack(1, 2 * u)
            if deg[u] == 1:  # a dead end: the train stops at u
                val = gain
            else:
                ubit = 1 << u
                adj[v] ^= ubit
                adj[u] ^= vbit
                deg[v] -= 1
                deg[u] -= 1
                floor = best if best > alpha else alpha
                val = gain + self._search(u, rest, odd ^ vbit ^ ubit, floor - gain)
                adj[v] ^= ubit
                adj[u] ^= vbit
                deg[v] += 1
                deg[u] += 1
            if val > best:
                best = val
                if best >= bound:
                    break
        memo[key] = best << 1 | (best > alpha)
        return best

    def _spend(self, steps: int) -> None:
        """Count ``steps`` against the step limit, if there is one."""
        if self._steps_left is not None:
            self._steps_left -= steps
            if self._steps_left < 0:
                assert self._max_steps is not None
                raise PlanStepLimit(self._max_steps)

    def _plain(self, v: int, remaining: int) -> int:
        """The exact value by plain memoised search: cheaper than bounds on few tiles."""
        memo = self._memo
        key = remaining << 5 | v
        hit = memo.get(key)
        if hit is not None and hit & 1:
            return hit >> 1
        if self._steps_left is not None:
            self._spend(1)
        loop = self._loop
        ends = self._ends
        gains = self._gain
        best = 0
        cand = self._inc[v] & remaining
        while cand:
            low = cand & -cand
            cand ^= low
            e = low.bit_length() - 1
            u = ends[e] - v
            gain = gains[e]
            rest = remaining ^ low
            lu = loop[u]
            if rest & lu:
                rest ^= lu
                gain += pack(1, 2 * u)
            val = gain + self._plain(u, rest)
            if val > best:
                best = val
        memo[key] = best << 1 | 1
        return best

    def _tight(self, v: int, odd: int, tiles: int, remaining: int) -> tuple[int, bool]:
        """Try to leave out a perfect matching on ``odd`` minus one pip ``w`` so that the
        rest stays one piece holding ``tiles`` tiles (an Euler trail from ``v`` to ``w``).

        Returns ``(w, True)`` for the largest such ``w``; ``(w, False)`` when the budget
        ran out, ``w`` being the largest pip for which a matching exists at all (a bound);
        ``(-1, False)`` when no such matching exists (one more tile stays out).
        """
        adj = self._adj
        deg = self._deg
        loop = self._loop
        partner = [0] * len(adj)  # the pip each pip is matched to (bit), while matching
        budget = 48
        found = -1

        def spans() -> bool:
            seen = _reach(v, adj, partner)
            count = 0
            ends = 0
            while seen:
                low = seen & -seen
                p = low.bit_length() - 1
                seen ^= low
                ends += deg[p] - (partner[p] != 0)
                if remaining & loop[p]:
                    count += 1
            return count + ends // 2 == tiles

        def match(pips: int) -> int:  # 1 found, 0 none, -1 out of budget
            nonlocal budget
            if not pips:
                budget -= 1
                if spans():
                    return 1
                return -1 if budget <= 0 else 0
            low = pips & -pips
            x = low.bit_length() - 1
            rest = pips ^ low
            others = adj[x] & rest
            while others:
                other = others & -others
                others ^= other
                partner[x] = other
                partner[other.bit_length() - 1] = low
                status = match(rest ^ other)
                partner[x] = 0
                partner[other.bit_length() - 1] = 0
                if status:
                    return status
            return 0

        rest = odd
        while rest:
            w = rest.bit_length() - 1
            rest ^= 1 << w
            pips = odd ^ 1 << w
            probe = pips
            while probe:  # a pip with no odd neighbour cannot be matched
                low = probe & -probe
                if not adj[low.bit_length() - 1] & pips:
                    break
                probe ^= low
            if probe:
                continue
            before = budget
            status = match(pips)
            if status == 1:
                return w, True
            if budget < before and found < 0:
                found = w  # a matching exists, though it splits the rest
            if status == -1:
                return found, False
        return -1, False

    def _decide(
        self, v: int, odd: int, comp: int, edges: int, loops: int, remaining: int, loss: int
    ) -> tuple[int, int]:
        """Find the cheapest way to leave exactly ``loss`` tiles out and lay the rest of
        ``v``'s component (the pips in ``comp``) as one trail, knowing that fewer is
        impossible.

        The tiles left out are a T-join: they make every pip of ``odd`` Δ {w} odd, for the
        train's last pip w; what remains must be one piece. Doubles cut off count as left
        out. Returns ``(pips left out, 1)``; ``(0, 0)`` when there is no such way; and
        ``(0, -1)`` when the enumeration ran over its budget.
        """
        adj = self._adj
        deg = self._deg
        loop = self._loop
        taken = [0] * len(adj)  # the pips each pip is joined to by a tile left out
        budget = start = max(500, self._effort // 2)
        best = -1

        def check(size: int, cost: int) -> None:
            nonlocal best
            seen = _reach(v, adj, taken)
            ends = 0
            kept = 0
            while seen:
                low = seen & -seen
                p = low.bit_length() - 1
                seen ^= low
                ends += deg[p] - taken[p].bit_count()
                if remaining & loop[p]:
                    kept += 1
                    cost -= 2 * p
            if ends // 2 != edges - size or size + loops - kept != loss:
                return
            cost += self._loop_pips
            if best < 0 or cost < best:
                best = cost

        def join(deficit: int, left: int, size: int, cost: int) -> bool:
            nonlocal budget
            budget -= 1
            if budget < 0:
                return False
            if not deficit:
                check(size, cost)
                return True
            if deficit.bit_count() > 2 * left:
                return True
            low = deficit & -deficit
            x = low.bit_length() - 1
            others = adj[x] & ~taken[x]
            while others:
                other = others & -others
                others ^= other
                y = other.bit_length() - 1
                taken[x] |= other
                taken[y] |= low
                going = join(deficit ^ low ^ other, left - 1, size + 1, cost + x + y)
                taken[x] ^= other
                taken[y] ^= low
                if not going:
                    return False
            return True

        # every double of the component counts as cut off until found in the piece
        self._loop_pips = sum(2 * p for p in _bits(comp) if remaining & loop[p])
        rest = comp
        complete = True
        while rest and complete:
            low = rest & -rest
            rest ^= low
            complete = join(odd ^ low, loss, 0, 0)
        self._effort -= start - budget
        self._spend(start - budget)
        if not complete:
            return 0, -1
        return (best, 1) if best >= 0 else (0, 0)

    def _split(self, v: int, comp: int, remaining: int) -> list[int]:
        """Bridge reasoning. A train that crosses a bridge never comes back, so when two or
        more bridges leave ``v``'s 2-edge-connected piece K, every train stays in K or ends
        beyond exactly one of them. Returns the tile masks of those cases (K alone, then K
        with each bridge and what lies beyond it), or ``[]`` when there is nothing to split.
        """
        adj = self._adj
        inc = self._inc
        loop = self._loop
        disc = [0] * len(adj)
        low = [0] * len(adj)
        clock = 1
        leaving: list[tuple[int, int]] = []  # bridges out of K (the pip in K first)

        def visit(u: int, parent: int) -> None:
            nonlocal clock
            disc[u] = low[u] = clock
            clock += 1
            for w in _bits(adj[u]):
                if not disc[w]:
                    visit(w, u)
                    if low[w] < low[u]:
                        low[u] = low[w]
                    if low[w] > disc[u]:
                        leaving.append((u, w))
                elif w != parent and disc[w] < low[u]:
                    low[u] = disc[w]

        visit(v, -1)
        if len(leaving) < 2:
            return []

        def reach(start: int, banned: int, avoid: int) -> int:
            """Pips reachable from ``start`` without using pips in ``avoid`` as a step from
            ``banned`` — used to stop at the bridges."""
            seen = 1 << start
            todo = [start]
            while todo:
                u = todo.pop()
                nxt = adj[u] & ~seen
                if u == banned:
                    nxt &= ~avoid
                for w in _bits(nxt):
                    seen |= 1 << w
                    todo.append(w)
            return seen

        def tiles_within(pips: int) -> int:
            touching = 0
            outside = 0
            doubles = 0
            for p in _bits(comp):
                if pips >> p & 1:
                    touching |= inc[p]
                    doubles |= loop[p]
                else:
                    outside |= inc[p]
            return (touching & ~outside | doubles) & remaining

        # K: from v without crossing any bridge
        crossing = [0] * len(adj)
        for u, w in leaving:
            crossing[u] |= 1 << w
            crossing[w] |= 1 << u
        core = 1 << v
        todo = [v]
        while todo:
            u = todo.pop()
            for w in _bits(adj[u] & ~crossing[u] & ~core):
                core |= 1 << w
                todo.append(w)
        out_of_core = [(u, w) for u, w in leaving if core >> u & 1 and not core >> w & 1]
        if len(out_of_core) < 2:
            return []
        base = tiles_within(core)
        parts = [base]
        for u, w in out_of_core:
            beyond = reach(w, w, 1 << u)
            parts.append(base | (inc[u] & inc[w]) | tiles_within(beyond))
        return parts

    def _within(self, v: int, remaining: int, part: int, odd: int, alpha: int) -> int:
        """`_search` from ``v`` on the tiles ``part`` of ``remaining`` (tables adjusted)."""
        adj = self._adj
        deg = self._deg
        tiles = self.tiles
        dropped = _bits(remaining & ~part)
        for i in dropped:
            t = tiles[i]
            if t.low != t.high:
                adj[t.low] ^= 1 << t.high
                adj[t.high] ^= 1 << t.low
                deg[t.low] -= 1
                deg[t.high] -= 1
                odd ^= (1 << t.low) | (1 << t.high)
        try:
            return self._search(v, part, odd, alpha)
        finally:
            for i in dropped:
                t = tiles[i]
                if t.low != t.high:
                    adj[t.low] ^= 1 << t.high
                    adj[t.high] ^= 1 << t.low
                    deg[t.low] += 1
                    deg[t.high] += 1

    # -- building the train -------------------------------------------------------------

    def best_trail(self, start: int, remaining: int | None = None) -> tuple[list[int], int]:
        """The lexicographically smallest optimal trail from ``start``: local tile ids in
        play order, and its packed value."""
        if remaining is None:
            remaining = self.full_mask
        if start >= len(self._inc):
            return [], 0
        self._load(remaining)
        self._effort = _EFFORT
        total = self._deepen(start, remaining, -1)
        target = total
        v = start
        trail: list[int] = []
        adj = self._adj
        deg = self._deg
        while target > 0:
            cand = (self._inc[v] | self._loop[v]) & remaining
            for e in _bits(cand):
                u = self._ends[e] - v
                need = target - self._gain[e]
                rest = remaining ^ (1 << e)
                if u != v:
                    adj[v] ^= 1 << u
                    adj[u] ^= 1 << v
                    deg[v] -= 1
                    deg[u] -= 1
                    self._odd ^= (1 << v) | (1 << u)
                self._effort = _EFFORT  # each check is a solve of its own
                if need == 0 or self._from(u, rest, need - 1) >= need:
                    trail.append(e)
                    v = u
                    remaining = rest
                    target = need
                    break
                if u != v:
                    adj[v] ^= 1 << u
                    adj[u] ^= 1 << v
                    deg[v] += 1
                    deg[u] += 1
                    self._odd ^= (1 << v) | (1 << u)
            else:  # pragma: no cover - the value search is exact
                raise AssertionError("the optimal train could not be rebuilt")
        return trail, total
