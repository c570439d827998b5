"""The best personal train in a hand, and what the rest of the hand is good for.

`best_train` answers "what is the longest train I can lay from this pip?": most tiles
first, then most pips (the pips laid are pips that will not count against you), and among
equal trains the one whose sequence of tiles is smallest in the set's order (tiles compared
as ``(low, high)``), so that the same hand always gives the same train.

`plan` adds the extras: the tiles left out, which of them could open the Mexican train
(they carry the engine pip), and the doubles the train never reaches (stranded doubles:
they can only go on a train that happens to show their pip, and then want a follow-up).
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Iterable
from dataclasses import dataclass

from mextrain.rules import Tile

from .trails import PlanLimit, PlanStepLimit, PlanTimeout, TrailSolver, unpack

__all__ = [
    "Plan",
    "PlanError",
    "PlanLimit",
    "PlanStepLimit",
    "PlanTimeout",
    "Train",
    "best_train",
    "plan",
    "train_value",
]

#: The largest pip the planner accepts (the largest set the rules core builds).
MAX_PIP = 30


class PlanError(ValueError):
    """A hand or a start pip the planner cannot read (a tile twice, a pip out of range)."""


@dataclass(frozen=True, slots=True)
class Train:
    """A train laid from ``start``: ``tiles`` in play order."""

    start: int
    tiles: tuple[Tile, ...]

    @property
    def length(self) -> int:
        return len(self.tiles)

    @property
    def pips(self) -> int:
        return sum(t.pips for t in self.tiles)

    @property
    def open_end(self) -> int:
        """The pip the next tile would have to match."""
        pip = self.start
        for tile in self.tiles:
            pip = tile.other_end(pip)
        return pip

    def oriented(self) -> list[str]:
        """Each tile written from the end that touches the one before: ``["12-5", "5-3"]``."""
        out = []
        pip = self.start
        for tile in self.tiles:
            out.append(tile.oriented(pip))
            pip = tile.other_end(pip)
        return out

    def __str__(self) -> str:
        return " ".join(self.oriented()) if self.tiles else "(no tile)"


@dataclass(frozen=True, slots=True)
class Plan:
    """A hand arranged as its best train plus extras."""

    train: Train
    extras: tuple[Tile, ...]  # in the set's order
    mexican_starters: tuple[Tile, ...]  # extras carrying the start pip
    stranded_doubles: tuple[Tile, ...]  # doubles among the extras

    @property
    def start(self) -> int:
        return self.train.start

    @property
    def extra_pips(self) -> int:
        """What the extras would score if they were still in hand at the end."""
        return sum(t.pips for t in self.extras)

    def to_dict(self) -> dict[str, object]:
        """The JSON form used by ``mextrain solve --json``."""
        return {
            "start": self.start,
            "train": self.train.oriented(),
            "tiles": self.train.length,
            "pips": self.train.pips,
            "extras": [str(t) for t in self.extras],
            # extras that could open the Mexican train (they carry the start pip), and
            # doubles among them (the train never reaches them)
            "mexican_starters": [str(t) for t in self.mexican_starters],
            "stranded_doubles": [str(t) for t in self.stranded_doubles],
        }


def _check_pip(pip: object, what: str, max_pip: int) -> int:
    if not isinstance(pip, int) or isinstance(pip, bool) or not 0 <= pip <= max_pip:
        raise PlanError(f"{what} must be a pip from 0 to {max_pip}, not {pip!r}")
    return pip


def _read_hand(hand: Iterable[Tile], start: int, max_pip: int | None) -> tuple[Tile, ...]:
    """The hand sorted in the set's order, after checking it."""
    limit = MAX_PIP if max_pip is None else _check_pip(max_pip, "max_pip", MAX_PIP)
    tiles: list[Tile] = []
    for tile in hand:
        if not isinstance(tile, Tile):
            raise PlanError(f"{tile!r} is not a Tile")
        if not 0 <= tile.low <= tile.high <= limit:
            if tile.low > tile.high:
                raise PlanError(f"{tile!r} is not a tile: write it Tile.of(a, b)")
            raise PlanError(f"{tile} is not in the double-{limit} set (pips 0 to {limit})")
        tiles.append(tile)
    _check_pip(start, "the start pip", limit)
    ordered = tuple(sorted(tiles))
    for a, b in itertools.pairwise(ordered):
        if a == b:
            raise PlanError(f"{a} is in the hand twice")
    return ordered


