"""The train planner: exact against brute force, known answers, Eulerian hands, plans."""

from __future__ import annotations

import random
from collections.abc import Sequence
from unittest import mock

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mextrain.planner import Plan, PlanError, Train, best_train, plan, trails, train_value
from mextrain.planner.trails import TrailSolver, unpack
from mextrain.rules import Tile, parse_tile, tile_set

# -- independent references -----------------------------------------------------------------

Key = tuple[int, int, tuple[Tile, ...]]


def brute_force(hand: Sequence[Tile], start: int) -> Key:
    """Every train from ``start``, enumerated: the most tiles, then the most pips, then the
    smallest sequence of tiles."""
    best: list[Key] = [(0, 0, ())]

    def better(a: Key, b: Key) -> bool:
        return (a[0], a[1]) > (b[0], b[1]) or ((a[0], a[1]) == (b[0], b[1]) and a[2] < b[2])

    def walk(pip: int, left: frozenset[Tile], seq: tuple[Tile, ...], pips: int) -> None:
        here: Key = (len(seq), pips, seq)
        if better(here, best[0]):
            best[0] = here
        for tile in left:
            if tile.has(pip):
                walk(tile.other_end(pip), left - {tile}, (*seq, tile), pips + tile.pips)

    walk(start, frozenset(hand), (), 0)
    return best[0]


def memo_value(hand: Sequence[Tile], start: int) -> tuple[int, int]:
    """A plain memoised search over (pip, tiles left): exact, slow on dense hands."""
    tiles = list(hand)
    memo: dict[tuple[int, int], tuple[int, int]] = {}

    def best(pip: int, left: int) -> tuple[int, int]:
        key = (pip, left)
        if key in memo:
            return memo[key]
        out = (0, 0)
        for i, tile in enumerate(tiles):
            if left >> i & 1 and tile.has(pip):
                n, p = best(tile.other_end(pip), left & ~(1 << i))
                out = max(out, (n + 1, p + tile.pips))
        memo[key] = out
        return out

    return best(start, (1 << len(tiles)) - 1)


def is_train(train: Train, hand: Sequence[Tile]) -> bool:
    pip = train.start
    for tile in train.tiles:
        if not tile.has(pip):
            return False
        pip = tile.other_end(pip)
    return len(set(train.tiles)) == len(train.tiles) and set(train.tiles) <= set(hand)


def tiles(text: str) -> list[Tile]:
    return [parse_tile(t) for t in text.split()]


@st.composite
def hands(draw: st.DrawFn, max_tiles: int = 9) -> tuple[list[Tile], int]:
    max_pip = draw(st.integers(0, 6))
    pool = tile_set(max_pip).tiles
    hand = draw(st.lists(st.sampled_from(pool), unique=True, max_size=max_tiles))
    return hand, draw(st.integers(0, max_pip))


# -- exactness --------------------------------------------------------------------------------


@given(hands())
def test_best_train_matches_brute_force(case: tuple[list[Tile], int]) -> None:
    hand, start = case
    train = best_train(hand, start)
    assert is_train(train, hand)
    assert (train.length, train.pips, train.tiles) == brute_force(hand, start)


@given(hands())
def test_bounded_search_matches_brute_force(case: tuple[list[Tile], int]) -> None:
    """Small hands go to a plain memoised search; this runs the bounded search on them."""
    hand, start = case
    with mock.patch.object(trails, "_PLAIN_UPTO", -1):
        ids, value = TrailSolver(sorted(hand)).best_trail(start)
    want = brute_force(hand, start)
    assert (*unpack(value), tuple(sorted(hand)[i] for i in ids)) == want


@given(hands(), st.randoms(use_true_random=False))
def test_answer_does_not_depend_on_hand_order(
    case: tuple[list[Tile], int], rng: random.Random
) -> None:
    hand, start = case
    shuffled = hand[:]
    rng.shuffle(shuffled)
    assert best_train(shuffled, start) == best_train(hand, start)


@given(hands(max_tiles=14))
def test_value_matches_memoised_search(case: tuple[list[Tile], int]) -> None:
    hand, start = case
    assert train_value(hand, start) == memo_value(hand, start)


