"""The ratings both statistics rank by (`mextrain.sim.ratings`): properties that hold
whatever the games."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mextrain.sim.ratings import rate_games

PLAYERS = ["Ana", "Ben", "Cy", "Dee", "bot:easy", "bot:expert"]

#: a game: two to four distinct players, each with a total
a_game = st.lists(
    st.tuples(st.sampled_from(PLAYERS), st.integers(0, 60)),
    min_size=2,
    max_size=4,
    unique_by=lambda seat: seat[0],
)


@given(st.lists(a_game, max_size=12), st.randoms(use_true_random=False))
def test_the_seats_order_in_a_game_changes_nothing(
    games: list[list[tuple[str, int]]], rng: random.Random
) -> None:
    shuffled = [rng.sample(game, len(game)) for game in games]
    before, after = rate_games(games), rate_games(shuffled)
    assert before.keys() == after.keys()
    for who, rating in before.items():
        assert after[who].mu == pytest.approx(rating.mu)
        assert after[who].sigma == pytest.approx(rating.sigma)
        assert after[who].games == rating.games


@given(st.lists(a_game, min_size=1, max_size=12))
def test_every_player_is_rated_for_each_game_it_sat_in(games: list[list[tuple[str, int]]]) -> None:
    rated = rate_games(games)
    for who, rating in rated.items():
        assert rating.games == sum(any(w == who for w, _ in game) for game in games)
        assert rating.sigma > 0
    assert set(rated) == {who for game in games for who, _ in game}


@given(st.lists(a_game, max_size=8), a_game)
def test_the_lowest_total_gains_and_the_highest_loses(
    before: list[list[tuple[str, int]]], game: list[tuple[str, int]]
) -> None:
    """In a game whose totals differ, the seat with the lowest alone gains, the one with
    the highest alone loses, whatever the ratings they came with."""
    totals = [total for _, total in game]
    low, high = min(totals), max(totals)
    ahead, behind = rate_games(before), rate_games([*before, game])
    for who, total in game:
        if who not in ahead:
            continue
        if total == low and totals.count(low) == 1:
            assert behind[who].mu > ahead[who].mu
        if total == high and totals.count(high) == 1:
            assert behind[who].mu < ahead[who].mu
    # and a game is always more sure of whoever played it
    for who, _ in game:
        if who in ahead:
            assert behind[who].sigma <= ahead[who].sigma


def test_one_player_at_several_seats_moves_by_the_sum_of_their_moves() -> None:
    """Three bots of one level against one person: the level is one player, moved by the
    sum of its seats' moves (a person second among them beat two and lost to one)."""
    second = rate_games([[("Ana", 10), ("bot", 0), ("bot", 30), ("bot", 40)]])
    first = rate_games([[("Ana", 0), ("bot", 10), ("bot", 30), ("bot", 40)]])
    assert first["Ana"].mu > second["Ana"].mu > 25.0
    assert first["bot"].mu < second["bot"].mu < 25.0
    assert first["bot"].games == second["bot"].games == 1
    assert rate_games([[("Ana", 0)]]) == {}  # (a game of one rates nobody)
