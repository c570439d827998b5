"""The planner bot's train search and its play-by-play choices."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mextrain.bots import BotSpecError, make_bot
from mextrain.bots.planner import PlannerBot, RacerBot
from mextrain.bots.trains import TrainSearch, _OutOfBudget
from mextrain.rules import (
    DRAW,
    MEXICAN,
    PASS,
    Action,
    RoundState,
    Rules,
    SeatView,
    Tile,
    parse_tile,
    tile_set,
)

TS = tile_set(12)


def brute_best(tiles: list[Tile], start: int) -> tuple[int, int]:
    """(tiles, pips) of the best trail from ``start``, by trying every trail."""
    best = (0, 0)

    def walk(end: int, left: list[Tile], count: int, pips: int) -> None:
        nonlocal best
        best = max(best, (count, pips))
        for i, tile in enumerate(left):
            if tile.has(end):
                walk(tile.other_end(end), left[:i] + left[i + 1 :], count + 1, pips + tile.pips)

    walk(start, tiles, 0, 0)
    return best


def is_trail(tiles: list[Tile], start: int) -> bool:
    """Whether ``tiles`` (all of them) can be laid as one train from ``start``."""

    def walk(end: int, left: list[Tile]) -> bool:
        if not left:
            return True
        return any(
            tile.has(end) and walk(tile.other_end(end), left[:i] + left[i + 1 :])
            for i, tile in enumerate(left)
        )

    return walk(start, tiles)


hands = st.lists(st.sampled_from(TS.tiles), min_size=0, max_size=9, unique=True)


@settings(max_examples=200)
@given(tiles=hands, start=st.integers(0, 12))
def test_train_search_is_exact(tiles: list[Tile], start: int) -> None:
    count, pips, used = TrainSearch(TS).best(TS.mask_of(tiles), start)
    assert (count, pips) == brute_best(tiles, start)
    laid = TS.tiles_of(used)
    assert len(laid) == count
    assert sum(t.pips for t in laid) == pips
    assert is_trail(laid, start)


@settings(max_examples=200)
@given(tiles=hands.filter(bool), start=st.integers(0, 12), pick=st.integers(0, 8))
def test_the_best_train_without_a_tile_is_exact(tiles: list[Tile], start: int, pick: int) -> None:
    """`best_without` (the whole hand's train when it spares the tile) is the best train
    of the hand without that tile, and so is the next search of that smaller hand."""
    tile = tiles[pick % len(tiles)]
    rest = [t for t in tiles if t != tile]
    search = TrainSearch(TS)
    count, pips, used = search.best_without(TS.mask_of(tiles), start, TS.mask_of([tile]))
    assert (count, pips) == brute_best(rest, start)
    assert not used & TS.mask_of([tile])
    assert is_trail(TS.tiles_of(used), start)
    assert search.best(TS.mask_of(rest), start)[:2] == brute_best(rest, start)


@settings(max_examples=100)
@given(tiles=hands, start=st.integers(0, 12), budget=st.integers(0, 30))
def test_an_exhausted_search_still_gives_a_real_train(
    tiles: list[Tile], start: int, budget: int
) -> None:
    search = TrainSearch(TS, budget=budget)
    count, pips, used = search.best(TS.mask_of(tiles), start)
    laid = TS.tiles_of(used)
    assert len(laid) == count
    assert sum(t.pips for t in laid) == pips
    assert is_trail(laid, start)
    assert (count, pips) <= brute_best(tiles, start)
    if search.exact:
        assert (count, pips) == brute_best(tiles, start)


def test_a_dense_hand_is_answered_quickly_by_the_fallback() -> None:
    dense = [t for t in TS.tiles if t.low <= 7 and t.high <= 10][:40]
    search = TrainSearch(TS, budget=500)
    count, _pips, used = search.best(TS.mask_of(dense), 0)
    assert not search.exact
    assert count == used.bit_count() > 10
    assert is_trail(TS.tiles_of(used), 0)


def test_a_search_that_ran_out_of_budget_is_not_run_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A playout asks one huge hand's best train move after move: the greedy train found
    when the budget ran out answers the same question again at once, the same train."""
    dense = [t for t in TS.tiles if t.low <= 7 and t.high <= 10][:40]
    search = TrainSearch(TS, budget=500)
    first = search.best(TS.mask_of(dense), 0)
    assert not search.exact
    searched: list[int] = []
    real = TrainSearch._best
    monkeypatch.setattr(TrainSearch, "_best", lambda self, *a: searched.append(1) or real(self, *a))
    assert search.best(TS.mask_of(dense), 0) == first
    assert searched == []
    assert TrainSearch(TS, budget=500).best(TS.mask_of(dense), 0) == first  # (as fresh)


def test_a_hand_as_big_as_one_that_ran_out_of_budget_is_not_searched(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Move after move a playout asks for a huge hand's train a tile smaller (the tile
    played, or another from a different end): each spent the whole budget again before
    its greedy train, and a search bot's move took a minute with a 39-tile hand. Once a
    hand has run out, no hand of as many tiles or more is searched; a smaller one is."""
    dense = [t for t in TS.tiles if t.low <= 7 and t.high <= 10][:40]
    search = TrainSearch(TS, budget=500)
    search.best(TS.mask_of(dense), 0)
    assert not search.exact
    searched: list[int] = []
    real = TrainSearch._best
    monkeypatch.setattr(TrainSearch, "_best", lambda self, *a: searched.append(1) or real(self, *a))
    search.best(TS.mask_of(dense), 3)  # as big, from another end: the greedy train at once
    assert searched == []
    # the hand a tile smaller, every tile and three ends: a few are searched (some done in
    # the budget, thanks to the memo) until one runs out, and then no other (each of the
    # 120 spent the budget before: some 89,000 steps, against some 800 now)
    for drop in range(len(dense)):
        smaller = TS.mask_of(dense[:drop] + dense[drop + 1 :])
        for start in (0, 7, 10):
            count, _pips, used = search.best(smaller, start)
            assert used & ~smaller == 0
            assert count == used.bit_count()
    assert len(searched) <= 4 * search.budget
    searched.clear()
    search.best(TS.mask_of(dense[:5]), 0)  # a small hand is searched, exactly
    assert searched


class _PlainSearch(TrainSearch):
    """The train search as first written: every state, found or not, is a call that looks
    itself up in the memo. The search bots' moves depend on which states each search adds
    to the memo and on where a budget runs out, not only on the trains found."""

    __slots__ = ()

    def _best(self, hand: int, start: int) -> tuple[int, int, int]:
        key = (start, hand)
        found = self._memo.get(key)
        if found is not None:
            return found
        self._left -= 1
        if self._left < 0:
            raise _OutOfBudget
        count = pips = used = 0
        double = 1 << TS.double_id[start]
        if hand & double:
            hand ^= double
            count, pips, used = 1, 2 * start, double
        best_rest = (0, 0, 0)
        options = hand & TS.pip_mask[start]
        while options:
            low = options & -options
            options ^= low
            tid = low.bit_length() - 1
            sub = self._best(hand ^ low, TS.pip_sum[tid] - start)
            value = (sub[0] + 1, sub[1] + TS.pip_sum[tid], sub[2] | low)
            if value[:2] > best_rest[:2]:
                best_rest = value
        result = (count + best_rest[0], pips + best_rest[1], used | best_rest[2])
        self._memo[key] = result
        return result


@settings(max_examples=60)
@given(
    seed=st.integers(0, 10**6),
    budget=st.sampled_from([3, 20, 60, 200, 4_000]),
    size=st.integers(4, 40),
)
def test_the_train_search_adds_the_states_of_a_plain_memoised_search(
    seed: int, budget: int, size: int
) -> None:
    """Over a playout's worth of questions about one hand, tile after tile, the search
    answers as the plain memoised search, adds the same states to its memo, and runs out
    of budget on the same questions (then answering with the same greedy trains)."""
    rng = random.Random(seed)
    fast, plain = TrainSearch(TS, budget=budget), _PlainSearch(TS, budget=budget)
    hand = TS.mask_of(rng.sample(TS.tiles, size))
    while hand:
        start = rng.randrange(13)
        tiles = [tid for tid in range(TS.size) if hand >> tid & 1]
        bit = 1 << rng.choice(tiles)
        if rng.random() < 0.5:
            assert fast.best(hand, start) == plain.best(hand, start)
        else:
            assert fast.best_without(hand, start, bit) == plain.best_without(hand, start, bit)
        assert fast._memo == plain._memo
        assert fast._fallback == plain._fallback
        assert (fast.exact, fast._greedy_from) == (plain.exact, plain._greedy_from)
        hand ^= bit


# -- choices -----------------------------------------------------------------------------


def base_view(players: int = 3) -> SeatView:
    state = RoundState.new(Rules.preset("classic"), players, 0, random.Random(5), starter=0)
    return state.view(0)


def view_with(
    hand: list[str],
    legal: list[Action],
    ends: dict[int, int],
    marker: bool = False,
    hand_sizes: tuple[int, ...] | None = None,
) -> SeatView:
    """A position for seat 0: its hand, the trains' open ends and the legal plays."""
    view = base_view()
    tiles = [parse_tile(t) for t in hand]
    trains = tuple(
        t._replace(
            open_end=ends.get(t.owner, 12),
            marker_up=marker if t.owner == 0 else t.marker_up,
        )
        for t in view.trains
    )
    return view._replace(
        hand=tuple(sorted(tiles)),
        hand_mask=TS.mask_of(tiles),
        trains=trains,
        legal_actions=tuple(legal),
        hand_sizes=hand_sizes or (len(tiles), 10, 10),
    )


def play(tile: str, train: int) -> Action:
    return Action.play(parse_tile(tile), train)


def test_an_extra_goes_on_the_mexican_train_first() -> None:
    # own end 5: plan 5-3, 3-8; extra 12-10 fits the Mexican train (end 12)
    hand = ["3-5", "3-8", "10-12"]
    legal = [play("3-5", 0), play("10-12", MEXICAN)]
    view = view_with(hand, legal, {0: 5, MEXICAN: 12})
    assert PlannerBot().act(view, random.Random(0)) == play("10-12", MEXICAN)


def test_the_planned_train_is_kept_off_shared_trains() -> None:
    # 5-3 starts the plan; it also fits the Mexican train (end 3). Playing it there would
    # break the plan: the bot plays it on its own train instead.
    hand = ["3-5", "3-8", "8-11"]
    legal = [play("3-5", 0), play("3-5", MEXICAN)]
    view = view_with(hand, legal, {0: 5, MEXICAN: 3})
    assert PlannerBot().act(view, random.Random(0)) == play("3-5", 0)


def test_a_marked_train_is_lifted_by_playing_on_it() -> None:
    hand = ["3-5", "3-8", "10-12", "1-2"]
    legal = [play("3-5", 0), play("10-12", MEXICAN)]
    calm = view_with(hand, legal, {0: 5, MEXICAN: 12})
    marked = view_with(hand, legal, {0: 5, MEXICAN: 12}, marker=True)
    bot = PlannerBot(marker_bonus=100.0)
    assert bot.act(calm, random.Random(0)) == play("10-12", MEXICAN)
    assert bot.act(marked, random.Random(0)) == play("3-5", 0)


def test_it_dumps_the_heaviest_tile_when_a_seat_is_nearly_out() -> None:
    hand = ["3-5", "3-8", "12-11", "0-1"]
    legal = [play("3-5", 0), play("12-11", MEXICAN)]
    view = view_with(hand, legal, {0: 5, MEXICAN: 12})
    assert PlannerBot().act(view, random.Random(0)) == play("12-11", MEXICAN)
    # 0-1 is light; with a seat down to one tile the heavy plan tile goes first
    hand = ["9-12", "9-10", "0-1"]
    legal = [play("9-12", 0), play("0-1", MEXICAN)]
    calm = view_with(hand, legal, {0: 12, MEXICAN: 0})
    close = view_with(hand, legal, {0: 12, MEXICAN: 0}, hand_sizes=(3, 1, 10))
    bot = PlannerBot(extra_cost=6.0, plan_weight=0.3, endgame=2)
    assert bot.act(calm, random.Random(0)) == play("0-1", MEXICAN)
    assert bot.act(close, random.Random(0)) == play("9-12", 0)


def test_the_racer_keeps_its_plan_when_a_seat_is_nearly_out() -> None:
    # the planner's endgame position above: the racer does not dump 9-12, it spends the
    # extra 0-1 and keeps its planned train
    hand = ["9-12", "9-10", "0-1"]
    legal = [play("9-12", 0), play("0-1", MEXICAN)]
    close = view_with(hand, legal, {0: 12, MEXICAN: 0}, hand_sizes=(3, 1, 10))
    assert PlannerBot().act(close, random.Random(0)) == play("9-12", 0)
    assert RacerBot().act(close, random.Random(0)) == play("0-1", MEXICAN)
    assert make_bot("racer").act(close, random.Random(0)) == play("0-1", MEXICAN)


def test_the_racer_lays_a_double_it_cannot_cover() -> None:
    # no plan (own end 5). 2-2 on the Mexican train cannot be covered by the bot; under
    # open_doubles_block the planner avoids it and plays 0-6 on the marked train, the
    # racer plays the double: with a follow-up that is two tiles out in one turn
    hand = ["2-2", "0-6", "9-10", "7-8"]
    legal = [play("2-2", MEXICAN), play("0-6", 1)]
    view = view_with(hand, legal, {0: 5, 1: 0, MEXICAN: 2})
    assert view.rules.open_doubles_block
    assert PlannerBot().act(view, random.Random(0)) == play("0-6", 1)
    assert RacerBot().act(view, random.Random(0)) == play("2-2", MEXICAN)


def test_doubles_are_played_when_they_can_be_covered() -> None:
    # no plan (own end 5); 9-9 is heavier, but only 6-6 can be covered (by 2-6): an
    # uncovered double would hold up the table, the bot included
    hand = ["6-6", "2-6", "9-9", "0-11"]
    legal = [play("6-6", MEXICAN), play("9-9", 1)]
    view = view_with(hand, legal, {0: 5, 1: 9, MEXICAN: 6})
    assert PlannerBot().act(view, random.Random(0)) == play("6-6", MEXICAN)
    careless = PlannerBot(double_bonus=0.0, double_penalty=0.0)
    assert careless.act(view, random.Random(0)) == play("9-9", 1)


def test_it_draws_or_passes_only_without_a_play() -> None:
    view = view_with(["1-2"], [DRAW], {0: 5})
    assert PlannerBot().act(view, random.Random(0)) == DRAW
    view = view_with(["1-2"], [PASS], {0: 5})
    assert PlannerBot().act(view, random.Random(0)) == PASS


@settings(max_examples=60)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 6), depth=st.integers(0, 200))
def test_both_searches_score_plays_alike(seed: int, players: int, depth: int) -> None:
    """The bots' own search and the planner's exact one give the same train values, so the
    planner bot scores every play the same with either."""
    rng = random.Random(seed)
    state = RoundState.new(Rules.preset("classic"), players, rng.randrange(13), rng)
    for _ in range(depth):
        if state.is_over:
            return
        state.apply(rng.choice(state.legal_actions()))
    if state.is_over:
        return
    view = state.view(state.current_seat)
    plays = [a for a in view.legal_actions if a.kind == "play"]
    if not plays:
        return
    exact = PlannerBot(search="exact").rank(view, plays)
    memo = PlannerBot(search="memo").rank(view, plays)
    assert [s for s, _ in exact] == pytest.approx([s for s, _ in memo])