@pytest.mark.slow
def test_exact_on_many_denser_hands() -> None:
    rng = random.Random(20260)
    for _ in range(150):
        max_pip = rng.choice((6, 7, 9, 12))
        hand = rng.sample(tile_set(max_pip).tiles, rng.randint(10, 19))
        start = rng.randint(0, max_pip)
        train = best_train(hand, start)
        assert is_train(train, hand)
        assert (train.length, train.pips) == memo_value(hand, start), (hand, start)


@given(hands(max_tiles=12), st.data())
def test_partial_searches_bound_the_value(
    case: tuple[list[Tile], int], data: st.DataObject
) -> None:
    """A search told to beat ``alpha`` is exact above it and an upper bound below it."""
    hand, start = case
    ordered = sorted(hand)
    exact = TrailSolver(ordered).value(start)
    alpha = data.draw(st.integers(-1, exact + 5))
    got = TrailSolver(ordered).value(start, alpha=alpha)
    if got > alpha:
        assert got == exact
    else:
        assert exact <= got


# -- known answers ------------------------------------------------------------------------------


def test_no_tile_carries_the_engine_pip() -> None:
    hand = tiles("1-2 3-4 4-4")
    result = plan(hand, 12)
    assert result.train == Train(12, ())
    assert result.extras == tuple(sorted(hand))
    assert result.mexican_starters == ()
    assert str(result.train) == "(no tile)"


def test_all_doubles() -> None:
    hand = tiles("0-0 5-5 9-9")
    assert best_train(hand, 5).tiles == (Tile(5, 5),)
    assert best_train(hand, 3).tiles == ()
    assert plan(hand, 5).stranded_doubles == (Tile(0, 0), Tile(9, 9))


def test_a_double_is_laid_where_the_train_passes() -> None:
    train = best_train(tiles("12-4 4-4 4-7"), 12)
    assert train.oriented() == ["12-4", "4-4", "4-7"]


def test_forced_bridge_leaves_the_shortcut() -> None:
    # two triangles joined by the bridge 2-3: from 0 the train must give up 0-2 to cross
    hand = tiles("0-1 1-2 0-2 2-3 3-4 4-5 3-5")
    result = plan(hand, 0)
    assert result.train.oriented() == ["0-1", "1-2", "2-3", "3-4", "4-5", "5-3"]
    assert result.extras == (Tile(0, 2),)


def test_ties_on_tiles_are_broken_by_pips() -> None:
    assert best_train(tiles("0-1 0-2"), 0).tiles == (Tile(0, 2),)
    # two trains of three tiles: 6-1 1-2 2-0 (12 pips) and 6-5 5-4 4-3 (27 pips)
    train = best_train(tiles("1-6 1-2 0-2 5-6 4-5 3-4"), 6)
    assert train.oriented() == ["6-5", "5-4", "4-3"]
    assert (train.length, train.pips) == (3, 27)


def test_ties_on_tiles_and_pips_take_the_smallest_sequence() -> None:
    # a triangle can be laid both ways round: 0-1 comes before 0-2
    assert best_train(tiles("0-1 1-2 0-2"), 0).oriented() == ["0-1", "1-2", "2-0"]


def test_json_form_writes_tiles_from_the_touching_end() -> None:
    result = plan(tiles("12-5 5-3 3-9 0-1"), 12)
    assert result.to_dict() == {
        "start": 12,
        "train": ["12-5", "5-3", "3-9"],
        "tiles": 3,
        "pips": 37,
        "extras": ["0-1"],
        "mexican_starters": [],
        "stranded_doubles": [],
    }


def test_plan_extras_and_their_uses() -> None:
    hand = tiles("12-5 5-3 3-9 12-1 12-0 0-7 2-2")
    result = plan(hand, 12)
    assert isinstance(result, Plan)
    assert set(result.train.tiles) | set(result.extras) == set(hand)
    assert not set(result.train.tiles) & set(result.extras)
    assert list(result.extras) == sorted(result.extras)
    # 12-5 5-3 3-9 is the longest; 12-0 0-7 is shorter, 12-1 a single tile
    assert result.train.oriented() == ["12-5", "5-3", "3-9"]
    assert result.mexican_starters == (Tile(0, 12), Tile(1, 12))
    assert result.stranded_doubles == (Tile(2, 2),)
    assert result.extra_pips == sum(t.pips for t in result.extras)
    assert result.train.open_end == 9


# -- Eulerian hands -----------------------------------------------------------------------------


