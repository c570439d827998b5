"""The simulator and its statistics, checked independently: seat rotation, reproducibility,
intervals."""

from __future__ import annotations

import json
import math
import re
import statistics
import subprocess
import sys
from pathlib import Path

import pytest
import scipy.stats as scipy_stats

from mextrain.rules import Rules
from mextrain.sim import (
    SimConfig,
    game_rules,
    play_game,
    run_games,
    seat_entries,
    simulate,
    summarise,
)
from mextrain.sim.report import deal_means
from mextrain.sim.stats import (
    mean_interval,
    student_t_cdf,
    student_t_quantile,
    wilson_interval,
)

Z95 = float(scipy_stats.norm.ppf(0.975))


def ref_wilson(s: float, n: int, z: float = Z95) -> tuple[float, float]:
    # textbook form: (s + z^2/2 ± z sqrt(s(n-s)/n + z^2/4)) / (n + z^2)
    root = z * math.sqrt(s * (n - s) / n + z * z / 4)
    return (s + z * z / 2 - root) / (n + z * z), (s + z * z / 2 + root) / (n + z * z)


# ---------------------------------------------------------------- (1) formulas


@pytest.mark.parametrize(
    ("s", "n"),
    [
        (0, 1),
        (1, 1),
        (0.5, 1),
        (0, 10),
        (10, 10),
        (3, 10),
        (2.5, 7),
        (1 / 3, 3),
        (50, 100),
        (99.5, 100),
        (0, 1000),
        (1, 1000),
        (333.5, 1000),
    ],
)
def test_wilson_matches_reference(s: float, n: int) -> None:
    lo, hi = wilson_interval(s, n)
    rlo, rhi = ref_wilson(s, n)
    assert lo == pytest.approx(rlo, abs=1e-12)
    assert hi == pytest.approx(rhi, abs=1e-12)
    assert 0.0 <= lo <= s / n <= hi <= 1.0
    if s == 0:
        assert lo == 0.0
    if s == n:
        assert hi == 1.0


def test_wilson_integer_counts_match_statsmodels_style_scipy() -> None:
    # scipy's binomtest(...).proportion_ci(method="wilson") for integer counts
    for k, n in [(0, 5), (5, 5), (3, 17), (1, 1), (40, 120)]:
        ci = scipy_stats.binomtest(k, n).proportion_ci(0.95, method="wilson")
        lo, hi = wilson_interval(k, n)
        assert lo == pytest.approx(ci.low, abs=1e-9)
        assert hi == pytest.approx(ci.high, abs=1e-9)


def test_wilson_other_confidence_and_bad_input() -> None:
    z = float(scipy_stats.norm.ppf(0.995))
    lo, hi = wilson_interval(7, 20, confidence=0.99)
    assert (lo, hi) == pytest.approx(ref_wilson(7, 20, z), abs=1e-12)
    for s, n in [(1, 0), (-0.1, 5), (5.5, 5)]:
        with pytest.raises(ValueError, match=r"trial|successes"):
            wilson_interval(s, n)


@pytest.mark.parametrize("df", [1, 2, 3, 5, 9, 30, 199, 10_000])
def test_student_t_quantile_and_cdf_match_scipy(df: int) -> None:
    for p in (0.5, 0.6, 0.9, 0.975, 0.995, 0.025):
        assert student_t_quantile(p, df) == pytest.approx(
            scipy_stats.t.ppf(p, df), rel=1e-8, abs=1e-10
        )
    for t in (-5.0, -1.3, 0.0, 0.7, 2.0, 12.7):
        assert student_t_cdf(t, df) == pytest.approx(scipy_stats.t.cdf(t, df), abs=1e-10)


