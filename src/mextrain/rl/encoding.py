"""Numbers for learning agents: one seat's view as a fixed-size vector, every action as an
index, and the mask of the legal ones.

Everything is **seat-relative**, so one policy can play any seat: train ``r`` is the
personal train of the seat ``r`` places after the agent's (``r = 0``: its own), and train
``players`` is the Mexican train. Built from a `SeatView` only, so an observation holds
nothing the seat may not see (a test checks that other deals of the hidden tiles give the
same observation).

Action index, for a double-``max_pip`` set of ``T`` tiles and ``P`` players:

- ``tile_id * (P + 1) + r``: play the tile (its index in the set, `TileSet.tiles` order:
  ``0-0, 0-1, …, 0-max_pip, 1-1, …``) on relative train ``r``;
- ``T * (P + 1)``: draw; ``T * (P + 1) + 1``: pass.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import numpy as np
import numpy.typing as npt

from mextrain.rules import DRAW, MEXICAN, PASS, Action, RoundState, Rules, SeatView
from mextrain.rules.tiles import iter_bits, tile_set

__all__ = ["ActionCodec", "ObservationCodec"]

#: points at which a match total reads as 1.0 in the observation (clipped beyond)
TOTAL_SCALE: Final = 500.0


class ActionCodec:
    """Actions of a ``players``-seat game under ``rules`` as indices, seat-relative."""

    def __init__(self, rules: Rules, players: int) -> None:
        rules.check_players(players)
        self.players = players
        self.ts = tile_set(rules.max_pip)
        self.trains = players + 1
        self.draw_index = self.ts.size * self.trains
        self.pass_index = self.draw_index + 1
        #: how many actions there are (the size of the discrete action space)
        self.size = self.draw_index + 2

    def relative_train(self, train: int, seat: int) -> int:
        return self.players if train == MEXICAN else (train - seat) % self.players

    def absolute_train(self, relative: int, seat: int) -> int:
        return MEXICAN if relative == self.players else (seat + relative) % self.players

    def index(self, action: Action, seat: int) -> int:
        """The index of ``action`` taken by ``seat``."""
        if action.kind == "draw":
            return self.draw_index
        if action.kind == "pass":
            return self.pass_index
        assert action.tile is not None
        assert action.train is not None
        tile_id = self.ts.id_of(action.tile)
        return tile_id * self.trains + self.relative_train(action.train, seat)

    def action(self, index: int, seat: int) -> Action:
        """The action an index stands for when ``seat`` takes it (legal or not)."""
        if not 0 <= index < self.size:
            raise ValueError(f"action index {index} is out of range: 0 to {self.size - 1}")
        if index == self.draw_index:
            return DRAW
        if index == self.pass_index:
            return PASS
        tile_id, relative = divmod(index, self.trains)
        return Action.play(self.ts.tiles[tile_id], self.absolute_train(relative, seat))

    def mask(self, view: SeatView) -> npt.NDArray[np.int8]:
        """1 for each legal action of the view's seat (all 0 when it is not its turn)."""
        out = np.zeros(self.size, dtype=np.int8)
        for action in view.legal_actions:
            out[self.index(action, view.seat)] = 1
        return out

    def mask_of_state(self, state: RoundState, seat: int) -> npt.NDArray[np.int8]:
        """`mask` of ``state.view(seat)``, without building the view (the environments'
        fast path)."""
        out = np.zeros(self.size, dtype=np.int8)
        if state.ended is not None or state.current_seat != seat:
            return out
        n, trains = self.players, self.trains
        for action in state.legal_actions():
            kind = action.kind
            if kind == "play":
                assert action.train is not None
                train = action.train
                relative = n if train == MEXICAN else (train - seat) % n
                tid = action.tile_id
                if tid < 0:
                    assert action.tile is not None
                    tid = self.ts.ids[action.tile]
                out[tid * trains + relative] = 1
            else:
                out[self.draw_index if kind == "draw" else self.pass_index] = 1
        return out


