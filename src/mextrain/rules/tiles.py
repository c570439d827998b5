"""Tiles and tile sets.

A tile is a value (`Tile(5, 12)`, written ``5-12``); inside the engine each tile of a set
also has an integer id, and a group of tiles (a hand, the tiles that carry a pip) is an
integer bitmask over those ids, so that "which of my tiles fit this train" is one ``&``.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable, Iterable, Iterator
from typing import Any, NamedTuple, Self

__all__ = [
    "Shortened",
    "Tile",
    "TileFormatError",
    "TileSet",
    "iter_bits",
    "parse_tile",
    "show_text",
    "show_value",
    "tile_set",
]

#: two ASCII numbers of any length (``13-1`` is readable, merely not in a double-12 set)
#: spaces (ASCII spaces only) around the numbers; a tab, a line break or another
#: language's digits make the text unreadable
_TILE_RE = re.compile(r"\A *([0-9]+) *- *([0-9]+) *\Z")


class _Huge(int):
    """A whole number with more digits than Python reads as one (``-X
    int_max_str_digits``): it compares above every pip and seat, as its value does, and is
    written shortened. (Its value is a lower bound, so two of them of equal length compare
    equal: they are never a tile or a seat either way.)"""

    shown: str

    def __new__(cls, digits: str, sign: int = 1) -> _Huge:
        significant = digits.lstrip("0")
        number = super().__new__(cls, sign * 10 ** (len(significant) - 1))
        minus = "-" if sign < 0 else ""
        number.shown = Shortened(f"{minus}{significant[:8]}…", len(significant), "digits")
        return number

    def __str__(self) -> str:
        return self.shown

    __repr__ = __str__

    def __format__(self, spec: str) -> str:
        return format(self.shown, spec)


def whole_number(text: str) -> int:
    """ASCII digits, after a ``-`` or not, as the number they write, however many there
    are (leading zeros included: ``"000…05"`` is 5): past the digits Python converts, a
    number that compares as its value does against pips and seats and is written shortened
    in messages."""
    sign = -1 if text.startswith("-") else 1
    digits = text[1:] if sign < 0 else text
    if not digits.isascii() or not digits.isdigit():
        raise ValueError(f"{text[:40]!r} is not a whole number written in digits")
    significant = digits.lstrip("0") or "0"  # (Python's limit counts the zeros too)
    try:
        return sign * int(significant)
    except ValueError:
        return _Huge(significant, sign)


class TileFormatError(ValueError):
    """Text that cannot be read as a tile at all (not merely a tile outside the set)."""


class _TileEnds(NamedTuple):
    low: int
    high: int


def _pip_error(pip: object) -> str | None:
    """Why ``pip`` is no end of a tile, or None: an end is a whole number from 0 (``True``,
    ``1.5`` and ``-1`` are not)."""
    if not isinstance(pip, int) or isinstance(pip, bool):
        return f"a tile's ends are whole numbers, not {pip!r}"
    if pip < 0:
        return f"a tile's ends are whole numbers from 0, not {pip}"
    return None


class Tile(_TileEnds):
    """A domino, smaller end first: ``Tile(5, 12)`` is written ``5-12``.

    Its ends are whole numbers from 0, the smaller first (`Tile.of` takes them in either
    order); a `ValueError` otherwise. How high they may go is the set's business, not the
    tile's: ``Tile(1, 13)`` is a tile, merely not one of the double-12 set (`TileSet`,
    `tile_set(max_pip)`, say which tiles a game's rules have).
    """

    __slots__ = ()

    def __new__(cls, low: int, high: int) -> Self:
        # (tiles are made by the hundred, not in the engine's loops: the engine keeps ids
        # and bitmasks, and a set's tiles are made once per size)
        why = _pip_error(low) or _pip_error(high)
        if why is not None:
            raise ValueError(f"Tile({low!r}, {high!r}): {why}")
        if low > high:
            raise ValueError(
                f"Tile({low}, {high}): the smaller end comes first, Tile({high}, {low}) "
                f"(Tile.of({low}, {high}) takes them in either order)"
            )
        return super().__new__(cls, low, high)

    @classmethod
    def _make(cls, iterable: Iterable[Any]) -> Self:  # type: ignore[override]
        """(``_replace`` and ``_make`` are checked as the constructor is: the tuple's own
        would not be)."""
        low, high = iterable
        return cls(low, high)

    @classmethod
    def of(cls, a: int, b: int) -> Tile:
        """The tile with ends ``a`` and ``b``, in either order (whole numbers from 0: a
        `ValueError` otherwise)."""
        why = _pip_error(a) or _pip_error(b)
        if why is not None:
            raise ValueError(f"Tile.of({a!r}, {b!r}): {why}")
        return cls(a, b) if a <= b else cls(b, a)

    @property
    def is_double(self) -> bool:
        return self.low == self.high

    @property
    def pips(self) -> int:
        return self.low + self.high

    def has(self, pip: int) -> bool:
        return self.low == pip or self.high == pip

    def other_end(self, pip: int) -> int:
        """The end left open when this tile is laid against ``pip``."""
        if pip == self.low:
            return self.high
        if pip == self.high:
            return self.low
        raise ValueError(f"{self} has no {pip} end")

    def __str__(self) -> str:
        return f"{self.low}-{self.high}"

    def oriented(self, touching: int) -> str:
        """Written from the end that touches ``touching``: ``Tile(5, 12).oriented(12)`` is
        ``"12-5"``."""
        return f"{touching}-{self.other_end(touching)}"


def show_value(value: object) -> str:
    """A value in an error message as the JSON a record or rules spec writes it (``null``,
    ``true``, ``"6"``, ``[2, 4]``); Python's own spelling for anything JSON has none for.
    Past 40 characters it is shortened as `show_text` shortens a text: a text's first 40
    characters in JSON's quotes (``"7777…" (5,000 characters)``), else the first 40 of its
    JSON and the JSON's length (``["xx…", …] (5,004 characters)``)."""
    if isinstance(value, str):
        return show_text(value, functools.partial(json.dumps, ensure_ascii=False))
    try:
        text = json.dumps(value, ensure_ascii=False)
    except RecursionError:  # (lists in lists, thousands deep)
        return f"a {type(value).__name__} nested too deep to show"
    except (TypeError, ValueError):
        text = repr(value)
    return show_text(text, str)