@pytest.mark.parametrize(
    "values",
    [[1.0, 2.0], [3.0, 3.0, 3.0], [0.0, 10.0, 5.5, 7.25, -3.0], list(range(50))],
)
def test_mean_interval_matches_scipy(values: list[float]) -> None:
    mean, lo, hi = mean_interval(values)
    n = len(values)
    assert mean == pytest.approx(sum(values) / n)
    sd = statistics.stdev(values) if n > 1 else 0.0
    if sd == 0:
        assert lo == pytest.approx(mean)
        assert hi == pytest.approx(mean)
        return
    slo, shi = scipy_stats.t.interval(0.95, n - 1, loc=mean, scale=sd / math.sqrt(n))
    assert lo == pytest.approx(slo, rel=1e-8)
    assert hi == pytest.approx(shi, rel=1e-8)


# ---------------------------------------------------------------- shared small runs


def _config(
    bots: tuple[str, ...], games: int, seed: int, rounds: int = 1, records: bool = False
) -> SimConfig:
    rules = game_rules(Rules.from_spec("classic"), rounds)
    return SimConfig(
        rules=rules, players=len(bots), bots=bots, games=games, seed=seed, keep_records=records
    )


@pytest.fixture(scope="module")
def mixed_run():
    config = _config(("random", "greedy", "planner"), games=18, seed=7, rounds=2, records=True)
    return config, run_games(config, jobs=1)


# ---------------------------------------------------------------- (2) seat rotation


def test_seat_entries_is_a_rotation() -> None:
    for n in (2, 3, 4, 5, 8):
        seen = {e: set() for e in range(n)}
        for r in range(n):
            entries = seat_entries(n, r)
            assert sorted(entries) == list(range(n))
            for seat, e in enumerate(entries):
                assert seat == (e + r) % n
                seen[e].add(seat)
        assert all(s == set(range(n)) for s in seen.values())