class ObservationCodec:
    """One seat's view as a vector of numbers in [0, 1] (``float32``), seat-relative.

    `blocks` names each part and its length, in order; `block` finds one by name.
    """

    def __init__(self, rules: Rules, players: int) -> None:
        rules.check_players(players)
        self.rules = rules
        self.players = players
        self.ts = tile_set(rules.max_pip)
        pips = rules.max_pip + 1
        tiles = self.ts.size
        trains = players + 1
        self.blocks: tuple[tuple[str, int], ...] = (
            ("hand", tiles),  # 1 for each tile in the seat's hand
            ("table", tiles),  # 1 for each tile on the table (the engine included)
            ("open_end", trains * pips),  # per relative train, its open end (one-hot)
            ("started", trains),  # the train has tiles
            ("marker", trains),  # its marker is up
            ("open_double", trains),  # it ends in an open double
            ("oldest_double", trains),  # the open double to satisfy first (one-hot)
            ("train_length", trains),  # its tiles, / the number of tiles in the set
            ("hand_size", players),  # per relative seat, / tiles in the set
            ("boneyard", 1),  # the boneyard's size, / tiles in the set
            ("engine", pips),  # the round's engine (one-hot)
            ("to_move", players),  # the relative seat to move (one-hot; none: round over)
            ("starter", players),  # the relative seat that started the round (one-hot)
            ("drew", 1),  # the seat to move has drawn this turn
            ("owes_follow_up", 1),  # the seat to move owes a double's follow-up
            ("round", 1),  # rounds played before this one, / rounds in the match
            ("totals", players),  # match totals per relative seat, / 500 (clipped)
        )
        offsets: dict[str, tuple[int, int]] = {}
        start = 0
        for name, length in self.blocks:
            offsets[name] = (start, start + length)
            start += length
        self._offsets = offsets
        #: how many numbers an observation has
        self.size = start

    def block(self, name: str) -> slice:
        lo, hi = self._offsets[name]
        return slice(lo, hi)

    def encode(
        self, view: SeatView, totals: Sequence[int] | None = None
    ) -> npt.NDArray[np.float32]:
        """The observation of ``view`` (``totals``: the match totals before this round,
        by absolute seat; zeros if not given)."""
        n = self.players
        me = view.seat
        tiles = float(self.ts.size)
        pips = self.rules.max_pip + 1
        obs = np.zeros(self.size, dtype=np.float32)
        ids = self.ts.ids
        lo = self._offsets["hand"][0]
        for tile in view.hand:
            obs[lo + ids[tile]] = 1.0
        lo = self._offsets["table"][0]
        obs[lo + self.ts.double_id[view.engine]] = 1.0
        ends = self._offsets["open_end"][0]
        started = self._offsets["started"][0]
        marker = self._offsets["marker"][0]
        double = self._offsets["open_double"][0]
        length = self._offsets["train_length"][0]
        for train in view.trains:
            r = n if train.owner == MEXICAN else (train.owner - me) % n
            for tile in train.tiles:
                obs[lo + ids[tile]] = 1.0
            obs[ends + r * pips + train.open_end] = 1.0
            obs[started + r] = float(train.started)
            obs[marker + r] = float(train.marker_up)
            obs[double + r] = float(train.open_double)
            obs[length + r] = len(train.tiles) / tiles
        if view.open_doubles:
            oldest = view.open_doubles[0]
            r = n if oldest == MEXICAN else (oldest - me) % n
            obs[self._offsets["oldest_double"][0] + r] = 1.0
        lo = self._offsets["hand_size"][0]
        for seat, size in enumerate(view.hand_sizes):
            obs[lo + (seat - me) % n] = size / tiles
        obs[self._offsets["boneyard"][0]] = view.boneyard_size / tiles
        obs[self._offsets["engine"][0] + view.engine] = 1.0
        if view.ended is None:
            obs[self._offsets["to_move"][0] + (view.current_seat - me) % n] = 1.0
            obs[self._offsets["drew"][0]] = float(view.drew)
            obs[self._offsets["owes_follow_up"][0]] = float(view.owes_follow_up)
        obs[self._offsets["starter"][0] + (view.starter - me) % n] = 1.0
        obs[self._offsets["round"][0]] = view.round_index / self.rules.round_count
        self._totals(obs, me, totals)
        return obs

    def _totals(self, obs: npt.NDArray[np.float32], me: int, totals: Sequence[int] | None) -> None:
        if totals is not None:
            lo = self._offsets["totals"][0]
            for seat, total in enumerate(totals):
                obs[lo + (seat - me) % self.players] = min(total / TOTAL_SCALE, 1.0)

    def encode_state(
        self, state: RoundState, seat: int, totals: Sequence[int] | None = None
    ) -> npt.NDArray[np.float32]:
        """`encode` of ``state.view(seat)``, read straight off the state (the environments'
        fast path). It reads the seat's own hand and the public table only; a test checks it
        against `encode` of the view."""
        n = self.players
        me = seat
        tiles = float(self.ts.size)
        pips = self.rules.max_pip + 1
        off = self._offsets
        # indices set to 1, then (index, value) pairs: one numpy write each at the end
        ones: list[int] = []
        put: list[tuple[int, float]] = []
        lo = off["hand"][0]
        ones.extend(lo + tid for tid in iter_bits(state.hands[me]))
        table = off["table"][0]
        ones.append(table + self.ts.double_id[state.engine])
        ends, started = off["open_end"][0], off["started"][0]
        marker, double = off["marker"][0], off["open_double"][0]
        length = off["train_length"][0]
        markers = state.markers
        open_doubles = state.open_doubles
        for owner in (*range(n), MEXICAN):
            ids = state.trains[owner]
            r = n if owner == MEXICAN else (owner - me) % n
            ones.extend(table + tid for tid in ids)
            ones.append(ends + r * pips + state.ends[owner])
            if ids:
                ones.append(started + r)
                put.append((length + r, len(ids) / tiles))
            if owner != MEXICAN and markers >> owner & 1:
                ones.append(marker + r)
            if owner in open_doubles:
                ones.append(double + r)
        if open_doubles:
            oldest = open_doubles[0]
            ones.append(off["oldest_double"][0] + (n if oldest == MEXICAN else (oldest - me) % n))
        lo = off["hand_size"][0]
        for s, hand in enumerate(state.hands):
            put.append((lo + (s - me) % n, hand.bit_count() / tiles))
        put.append((off["boneyard"][0], state.boneyard_size / tiles))
        ones.append(off["engine"][0] + state.engine)
        if state.ended is None:
            ones.append(off["to_move"][0] + (state.current_seat - me) % n)
            if state.drew:
                ones.append(off["drew"][0])
            if state.owe:
                ones.append(off["owes_follow_up"][0])
        ones.append(off["starter"][0] + (state.starter - me) % n)
        put.append((off["round"][0], state.round_index / self.rules.round_count))
        obs = np.zeros(self.size, dtype=np.float32)
        obs[ones] = 1.0
        where, values = zip(*put, strict=True)
        obs[list(where)] = values
        self._totals(obs, me, totals)
        return obs