def show_text(text: str, quote: Callable[[str], str] = repr, limit: int | None = None) -> str:
    """Text a reader could not read, as a message names it: quoted as Python quotes it, and
    past 40 characters its first 40 and its length (``'7777…' (10,002 characters)``, a
    `Shortened`). ``quote``: how the message quotes it (`json.dumps`, as a rules spec
    does; `str`: not quoted, a list of entries or an address in the words). ``limit``:
    past how many characters, if not 40 (a file's path, which may well be longer)."""
    shown = _TEXT_SHOWN if limit is None else limit
    if len(text) <= shown:
        return quote(text)
    return Shortened(f"{quote(text[:shown] + '…')} ", len(text), "characters")


#: the most characters of a text a message quotes (`show_text`)
_TEXT_SHOWN = 40


def _english_count(unit: str, count: int) -> str:
    """``"5,001 characters"``: the words for a shortened text's or number's length."""
    return f"{count:,} {unit}"


#: a shortened number's length as `Shortened` writes it in English, after the number's
#: first digits (``…(5,000 digits)``)
_DIGITS_SAID = re.compile(r"…\(([0-9]{1,3}(?:,[0-9]{3})*) digits\)")


class Shortened(str):
    """Text or a number too long to quote whole, as a message writes it: ``head``, the part
    shown (``'7777…' ``, ``77777777…``), then how long it is (``length``), in English
    (``(5,001 characters)``, ``(3,000 digits)``: ``unit`` is ``"characters"`` or ``"digits"``).

    It is a `str` (its English words), so it goes wherever a message's values go; where a
    message is put into another language, `said` writes the length in its words."""

    head: str
    length: int
    unit: str

    def __new__(cls, head: str, length: int, unit: str) -> Shortened:
        shortened = super().__new__(cls, f"{head}({_english_count(unit, length)})")
        shortened.head = head
        shortened.length = length
        shortened.unit = unit
        return shortened

    def said(self, words: Callable[[str, int], str]) -> str:
        """As a message in another language writes it: ``words(unit, length)`` says the
        length (``"5 001 caractères"``)."""
        return f"{self.head}({words(self.unit, self.length)})"

    @staticmethod
    def said_within(text: str, words: Callable[[str, int], str]) -> str:
        """``text`` -- the engine's own writing of a tile, a number shortened inside it
        (``"5-77777777…(5,000 digits)"``: a pip read past Python's digits, `_Huge`),
        which a str of the tile no longer knows as a `Shortened` -- with each number's
        length said by ``words``, as `said` says it (``"5-77777777…(5 000 chiffres)"``)."""

        def length(m: re.Match[str]) -> str:
            return f"…({words('digits', int(m.group(1).replace(',', '')))})"

        return _DIGITS_SAID.sub(length, text)

    def __reduce__(self) -> tuple[object, ...]:
        return (Shortened, (self.head, self.length, self.unit))


