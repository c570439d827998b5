"""The interval functions against published values (t tables, Wilson's worked examples)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mextrain.sim import simulate
from mextrain.sim.report import deal_interval
from mextrain.sim.stats import (
    mean_interval,
    normal_quantile,
    regularized_beta,
    student_t_cdf,
    student_t_quantile,
    wilson_interval,
)


@pytest.mark.parametrize(
    ("p", "df", "expected"),
    [
        (0.975, 1, 12.706205),
        (0.975, 2, 4.302653),
        (0.975, 5, 2.570582),
        (0.975, 10, 2.228139),
        (0.975, 30, 2.042272),
        (0.975, 120, 1.979930),
        (0.995, 7, 3.499483),
        (0.95, 20, 1.724718),
        (0.025, 10, -2.228139),
        (0.5, 3, 0.0),
    ],
)
def test_t_quantiles_match_the_tables(p: float, df: int, expected: float) -> None:
    assert student_t_quantile(p, df) == pytest.approx(expected, abs=5e-6)


def test_t_quantile_tends_to_the_normal_one() -> None:
    assert normal_quantile(0.975) == pytest.approx(1.959964, abs=1e-6)
    assert student_t_quantile(0.975, 1e6) == pytest.approx(1.959964, abs=1e-5)


def test_t_cdf_known_values() -> None:
    assert student_t_cdf(1.5, 3) == pytest.approx(0.8847081, abs=1e-7)
    assert student_t_cdf(0.0, 4) == pytest.approx(0.5)
    assert student_t_cdf(-1.5, 3) == pytest.approx(1 - 0.8847081, abs=1e-7)
    # df = 1 is the Cauchy distribution: F(t) = 1/2 + atan(t)/pi
    for t in (-3.0, -0.4, 0.7, 5.0):
        assert student_t_cdf(t, 1) == pytest.approx(0.5 + math.atan(t) / math.pi, abs=1e-10)


@given(x=st.floats(0.0, 1.0), a=st.floats(0.2, 20.0))
def test_regularized_beta_closed_forms(x: float, a: float) -> None:
    assert regularized_beta(x, 1.0, 1.0) == pytest.approx(x, abs=1e-12)
    assert regularized_beta(x, a, 1.0) == pytest.approx(x**a, abs=1e-10)
    assert regularized_beta(x, 1.0, a) == pytest.approx(1 - (1 - x) ** a, abs=1e-10)
    assert regularized_beta(0.5, a, a) == pytest.approx(0.5, abs=1e-12)


def test_regularized_beta_reference_values() -> None:
    assert regularized_beta(0.3, 2.5, 3.5) == pytest.approx(0.2967530, abs=1e-7)
    assert regularized_beta(0.9, 10.0, 0.5) == pytest.approx(0.1516409, abs=1e-7)
    with pytest.raises(ValueError, match="x must be in"):
        regularized_beta(1.5, 1.0, 1.0)


@pytest.mark.parametrize(
    ("successes", "n", "lo", "hi"),
    [
        (8, 10, 0.490162, 0.943318),  # Wilson's interval for 8 of 10
        (0, 10, 0.0, 0.277533),
        (10, 10, 0.722467, 1.0),
        (50, 100, 0.403832, 0.596168),
        (1, 20, 0.008881, 0.236131),
    ],
)
def test_wilson_known_values(successes: float, n: int, lo: float, hi: float) -> None:
    got = wilson_interval(successes, n)
    assert got == pytest.approx((lo, hi), abs=1e-6)


def test_wilson_counts_split_wins_fractionally() -> None:
    # 3 wins and 2 half-wins in 10 games are 4 wins: the same interval as 4 of 10
    assert wilson_interval(3 + 0.5 + 0.5, 10) == wilson_interval(4, 10)
    lo, hi = wilson_interval(1.5, 4)
    assert 0 < lo < 1.5 / 4 < hi < 1
    with pytest.raises(ValueError, match="between 0 and n"):
        wilson_interval(11, 10)
    with pytest.raises(ValueError, match="at least one trial"):
        wilson_interval(0, 0)


@given(successes=st.integers(0, 200), extra=st.integers(0, 200))
def test_wilson_contains_the_estimate(successes: int, extra: int) -> None:
    n = successes + extra
    if n == 0:
        return
    lo, hi = wilson_interval(successes, n)
    assert 0.0 <= lo <= successes / n <= hi <= 1.0


def test_mean_interval_matches_the_t_interval() -> None:
    mean, lo, hi = mean_interval([1, 2, 3, 4, 5])
    assert mean == 3
    assert (lo, hi) == pytest.approx((1.0367568, 4.9632432), abs=1e-6)
    # a 99% interval is wider
    _, lo99, hi99 = mean_interval([1, 2, 3, 4, 5], confidence=0.99)
    assert lo99 < lo
    assert hi < hi99


def test_mean_interval_needs_two_values() -> None:
    mean, lo, hi = mean_interval([7.5])
    assert mean == 7.5
    assert math.isnan(lo)
    assert math.isnan(hi)
    with pytest.raises(ValueError, match="at least one value"):
        mean_interval([])


def test_deals_that_all_give_the_same_value_have_no_interval() -> None:
    # two deals that happened to give the same difference: an interval of no width would
    # read as certainty (the audit's [-36.00, -36.00])
    mean, lo, hi = deal_interval([-36.0, -36.0], zero_is_exact=True)
    assert mean == -36.0
    assert math.isnan(lo)
    assert math.isnan(hi)
    # the same value summed in another order is still the same value
    mean, lo, hi = deal_interval([0.1 + 0.2, 0.3, 0.3])
    assert math.isnan(lo)
    assert math.isnan(hi)
    # an entry's figure alike in every deal, 0 too: no reason for it but chance
    assert math.isnan(deal_interval([0.0, 0.0, 0.0])[1])
    # values that spread: the t interval
    assert deal_interval([1, 2, 3, 4, 5]) == mean_interval([1, 2, 3, 4, 5])
    assert deal_interval([-36.0, -35.0], zero_is_exact=True) == mean_interval([-36.0, -35.0])


def test_a_pairs_differences_all_exactly_zero_keep_their_interval() -> None:
    # two bots that play alike give 0 on every duplicate deal, by construction
    assert deal_interval([0.0, 0.0, 0.0], zero_is_exact=True) == (0.0, 0.0, 0.0)


def test_a_pair_that_differs_alike_by_chance_shows_no_interval() -> None:
    # the audit's run: entries 0 and 2 differed by -36 points a round in both deals
    bots = ["planner", "greedy", "random", "racer", "greedy"]
    report = simulate("classic", 5, bots, games=10, seed=1, rounds=1)
    pair = report.to_dict()["pairs"][1]
    assert pair["entries"] == [0, 2]
    assert pair["mean_score_difference"] == -36.0
    assert pair["mean_score_difference_ci95"] == [None, None]
    assert pair["win_rate_difference_ci95"] == [None, None]
    row = next(line for line in report.to_text().splitlines() if line.strip().startswith("0-2"))
    assert row.split()[1:] == ["+0.200", "n/a", "-36.00", "n/a"]
    # bots that play alike: exactly 0 in every deal, the interval [0, 0]
    alike = simulate("classic", 2, ["greedy", "greedy"], games=6, seed=1, rounds=1)
    assert alike.to_dict()["pairs"][0]["mean_score_difference_ci95"] == [0.0, 0.0]
    assert alike.to_dict()["pairs"][0]["win_rate_difference_ci95"] == [0.0, 0.0]


@pytest.mark.parametrize(("players", "rounds"), [(3, 3), (4, 13)])
def test_bots_that_play_alike_differ_by_exactly_0_points_whatever_the_rounds(
    players: int, rounds: int
) -> None:
    # every rotation of a deal is the same game, so each entry's points over a deal are
    # the same whole number; points per round as ratios (5/13 + 3/13 - 8/13) left ~1e-16
    # in some deals, which read as a difference with no interval instead of 0 and [0, 0]
    report = simulate("classic", players, ["greedy"] * players, 3 * players, 1, rounds=rounds)
    for pair in report.to_dict()["pairs"]:
        assert pair["mean_score_difference"] == 0.0
        assert pair["mean_score_difference_ci95"] == [0.0, 0.0]
        assert pair["win_rate_difference_ci95"] == [0.0, 0.0]
    assert "-0.00" not in report.to_text()