@pytest.mark.parametrize("start", range(13))
def test_the_whole_double_twelve_set_goes_down(start: int) -> None:
    full = tile_set(12).tiles
    train = best_train(full, start)
    assert train.length == 91
    assert is_train(train, full)
    without_engine = [t for t in full if t != Tile(start, start)]
    assert best_train(without_engine, start).length == 90


@pytest.mark.parametrize("start", range(7))
def test_the_whole_double_six_set_goes_down(start: int) -> None:
    assert best_train(tile_set(6).tiles, start).length == 28


@pytest.mark.parametrize("start", range(8))
def test_the_whole_double_seven_set(start: int) -> None:
    # every pip is odd: three tiles, a matching on six of the other pips, must stay out;
    # the cheapest leaves out the smallest pips and ends the train on the largest
    train = best_train(tile_set(7).tiles, start)
    assert is_train(train, tile_set(7).tiles)
    assert (train.length, train.pips) == (33, 231 + min(start, 6))


def test_a_dense_hand_is_exact() -> None:
    hand = [t for t in tile_set(6).tiles if t not in set(tiles("0-3 2-5 4-4 1-6"))]
    assert len(hand) == 24
    # from `memo_value`, which takes minutes on this hand
    known = [(22, 132), (22, 133), (22, 134), (22, 135), (21, 128), (22, 137), (22, 137)]
    for start in range(7):
        train = best_train(hand, start)
        assert is_train(train, hand)
        assert (train.length, train.pips) == known[start]


# -- bad input --------------------------------------------------------------------------------


def test_a_tile_twice_is_refused() -> None:
    with pytest.raises(PlanError, match="twice"):
        best_train([Tile(1, 2), Tile(1, 2)], 1)


@pytest.mark.parametrize("start", [-1, 13, True, "5"])
def test_a_start_out_of_range_is_refused(start: object) -> None:
    with pytest.raises(PlanError, match="start pip"):
        best_train([Tile(1, 2)], start, max_pip=12)  # type: ignore[arg-type]


def test_a_tile_outside_the_set_is_refused() -> None:
    with pytest.raises(PlanError, match="double-12"):
        plan([Tile(5, 13)], 5, max_pip=12)
    with pytest.raises(PlanError, match="not a Tile"):
        plan(["5-6"], 5)  # type: ignore[list-item]
    # a tile is made smaller end first (Tile.of takes either order); one made past that
    # check is still refused by the planner
    with pytest.raises(ValueError, match=r"Tile\.of"):
        Tile(6, 5)
    backwards = tuple.__new__(Tile, (6, 5))
    with pytest.raises(PlanError, match=r"Tile\.of"):
        plan([backwards], 5)


def test_without_max_pip_any_set_up_to_thirty() -> None:
    assert best_train([Tile(14, 15)], 15).oriented() == ["15-14"]
    assert unpack(TrailSolver([Tile(29, 30)]).value(30)) == (1, 59)


@pytest.mark.parametrize(
    ("effort", "levels", "plain"),
    [(0, 2, -1), (200_000, 0, -1), (0, 0, -1), (200_000, 2, -1), (200_000, 2, 99)],
)
def test_exact_without_the_shortcuts(
    monkeypatch: pytest.MonkeyPatch, effort: int, levels: int, plain: int
) -> None:
    """The near-tight decisions and the plain search for small remainders only save time:
    without them (or with the plain search everywhere) the trains are the same."""
    rng = random.Random(effort + levels + plain)
    cases = []
    for _ in range(40):
        max_pip = rng.choice((6, 7, 9))
        hand = sorted(rng.sample(tile_set(max_pip).tiles, rng.randint(8, 16)))
        cases.append((hand, rng.randint(0, max_pip)))
    expected = [TrailSolver(hand).best_trail(start) for hand, start in cases]
    monkeypatch.setattr(trails, "_EFFORT", effort)
    monkeypatch.setattr(trails, "_LEVELS", levels)
    monkeypatch.setattr(trails, "_PLAIN_UPTO", plain)
    assert [TrailSolver(hand).best_trail(start) for hand, start in cases] == expected
    for (hand, start), (_, value) in zip(cases, expected, strict=True):
        assert unpack(value) == memo_value(hand, start)


