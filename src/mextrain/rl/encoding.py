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

from collections.abc import Iterable, Sequence
from typing import Final

import numpy as np
import numpy.typing as npt

from mextrain.rules import DRAW, MEXICAN, PASS, Action, RoundState, Rules, SeatView, TurnState
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
        # the engine's actions know their tile's id; others are looked up
        tile_id = action.tile_id if action.tile_id >= 0 else self.ts.id_of(action.tile)
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
        return self._mask(view.legal_actions, view.seat)

    def mask_of_state(self, state: RoundState, seat: int) -> npt.NDArray[np.int8]:
        """`mask` of ``state.view(seat)``, without building the view (the environments'
        fast path)."""
        mine = state.ended is None and state.current_seat == seat
        return self._mask(state.legal_actions() if mine else (), seat)

    def _mask(self, legal: Sequence[Action], seat: int) -> npt.NDArray[np.int8]:
        out = np.zeros(self.size, dtype=np.int8)
        for action in legal:
            out[self.index(action, seat)] = 1
        return out


def _playable_drawn(view: SeatView) -> int | None:
    """The id of the tile ``view``'s seat has just drawn, if it is to move and may play it
    now: right after a draw only that tile may be played, so it is every play's tile (a
    play since, a double's, lifts that: its follow-up may be any tile)."""
    if not view.history or view.history[-1] != (view.seat, DRAW):
        return None
    for action in view.legal_actions:  # (empty unless the seat is to move)
        if action.tile is not None:
            return tile_set(view.rules.max_pip).ids[action.tile]
    return None