def test_unknown_search_is_refused() -> None:
    with pytest.raises(BotSpecError, match="search must be one of memo, exact"):
        make_bot("planner:search=fast")


def test_a_hand_too_hard_for_the_exact_search_is_ranked_in_bounded_steps(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The first 40 tiles of the set, the train's open end at 3: the exact search takes
    minutes for some of these plays (a hand swollen by draws, a big set), and a bot at a
    table or in a simulation must answer. Each value gets `EXACT_STEPS` steps (steps, not
    seconds: the same answer on every machine); the first value past them hands the rest
    of the decision to the memoised search, without trying the exact one again."""
    from mextrain.bots import planner as planner_bot
    from mextrain.planner import PlanStepLimit

    hard = [str(t) for t in TS.tiles[:40]]
    tiles = [parse_tile(t) for t in hard]
    plays = [Action.play(t, 0) for t in tiles if t.has(3)]
    plays += [Action.play(t, MEXICAN) for t in tiles if t.has(12)]
    view = view_with(hard, plays, {0: 3})
    asked: list[str] = []
    exact = planner_bot.train_value

    def spied(*args: Any, **kwargs: Any) -> tuple[int, int]:
        assert kwargs.get("max_steps") == planner_bot.EXACT_STEPS, kwargs
        try:
            found = exact(*args, **kwargs)
        except PlanStepLimit:
            asked.append("limit")
            raise
        asked.append("value")
        return found

    monkeypatch.setattr(planner_bot, "train_value", spied)
    ranked = PlannerBot(search="exact").rank(view, plays)
    assert sorted(map(str, (a for _, a in ranked))) == sorted(map(str, plays))
    assert asked.count("limit") == 1
    assert asked[-1] == "limit"  # (no exact search after it)
    assert PlannerBot(search="exact").act(view, random.Random(1)) == ranked[0][1]
