"""Dealing the unseen tiles again, consistently with everything one seat knows.

A seat knows its own hand, every tile on the table, each seat's hand size, the boneyard's
size and the public history. The history says more than the table does: a seat that drew,
or passed because it had to, held no tile that fitted any train it could reach at that
moment (its *void* then); so did a seat whose first-turn run stopped, for its own train,
and under ``own_train_first`` a seat that played elsewhere held no tile for its own
train. `InfoState` works all of this out from a `SeatView`, and
`InfoState.sample` deals the unseen tiles to the other hands and the boneyard so that
every fact above holds, giving a full `RoundState` at the current position to search on.

How it works, and where it approximates:

- **The position.** The public history is replayed through the engine on a synthetic
  deal. Hidden tiles are moved between hands and the boneyard before each action so the
  engine accepts it: a seat about to play a tile holds it, a seat about to draw or make a
  forced pass holds only tiles that fit nowhere it may play (the engine says which: the
  seat's hand is probed with every unseen tile), and a drawn tile that is played at once
  is the one on top. Where the engine's next step depends on hidden tiles (does a run go
  on; is the round blocked once the boneyard is empty) the hidden tiles are arranged so
  the engine does what the record says. Every train, marker, open double and turn flag
  then comes from the engine itself; no rule is re-derived here. Only the hidden parts of
  that synthetic state are wrong, and `sample` replaces them. If no arrangement is found
  after a few random tries, `ResampleError` is raised (the bots then fall back to the
  ``planner``; the property tests have not met this case).
- **Voids.** A void constrains the tiles a seat held at that moment. A tile it holds now
  was held then unless it was drawn later, so `sample` keeps the voids a seat showed
  since its last draw (including the forced pass right after that draw) exactly; an
  older one binds only up to the tiles drawn since (a *soft* void), which never rules out
  the true deal. With ``history=True`` each sample also deals the tile behind every draw
  a seat never showed, and then every void of the round binds exactly.
- **Uniformity.** Without voids the deal is a uniform shuffle (exact). With voids,
  `sample` runs a Markov chain of random swaps between two hidden places, accepted when
  both tiles may go where they land: its stationary law is uniform over the consistent
  deals, and a few swaps per unseen tile between samples mix it well in practice (not
  exactly uniform for a single draw). The boneyard's order is always a uniform shuffle.
- **Reading plays** (an opponent ``model``). The chain's proposals are scored by a
  `InfoState.penalty`: plays the model would not have made, and (``history``) voids a
  deal breaks. By default a change that adds penalty is refused, so the chain ends up
  uniform over the deals that explain everything -- but it only gets there slowly and
  crowds onto the first such deals it finds: with a dozen steps between samples its
  samples are *worse* calibrated than plain ones (a proper log score says so;
  ``benchmarks/inference.py``). With ``beta`` the chain is a Metropolis chain on
  ``exp(-beta * penalty)``: a model that plays its move most of the time, not always. It
  mixes, and with enough steps between samples it beats plain sampling.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Protocol

from mextrain.rules import (
    PASS,
    Action,
    DealError,
    IllegalActionError,
    RoundState,
    SeatView,
    Tile,
    iter_bits,
    tile_set,
)

__all__ = ["InfoState", "OpponentModel", "ResampleError", "resample"]


class OpponentModel(Protocol):
    """How another seat is assumed to choose its plays (e.g. the planner's way)."""

    def choose(
        self, state: RoundState, plays: tuple[tuple[int, int], ...], hand: int | None = None
    ) -> tuple[int, int]:
        """The play ``(tile id, train)`` the seat to move in ``state`` would make among
        ``plays`` if it held ``hand`` (its own hand if ``None``)."""
        ...


class ResampleError(RuntimeError):
    """The seat's history could not be replayed on any synthetic deal (should not happen)."""


@dataclass(frozen=True, slots=True)
class _Voids:
    """What the replay of the public history found."""

    position: RoundState  # the current position with synthetic hidden parts
    voids: tuple[int, ...]  # per seat: tiles it cannot hold now (since its last draw)
    #: per seat: its plays, newest first, as `Decision` -- the positions' hidden parts are
    #: synthetic (recorded only when asked for)
    decisions: tuple[tuple[Decision, ...], ...]
    #: per seat: (void, k) -- it holds at most k tiles of a void shown before later draws
    soft: tuple[tuple[tuple[int, int], ...], ...]
    #: per seat: the voids shown before later draws, exactly, as (void, played, known,
    #: latent) -- see `Past`
    pasts: tuple[tuple[Past, ...], ...]
    #: per seat, per draw whose tile was never shown (the seat passed after it), oldest
    #: first: the tiles the seat played after that draw that were not drawn later
    latent: tuple[tuple[int, ...], ...]


#: What a seat held at a past moment, given its hand now: ``(hand | played) & ~known``
#: less the tiles of its unshown draws from index ``latent`` on -- ``played``: the tiles it
#: played from then on (that moment's play included); ``known``: the tiles it drew from
#: then on that it played straight away (so they are known to be the drawn ones).
Past = tuple[int, int, int, int]  # (void, played, known, latent)

#: a past play of another seat: (position before it, tile id, train, played, known,
#: latent) -- the last three as in `Past`
Decision = tuple[RoundState, int, int, int, int, int]


def _bits(mask: int) -> list[int]:
    return list(iter_bits(mask))


def _play_and_draw_counts(view: SeatView) -> tuple[list[int], list[int]]:
    plays = [0] * view.players
    draws = [0] * view.players
    for seat, action in view.history:
        if action.kind == "play":
            plays[seat] += 1
        elif action.kind == "draw":
            draws[seat] += 1
    return plays, draws


def _must_hold(view: SeatView) -> list[tuple[int, ...]]:
    """``out[i][s]``: the tiles seat ``s`` plays from action ``i`` on before it next draws.

    Those tiles are in its hand before action ``i`` in the real round too.
    """
    ts = tile_set(view.rules.max_pip)
    cur = [0] * view.players
    out: list[tuple[int, ...]] = [tuple(cur)]
    for seat, action in reversed(view.history):
        if action.kind == "play":
            assert action.tile is not None
            cur[seat] |= 1 << ts.ids[action.tile]
        elif action.kind == "draw":
            cur[seat] = 0
        out.append(tuple(cur))
    out.reverse()
    return out


class _Replay:
    """Replays the public history on a synthetic deal (see the module's docstring)."""

    def __init__(self, view: SeatView, rng: random.Random, record: bool = False) -> None:
        self.view = view
        self.rng = rng
        self.record = record
        self.ts = tile_set(view.rules.max_pip)
        self.engine_bit = 1 << self.ts.double_id[view.engine]

    def start(self) -> RoundState:
        view, ts = self.view, self.ts
        rules, n = view.rules, view.players
        engine_id = self.ts.double_id[view.engine]
        size = rules.hand_size_for(n)
        ids = [i for i in range(ts.size) if i != engine_id]
        if rules.engine_setup != "set_aside":
            # every tile is dealt and the engine's holder starts: the starter is dealt it
            # (no draw cycles here; the real sizes after any cycles are restored below).
            # The deal may take the whole set, the boneyard empty from the start
            ids.insert(view.starter * size, engine_id)
        hands: list[list[Tile]] = [
            [ts.tiles[i] for i in ids[s * size : (s + 1) * size]] for s in range(n)
        ]
        boneyard = [ts.tiles[i] for i in ids[n * size :]]
        st = RoundState.from_deal(rules, n, view.round_index, hands, boneyard, view.starter)
        plays, draws = _play_and_draw_counts(view)
        sizes = [view.hand_sizes[s] + plays[s] - draws[s] for s in range(n)]
        bone_size = view.boneyard_size + sum(draws)
        unseen = self.unseen(st)
        if sum(sizes) + bone_size != unseen.bit_count():
            raise ResampleError("the view's sizes do not add up to the unseen tiles")
        return self.rearrange(st, sizes, bone_size, self.must[0], None, None, None)

    @staticmethod
    def unseen(st: RoundState) -> int:
        mask = 0
        for hand in st.hands:
            mask |= hand
        for tid in st.boneyard[st.bone_pos :]:
            mask |= 1 << tid
        return mask

    def rearrange(
        self,
        st: RoundState,
        sizes: list[int],
        bone_size: int,
        need: tuple[int, ...],
        actor: int | None,
        allowed: int | None,
        top: int | None,
    ) -> RoundState:
        """Deal the hidden tiles again: each seat holds ``need``; ``actor`` holds only
        ``allowed`` tiles; ``top`` (a tile id) is on top of the boneyard."""
        rng = self.rng
        rest = self.unseen(st)
        hands = list(need)
        for mask in need:
            rest &= ~mask
        if top is not None:
            rest &= ~(1 << top)
        if actor is not None and allowed is not None:
            if need[actor] & ~allowed:
                raise ResampleError("a seat must hold a tile that its void rules out")
            pool = _bits(rest & allowed)
            missing = sizes[actor] - hands[actor].bit_count()
            if not 0 <= missing <= len(pool):
                raise ResampleError("not enough tiles fit a seat's void")
            chosen = rng.sample(pool, missing) if missing else []
            for tid in chosen:
                hands[actor] |= 1 << tid
                rest &= ~(1 << tid)
        free = _bits(rest)
        rng.shuffle(free)
        pos = 0
        for seat in range(len(hands)):
            missing = sizes[seat] - hands[seat].bit_count()
            if missing < 0:
                raise ResampleError("a seat would hold more tiles than it does")
            for tid in free[pos : pos + missing]:
                hands[seat] |= 1 << tid
            pos += missing
        boneyard = free[pos:]
        if top is not None:
            boneyard.insert(0, top)
        if len(boneyard) != bone_size:
            raise ResampleError("the boneyard's size does not add up")
        return st.with_hidden(hands, boneyard, keep_sizes=False)

    def void(self, st: RoundState, seat: int, drawing: bool = False) -> int:
        """The unseen tiles ``seat`` could play now, were it to hold them. ``drawing``: at a
        draw, any tile that fits the table, not only the one it drew before (under
        ``draw_until_playable`` a seat draws again while the tile it drew last, which fits
        nowhere, is the only one it may play: its hand still holds nothing that fits)."""
        void = self._fitting(st, seat, self.unseen(st), ignore_drawn=drawing)
        rules = st.rules
        if rules.no_going_out_on_double and st.hands[seat].bit_count() == 1:
            void &= ~self.ts.double_mask  # a lone double may not be played: no void
        return void

    def voluntary_pass(self, st: RoundState, seat: int) -> bool:
        """Whether the rules let ``seat`` pass now even if it had a play (first-turn run)."""
        unseen = self.unseen(st)
        hands = [0] * st.n
        hands[seat] = unseen
        probe = st.with_hidden(hands, [], keep_sizes=False)
        legal = probe.legal_actions()
        return PASS in legal and any(a.kind == "play" for a in legal)

    def run(self) -> _Voids:
        view = self.view
        must = _must_hold(view)
        # the viewer has held its current hand since its last draw
        mine = view.seat
        since = max(
            (i for i, (s, a) in enumerate(view.history) if s == mine and a.kind == "draw"),
            default=-1,
        )
        self.must = [
            tuple(m | view.hand_mask if s == mine and i > since else m for s, m in enumerate(row))
            for i, row in enumerate(must)
        ]
        st = self.start()
        n = view.players
        history = view.history
        # the seat to move may have just drawn and not yet played or passed: its drawn
        # tile may fit (it is about to play it), so that draw shows a void for the hand it
        # held before, not for the drawn tile
        pending = (
            len(history) - 1
            if history
            and view.ended is None
            and history[-1][1].kind == "draw"
            and history[-1][0] == view.current_seat != mine
            else -1
        )
        last_draw = [-1] * n
        events: list[tuple[int, int, int]] = []  # (index, seat, void) of forced passes
        snaps: list[tuple[int, int, RoundState, Action]] = []
        draw_voids: list[tuple[int, int, int]] = []  # (index, seat, void) of draws
        draws_by: list[list[int]] = [[] for _ in range(n)]
        for i, (seat, action) in enumerate(history):
            kind = action.kind
            if kind != "play":
                sizes = st.hand_sizes
                bone = st.boneyard_size
                if kind == "draw":
                    void = self.void(st, seat, drawing=True)
                    # what the drawn tile cannot be if the seat then passed on it: any tile
                    # that fits (under no_going_out_on_double a lone double that fits is
                    # no play, and is outside the void of the hand, but a tile drawn
                    # beside it would be played)
                    unfit = ~void
                    if st.rules.no_going_out_on_double and st.hands[seat].bit_count() == 1:
                        unfit = ~self._fitting(st, seat, self.unseen(st), ignore_drawn=True)
                    nxt = self._next_action(i, seat)
                    top = None
                    need = list(self.must[i])
                    if nxt is not None and nxt.kind == "play":
                        assert nxt.tile is not None
                        top = self.ts.ids[nxt.tile]
                    after = self.must[i + 1][seat]
                    if top is not None:
                        after &= ~(1 << top)
                    need[seat] = after
                    if top is None and after.bit_count() > sizes[seat]:
                        # the viewer holds the tile it drew: drawn just now, the one it may
                        # play now (it knows its legal actions), else one that fits nowhere;
                        # passed on, one that fits nowhere
                        drawn = after & unfit
                        if nxt is None:
                            for legal in view.legal_actions:
                                if legal.kind == "play" and legal.tile is not None:
                                    drawn = after & 1 << self.ts.ids[legal.tile]
                        top = self.rng.choice(_bits(drawn or after))
                        need[seat] = after & ~(1 << top)
                    if top is None and i == pending:
                        # drawn just now, not yet played or passed on: the tile may fit (one
                        # that does leaves the most tiles outside the void for the hand)
                        spare = self.unseen(st) & ~self._needed(need)
                        pool = _bits(spare & void) or _bits(spare)
                        if not pool:
                            raise ResampleError("no tile can be the drawn one")
                        top = self.rng.choice(pool)
                    if top is None:
                        # the drawn tile fits nowhere either: put a tile outside the void on top
                        pool = _bits(self.unseen(st) & unfit & ~self._needed(need))
                        if not pool:
                            # none but a tile the seat is known to hold later (it played it
                            # once the trains had changed): that one it drew here
                            pool = _bits(need[seat] & unfit)
                        if not pool:
                            raise ResampleError("no tile can be the drawn one")
                        top = self.rng.choice(pool)
                        need[seat] &= ~(1 << top)
                    st = self.rearrange(st, sizes, bone, tuple(need), seat, ~void, top)
                    last_draw[seat] = i
                    draw_voids.append((i, seat, void))
                    draws_by[seat].append(i)
                elif not self.voluntary_pass(st, seat):
                    void = self.void(st, seat)
                    events.append((i, seat, void))
                    st = self.rearrange(st, sizes, bone, self.must[i], seat, ~void, None)
            if kind == "play":
                st = self._legal_play(st, i, seat, action, events)
                st = self._turn_flow(st, i, seat, action, events)
            really_ends = i == len(history) - 1 and view.ended is not None
            if st.boneyard_size == 0 and not really_ends:
                st = self._keep_going(st, i, seat, action)
            if self.record and kind == "play" and seat != mine:
                snaps.append((i, seat, st.copy(), action))
            st.apply(action, seat)
            if st.is_over and not really_ends:
                raise ResampleError("the synthetic replay ended the round early")
        voids = [0] * n
        for i, seat, void in events:
            if i > last_draw[seat]:
                voids[seat] |= void
        # older voids still bind, up to the tiles drawn since: a seat holding (or having
        # played) k tiles of a void it showed must have drawn them all after showing it
        soft: list[list[tuple[int, int]]] = [[] for _ in range(n)]
        ids = self.ts.ids
        # the whole history, exactly: a draw followed by a play drew that tile (a drawn
        # tile that fits must be played, and nothing else fitted); a draw followed by a
        # pass drew a tile nobody has seen -- a latent tile of the seat's
        known_at: list[dict[int, int]] = [{} for _ in range(n)]  # draw index -> tile bit
        unshown: list[list[int]] = [[] for _ in range(n)]  # draw indices, oldest first
        for seat in range(n):
            for i in draws_by[seat]:
                nxt = self._next_action(i, seat)
                if nxt is not None and nxt.kind == "play":
                    assert nxt.tile is not None
                    known_at[seat][i] = 1 << ids[nxt.tile]
                else:
                    unshown[seat].append(i)
        plays_by: list[list[tuple[int, int]]] = [[] for _ in range(n)]  # (index, tile bit)
        for j, (s, a) in enumerate(history):
            if a.kind == "play":
                assert a.tile is not None
                plays_by[s].append((j, 1 << ids[a.tile]))
        for i, seat, void in events + draw_voids:
            # the draws since (a draw's own tile counts only if it was then played, or may
            # yet be: a drawn tile the seat passed on did not fit, so it is outside the void)
            drawn = sum(
                1
                for j in draws_by[seat]
                if j > i or (j == i and (j in known_at[seat] or j == pending))
            )
            if not drawn:
                voids[seat] |= void  # still holds exactly
                continue
            played = 0
            for j, bit in plays_by[seat]:
                if j > i:
                    played |= bit
            budget = drawn - (void & played).bit_count()
            if budget <= 0:
                voids[seat] |= void
            else:
                soft[seat].append((void, budget))

        def past(seat: int, i: int) -> tuple[int, int, int]:
            played = 0
            for j, bit in plays_by[seat]:
                if j >= i:
                    played |= bit
            known = 0
            for j, bit in known_at[seat].items():
                if j >= i:
                    known |= bit
            latent = sum(1 for j in unshown[seat] if j < i)
            return played, known, latent

        pasts: list[list[Past]] = [[] for _ in range(n)]
        for i, seat, void in sorted(events + draw_voids):
            if seat != mine and any(j >= i for j in draws_by[seat]):
                pasts[seat].append((void, *past(seat, i)))
        latent: list[tuple[int, ...]] = []
        for seat in range(n):
            shown = 0
            for bit in known_at[seat].values():
                shown |= bit
            latent.append(
                tuple(
                    sum(bit for j, bit in plays_by[seat] if j > i) & ~shown for i in unshown[seat]
                )
            )
        decisions: list[list[Decision]] = [[] for _ in range(n)]
        for i, seat, snap, action in reversed(snaps):
            assert action.tile is not None
            assert action.train is not None
            decisions[seat].append((snap, ids[action.tile], action.train, *past(seat, i)))
        return _Voids(
            st,
            tuple(voids),
            tuple(tuple(d) for d in decisions),
            tuple(tuple(c) for c in soft),
            tuple(tuple(p) for p in pasts),
            tuple(latent),
        )

    def _legal_play(
        self, st: RoundState, i: int, seat: int, action: Action, events: list[tuple[int, int, int]]
    ) -> RoundState:
        """Where a seat may play can depend on its other tiles (under ``own_train_first`` a
        tile fitting its own train must go there): the real play was legal, so the seat
        held none of the tiles that would have made it illegal. Keep that void, whether or
        not this deal happened to hold such a tile, and make the synthetic hand agree."""
        legal = action in st.legal_actions()
        if legal and (action.train == seat or st.drawn >= 0 or not st.rules.own_train_first):
            # only own_train_first makes a play's legality depend on the seat's other
            # tiles, and never a play on its own train; after a draw only the drawn tile
            # may be played, and the draw showed the rest's void
            return st
        assert action.tile is not None
        bit = 1 << self.ts.ids[action.tile]
        unseen = self.unseen(st)
        hand = unseen
        while True:
            hands = [0] * st.n
            hands[seat] = hand
            probe = st.with_hidden(hands, _bits(unseen & ~hand), keep_sizes=False)
            if action in probe.legal_actions():
                break
            found = 0
            for _train, mask in probe.legal_plays():
                found |= mask
            found &= ~bit
            if not found:
                raise ResampleError("no hidden hand makes a recorded play legal")
            hand &= ~found
        void = unseen & ~hand
        if not void:
            return st  # the fullest hand may play it too: nothing to read
        events.append((i, seat, void))
        if legal:
            return st
        return self.rearrange(st, st.hand_sizes, st.boneyard_size, self.must[i], seat, ~void, None)

    def _next_seat(self, i: int) -> int | None:
        history = self.view.history
        if i + 1 < len(history):
            return history[i + 1][0]
        return None if self.view.ended is not None else self.view.current_seat

    def _turn_flow(
        self, st: RoundState, i: int, seat: int, action: Action, events: list[tuple[int, int, int]]
    ) -> RoundState:
        """Whether a turn goes on after a play can depend on the hand (a first-turn run
        goes on while a tile fits the seat's own train): make the synthetic hand agree."""
        nxt = self._next_seat(i)
        if nxt is None:
            return st
        probe = st.copy()
        probe.apply(action, seat)
        if probe.is_over:
            return st
        goes_on = probe.current_seat == seat
        assert action.tile is not None
        bit = 1 << self.ts.ids[action.tile]
        unseen = self.unseen(st)
        if goes_on == (nxt == seat):
            if not goes_on and st.run:
                # a first-turn run ended, as it does on this deal: if a fuller hand would
                # have gone on, the end shows a void all the same (whatever the deal)
                rich = [0] * st.n
                rich[seat] = unseen
                probe = st.with_hidden(rich, [], keep_sizes=False)
                if action not in probe.legal_actions():
                    return st  # (a fuller hand must play elsewhere: nothing to read)
                probe.apply(action, seat)
                if not probe.is_over and probe.current_seat == seat:
                    events.append((i, seat, self._fitting(probe, seat, unseen, bit)))
            return st
        sizes = st.hand_sizes
        bone = st.boneyard_size
        if not goes_on:
            # the run went on: the seat held another tile that fits after this play
            base = list(self.must[i])
            free = unseen & ~self._needed(base)
            for tid in iter_bits(free):
                trial = list(base)
                trial[seat] |= 1 << tid
                if trial[seat].bit_count() > sizes[seat]:
                    break
                candidate = self.rearrange(st, sizes, bone, tuple(trial), None, None, None)
                probe = candidate.copy()
                probe.apply(action, seat)
                if probe.current_seat == seat:
                    return candidate
            raise ResampleError("no hidden deal lets the run go on")
        # the turn ended: after this play no tile of the seat's fitted where it could go
        after = st.copy()
        after.apply(action, seat)  # the synthetic hand still lets the turn go on
        void = self._fitting(after, seat, unseen, bit)
        events.append((i, seat, void))
        return self.rearrange(st, sizes, bone, self.must[i], seat, ~void, None)

    @staticmethod
    def _fitting(
        st: RoundState, seat: int, unseen: int, aside: int = 0, ignore_drawn: bool = False
    ) -> int:
        """The ``unseen`` tiles (less ``aside``, e.g. a tile just played) that ``seat`` could
        play next in ``st``, were it to hold them (grown until none fits more: where it may
        play can depend on what it holds); ``ignore_drawn``: not only the tile it drew."""
        void = 0
        hand = unseen & ~aside
        while hand:
            hands = [0] * st.n
            hands[seat] = hand
            probe = st.with_hidden(hands, _bits(unseen & ~hand & ~aside), keep_sizes=False)
            if ignore_drawn:
                probe.drawn = -1  # (a fresh copy: its legal actions are not worked out yet)
            found = 0
            for _train, mask in probe.legal_plays():
                found |= mask
            if not found:
                break
            void |= found
            hand &= ~found
        return void

    def _keep_going(self, st: RoundState, i: int, seat: int, action: Action) -> RoundState:
        """With the boneyard empty, a turn's end blocks the round unless some seat holds a
        playable tile; the real round went on, so make sure some seat holds one here too."""
        probe = st.copy()
        probe.apply(action, seat)
        if not probe.is_over:
            return st
        sizes = st.hand_sizes
        base = list(self.must[i])
        allowed = None if action.kind == "play" else ~self.void(st, seat)
        nxt = self._next_seat(i)
        free = self.unseen(st) & ~self._needed(base)
        for other in range(st.n):
            if sizes[other] <= base[other].bit_count():
                continue
            for tid in iter_bits(free if other != seat or allowed is None else free & allowed):
                trial = list(base)
                trial[other] |= 1 << tid
                candidate = self.rearrange(
                    st, sizes, 0, tuple(trial), None if allowed is None else seat, allowed, None
                )
                probe = candidate.copy()
                try:
                    probe.apply(action, seat)
                except IllegalActionError:
                    continue
                if not probe.is_over and (nxt is None or probe.current_seat == nxt):
                    return candidate
        raise ResampleError(f"no hidden deal keeps the round going after action {i + 1}")

    @staticmethod
    def _needed(need: list[int]) -> int:
        mask = 0
        for m in need:
            mask |= m
        return mask

    def _next_action(self, i: int, seat: int) -> Action | None:
        for s, action in self.view.history[i + 1 :]:
            if s == seat:
                return action
        return None


class InfoState:
    """One seat's information set: the position, the unseen tiles and the voids.

    Build it once per decision (the replay costs a few milliseconds), then call `sample`
    for every determinization.

    With an opponent ``model``, the other seats' plays are read as the model's: the chain
    prefers deals under which the model makes them. ``history=False`` reads the plays since
    each seat's last draw (at most ``depth`` of them), whose hand then is known from its hand
    now; ``history=True`` reads the ``depth`` latest plays across draws too, and holds every
    void of the round exactly: the tile each seat drew and never showed (it passed after the
    draw) is dealt too, to its hand now or to a tile it played later, so the hand it held at
    every past moment is known in each sample.

    ``voids=False`` deals without the voids and soft voids (the plays are still read with a
    ``model``): a measurement of what they are worth to a search, not a sound belief.
    """

    def __init__(
        self,
        view: SeatView,
        rng: random.Random,
        swaps_per_tile: int = 2,
        model: OpponentModel | None = None,
        depth: int = 3,
        model_swaps: int = 12,
        settle: int = 300,
        history: bool = False,
        beta: float | None = None,
        reuse: int = 1,
        hint: tuple[int, ...] | None = None,
        voids: bool = True,
    ) -> None:
        if not voids and history:
            raise ValueError("history reads every void of the round: it cannot go without them")
        if beta is not None and beta <= 0:
            raise ValueError(f"beta must be positive, not {beta}")
        if reuse < 1:
            raise ValueError(f"reuse must be at least 1, not {reuse}")
        self.view = view
        #: how many samples share one deal of the hands (the boneyard is shuffled afresh
        #: for each): the chain runs only before every ``reuse``-th sample (without a
        #: chain -- no voids, no plays to read -- every sample is a fresh uniform deal)
        self.reuse = reuse
        self._drawn = 0
        #: how hard the history binds: ``None`` -- a change that adds any `penalty` is never
        #: kept; a number -- kept with probability ``exp(-beta * added)`` (Metropolis), so
        #: the chain's law is proportional to ``exp(-beta * penalty)`` over the deals that
        #: keep every hard void
        self.beta = beta
        found = None
        errors: list[str] = []
        for _attempt in range(4):
            try:
                found = _Replay(view, rng, record=model is not None).run()
                break
            except (ResampleError, IllegalActionError, DealError) as err:
                errors.append(str(err))
        if found is None:
            raise ResampleError(f"cannot replay the seat's history: {errors[-1]}")
        self.position = found.position
        ts = tile_set(view.rules.max_pip)
        self.ts = ts
        n = view.players
        unseen = _Replay.unseen(self.position) & ~view.hand_mask
        self.unseen = unseen
        self.seat = view.seat
        others = [s != view.seat for s in range(n)]
        self.sizes = [0 if s == view.seat else view.hand_sizes[s] for s in range(n)]
        self.bone_size = view.boneyard_size
        #: per seat: tiles it cannot hold (only facts that still bind, see the docstring);
        #: none without ``voids`` (a measurement: deals that ignore what draws and passes
        #: showed)
        self.voids = tuple(
            0 if s == view.seat or not voids else found.voids[s] & unseen for s in range(n)
        )
        self.model = model
        #: per seat: the plays read through the model (newest first, at most ``depth``)
        # (without ``history`` only plays since the last draw, after which no draw counts)
        self.decisions: tuple[tuple[Decision, ...], ...] = tuple(
            tuple(
                d if history else (*d[:5], 0)
                for d in found.decisions[s]
                if history or not (d[4] or d[5] < len(lat))
            )[:depth]
            if model is not None and others[s]
            else ()
            for s, lat in enumerate(found.latent)
        )
        #: per seat: the voids shown before later draws, held exactly (``history``)
        self.pasts: tuple[tuple[Past, ...], ...] = tuple(
            found.pasts[s] if history and others[s] else () for s in range(n)
        )
        #: per seat, per unshown draw: the tiles it played later, besides its hand now, that
        #: may be the drawn one (``history``)
        self.latent: tuple[tuple[int, ...], ...] = tuple(
            found.latent[s] if history and others[s] else () for s in range(n)
        )
        #: per seat: (void, k): of the tiles it could not play when it showed that void, it
        #: holds at most k now (the tiles drawn since, less those of the void it played) --
        #: implied by `pasts` when those are held
        self.soft: tuple[tuple[tuple[int, int], ...], ...] = tuple(
            tuple(
                (mask & unseen, k)
                for mask, k in found.soft[s]
                if (mask & unseen & ~self.voids[s]).bit_count() > k
            )
            if others[s] and not history and voids
            else ()
            for s in range(n)
        )
        inferring = any(self.decisions)
        self._checked = tuple(
            bool(self.soft[s] or self.decisions[s] or self.pasts[s]) for s in range(n)
        )
        self._with_roles = [s for s in range(n) if self.latent[s]]
        self.constrained = any(self.voids) or any(self._checked)
        self._tiles = _bits(unseen)
        self._swaps = model_swaps if inferring else swaps_per_tile * len(self._tiles)
        self._memo: dict[tuple[int, int, int], bool] = {}
        # place index n is the boneyard
        self._place: list[int] = []
        #: the tiles at each place (`_place` as masks, kept in step with it)
        self._held: list[int] = [0] * (n + 1)
        self._penalty: list[int] = [0] * n
        #: per seat, per unshown draw: the tile dealt as the drawn one
        self._roles: list[list[int]] = [[] for _ in range(n)]
        warm = False
        if self.constrained:
            self._deal(self._initial(rng, hint))
            warm = hint is not None
        if any(self._checked):
            hands = self._hands()
            for s in self._with_roles:
                self._roles[s] = self._initial_roles(s, hands[s], rng)
            self._penalty = [self.penalty(s, hands[s]) for s in range(n)]
            steps = settle if inferring else max(settle, 20 * len(self._tiles))
            if warm:
                # started from a deal that explained the history a move ago
                steps = min(steps, self._swaps)
            for _ in range(steps):
                if beta is None and not any(self._penalty):
                    break
                self._step(rng)

    def _initial_roles(self, seat: int, hand: int, rng: random.Random) -> list[int]:
        """Drawn tiles for the seat's unshown draws, latest first: each from its hand or
        the tiles it played after that draw (the pools only grow going back, so this never
        gets stuck when the hand has the seat's real size)."""
        roles = [0] * len(self.latent[seat])
        used = 0
        for k in reversed(range(len(roles))):
            pool = _bits((hand | self.latent[seat][k]) & ~used)
            if not pool:
                raise ResampleError("no tile can be a seat's unshown drawn tile")
            roles[k] = rng.choice(pool)
            used |= 1 << roles[k]
        return roles

    @staticmethod
    def _suffixes(roles: list[int]) -> list[int]:
        out = [0] * (len(roles) + 1)
        for k in reversed(range(len(roles))):
            out[k] = out[k + 1] | 1 << roles[k]
        return out

    def penalty(
        self, seat: int, hand: int, limit: int | None = None, roles: list[int] | None = None
    ) -> int:
        """How far ``hand`` (for ``seat``, with ``roles`` as the tiles of its unshown draws)
        is from explaining the history: the tiles held beyond a soft void's allowance or
        against a past void, plus the plays the opponent model would not have made
        (counting may stop once past ``limit``)."""
        total = 0
        for mask, k in self.soft[seat]:
            held = (hand & mask).bit_count()
            if held > k:
                total += held - k
        pasts = self.pasts[seat]
        if pasts:
            after = self._suffixes(self._roles[seat] if roles is None else roles)
            for void, played, known, latent in pasts:
                total += ((hand | played) & ~known & ~after[latent] & void).bit_count()
        if self.model is not None and self.decisions[seat]:
            if limit is not None and total > limit:
                return total
            total += self.mismatches(seat, hand, None if limit is None else limit - total, roles)
        return total

    def mismatches(
        self, seat: int, hand: int, limit: int | None = None, roles: list[int] | None = None
    ) -> int:
        """How many of ``seat``'s plays read the opponent model would not have made, had
        ``seat`` held ``hand`` now (and ``roles`` as its unshown drawn tiles; counting stops
        past ``limit``)."""
        model = self.model
        count = 0
        if model is None:
            return 0
        after = self._suffixes(self._roles[seat] if roles is None else roles)
        memo = self._memo
        for index, (snap, tid, train, played, known, latent) in enumerate(self.decisions[seat]):
            before = (hand | played) & ~known & ~after[latent]
            key = (seat, index, before)
            agrees = memo.get(key)
            if agrees is None:
                plays = snap.plays_if_holding(before)
                if len(plays) == 1 and plays[0][1] & (plays[0][1] - 1) == 0:
                    agrees = True  # a single play: nothing to learn
                else:
                    agrees = model.choose(snap, plays, before) == (tid, train)
                memo[key] = agrees
            if not agrees:
                count += 1
                if limit is not None and count > limit:
                    return count
        return count

    def _deal(self, place: list[int]) -> None:
        """Put the chain at the deal ``place`` (per hidden tile, its seat or ``n`` for the
        boneyard)."""
        self._place = place
        held = [0] * (len(self.sizes) + 1)
        for tid, where in zip(self._tiles, place, strict=True):
            held[where] |= 1 << tid
        self._held = held

    def _hands(self) -> list[int]:
        """The tiles at each place, the boneyard last (a copy)."""
        return self._held[:]

    def _step(self, rng: random.Random) -> None:
        """One proposed change, kept only if it breaks no hard void and adds no `penalty`
        (so, once at none, the chain stays among the deals that explain the whole history:
        uniformly, the proposals being symmetric): a swap of two hidden tiles between
        places (a tile that leaves a hand hands its part as an unshown drawn tile to the one
        that comes in) or, with ``history``, another tile as one unshown drawn tile. With
        ``beta`` a change that adds penalty is kept with the Metropolis probability instead
        (`_slack`)."""
        n = len(self.sizes)
        with_roles = self._with_roles
        if with_roles and rng.random() < 0.25:
            self._role_step(rng, with_roles[rng.randrange(len(with_roles))])
            return
        place, tiles, voids = self._place, self._tiles, self.voids
        count = len(tiles)
        a = rng.randrange(count)
        b = rng.randrange(count)
        pa, pb = place[a], place[b]
        if pa == pb:
            return
        ta, tb = tiles[a], tiles[b]
        if pb < n and voids[pb] >> ta & 1:
            return
        if pa < n and voids[pa] >> tb & 1:
            return
        checked = self._checked
        held = self._held
        swap = (1 << ta) | (1 << tb)
        if (pa < n and checked[pa]) or (pb < n and checked[pb]):
            touched = [p for p in (pa, pb) if p < n and checked[p]]
            old = sum(self._penalty[p] for p in touched)
            ceiling = old + self._slack(rng)
            new = {}
            roles = {}
            total = 0
            for p in touched:
                gone, came = (ta, tb) if p == pa else (tb, ta)
                roles[p] = [came if r == gone else r for r in self._roles[p]]
                new[p] = self.penalty(p, held[p] ^ swap, ceiling - total, roles[p])
                total += new[p]
                if total > ceiling:
                    return
            for p, m in new.items():
                self._penalty[p] = m
                self._roles[p] = roles[p]
        place[a], place[b] = pb, pa
        held[pa] ^= swap
        held[pb] ^= swap

    def _slack(self, rng: random.Random) -> int:
        """How much penalty the next change may add: 0 without ``beta``; else ``d`` with
        probability ``P(d <= E / beta)``, ``E`` exponential -- a change that adds ``d`` is
        then kept with probability ``exp(-beta * d)``, the Metropolis rule."""
        if self.beta is None:
            return 0
        return int(rng.expovariate(self.beta))

    def _role_step(self, rng: random.Random, seat: int) -> None:
        roles = self._roles[seat]
        k = rng.randrange(len(roles))
        hand = self._held[seat]
        others = self._suffixes(roles[:k] + roles[k + 1 :])[0]
        pool = (hand | self.latent[seat][k]) & ~others
        choice = _bits(pool)
        tid = choice[rng.randrange(len(choice))]
        if tid == roles[k]:
            return
        trial = [*roles[:k], tid, *roles[k + 1 :]]
        old = self._penalty[seat]
        ceiling = old + self._slack(rng)
        new = self.penalty(seat, hand, ceiling, trial)
        if new <= ceiling:
            self._penalty[seat] = new
            self._roles[seat] = trial

    def _allowed(self, place: int) -> int:
        return self.unseen if place >= len(self.voids) else self.unseen & ~self.voids[place]

    def hands(self) -> tuple[int, ...] | None:
        """The hidden hands of the chain's current deal, per seat (the seat's own: 0) --
        a ``hint`` for the `InfoState` of a later decision of the same round; ``None``
        without a chain (every sample is then a fresh uniform deal)."""
        if not self.constrained:
            return None
        return tuple(self._hands()[: len(self.sizes)])

    def _initial(self, rng: random.Random, hint: tuple[int, ...] | None = None) -> list[int]:
        """A consistent deal: a matching of hand slots to allowed tiles (Kuhn's augmenting
        paths), tried in a random order; the boneyard takes the rest. With a ``hint`` (the
        hands of an earlier deal, `hands`) each seat first keeps the tiles the hint gave it
        that it may still hold, so the deal starts close to the hint."""
        n = len(self.sizes)
        slots = [seat for seat in range(n) for _ in range(self.sizes[seat])]
        rng.shuffle(slots)
        options = {seat: _bits(self._allowed(seat)) for seat in range(n)}
        for pool in options.values():
            rng.shuffle(pool)
        owner: dict[int, int] = {}  # tile -> slot index

        def augment(slot: int, seen: set[int]) -> bool:
            for tid in options[slots[slot]]:
                if tid in seen:
                    continue
                seen.add(tid)
                if tid not in owner or augment(owner[tid], seen):
                    owner[tid] = slot
                    return True
            return False

        matched: set[int] = set()
        if hint is not None:
            # start from the hint's tiles that are still allowed where it put them (the
            # augmenting paths below complete any partial matching)
            free = [
                hint[seat] & self._allowed(seat) if seat < len(hint) else 0 for seat in range(n)
            ]
            for slot, seat in enumerate(slots):
                if free[seat]:
                    tid = (free[seat] & -free[seat]).bit_length() - 1
                    free[seat] &= free[seat] - 1
                    owner[tid] = slot
                    matched.add(slot)
        for slot in range(len(slots)):
            if slot not in matched and not augment(slot, set()):
                raise ResampleError(
                    f"no deal gives seat {slots[slot]} enough tiles outside its void"
                )
        return [slots[owner[tid]] if tid in owner else n for tid in self._tiles]

    def sample(self, rng: random.Random) -> RoundState:
        """A full state at the current position, hidden tiles dealt as described above."""
        n = len(self.sizes)
        tiles = self._tiles
        hands = [0] * n
        hands[self.seat] = self.view.hand_mask
        boneyard: list[int] = []
        if not self.constrained:
            order = tiles[:]
            rng.shuffle(order)
            pos = 0
            for seat in range(n):
                size = self.sizes[seat]
                for tid in order[pos : pos + size]:
                    hands[seat] |= 1 << tid
                pos += size
            boneyard = order[pos:]
        else:
            step = self._step
            if self._drawn % self.reuse == 0:
                for _ in range(self._swaps):
                    step(rng)
            self._drawn += 1
            held = self._held
            for seat in range(n):
                if seat != self.seat:
                    hands[seat] = held[seat]
            boneyard = _bits(held[n])
            rng.shuffle(boneyard)
        return self.position.with_hidden(hands, boneyard)


def resample(view: SeatView, rng: random.Random) -> RoundState:
    """One full state consistent with ``view`` (build an `InfoState` to sample many)."""
    return InfoState(view, rng).sample(rng)