def _playable_drawn_of_state(state: RoundState, seat: int) -> int | None:
    """`_playable_drawn` of ``state.view(seat)``, off the state."""
    if state.drawn < 0 or seat != state.current_seat:
        return None
    return state.drawn if state.legal_plays() else None  # (no plays once the round is over)


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
            ("double_rank", trains),  # its open double's place in the order, (k + 1) / trains
            ("double_by", trains * players),  # per train, who played its open double (one-hot)
            ("train_length", trains),  # its tiles, / the number of tiles in the set
            ("hand_size", players),  # per relative seat, / tiles in the set
            ("boneyard", 1),  # the boneyard's size, / tiles in the set
            ("engine", pips),  # the round's engine (one-hot)
            ("to_move", players),  # the relative seat to move (one-hot; none: round over)
            ("starter", players),  # the relative seat that started the round (one-hot)
            ("drew", 1),  # the seat to move has drawn this turn
            # the tile it drew, to the seat itself, when it may be played now (then it is the
            # only tile that may be: the hand alone does not say which, as when a double
            # it may not go out on stays in hand under no_going_out_on_double)
            ("drawn", tiles),
            ("owes_follow_up", 1),  # the seat to move owes a double's follow-up
            ("turn_plays", 1),  # tiles the seat to move has played this turn, / tiles in set
            ("own_played", 1),  # ... one of them on its own train (a pass raises no marker)
            ("run", 1),  # the seat to move is on its first-turn run
            ("first_turn_done", players),  # per relative seat, it has ended its first turn
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
        by absolute seat; by default the view's own `SeatView.totals_before`, zeros when
        the view has none)."""
        if totals is None:
            totals = view.totals_before
        ids = self.ts.ids
        return self._encode(
            view.seat,
            [ids[t] for t in view.hand],
            [(t.owner, [ids[x] for x in t.tiles], t.open_end, t.marker_up) for t in view.trains],
            view.open_doubles,
            view.open_doubles_by(),
            view.hand_sizes,
            view.boneyard_size,
            view.engine,
            None if view.ended is not None else view.current_seat,
            view.drew,
            _playable_drawn(view),
            view.owes_follow_up,
            view.turn_state(),
            view.starter,
            view.round_index,
            totals,
        )

    def encode_state(
        self, state: RoundState, seat: int, totals: Sequence[int] | None = None
    ) -> npt.NDArray[np.float32]:
        """`encode` of ``state.view(seat)``, read straight off the state (the environments'
        fast path). It reads the seat's own hand and the public table only; a test checks it
        against `encode` of the view."""
        markers = state.markers
        return self._encode(
            seat,
            iter_bits(state.hands[seat]),
            [
                (t, state.trains[t], state.ends[t], t != MEXICAN and bool(markers >> t & 1))
                for t in (*range(self.players), MEXICAN)
            ],
            state.open_doubles,
            state.double_by,
            [hand.bit_count() for hand in state.hands],
            state.boneyard_size,
            state.engine,
            None if state.ended is not None else state.current_seat,
            state.drew,
            _playable_drawn_of_state(state, seat),
            state.owe,
            state.turn_state(),
            state.starter,
            state.round_index,
            totals,
        )

    def _encode(
        self,
        me: int,
        hand: Iterable[int],
        trains: Sequence[tuple[int, Sequence[int], int, bool]],
        open_doubles: Sequence[int],
        doubles_by: Sequence[int],
        hand_sizes: Sequence[int],
        boneyard: int,
        engine: int,
        to_move: int | None,
        drew: bool,
        drawn: int | None,
        owes_follow_up: bool,
        turn: TurnState,
        starter: int,
        round_index: int,
        totals: Sequence[int] | None,
    ) -> npt.NDArray[np.float32]:
        """The vector from one seat's knowledge: the tile ids of its hand; per train (owner,
        tile ids, open end, marker up); the rest as in a `SeatView` (``to_move`` None once
        the round is over)."""
        n = self.players
        tiles = float(self.ts.size)
        pips = self.rules.max_pip + 1
        off = {name: lo for name, (lo, _) in self._offsets.items()}
        # indices set to 1, then (index, value) pairs: one numpy write each at the end
        ones: list[int] = []
        put: list[tuple[int, float]] = []

        def rel(seat: int) -> int:
            return n if seat == MEXICAN else (seat - me) % n

        ones.extend(off["hand"] + tid for tid in hand)
        ones.append(off["table"] + self.ts.double_id[engine])
        for owner, ids, end, marker in trains:
            r = rel(owner)
            ones.extend(off["table"] + tid for tid in ids)
            ones.append(off["open_end"] + r * pips + end)
            if ids:
                ones.append(off["started"] + r)
                put.append((off["train_length"] + r, len(ids) / tiles))
            if marker:
                ones.append(off["marker"] + r)
            if owner in open_doubles:
                ones.append(off["open_double"] + r)
        if open_doubles:
            ones.append(off["oldest_double"] + rel(open_doubles[0]))
        for k, (train, by) in enumerate(zip(open_doubles, doubles_by, strict=True)):
            r = rel(train)
            put.append((off["double_rank"] + r, (k + 1) / (n + 1)))
            ones.append(off["double_by"] + r * n + rel(by))
        for seat, size in enumerate(hand_sizes):
            put.append((off["hand_size"] + rel(seat), size / tiles))
        put.append((off["boneyard"], boneyard / tiles))
        ones.append(off["engine"] + engine)
        if to_move is not None:
            ones.append(off["to_move"] + rel(to_move))
            if drew:
                ones.append(off["drew"])
            if drawn is not None:
                ones.append(off["drawn"] + drawn)
            if owes_follow_up:
                ones.append(off["owes_follow_up"])
            if turn.plays:
                put.append((off["turn_plays"], turn.plays / tiles))
            if turn.own_played:
                ones.append(off["own_played"])
            if turn.run:
                ones.append(off["run"])
        for seat, done in enumerate(turn.first_turn_done):
            if done:
                ones.append(off["first_turn_done"] + rel(seat))
        ones.append(off["starter"] + rel(starter))
        put.append((off["round"], round_index / self.rules.round_count))
        for seat, total in enumerate(totals or ()):
            put.append((off["totals"] + rel(seat), min(total / TOTAL_SCALE, 1.0)))
        obs = np.zeros(self.size, dtype=np.float32)
        obs[ones] = 1.0
        where, values = zip(*put, strict=True)
        obs[list(where)] = values
        return obs