def test_a_time_limit_stops_the_search_with_no_answer() -> None:
    """The search is exact and has no time limit of its own: a hard hand of a big set
    takes minutes. Given one, it raises `PlanTimeout` once the limit is reached rather
    than answer with a train that may not be the best; an easy hand is unchanged."""
    import time

    from mextrain.planner import PlanTimeout

    sample = random.Random(5).sample(list(tile_set(30).tiles), 60)
    began = time.monotonic()
    with pytest.raises(PlanTimeout) as stopped:
        plan(sample, 30, time_limit=0.2)
    assert time.monotonic() - began < 10
    assert stopped.value.time_limit == 0.2
    easy = list(tile_set(12).tiles[:30])
    assert plan(easy, 0, time_limit=30) == plan(easy, 0)
    assert best_train(easy, 3, time_limit=30) == best_train(easy, 3)
    for bad in (0, -1, float("nan"), float("inf")):
        with pytest.raises(PlanError, match="time limit"):
            plan(easy, 0, time_limit=bad)


#: a hand the exact search cannot finish in minutes from pips 3 to 6: the first 40 tiles of
#: the double-12 set in the set's order (every tile of 0, 1 and 2, and 3-3 to 3-6)
HARD_HAND = list(tile_set(12).tiles[:40])


def test_a_step_limit_stops_the_search_with_no_answer_the_same_on_every_machine() -> None:
    """A time limit answers differently on a slower machine; a bot in a simulation must
    not. Given ``max_steps``, the search raises `PlanStepLimit` (a `PlanLimit`, as
    `PlanTimeout` is) once it has taken that many steps, whatever the machine; a hand it
    can finish within them gets the same answer as without a limit, and so does a value
    that was cut short once and is asked again with room enough."""
    from mextrain.planner import PlanLimit, PlanStepLimit, PlanTimeout

    assert issubclass(PlanStepLimit, PlanLimit)
    assert issubclass(PlanTimeout, PlanLimit)
    with pytest.raises(PlanStepLimit) as stopped:
        train_value(HARD_HAND, 3, 12, max_steps=20_000)
    assert stopped.value.max_steps == 20_000
    assert "20,000 search steps" in str(stopped.value)
    with pytest.raises(PlanStepLimit):
        best_train(HARD_HAND, 4, 12, max_steps=20_000)
    with pytest.raises(PlanStepLimit):
        plan(HARD_HAND, 5, 12, max_steps=20_000)
    # (the same hand from pips 0 and 7 is easy: within the limit, the exact answer; the
    # limit counts every search of the train's building, a few times the value's)
    assert train_value(HARD_HAND, 0, 12, max_steps=250_000) == train_value(HARD_HAND, 0, 12)
    assert best_train(HARD_HAND, 7, 12, max_steps=250_000) == best_train(HARD_HAND, 7, 12)
    with pytest.raises(PlanStepLimit):
        best_train(HARD_HAND, 0, 12, max_steps=250_000)
    assert best_train(HARD_HAND, 0, 12, max_steps=1_000_000) == best_train(HARD_HAND, 0, 12)
    rng = random.Random(11)
    for _ in range(30):
        hand = rng.sample(list(tile_set(12).tiles), rng.randint(5, 40))
        start = rng.randint(0, 12)
        assert train_value(hand, start, 12, max_steps=250_000) == train_value(hand, start, 12)
    for bad in (0, -1, 1.5, True, "9"):
        with pytest.raises(PlanError, match="step limit"):
            train_value(HARD_HAND, 0, 12, max_steps=bad)  # type: ignore[arg-type]


def test_the_step_limit_counts_the_enumerations_too(monkeypatch: pytest.MonkeyPatch) -> None:
    """The steps are not the recursive search's calls alone: on this hand each call
    spends hundreds of enumeration steps deciding near-tight cases, and counting only
    the calls let a limit of 10,000 run for seconds. Every step counts: 20,000 steps
    are used up by far fewer calls."""
    from mextrain.planner import PlanStepLimit

    calls: list[int] = []
    search = TrailSolver._search

    def counted(self: TrailSolver, *args: int) -> int:
        calls.append(1)
        return search(self, *args)

    monkeypatch.setattr(TrailSolver, "_search", counted)
    with pytest.raises(PlanStepLimit):
        TrailSolver(HARD_HAND, max_steps=20_000).value(3)
    assert 0 < len(calls) < 2_000