def parse_tile(text: str) -> Tile:
    """Read ``"a-b"`` in either order; raise `TileFormatError` when it is not a tile."""
    if not isinstance(text, str):
        raise TileFormatError(f"a tile is written as text like '5-12', not {show_value(text)}")
    m = _TILE_RE.match(text)
    if m is None:
        raise TileFormatError(f"{show_text(text)} is not a tile: write it like '5-12'")
    return Tile.of(whole_number(m.group(1)), whole_number(m.group(2)))


def iter_bits(mask: int) -> Iterator[int]:
    """The ids of the tiles in a bitmask, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


class TileSet:
    """All tiles ``a-b`` with ``0 <= a <= b <= max_pip``, with the engine's lookup tables.

    Built once per size (see `tile_set`) and shared: never mutated.
    """

    __slots__ = (
        "_pip_bytes",
        "all_mask",
        "double_id",
        "double_mask",
        "ids",
        "max_pip",
        "pip_mask",
        "pip_sum",
        "size",
        "tiles",
    )

    def __init__(self, max_pip: int) -> None:
        if not isinstance(max_pip, int) or isinstance(max_pip, bool) or not 0 <= max_pip <= 30:
            raise ValueError(f"max_pip must be a whole number from 0 to 30, not {max_pip!r}")
        self.max_pip = max_pip
        self.tiles: tuple[Tile, ...] = tuple(
            Tile(a, b) for a in range(max_pip + 1) for b in range(a, max_pip + 1)
        )
        self.size = len(self.tiles)
        self.ids: dict[Tile, int] = {t: i for i, t in enumerate(self.tiles)}
        #: bitmask of the tiles carrying each pip
        self.pip_mask: tuple[int, ...] = tuple(
            sum(1 << i for i, t in enumerate(self.tiles) if t.has(p)) for p in range(max_pip + 1)
        )
        #: low + high of each tile: the end left open is ``pip_sum[id] - touching_pip``
        self.pip_sum: tuple[int, ...] = tuple(t.pips for t in self.tiles)
        # pips of every byte of a mask, byte by byte (pips_of is on the bots' hot path)
        size = len(self.tiles)
        self._pip_bytes: tuple[tuple[int, ...], ...] = tuple(
            tuple(
                sum(self.pip_sum[8 * k + b] for b in range(8) if v >> b & 1 and 8 * k + b < size)
                for v in range(256)
            )
            for k in range((size + 7) // 8)
        )
        self.double_mask = sum(1 << i for i, t in enumerate(self.tiles) if t.is_double)
        #: id of the double ``p-p`` for each pip
        self.double_id: tuple[int, ...] = tuple(self.ids[Tile(p, p)] for p in range(max_pip + 1))
        self.all_mask = (1 << self.size) - 1

    def __repr__(self) -> str:
        return f"tile_set({self.max_pip})"

    def __contains__(self, tile: object) -> bool:
        return tile in self.ids

    def id_of(self, tile: Tile) -> int:
        try:
            return self.ids[tile]
        except KeyError:
            raise ValueError(
                f"{tile} is not in the double-{self.max_pip} set (pips go from 0 to {self.max_pip})"
            ) from None

    def mask_of(self, tiles: Iterable[Tile]) -> int:
        mask = 0
        for t in tiles:
            mask |= 1 << self.id_of(t)
        return mask

    def tiles_of(self, mask: int) -> list[Tile]:
        tiles = self.tiles
        return [tiles[i] for i in iter_bits(mask)]

    def pips_of(self, mask: int) -> int:
        total = 0
        for table in self._pip_bytes:
            if not mask:
                break
            total += table[mask & 255]
            mask >>= 8
        return total


@functools.cache
def tile_set(max_pip: int) -> TileSet:
    """The shared `TileSet` for a double-``max_pip`` set."""
    return TileSet(max_pip)