@functools.lru_cache(maxsize=4096)
def _solve(tiles: tuple[Tile, ...], start: int) -> tuple[int, ...]:
    return tuple(TrailSolver(tiles).best_trail(start)[0])


def _solver(
    tiles: tuple[Tile, ...], time_limit: float | None, max_steps: int | None
) -> TrailSolver:
    """A solver of ``tiles`` with the limits asked for, after checking them."""
    if time_limit is not None and not (
        isinstance(time_limit, int | float) and math.isfinite(time_limit) and time_limit > 0
    ):
        raise PlanError(f"the time limit must be a number of seconds above 0, not {time_limit!r}")
    if max_steps is not None and (
        not isinstance(max_steps, int) or isinstance(max_steps, bool) or max_steps < 1
    ):
        raise PlanError(f"the step limit must be a whole number above 0, not {max_steps!r}")
    return TrailSolver(tiles, time_limit, max_steps)


def _ids(
    tiles: tuple[Tile, ...], start: int, time_limit: float | None, max_steps: int | None
) -> tuple[int, ...]:
    """The best train's local tile ids: cached without limits; with one, searched afresh
    (an answer is the same either way, and a search cut short caches nothing)."""
    if time_limit is None and max_steps is None:
        return _solve(tiles, start)
    return tuple(_solver(tiles, time_limit, max_steps).best_trail(start)[0])


@functools.lru_cache(maxsize=16384, typed=True)
def _value(tiles: tuple[Tile, ...], start: int, max_steps: int | None) -> tuple[int, int]:
    """The best train's value, within ``max_steps`` if given: a value found is cached (a
    bot asks the same of each play, turn after turn); a search cut short raises and
    caches nothing (typed: ``max_steps=True`` is refused, not taken for a cached 1)."""
    return unpack(_solver(tiles, None, max_steps).value(start))


def best_train(
    hand: Iterable[Tile],
    start: int,
    max_pip: int | None = None,
    *,
    time_limit: float | None = None,
    max_steps: int | None = None,
) -> Train:
    """The longest train from pip ``start`` with tiles of ``hand`` (exact).

    Most tiles, then most pips, then the smallest sequence of tiles in the set's order.
    ``max_pip`` (default: any pip up to 30) only checks the tiles and the start pip.
    Raises `PlanError` for a tile given twice or a pip out of range, `PlanTimeout` when
    ``time_limit`` seconds (default: none) pass before the best train is proven, and
    `PlanStepLimit` when the search takes ``max_steps`` steps (default: no limit) first
    (both are `PlanLimit`).
    """
    tiles = _read_hand(hand, start, max_pip)
    ids = _ids(tiles, start, time_limit, max_steps)
    return Train(start, tuple(tiles[i] for i in ids))


def train_value(
    hand: Iterable[Tile],
    start: int,
    max_pip: int | None = None,
    *,
    max_steps: int | None = None,
) -> tuple[int, int]:
    """``(tiles, pips)`` of the best train, without building it (a little faster);
    ``max_steps``: as `best_train`'s."""
    return _value(_read_hand(hand, start, max_pip), start, max_steps)


def plan(
    hand: Iterable[Tile],
    start: int,
    max_pip: int | None = None,
    *,
    time_limit: float | None = None,
    max_steps: int | None = None,
) -> Plan:
    """The best train from ``start`` and what the rest of the hand is good for
    (``time_limit`` and ``max_steps``: as `best_train`'s)."""
    tiles = _read_hand(hand, start, max_pip)
    ids = _ids(tiles, start, time_limit, max_steps)
    train = Train(start, tuple(tiles[i] for i in ids))
    used = set(ids)
    extras = tuple(t for i, t in enumerate(tiles) if i not in used)
    return Plan(
        train=train,
        extras=extras,
        mexican_starters=tuple(t for t in extras if t.has(start)),
        stranded_doubles=tuple(t for t in extras if t.is_double),
    )
