"""Tiles as values: what a `Tile` may hold, however it is made."""

from __future__ import annotations

import copy
import json
import pickle

import pytest

from mextrain.rules import Tile, parse_tile, tile_set


@pytest.mark.parametrize(
    ("ends", "said"),
    [
        ((-1, 5), "whole numbers from 0, not -1"),
        ((5, -1), "whole numbers from 0, not -1"),
        ((-3, -2), "whole numbers from 0, not -3"),
        ((1.5, 3), "whole numbers, not 1.5"),
        ((3, 1.5), "whole numbers, not 1.5"),
        ((2.0, 3), "whole numbers, not 2.0"),
        ((True, 3), "whole numbers, not True"),
        ((0, False), "whole numbers, not False"),
        (("5", 3), "whole numbers, not '5'"),
        ((None, 3), "whole numbers, not None"),
    ],
)
def test_a_tiles_ends_are_whole_numbers_from_0(ends: tuple[object, object], said: str) -> None:
    """``Tile.of(-1, 5)`` and ``Tile(-1, 5)`` were made, as were ends of 1.5 or True: a
    tile no set has, which the engine then failed on, or called 1.5-3."""
    a, b = ends
    with pytest.raises(ValueError, match=f"^Tile\\.of\\({a!r}, {b!r}\\): a tile's ends are {said}"):
        Tile.of(a, b)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=f"a tile's ends are {said}"):
        Tile(a, b)  # type: ignore[arg-type]


def test_a_tile_built_directly_has_its_smaller_end_first() -> None:
    """``Tile(7, 5)`` was a tile that equals no tile of the set (5-7 is ``Tile(5, 7)``)."""
    with pytest.raises(
        ValueError, match=r"^Tile\(7, 5\): the smaller end comes first, Tile\(5, 7\)"
    ):
        Tile(7, 5)
    assert Tile.of(7, 5) == Tile(5, 7)
    # the tuple's own ways of making one are checked too
    with pytest.raises(ValueError, match="the smaller end comes first"):
        Tile(5, 7)._replace(low=9)
    with pytest.raises(ValueError, match="whole numbers from 0"):
        Tile._make((-1, 3))
    with pytest.raises(ValueError, match="the smaller end comes first"):
        Tile._make((3, 1))


def test_a_tile_above_a_sets_pips_is_still_a_tile() -> None:
    """The tile knows no set: how high an end may go is the rules' ``max_pip``."""
    tile = Tile.of(13, 1)
    assert tile == Tile(1, 13)
    assert tile not in tile_set(12)
    assert tile in tile_set(13)
    assert Tile(10**50, 10**50).is_double


def test_good_tiles_are_what_they_were() -> None:
    tile = Tile(5, 12)
    assert tile == (5, 12)
    assert hash(tile) == hash((5, 12))
    assert repr(tile) == "Tile(low=5, high=12)"
    assert str(tile) == "5-12"
    assert Tile.of(12, 5) == tile
    assert Tile(0, 0).is_double
    assert pickle.loads(pickle.dumps(tile)) == tile
    assert type(pickle.loads(pickle.dumps(tile))) is Tile
    assert copy.deepcopy(tile) == tile
    assert tile._replace(low=3) == Tile(3, 12)
    assert parse_tile(" 12 - 5 ") == tile
    assert all(type(t) is Tile for t in tile_set(12).tiles)


def test_a_long_value_in_a_message_is_shortened() -> None:
    """A refused value of thousands of characters was written whole in the rules' words
    ("unknown preset "xxx...""): past 40 characters, its first 40 and its length, a text
    in JSON's quotes, any other value by its JSON's first 40 characters."""
    from mextrain.rules import Shortened, show_text, show_value

    long = "x" * 5000
    assert show_value("x" * 40) == json.dumps("x" * 40)
    assert show_value(long) == f'"{"x" * 40}…" (5,000 characters)'
    assert show_value([long]) == f'["{"x" * 38}… (5,004 characters)'
    assert show_value(list(range(3))) == "[0, 1, 2]"
    assert show_text(long) == f"'{'x' * 40}…' (5,000 characters)"
    assert show_text(long, str) == f"{'x' * 40}… (5,000 characters)"
    assert show_text("y" * 100, str, 200) == "y" * 100
    shortened = show_text(long)
    assert isinstance(shortened, Shortened)
    again = pickle.loads(pickle.dumps(shortened))  # (a worker's error, sent back)
    assert again == shortened
    assert again.said(lambda unit, n: f"{n} {unit[:4]}") == f"'{'x' * 40}…' (5000 char)"