def test_each_deal_once_per_rotation_and_results_map_to_entries(mixed_run) -> None:
    config, results = mixed_run
    n = config.players
    assert [r.game for r in results] == list(range(config.games))
    by_deal: dict[int, list] = {}
    for r in results:
        by_deal.setdefault(r.deal, []).append(r)
    assert sorted(by_deal) == list(range(config.games // n))
    for games in by_deal.values():
        assert sorted(g.rotation for g in games) == list(range(n))
        seats_of = {e: set() for e in range(n)}
        hands = set()
        for g in games:
            rec = json.loads(g.record)
            names = rec["players"]
            entries = seat_entries(n, g.rotation)
            # record seat order is the bot of each seated entry
            assert names == [config.bots[e] for e in entries]
            for seat, e in enumerate(entries):
                seats_of[e].add(seat)
                assert g.totals[e] == rec["result"]["totals"][seat]
                for k, row in enumerate(rec["result"]["scores"]):
                    assert g.round_scores[k][e] == row[seat]
            assert (
                sum(g.round_scores[k][e] for k in range(len(g.round_scores)) for e in [0])
                == g.totals[0]
            )
            # same deal: identical hands/boneyard/starter in every rotation
            hands.add(
                json.dumps([(r["hands"], r["boneyard"], r["starter"]) for r in rec["rounds"]])
            )
        assert len(hands) == 1
        assert all(s == set(range(n)) for s in seats_of.values())
    # different deals differ
    first = {
        json.loads(g.record)["rounds"][0]["boneyard"][0]
        + str(json.loads(g.record)["rounds"][0]["hands"])
        for g in results
        if g.rotation == 0
    }
    assert len(first) == config.games // n


def test_round_scores_sum_to_totals(mixed_run) -> None:
    config, results = mixed_run
    for g in results:
        assert len(g.round_scores) == config.rounds_per_game
        for e in range(config.players):
            assert sum(row[e] for row in g.round_scores) == g.totals[e]


# ---------------------------------------------------------------- (4) wins / ties


def test_wins_shared_and_sum_to_one(mixed_run) -> None:
    config, results = mixed_run
    for g in results:
        assert math.fsum(g.wins) == pytest.approx(1.0)
        best = min(g.totals)
        winners = [e for e, t in enumerate(g.totals) if t == best]
        for e in range(config.players):
            assert g.wins[e] == (1 / len(winners) if e in winners else 0.0)


def test_split_wins_occur_and_are_shared() -> None:
    # 2 random players, 1 round: a blocked round can tie; look for ties in a cheap run
    config = _config(("random", "random"), games=120, seed=3)
    results = run_games(config, jobs=1)
    ties = [g for g in results if g.totals[0] == g.totals[1]]
    for g in ties:
        assert g.wins == (0.5, 0.5)
    report = summarise(config, results, 1.0)
    assert math.fsum(e.wins for e in report.entries) == pytest.approx(config.games)
    assert math.fsum(e.win_rate for e in report.entries) == pytest.approx(1.0)


def test_tie_sharing_via_forced_totals(monkeypatch) -> None:
    # force a three-way situation: seats 0 and 2 tie for the win
    import mextrain.sim.games as games_mod

    real = games_mod.Match

    class TiedMatch(real):  # type: ignore[misc,valid-type]
        @property
        def totals(self):
            return [5, 9, 5]

    monkeypatch.setattr(games_mod, "Match", TiedMatch)
    config = _config(("random", "greedy", "planner"), games=3, seed=1)
    for game in range(3):
        r = play_game(config, game)
        entries = seat_entries(3, r.rotation)
        for seat, e in enumerate(entries):
            assert r.wins[e] == (0.5 if seat in (0, 2) else 0.0)
            assert r.totals[e] == [5, 9, 5][seat]
        assert sum(r.wins) == 1.0


# ---------------------------------------------------------------- (5) report vs raw


def _strip_speed(d: dict) -> dict:
    return {k: v for k, v in d.items() if k not in ("rounds_per_second", "actions_per_second")}


def test_report_matches_raw_results(mixed_run) -> None:
    config, results = mixed_run
    report = summarise(config, results, 1.0)
    d = report.to_dict()
    assert d["games"] == config.games == len(results)
    assert d["players"] == 3
    assert d["rounds_per_game"] == 2
    assert d["seed"] == 7
    assert report.rounds == config.games * 2
    assert report.actions == sum(g.actions for g in results)
    n_deals = config.games // config.players
    for e, entry in enumerate(d["entries"]):
        assert entry["bot"] == config.bots[e]
        wins = sum(g.wins[e] for g in results)
        assert entry["wins"] == pytest.approx(wins)
        assert entry["win_rate"] == pytest.approx(wins / config.games)
        assert entry["win_rate_ci95"] == pytest.approx(list(ref_wilson(wins, config.games)))
        # mean points per round: overall mean (balanced deals) and t interval over deal means
        per_round = [g.totals[e] / 2 for g in results]
        assert entry["mean_score"] == pytest.approx(sum(per_round) / len(per_round))
        dm = [
            sum(g.totals[e] for g in results if g.deal == k) / (2 * config.players)
            for k in range(n_deals)
        ]
        assert deal_means(results, per_round) == pytest.approx(dm)
        m = sum(dm) / n_deals
        se = statistics.stdev(dm) / math.sqrt(n_deals)
        slo, shi = scipy_stats.t.interval(0.95, n_deals - 1, loc=m, scale=se)
        assert entry["mean_score_ci95"] == pytest.approx([slo, shi], rel=1e-8)


def test_paired_differences_match_raw_results(mixed_run) -> None:
    """Every two entries, first less second: the mean difference and a t interval over the
    per-deal differences (scipy), for wins and points per round."""
    config, results = mixed_run
    report = summarise(config, results, 1.0)
    n_deals = config.games // config.players
    pairs = report.to_dict()["pairs"]
    assert [p["entries"] for p in pairs] == [[0, 1], [0, 2], [1, 2]]
    for p in pairs:
        a, b = p["entries"]
        for key, values in [
            ("win_rate_difference", [g.wins[a] - g.wins[b] for g in results]),
            ("mean_score_difference", [(g.totals[a] - g.totals[b]) / 2 for g in results]),
        ]:
            per_deal = [
                sum(v for g, v in zip(results, values, strict=True) if g.deal == k) / config.players
                for k in range(n_deals)
            ]
            m = sum(per_deal) / n_deals
            assert p[key] == pytest.approx(m)
            se = statistics.stdev(per_deal) / math.sqrt(n_deals)
            lo, hi = scipy_stats.t.interval(0.95, n_deals - 1, loc=m, scale=se)
            if key == "win_rate_difference":  # cut to where a difference of shares lies
                lo, hi = max(lo, -1.0), min(hi, 1.0)
            assert p[key + "_ci95"] == pytest.approx([lo, hi], rel=1e-8)
        entries = report.entries
        assert p["win_rate_difference"] == pytest.approx(entries[a].win_rate - entries[b].win_rate)
        assert p["mean_score_difference"] == pytest.approx(
            entries[a].mean_score - entries[b].mean_score
        )


def test_ratings_match_independent_openskill(mixed_run) -> None:
    from openskill.models import PlackettLuce

    config, results = mixed_run
    report = summarise(config, results, 1.0)
    model = PlackettLuce()
    teams = [[model.rating()] for _ in range(3)]
    for g in results:
        order = sorted(set(g.totals))
        ranks = [float(order.index(t) + 1) for t in g.totals]
        # dense vs competition ranking only differ with ties; use scores (lower is better)
        teams = model.rate(teams, scores=[-float(t) for t in g.totals])
        del ranks
    for e in range(3):
        assert report.entries[e].rating_mu == pytest.approx(teams[e][0].mu, rel=1e-9)
        assert report.entries[e].rating_sigma == pytest.approx(teams[e][0].sigma, rel=1e-9)


def test_single_deal_has_null_mean_interval() -> None:
    report = simulate("classic", 2, ["random", "greedy"], games=2, seed=1, rounds=1, jobs=1)
    for entry in report.to_dict()["entries"]:
        assert entry["mean_score_ci95"] == [None, None]
    (pair,) = report.to_dict()["pairs"]
    assert pair["win_rate_difference_ci95"] == [None, None]
    assert pair["mean_score_difference_ci95"] == [None, None]
    assert "n/a" in report.to_text()
    json.dumps(report.to_dict(), allow_nan=False)  # valid strict JSON


# ---------------------------------------------------------------- CLI: (3) and (5)


def _cli(*args: str, cwd: Path) -> str:
    exe = Path(sys.executable).with_name("mextrain")
    out = subprocess.run(
        [str(exe), "simulate", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=60,
        check=True,
    )
    return out.stdout


BASE = ["--players", "3", "--bots", "random,greedy,planner", "--games", "12", "--rounds", "1"]


def test_cli_reproducible_across_jobs_and_records(tmp_path: Path) -> None:
    r1, r2 = tmp_path / "j1", tmp_path / "j2"
    a = json.loads(
        _cli(*BASE, "--seed", "5", "--jobs", "1", "--json", "--records", str(r1), cwd=tmp_path)
    )
    b = json.loads(
        _cli(*BASE, "--seed", "5", "--jobs", "2", "--json", "--records", str(r2), cwd=tmp_path)
    )
    assert _strip_speed(a) == _strip_speed(b)
    f1 = sorted(p.name for p in r1.iterdir())
    assert f1 == sorted(p.name for p in r2.iterdir())
    assert len(f1) == 12
    for name in f1:
        assert (r1 / name).read_bytes() == (r2 / name).read_bytes()
    c = json.loads(_cli(*BASE, "--seed", "6", "--jobs", "1", "--json", cwd=tmp_path))
    assert _strip_speed(c)["entries"] != _strip_speed(a)["entries"]
    # records agree with the reported wins (ties shared)
    wins = [0.0, 0.0, 0.0]
    for i, name in enumerate(f1):
        rec = json.loads((r1 / name).read_text())
        totals = rec["result"]["totals"]
        best = min(totals)
        w = [s for s, t in enumerate(totals) if t == best]
        entries = seat_entries(3, i % 3)
        assert rec["players"] == [["random", "greedy", "planner"][e] for e in entries]
        for s in w:
            wins[entries[s]] += 1 / len(w)
    assert [e["wins"] for e in a["entries"]] == pytest.approx(wins)


def test_cli_text_matches_json(tmp_path: Path) -> None:
    js = json.loads(_cli(*BASE, "--seed", "9", "--jobs", "1", "--json", cwd=tmp_path))
    text = _cli(*BASE, "--seed", "9", "--jobs", "1", cwd=tmp_path)
    assert "12 games (4 deals x 3 seat rotations), 1 round each, 3 players" in text
    rows = [ln for ln in text.splitlines() if re.match(r"^\s*\d+  [a-z]", ln)]
    assert len(rows) == 3
    for row, entry in zip(rows, js["entries"], strict=True):
        # the wins as they are (whole, or tied shares to three places), then the rest
        wins = float(row.split()[2])
        nums = [float(x) for x in re.findall(r"-?\d+\.\d+", " ".join(row.split()[3:]))]
        rate, wlo, whi, mean, mlo, mhi, mu, sigma = nums
        assert row.split()[1] == entry["bot"]
        assert wins == pytest.approx(entry["wins"], abs=0.0005)
        assert rate == pytest.approx(entry["win_rate"], abs=0.0005)
        assert [wlo, whi] == pytest.approx(entry["win_rate_ci95"], abs=0.0005)
        assert mean == pytest.approx(entry["mean_score"], abs=0.005)
        assert [mlo, mhi] == pytest.approx(entry["mean_score_ci95"], abs=0.005)
        assert mu == pytest.approx(entry["rating"]["mu"], abs=0.005)
        assert sigma == pytest.approx(entry["rating"]["sigma"], abs=0.005)


# ---------------------------------------------------------------- (6) identical bots


def test_identical_bots_get_fair_share() -> None:
    report = simulate("classic", 3, ["random"] * 3, games=300, seed=11, rounds=1, jobs=1)
    total = 0.0
    for e in report.entries:
        lo, hi = e.win_rate_ci95
        assert lo <= 1 / 3 <= hi, (e.win_rate, lo, hi)
        total += e.win_rate
    assert total == pytest.approx(1.0)
    # the three mean scores' intervals overlap the pooled mean
    pooled = sum(e.mean_score for e in report.entries) / 3
    for e in report.entries:
        assert e.mean_score_ci95[0] <= pooled <= e.mean_score_ci95[1]


def test_real_ties_are_split_in_games_and_report() -> None:
    config = _config(("random", "random", "greedy", "random"), games=200, seed=1)
    results = run_games(config, jobs=1)
    tied = [g for g in results if sorted(g.totals)[0] == sorted(g.totals)[1]]
    assert tied, "expected at least one shared win in this run"
    for g in tied:
        best = min(g.totals)
        k = g.totals.count(best)
        assert sorted(g.wins, reverse=True)[:k] == [1 / k] * k
        assert math.fsum(g.wins) == pytest.approx(1.0)
    report = summarise(config, results, 1.0)
    fractional = [e.wins for e in report.entries if e.wins != int(e.wins)]
    assert math.fsum(e.wins for e in report.entries) == pytest.approx(200)
    for e in report.entries:
        assert e.win_rate_ci95 == pytest.approx(ref_wilson(e.wins, 200))
    del fractional


def test_games_must_be_a_multiple_of_players() -> None:
    from mextrain.sim import SimulationError

    with pytest.raises(SimulationError):
        simulate("classic", 3, ["random"] * 3, games=4, seed=1, rounds=1, jobs=1)
