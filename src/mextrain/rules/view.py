"""One seat's view of a round: everything it may see and nothing it may not.

Bots, browsers and RL agents receive a `SeatView`, never a `RoundState`: its own hand, the
table (trains, open ends, markers, open doubles), every seat's hand size, the boneyard's
size and the public history (draws show no tile). Never the boneyard order or another hand.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from .actions import MEXICAN, Action
from .options import Rules
from .tiles import Tile
from .turn import TurnState, turn_state_of

if TYPE_CHECKING:
    from .round import RoundEnd, RoundState

__all__ = ["SeatView", "TrainView"]


class TrainView(NamedTuple):
    """A train on the table: ``owner`` is a seat, or `MEXICAN` for the Mexican train."""

    owner: int
    tiles: tuple[Tile, ...]
    open_end: int
    marker_up: bool
    open_double: bool

    @property
    def started(self) -> bool:
        return bool(self.tiles)

    @property
    def is_mexican(self) -> bool:
        return self.owner == MEXICAN

    def oriented(self, engine: int) -> list[str]:
        """The tiles as laid, each written from the end touching the one before."""
        out = []
        pip = engine
        for tile in self.tiles:
            out.append(tile.oriented(pip))
            pip = tile.other_end(pip)
        return out


class SeatView(NamedTuple):
    """What ``seat`` knows of the round."""

    seat: int
    rules: Rules
    players: int
    round_index: int
    engine: int
    starter: int
    hand: tuple[Tile, ...]
    hand_mask: int
    hand_sizes: tuple[int, ...]
    boneyard_size: int
    trains: tuple[TrainView, ...]  # personal trains by seat, then the Mexican train last
    open_doubles: tuple[int, ...]  # trains with an open double, oldest first
    current_seat: int
    drew: bool  # the seat to move has drawn this turn (public)
    owes_follow_up: bool  # the seat to move has played a double and must follow it up
    legal_actions: tuple[Action, ...]  # empty unless it is this seat's turn
    history: tuple[tuple[int, Action], ...]  # every action so far; a draw shows no tile
    ended: RoundEnd | None
    scores: tuple[int, ...] | None
    #: the match totals of the rounds before this one, by seat (public: the score sheet);
    #: None for a view of a round on its own (`Match.view` fills it)
    totals_before: tuple[int, ...] | None = None

    @classmethod
    def of(cls, state: RoundState, seat: int) -> SeatView:
        if not 0 <= seat < state.n:
            raise ValueError(f"there is no seat {seat}: seats are 0 to {state.n - 1}")
        ts = state.ts
        trains = tuple(
            TrainView(
                owner=t,
                tiles=state.train_tiles(t),
                open_end=state.ends[t],
                marker_up=t != MEXICAN and bool(state.markers >> t & 1),
                open_double=t in state.open_doubles,
            )
            for t in (*range(state.n), MEXICAN)
        )
        scores = state.scores()
        mine = state.seat == seat and state.ended is None
        return cls(
            seat=seat,
            rules=state.rules,
            players=state.n,
            round_index=state.round_index,
            engine=state.engine,
            starter=state.starter,
            hand=tuple(ts.tiles_of(state.hands[seat])),
            hand_mask=state.hands[seat],
            hand_sizes=tuple(state.hand_sizes),
            boneyard_size=state.boneyard_size,
            trains=trains,
            open_doubles=state.open_doubles,
            current_seat=state.seat,
            drew=state.drew,
            owes_follow_up=state.owe,
            legal_actions=tuple(state.legal_actions()) if mine else (),
            history=tuple(state.history),
            ended=state.ended,
            scores=None if scores is None else tuple(scores),
        )

    def turn_state(self) -> TurnState:
        """Where the round stands within its turns, read from the public history: what
        the table alone does not show (a first-turn run, a play on the seat's own train this
        turn, who has had a first turn). Equal to the engine's `RoundState.turn_state`."""
        return turn_state_of(
            self.rules, self.players, self.starter, self.history, self.current_seat, self.ended
        )

    def open_doubles_by(self) -> tuple[int, ...]:
        """The seat that played each open double, in the order of `open_doubles` (public:
        the history; an open double is the last tile of its train). The seat that pays an
        ``unsatisfied_double_penalty`` for it. Equal to the engine's
        `RoundState.double_by`."""
        last: dict[int, int] = {}
        for seat, action in self.history:
            if action.train is not None:  # a play
                last[action.train] = seat
        return tuple(last[train] for train in self.open_doubles)

    @property
    def is_my_turn(self) -> bool:
        return self.current_seat == self.seat and self.ended is None

    @property
    def mexican(self) -> TrainView:
        return self.trains[-1]

    def train(self, train: int) -> TrainView:
        return self.trains[train]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (tiles as ``"a-b"``), for the web server and tools."""
        return {
            "seat": self.seat,
            "players": self.players,
            "round": self.round_index,
            "engine": self.engine,
            "starter": self.starter,
            "hand": [str(t) for t in self.hand],
            "hand_sizes": list(self.hand_sizes),
            "boneyard_size": self.boneyard_size,
            "trains": [
                {
                    "owner": "M" if t.owner == MEXICAN else t.owner,
                    "tiles": t.oriented(self.engine),
                    "open_end": t.open_end,
                    "marker": t.marker_up,
                    "open_double": t.open_double,
                }
                for t in self.trains
            ],
            "open_doubles": ["M" if t == MEXICAN else t for t in self.open_doubles],
            "current_seat": self.current_seat,
            "drew": self.drew,
            "owes_follow_up": self.owes_follow_up,
            "legal_actions": [str(a) for a in self.legal_actions],
            "history": [a.notation(s) for s, a in self.history],
            "ended": self.ended,
            "scores": None if self.scores is None else list(self.scores),
            "totals_before": None if self.totals_before is None else list(self.totals_before),
        }
