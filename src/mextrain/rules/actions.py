"""Actions a seat takes on its turn, and their record notation (``2:5-12@M``)."""

from __future__ import annotations

import re
from typing import Final, Literal

from .tiles import Tile, _Huge, show_text, show_value, whole_number

__all__ = [
    "DRAW",
    "MEXICAN",
    "PASS",
    "Action",
    "ActionFormatError",
    "ActionKind",
    "parse_action",
    "train_name",
]

#: The train id of the Mexican train; personal trains are numbered by their owner's seat.
MEXICAN: Final = -1

ActionKind = Literal["play", "draw", "pass"]

#: ASCII numbers of any length: a seat number that is no seat (``-1`` or ``9`` in a game
#: of four), or a tile outside the set, is readable (the action is then illegal, not
#: unreadable); spaces around the parts, ASCII spaces only (docs/RECORDS.md)
_ACTION_RE = re.compile(
    r"\A *(-?[0-9]+) *: *(?:(draw)|(pass)|([0-9]+) *- *([0-9]+) *@ *(M|-?[0-9]+)) *\Z"
)


class ActionFormatError(ValueError):
    """Text that cannot be read as an action at all."""


class Action:
    """``play`` a tile on a train, ``draw`` from the boneyard, or ``pass``.

    Actions carry no seat: like a chess move they apply to the seat whose turn it is.
    Equal actions compare equal; the engine hands out shared instances.
    """

    __slots__ = ("kind", "max_pip", "tile", "tile_id", "train")

    kind: ActionKind
    tile: Tile | None
    train: int | None
    #: the tile's id in the double-``max_pip`` set, for the engine's tables (-1: unknown)
    tile_id: int
    max_pip: int

    def __init__(self, kind: ActionKind, tile: Tile | None = None, train: int | None = None):
        if kind == "play":
            if tile is None or train is None:
                raise ValueError("a play needs a tile and a train")
        elif kind != "draw" and kind != "pass":
            raise ValueError(f"an action is a 'play', a 'draw' or a 'pass', not {kind!r}")
        elif tile is not None or train is not None:
            raise ValueError(f"a {kind} has no tile or train")
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "tile", tile)
        object.__setattr__(self, "train", train)
        object.__setattr__(self, "tile_id", -1)
        object.__setattr__(self, "max_pip", -1)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("actions are immutable")

    @classmethod
    def play(cls, tile: Tile, train: int) -> Action:
        return cls("play", tile, train)

    @classmethod
    def interned(cls, tile: Tile, train: int, tile_id: int, max_pip: int) -> Action:
        """A play that knows its tile's id in the double-``max_pip`` set (engine use)."""
        action = cls("play", tile, train)
        object.__setattr__(action, "tile_id", tile_id)
        object.__setattr__(action, "max_pip", max_pip)
        return action

    @property
    def is_play(self) -> bool:
        return self.kind == "play"

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, Action):
            return NotImplemented
        return self.kind == other.kind and self.tile == other.tile and self.train == other.train

    def __hash__(self) -> int:
        return hash((self.kind, self.tile, self.train))

    def __reduce__(self) -> tuple[object, ...]:
        return (Action, (self.kind, self.tile, self.train))

    def __repr__(self) -> str:
        if self.kind == "play":
            return f"Action.play(Tile({self.tile.low}, {self.tile.high}), {self.train})"  # type: ignore[union-attr]
        return "DRAW" if self.kind == "draw" else "PASS"

    def __str__(self) -> str:
        if self.kind == "play":
            return f"{self.tile}@{train_name(self.train)}"  # type: ignore[arg-type]
        return self.kind

    def notation(self, seat: int) -> str:
        """Record notation with the acting seat: ``2:5-12@M``, ``0:draw``."""
        return f"{seat}:{self}"


DRAW: Final = Action("draw")
PASS: Final = Action("pass")


def train_name(train: int) -> str:
    """``M`` for the Mexican train, the owner's seat number otherwise (record notation).

    A record may name a negative seat (``0:5-6@-1``): no train, and not the Mexican
    train's ``-1`` either, so such a number ``T`` is kept as the train ``T - 1``, below
    `MEXICAN`, which no game has; its name is the number as written."""
    if train == MEXICAN:
        return "M"
    if isinstance(train, _Huge):  # (read past Python's digits: kept as it was written)
        return str(train)
    return str(train + 1 if train < MEXICAN else train)


def parse_action(text: str) -> tuple[int, Action]:
    """Read record notation; return ``(seat, action)``. Tiles are not checked against a set."""
    if not isinstance(text, str):
        raise ActionFormatError(f"an action is text like '2:5-12@M', not {show_value(text)}")
    m = _ACTION_RE.match(text)
    if m is None:
        raise ActionFormatError(
            f"{show_text(text)} is not an action: write 'S:a-b@T', 'S:a-b@M', 'S:draw' or 'S:pass'"
        )
    seat = whole_number(m.group(1))
    if m.group(2):
        return seat, DRAW
    if m.group(3):
        return seat, PASS
    tile = Tile.of(whole_number(m.group(4)), whole_number(m.group(5)))
    train = MEXICAN if m.group(6) == "M" else whole_number(m.group(6))
    if m.group(6) != "M" and train < 0 and not isinstance(train, _Huge):
        # a seat number that is no seat, not the Mexican train (train_name); one too long
        # for Python to write out is far below it already, and keeps its shortened writing
        train -= 1
    return seat, Action.play(tile, train)
