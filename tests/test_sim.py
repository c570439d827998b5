"""The simulator: duplicate deals, seat rotation, determinism, records and the summary."""

from __future__ import annotations

import dataclasses
import importlib.util
import json
import os
import random
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mextrain.bots import BotSpecError, register_bot
from mextrain.records import load_record, replay_record
from mextrain.rules import PASS, Action, Rules, SeatView
from mextrain.sim import (
    GameResult,
    SimConfig,
    SimulationError,
    chunk_games,
    deal_for,
    derive_seed,
    game_rules,
    play_game,
    run_games,
    seat_entries,
    simulate,
    summarise,
)

# Three different entries whose names tell them apart in records.
THREE = ("random", "greedy", "greedy:random_ties=true")


def config(
    bots: tuple[str, ...] = THREE,
    games: int = 6,
    seed: int = 11,
    rounds: int | None = 2,
    preset: str = "classic",
    records: bool = True,
) -> SimConfig:
    rules = game_rules(Rules.preset(preset), rounds)
    return SimConfig(rules, len(bots), bots, games, seed, keep_records=records)


def record_of(result: GameResult) -> dict[str, Any]:
    assert result.record is not None
    doc: dict[str, Any] = json.loads(result.record)
    return doc


# -- rotation and duplicate deals --------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 6, 8])
def test_each_entry_sits_at_every_seat_once_per_deal(players: int) -> None:
    seatings = [seat_entries(players, r) for r in range(players)]
    for entry in range(players):
        seats = sorted(row.index(entry) for row in seatings)
        assert seats == list(range(players))
    for row in seatings:
        assert sorted(row) == list(range(players))
    assert seat_entries(players, 0) == list(range(players))


@pytest.mark.parametrize(("preset", "bots"), [("classic", THREE), ("cardinal", (*THREE, "random"))])
def test_every_rotation_plays_exactly_the_same_deal(preset: str, bots: tuple[str, ...]) -> None:
    cfg = config(bots=bots, games=2 * len(bots), preset=preset)
    results = run_games(cfg)
    n = cfg.players
    by_deal: dict[int, list[dict[str, Any]]] = {}
    for result in results:
        doc = record_of(result)
        # the seats hold the entries of this rotation
        assert doc["players"] == [bots[e] for e in seat_entries(n, result.rotation)]
        assert result.game == result.deal * n + result.rotation
        by_deal.setdefault(result.deal, []).append(doc)
    assert sorted(by_deal) == [0, 1]
    for deal, docs in by_deal.items():
        assert len(docs) == n
        first = docs[0]["rounds"]
        for doc in docs[1:]:
            for a, b in zip(first, doc["rounds"], strict=True):
                assert (a["hands"], a["boneyard"], a["starter"]) == (
                    b["hands"],
                    b["boneyard"],
                    b["starter"],
                )
        # the deal is the one derived from (seed, deal, round), whatever the bots did
        for k, rnd in enumerate(first):
            hands, boneyard, starter = deal_for(cfg.rules, n, cfg.seed, deal, k)
            assert rnd["hands"] == [[str(t) for t in hand] for hand in hands]
            assert rnd["boneyard"] == [str(t) for t in boneyard]
            if starter is not None:
                assert rnd["starter"] == starter
    # and different deals are different
    assert by_deal[0][0]["rounds"][0]["hands"] != by_deal[1][0]["rounds"][0]["hands"]


def test_the_play_differs_between_rotations() -> None:
    results = run_games(config())
    actions = {tuple(r["actions"]) for res in results[:3] for r in record_of(res)["rounds"][:1]}
    assert len(actions) > 1


def test_per_entry_results_follow_the_entry_not_the_seat() -> None:
    cfg = config(games=3)
    for result in run_games(cfg):
        doc = record_of(result)
        entries = seat_entries(cfg.players, result.rotation)
        totals_by_seat = doc["result"]["totals"]
        for seat, entry in enumerate(entries):
            assert result.totals[entry] == totals_by_seat[seat]
        for k, scores in enumerate(doc["result"]["scores"]):
            for seat, entry in enumerate(entries):
                assert result.round_scores[k][entry] == scores[seat]
        best = min(result.totals)
        winners = [e for e, t in enumerate(result.totals) if t == best]
        assert result.wins == tuple(
            1 / len(winners) if e in winners else 0.0 for e in range(cfg.players)
        )


def test_seeds_are_stable_and_distinct() -> None:
    assert derive_seed("deal", 1, 0, 0) == derive_seed("deal", 1, 0, 0)
    assert len({derive_seed("deal", 1, d, k) for d in range(20) for k in range(13)}) == 260
    # fixed forever: records and docs quote results by seed
    assert derive_seed("deal", 0, 0, 0) == derive_seed("deal", "0", "0", "0")
    assert isinstance(derive_seed("x"), int)


# -- determinism -------------------------------------------------------------------------


def test_same_seed_same_results_whatever_the_jobs() -> None:
    cfg = config(games=12, rounds=1)
    one = run_games(cfg, jobs=1)
    two = run_games(cfg, jobs=2)
    assert one == two
    assert [r.game for r in two] == list(range(12))
    a = summarise(cfg, one, 1.0)
    b = summarise(cfg, two, 2.0)
    assert a.entries == b.entries
    other = run_games(dataclasses.replace(cfg, seed=12))
    assert other != one


def test_simulate_reports_the_same_statistics_for_any_jobs(tmp_path: Path) -> None:
    kwargs: dict[str, Any] = {"rounds": 1, "records": None}
    a = simulate("classic", 2, ["greedy", "random"], 8, 5, jobs=1, **kwargs)
    b = simulate("classic", 2, ["greedy", "random"], 8, 5, jobs=2, **kwargs)
    assert a.to_dict()["entries"] == b.to_dict()["entries"]


def test_chunks_cover_every_game_once() -> None:
    for games in (1, 2, 7, 60, 1001):
        for jobs in (1, 2, 3, 8):
            chunks = chunk_games(games, jobs)
            assert [g for c in chunks for g in c] == list(range(games))


# -- records -----------------------------------------------------------------------------


def test_saved_records_replay_legally(tmp_path: Path) -> None:
    report = simulate("classic", 3, list(THREE), 3, 2, rounds=2, records=tmp_path)
    files = sorted(tmp_path.glob("game-*.json"))
    assert [f.name for f in files] == ["game-000000.json", "game-000001.json", "game-000002.json"]
    wins = [0.0, 0.0, 0.0]
    for rotation, path in enumerate(files):
        replayed = replay_record(load_record(path.read_text(encoding="utf-8")))
        assert replayed.complete
        assert len(replayed.rounds) == 2
        entries = seat_entries(3, rotation)
        for seat in replayed.winners:
            wins[entries[seat]] += 1 / len(replayed.winners)
    assert [e.wins for e in report.entries] == pytest.approx(wins)


def test_full_match_records_replay_legally() -> None:
    cfg = config(bots=("greedy", "random"), games=2, rounds=None)
    for result in run_games(cfg):
        assert result.record is not None
        replayed = replay_record(load_record(result.record))
        assert replayed.complete
        assert len(replayed.rounds) == 13


# -- checks and errors -------------------------------------------------------------------


def test_rounds_take_the_first_engines() -> None:
    rules = Rules.preset("classic")
    assert game_rules(rules, None) is rules
    assert game_rules(rules, 13) is rules
    assert game_rules(rules, 3).rounds == (12, 11, 10)
    short = Rules.preset("classic", rounds=[0, 5, 9])
    assert game_rules(short, 2).rounds == (0, 5)
    with pytest.raises(SimulationError, match="from 1 to 13"):
        game_rules(rules, 14)


@pytest.mark.parametrize(
    ("bots", "games", "message"),
    [
        (("random",), 2, "2 players need 2 bot entries"),
        (("random", "random"), 3, "multiple of 2: try 2 or 4"),
        (("random", "random"), 1, "multiple of 2: try 2"),
        (("random", "nosuch"), 2, "unknown bot 'nosuch'"),
    ],
)
def test_jobs_that_cannot_run_are_refused(bots: tuple[str, ...], games: int, message: str) -> None:
    cfg = SimConfig(Rules.preset("classic"), 2, bots, games, 0)
    with pytest.raises((SimulationError, BotSpecError), match=message):
        cfg.check()


def test_unsupported_player_count_is_refused() -> None:
    with pytest.raises(ValueError, match="4 to 10 players"):
        simulate("cardinal", 2, ["random", "random"], 2, 0)


class PassingBot:
    """Always passes: illegal whenever it has a play."""

    name = "always-pass"

    def act(self, view: SeatView, rng: random.Random) -> Action:
        return PASS


register_bot("always-pass", PassingBot)


def test_an_illegal_bot_move_stops_the_job_with_its_name() -> None:
    cfg = SimConfig(Rules.preset("classic"), 2, ("always-pass", "random"), 2, 0)
    with pytest.raises(SimulationError, match=r"bot 'always-pass' at seat \d .* can't pass"):
        play_game(cfg, 0)


@pytest.mark.parametrize(
    ("bots", "seed", "word"),
    [("greedy,random", 1, "not the string 'greedy,random'"), (["greedy", "random"], 1.5, "1.5")],
)
def test_simulate_refuses_a_bot_string_and_a_fractional_seed(
    bots: Any, seed: Any, word: str
) -> None:
    with pytest.raises(SimulationError, match=re.escape(word)):
        simulate("classic", 2, bots, games=2, seed=seed, rounds=1)


class NoneBot:
    """Returns no action at all (its type hint binds nothing at run time)."""

    name = "says-none"

    def act(self, view: SeatView, rng: random.Random) -> Action:
        return None  # type: ignore[return-value]


register_bot("says-none", NoneBot)


def test_a_bot_that_returns_no_action_stops_the_job_with_its_name() -> None:
    # (workers run the same `play_game`; a bot registered here is unknown to them)
    with pytest.raises(
        SimulationError,
        match=r"bot 'says-none' at seat \d \(game \d, round 0\) chose None, which is not an action",
    ):
        simulate("classic", 2, ["says-none", "random"], games=2, seed=1, rounds=1)


class FailingBot:
    """Breaks on its first decision, as a bot with a bug would."""

    name = "breaks"

    def act(self, view: SeatView, rng: random.Random) -> Action:
        raise KeyError("no such train")


register_bot("breaks", FailingBot)


def test_a_bot_that_fails_stops_the_job_saying_where() -> None:
    cfg = SimConfig(Rules.preset("classic"), 2, ("random", "breaks"), 2, 0)
    with pytest.raises(
        SimulationError,
        match=r"bot 'breaks' at seat \d \(game 0, round 0\) failed: KeyError: 'no such train'$",
    ) as info:
        play_game(cfg, 0)
    assert isinstance(info.value.__cause__, KeyError)


class FailsSilently:
    """Raises an exception without a message."""

    name = "fails-silently"

    def act(self, view: SeatView, rng: random.Random) -> Action:
        raise AssertionError


register_bot("fails-silently", FailsSilently)


def test_a_bot_that_fails_without_a_message_is_named_by_its_exception() -> None:
    cfg = SimConfig(Rules.preset("classic"), 2, ("random", "fails-silently"), 2, 0)
    with pytest.raises(SimulationError, match=r"\(game 0, round 0\) failed: AssertionError$"):
        play_game(cfg, 0)


def test_the_speed_figures_time_the_games_not_the_workers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import mextrain.sim as sim

    def timed(config: SimConfig, **_: Any) -> list[GameResult]:
        # two games played 3 s apart, each 1 s long, in a job that took far longer
        played = [play_game(config, g) for g in range(config.games)]
        return [
            dataclasses.replace(r, started=1000.0 + 3 * r.game, finished=1001.0 + 3 * r.game)
            for r in played
        ]

    monkeypatch.setattr(sim, "run_games", timed)
    report = simulate("classic", 2, ["random", "greedy"], games=2, seed=1, rounds=1)
    assert report.seconds == pytest.approx(4.0)
    real = run_games(
        SimConfig(game_rules(Rules.preset("classic"), 1), 2, ("random", "random"), 2, 3)
    )
    assert all(0 < r.started <= r.finished for r in real)
    assert real[0] == dataclasses.replace(real[0], started=0.0, finished=0.0)  # not its value


def test_the_text_report_counts_in_words_and_keeps_long_bot_names_in_columns() -> None:
    long_spec = "ismcts:iterations=2,policy=planner,depth=4"
    report = simulate("classic", 2, [long_spec, "random"], games=2, seed=1, rounds=2)
    text = report.to_text()
    assert text.startswith("2 games (1 deal x 2 seat rotations), 2 rounds each, 2 players")
    rows = [line for line in text.splitlines() if re.match(r"^ ?\d  ", line)]
    assert [row.split()[1] for row in rows] == [long_spec, "random"]
    assert len({row.index(" [") for row in rows}) == 1  # the interval columns line up
    spec = {"preset": "classic", "double_blank_points": 50}
    custom = simulate(spec, 2, ["random", "random"], games=2, seed=1, rounds=1).to_text()
    assert "rules {" + '"preset": "classic"' in custom  # JSON, not a Python dict


def test_the_text_table_fits_a_terminal_of_80_columns_for_short_bot_names() -> None:
    # the columns were as wide as a long spec needs (about 108 in all) whatever the bots
    report = simulate("classic", 4, ["planner", "greedy", "random", "racer"], games=4, seed=2)
    text = report.to_text()
    table = text.splitlines()[2:7]
    assert table[0].split()[:3] == ["#", "bot", "wins"]
    assert max(map(len, table)) <= 80, table
    assert len({row.index(" [") for row in table[1:]}) == 1  # the intervals line up
    assert [row.split()[1] for row in table[1:]] == ["planner", "greedy", "random", "racer"]


def test_the_report_shows_the_rules_played_with_the_rounds_asked_for(tmp_path: Path) -> None:
    # the rules as given said 5 rounds; 2 were played, as the records and rounds_per_game say
    spec = {"preset": "classic", "rounds": 5}
    out = tmp_path / "records"
    report = simulate(spec, 2, ["random", "random"], games=2, seed=1, rounds=2, records=out)
    played = {"preset": "classic", "rounds": 2}
    assert report.rules == report.to_dict()["rules"] == played
    assert report.rounds_per_game == 2
    assert 'rules {"preset": "classic", "rounds": 2}' in report.to_text()
    for path in sorted(out.glob("game-*.json")):
        assert json.loads(path.read_text(encoding="utf-8"))["rules"] == played
    # all the rounds asked for: the rules as given
    assert simulate(spec, 2, ["random", "random"], games=2, seed=1, rounds=5).rules == spec


# -- the summary -------------------------------------------------------------------------


def fake(game: int, totals: tuple[int, ...], players: int) -> GameResult:
    best = min(totals)
    winners = [e for e, t in enumerate(totals) if t == best]
    return GameResult(
        game=game,
        deal=game // players,
        rotation=game % players,
        totals=totals,
        round_scores=(totals,),
        wins=tuple(1 / len(winners) if e in winners else 0.0 for e in range(players)),
        actions=10,
    )


def test_a_summary_of_games_short_of_whole_deals_is_refused() -> None:
    """The statistics are per deal, each played once per rotation: five games of two
    seats leave a deal half played (its hands seen from one side only), which the
    command line refuses and the Python API scored as if fair."""
    cfg = SimConfig(game_rules(Rules.preset("classic"), 1), 2, ("a", "b"), 5, 0)
    results = [fake(g, (g, 10), 2) for g in range(5)]
    with pytest.raises(ValueError, match="multiple of 2"):
        summarise(cfg, results, seconds=1.0)


def test_summary_splits_shared_wins_and_ranks_ratings() -> None:
    cfg = SimConfig(game_rules(Rules.preset("classic"), 1), 2, ("a", "b"), 6, 0)
    results = [
        fake(0, (10, 20), 2),
        fake(1, (5, 5), 2),
        fake(2, (0, 30), 2),
        fake(3, (12, 40), 2),
        fake(4, (30, 3), 2),
        fake(5, (1, 9), 2),
    ]
    report = summarise(cfg, results, seconds=2.0)
    a, b = report.entries
    assert a.wins == 4.5
    assert b.wins == 1.5
    assert a.win_rate == pytest.approx(0.75)
    assert a.win_rate_ci95 == pytest.approx((0.364823, 0.940010), abs=1e-6)
    # mean score per round, t interval over deals: a's deal means are 7.5, 6 and 15.5
    assert a.mean_score == pytest.approx((10 + 5 + 0 + 12 + 30 + 1) / 6)
    # (the t interval reaches -3.020283; no entry scores below 0, so it is cut there)
    assert a.mean_score_ci95 == pytest.approx((0.0, 22.353616), abs=1e-6)
    assert a.rating_mu > 25 > b.rating_mu
    assert report.rounds == 6
    assert report.actions == 60
    assert report.rounds_per_second == 3.0
    assert report.actions_per_second == 30.0


def test_tied_totals_share_a_rank_in_the_rating() -> None:
    from openskill.models import PlackettLuce

    # entries 0 and 1 tie in every game (for the win, then behind entry 2): alike in
    # every game, they must end alike, where ranks 1, 2, 3 would set them apart
    cfg = SimConfig(game_rules(Rules.preset("classic"), 1), 3, ("a", "b", "c"), 6, 0)
    totals = [(5, 5, 9), (5, 5, 9), (5, 5, 9), (8, 8, 2), (8, 8, 2), (8, 8, 2)]
    report = summarise(cfg, [fake(g, t, 3) for g, t in enumerate(totals)], seconds=1.0)
    a, b, _ = report.entries
    assert (a.rating_mu, a.rating_sigma) == (b.rating_mu, b.rating_sigma)
    # and they are what openskill gives for the ties themselves, lower totals first
    model = PlackettLuce()
    teams = [[model.rating()] for _ in range(3)]
    for t in totals:
        teams = model.rate(teams, ranks=[1.0, 1.0, 3.0] if t[0] < t[2] else [2.0, 2.0, 1.0])
    for entry, team in zip(report.entries, teams, strict=True):
        assert entry.rating_mu == pytest.approx(team[0].mu, rel=1e-12)
        assert entry.rating_sigma == pytest.approx(team[0].sigma, rel=1e-12)


def test_the_text_table_shows_split_wins_unrounded() -> None:
    # 4-way, 3-way and 2-way ties: 0.25 must not read "0.2", nor 25/12 "2.1"
    cfg = SimConfig(game_rules(Rules.preset("classic"), 1), 4, ("a", "b", "c", "d"), 4, 0)
    results = [
        fake(0, (1, 1, 1, 9), 4),
        fake(1, (0, 3, 3, 3), 4),
        fake(2, (2, 2, 2, 2), 4),
        fake(3, (0, 0, 5, 5), 4),
    ]
    report = summarise(cfg, results, seconds=1.0)
    assert [e.wins for e in report.entries] == pytest.approx([25 / 12, 13 / 12, 7 / 12, 0.25])
    shown = [line.split()[2] for line in report.to_text().splitlines()[3:7]]
    assert shown == ["2.083", "1.083", "0.583", "0.25"]
    assert sum(map(float, shown)) == pytest.approx(4, abs=0.002)


def test_the_text_shows_paired_differences_every_pair_for_a_few_entries() -> None:
    cfg = SimConfig(game_rules(Rules.preset("classic"), 1), 2, ("a", "b"), 6, 0)
    results = [fake(g, totals, 2) for g, totals in enumerate([(0, 9)] * 3 + [(4, 2)] * 3)]
    report = summarise(cfg, results, seconds=1.0)
    (pair,) = report.pairs
    # deals of two games: (0, 9) twice, a wins both (+1, -9 points); (0, 9) and (4, 2),
    # one each (0, -3.5); (4, 2) twice, b wins both (-1, +2)
    assert pair.win_rate_difference == pytest.approx((1 + 0 - 1) / 3)
    assert pair.mean_score_difference == pytest.approx((-9 - 3.5 + 2) / 3)
    text = report.to_text()
    assert "Paired differences on the same deals (first less second):" in text
    assert "   0-1     +0.000" in text
    # four entries: still every pair, in order
    cfg = SimConfig(game_rules(Rules.preset("classic"), 1), 4, tuple("abcd"), 4, 0)
    report = summarise(cfg, [fake(g, (g, 1, 2, 3), 4) for g in range(4)], seconds=1.0)
    text = report.to_text()
    assert "Paired differences on the same deals (first less second):" in text
    shown = [line.split()[0] for line in text.splitlines() if re.match(r"^ +\d-\d ", line)]
    assert shown == ["0-1", "0-2", "0-3", "1-2", "1-3", "2-3"]
    # five entries: entry 0 against each other in the text, every pair in the JSON
    cfg = SimConfig(game_rules(Rules.preset("classic"), 1), 5, tuple("abcde"), 5, 0)
    report = summarise(cfg, [fake(g, (g, 1, 2, 3, 4), 5) for g in range(5)], seconds=1.0)
    assert len(report.to_dict()["pairs"]) == 10
    text = report.to_text()
    assert "entry 0 less each other (--json has every pair)" in text
    assert "   0-4 " in text
    assert "   1-2 " not in text
    assert text.count("n/a") == 4 * 2 + 5  # one deal: no interval anywhere


def test_two_entries_that_never_win_have_no_win_difference_interval() -> None:
    # entry 2 wins every game: entries 0 and 1 differ by 0 wins in both deals, but not
    # because they play alike (their points differ); [0, 0] would read as certainty
    cfg = SimConfig(game_rules(Rules.preset("classic"), 1), 3, ("a", "b", "c"), 6, 0)
    totals = [(5, 7, 0), (6, 4, 1), (9, 3, 2), (8, 8, 0), (2, 9, 1), (7, 1, 0)]
    report = summarise(cfg, [fake(g, t, 3) for g, t in enumerate(totals)], seconds=1.0)
    pair = report.to_dict()["pairs"][0]
    assert pair["entries"] == [0, 1]
    assert pair["win_rate_difference"] == 0.0
    assert pair["win_rate_difference_ci95"] == [None, None]
    assert None not in pair["mean_score_difference_ci95"]
    # entries with the same wins and points in every deal (as two bots that play alike
    # give on duplicate deals): exactly 0, [0, 0]
    totals = [(5, 5, 0), (6, 6, 1), (9, 9, 2), (8, 8, 0), (2, 2, 1), (7, 7, 0)]
    report = summarise(cfg, [fake(g, t, 3) for g, t in enumerate(totals)], seconds=1.0)
    pair = report.to_dict()["pairs"][0]
    assert pair["win_rate_difference_ci95"] == [0.0, 0.0]
    assert pair["mean_score_difference_ci95"] == [0.0, 0.0]


def test_no_measured_time_gives_no_speed_not_infinity() -> None:
    # the wall clock can step back between a run's first and last game
    cfg = SimConfig(game_rules(Rules.preset("classic"), 1), 2, ("a", "b"), 2, 0)
    report = summarise(cfg, [fake(0, (1, 2), 2), fake(1, (3, 0), 2)], seconds=-0.5)
    doc = report.to_dict()
    assert doc["rounds_per_second"] is None
    assert doc["actions_per_second"] is None
    json.dumps(doc, allow_nan=False)  # valid JSON: no Infinity
    assert "no time measured" in report.to_text()


@settings(max_examples=25)
@given(
    preset=st.sampled_from(["classic", "relaxed", "cardinal"]),
    players=st.integers(2, 6),
    seed=st.integers(0, 2**63 - 1),
)
def test_every_game_adds_up(preset: str, players: int, seed: int) -> None:
    rules = Rules.preset(preset)
    if not rules.allows_players(players):
        players = rules.players[0]
    bots = tuple(["greedy", "random"] * players)[:players]
    cfg = SimConfig(game_rules(rules, 1), players, bots, players, seed)
    for result in run_games(cfg):
        assert sum(result.wins) == pytest.approx(1.0)
        assert result.totals == tuple(map(sum, zip(*result.round_scores, strict=True)))
        assert min(result.totals) == min(
            t for t, w in zip(result.totals, result.wins, strict=True) if w
        )
        assert result.actions > 0


# -- records saved as games finish; jobs that stop --------------------------------------


class BreaksLate:
    """Plays as `random` until the job's 5th game (game 4), then fails: a bug met late."""

    name = "breaks-late"
    games_seen = 0  # games in which it was asked to move, in this process

    def __init__(self) -> None:
        self.asked = False

    def act(self, view: SeatView, rng: random.Random) -> Action:
        if not self.asked:
            self.asked = True
            BreaksLate.games_seen += 1
        if BreaksLate.games_seen > 3:
            raise RuntimeError("a bug met late")
        return rng.choice(view.legal_actions)


register_bot("breaks-late", BreaksLate)


def test_a_job_that_stops_keeps_the_records_of_the_games_it_finished(tmp_path: Path) -> None:
    BreaksLate.games_seen = 0
    out = tmp_path / "records"
    with pytest.raises(SimulationError, match="a bug met late"):
        # the 4th game fails: without records kept, in the chunk of games 2 and 3
        simulate("classic", 2, ["breaks-late", "random"], games=8, seed=1, rounds=1, records=out)
    names = sorted(p.name for p in out.iterdir())
    assert names == [f"game-00000{g}.json" for g in range(3)]  # every one finished, whole
    for path in out.iterdir():
        assert replay_record(load_record(path.read_text(encoding="utf-8"))).complete


def test_records_go_back_game_by_game_and_other_jobs_in_chunks() -> None:
    from mextrain.sim.backends import _chunk_most

    keeping = config(games=12, records=True)
    assert _chunk_most(keeping) == 1
    assert chunk_games(12, 1, most=_chunk_most(keeping)) == [range(g, g + 1) for g in range(12)]
    assert _chunk_most(config(games=12, records=False)) is None
    assert chunk_games(12, 1) == [range(0, 3), range(3, 6), range(6, 9), range(9, 12)]
    seen: list[int] = []
    run_games(keeping, jobs=1, sink=lambda batch: seen.extend(r.game for r in batch))
    assert seen == list(range(12))


def test_a_record_never_overwrites_another_runs(tmp_path: Path) -> None:
    from mextrain.sim import write_record

    first = play_game(config(games=3), 0)
    write_record(first, tmp_path, 3)
    saved = (tmp_path / "game-000000.json").read_bytes()
    other = play_game(config(games=3, seed=99), 0)
    with pytest.raises(SimulationError, match=r"already holds game-000000\.json"):
        write_record(other, tmp_path, 3)
    assert (tmp_path / "game-000000.json").read_bytes() == saved
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game-000000.json"]  # no part left


def test_the_library_takes_numpy_integers_as_the_numbers_they_are() -> None:
    import numpy as np

    report = simulate(
        "classic",
        np.int64(2),  # type: ignore[arg-type]
        ["random", "random"],
        games=np.int64(2),  # type: ignore[arg-type]
        seed=np.int64(1),  # type: ignore[arg-type]
        rounds=np.int64(1),  # type: ignore[arg-type]
        jobs=np.int64(1),  # type: ignore[arg-type]
    )
    plain = simulate("classic", 2, ["random", "random"], games=2, seed=1, rounds=1, jobs=1)
    assert report.to_dict()["entries"] == plain.to_dict()["entries"]
    with pytest.raises(SimulationError, match="players must be a whole number"):
        simulate("classic", np.bool_(True), ["random", "random"], games=2, seed=1)  # type: ignore[arg-type]


def test_the_library_refuses_a_records_directory_before_any_game(tmp_path: Path) -> None:
    out = tmp_path / "used"
    out.mkdir()
    (out / "game-000000.json").write_text("{}")
    with pytest.raises(SimulationError, match="already holds game records"):
        simulate("classic", 2, ["breaks", "random"], games=2, seed=1, rounds=1, records=out)
    # a path in text is a path
    fresh = tmp_path / "fresh"
    simulate("classic", 2, ["random", "random"], games=2, seed=1, rounds=1, records=str(fresh))
    assert sorted(p.name for p in fresh.iterdir()) == ["game-000000.json", "game-000001.json"]


def test_a_directory_that_cannot_be_written_in_is_refused_before_any_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import errno
    import tempfile

    import mextrain.sim as sim

    def read_only(*args: Any, **kwargs: Any) -> Any:
        raise OSError(errno.EROFS, "Read-only file system")

    there = tmp_path / "there"
    there.mkdir()
    monkeypatch.setattr(tempfile, "TemporaryFile", read_only)
    for path in (there, there / "new" / "deeper"):
        with pytest.raises(OSError, match="Read-only"):
            simulate("classic", 2, ["breaks", "random"], games=2, seed=1, rounds=1, records=path)
        with pytest.raises(OSError, match="Read-only"):
            sim.prepare_records_dir(path, make=False)
    assert list(there.iterdir()) == []


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root writes anyway")
def test_a_directory_without_write_permission_is_refused(tmp_path: Path) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o555)
    try:
        with pytest.raises(PermissionError):
            simulate("classic", 2, ["breaks", "random"], games=2, seed=1, rounds=1, records=locked)
    finally:
        locked.chmod(0o755)


HALF_A_RESULT = """
import multiprocessing, os, struct, time
from concurrent.futures import ProcessPoolExecutor
from mextrain.sim.backends import _stop_now

if __name__ == "__main__":
    pool = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"))
    busy = pool.submit(time.sleep, 600)
    while not busy.running():
        time.sleep(0.01)
    time.sleep(0.5)  # (the worker is up and playing)
    # what a worker ended while sending its result back leaves in the pipe: a message's
    # length, and only the start of the message
    os.write(pool._result_queue._writer.fileno(), struct.pack("!i", 100_000) + b"x" * 10)
    time.sleep(0.5)  # (the pool's thread has read the length and waits for the rest)
    _stop_now(pool)
    print("stopped", flush=True)
"""


def test_a_pool_stopped_while_a_result_was_half_sent_lets_the_process_end(
    tmp_path: Path,
) -> None:
    """A worker ended while it sent a result back (a game's record is tens of kilobytes)
    left half a message in the pipe: the pool's thread waited for the rest for ever, and
    the process hung at exit, where Python joins that thread (`mextrain simulate` after a
    SIGTERM, about once in 150). Run in a process of its own: it must end."""
    import subprocess
    import sys

    script = tmp_path / "half_a_result.py"
    script.write_text(HALF_A_RESULT)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    proc = subprocess.Popen(
        [sys.executable, str(script)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        out, err = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
        pytest.fail(f"the process hung at exit after the pool stopped: {out!r} {err[-2000:]!r}")
    assert out.strip() == "stopped", err
    assert proc.returncode == 0, err


def test_a_pool_that_must_stop_ends_its_workers_at_once() -> None:
    import multiprocessing
    import time
    from concurrent.futures import ProcessPoolExecutor

    from mextrain.sim.backends import _stop_now

    pool = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"))
    busy = pool.submit(time.sleep, 600)
    queued = [pool.submit(time.sleep, 600) for _ in range(3)]
    while not busy.running():
        time.sleep(0.01)
    workers = list((pool._processes or {}).values())
    _stop_now(pool)
    # ended mid-chunk, not after it: a plain shutdown would wait out the 600 s (the pool's
    # own thread may reap a worker first, so its state is read from the system)
    assert workers
    for worker in workers:
        assert _ends_soon(worker.pid), worker
    # and nothing queued was played: each was cancelled, or broke with the pool
    for future in queued:
        assert future.cancelled() or future.exception(timeout=30) is not None


def _ends_soon(pid: int | None, within: float = 30.0) -> bool:
    """Whether process ``pid`` is gone (or a zombie, dead but not yet reaped) within
    ``within`` seconds."""
    import time

    stat = Path(f"/proc/{pid}/stat")
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            state = stat.read_text().rsplit(")", 1)[1].split()[0]
        except (FileNotFoundError, ProcessLookupError):
            return True
        if state in ("Z", "X"):
            return True
        time.sleep(0.05)
    return False


def test_jobs_past_what_the_machine_can_use_are_refused() -> None:
    from mextrain.sim import check_job, max_jobs

    rules = Rules.preset("classic")
    check_job(rules, 2, ["random", "random"], 2, 1, jobs=max_jobs())
    with pytest.raises(SimulationError, match=f"at most {max_jobs()} "):
        check_job(rules, 2, ["random", "random"], 2, 1, jobs=max_jobs() + 1)
    # a cluster's own CPUs are its business, named by --address or by RAY_ADDRESS
    check_job(rules, 2, ["random", "random"], 2, 1, jobs=1000, backend="ray", address="h:1")
    os.environ["RAY_ADDRESS"] = "h:1"
    try:
        check_job(rules, 2, ["random", "random"], 2, 1, jobs=1000, backend="ray")
        with pytest.raises(SimulationError, match="more processes"):
            check_job(rules, 2, ["random", "random"], 2, 1, jobs=1000)  # (the pool is here)
    finally:
        del os.environ["RAY_ADDRESS"]


def test_check_job_refuses_a_cluster_address_of_no_shape(monkeypatch: pytest.MonkeyPatch) -> None:
    """``check_job(..., backend="ray", address="bogus")`` returned a job that `simulate`
    then refused: BOTS.md says it checks a job as `simulate` would. The address's shape is
    checked there, with the argument (or RAY_ADDRESS) named; no cluster is asked."""
    from mextrain.sim import check_job

    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    rules = Rules.preset("classic")
    job = (rules, 2, ["random", "random"], 2, 1)
    with pytest.raises(SimulationError) as info:
        check_job(*job, backend="ray", address="bogus")
    assert str(info.value) == "address is written HOST:PORT, ray://HOST:PORT or auto, not 'bogus'"
    assert (info.value.parameter, info.value.option) == ("address", "--address")
    # a shape that reads is not asked after: nothing answers at port 1
    check_job(*job, backend="ray", address="127.0.0.1:1")
    check_job(*job, backend="ray", address="ray://127.0.0.1:1")
    check_job(*job, backend="ray", address="auto")
    monkeypatch.setenv("RAY_ADDRESS", "http://h:1")
    with pytest.raises(SimulationError) as info:
        check_job(*job, backend="ray")
    assert str(info.value).startswith("RAY_ADDRESS is written HOST:PORT, ray://HOST:PORT")
    assert (info.value.parameter, info.value.option) == (None, None)
    check_job(*job)  # (the process pool: no cluster, whatever the variable says)


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"players": "2"}, "players must be a whole number"),
        ({"games": 2.0}, "games must be a whole number"),
        ({"jobs": 1.5}, "jobs must be a whole number"),
        ({"bots": ["greedy", 5]}, "each bot is a spec in text"),
        ({"rounds": 1.0}, "rounds must be a whole number"),
        ({"backend": "threads"}, "unknown backend 'threads'"),
        ({"address": "h:1"}, "an address is for the ray backend"),
    ],
)
def test_the_library_refuses_bad_arguments_in_words(kwargs: dict[str, Any], words: str) -> None:
    job: dict[str, Any] = {"players": 2, "bots": ["random", "random"], "games": 2, "seed": 1}
    with pytest.raises(SimulationError, match=re.escape(words)):
        simulate("classic", **(job | kwargs))


def test_the_library_names_its_arguments_not_the_command_s_options() -> None:
    """``simulate(rounds=99)`` said "--rounds must be ...", and ``jobs=`` too many "--jobs
    N is ...": options a Python caller never wrote. The words name the arguments; the
    command line names its options (`mextrain.cli.simulate`)."""
    from mextrain.sim import check_job, max_jobs

    job: dict[str, Any] = {"players": 2, "bots": ["random", "random"], "games": 2, "seed": 1}
    for kwargs, said, parameter, option in [
        (
            {"rounds": 99},
            "rounds must be from 1 to 13 for these rules, not 99",
            "rounds",
            "--rounds",
        ),
        ({"jobs": 0}, "jobs must be at least 1, not 0", "jobs", "--jobs"),
        (
            {"jobs": max_jobs() + 1},
            f"jobs={max_jobs() + 1} is more processes than",
            "jobs",
            "--jobs",
        ),
    ]:
        for call in (simulate, check_job):
            with pytest.raises(SimulationError) as caught:
                call("classic", **(job | kwargs))
            assert str(caught.value).startswith(said), str(caught.value)
            assert "--" not in str(caught.value)
            # (for the command line: the option it names instead, and --json's "option")
            assert (caught.value.parameter, caught.value.option) == (parameter, option)


class FirstLegal:
    name = "sim-test-first-legal"

    def act(self, view: SeatView, rng: random.Random) -> Action:
        return view.legal_actions[0]


register_bot("sim-test-first-legal", FirstLegal)


def test_a_bot_registered_elsewhere_names_its_module_for_the_workers() -> None:
    from mextrain.bots import bot_module
    from mextrain.sim import check_job

    assert bot_module("sim-test-first-legal") == __name__
    assert bot_module("planner:search=memo") is None  # built in
    assert bot_module("nosuch") is None
    # the module that registered it, whatever the factory: a built-in class, a partial
    import functools

    from mextrain.bots.simple import GreedyBot

    register_bot("sim-test-greedy", GreedyBot)
    register_bot("sim-test-partial", functools.partial(GreedyBot, random_ties=True))
    assert bot_module("sim-test-greedy") == __name__
    assert bot_module("sim-test-partial") == __name__
    job = check_job(Rules.preset("classic"), 2, ["sim-test-first-legal", "planner"], 2, 1, rounds=1)
    assert job.imports == (__name__,)
    # a module not to be found is no failure of its own: the bot may be registered anyway
    # (here, in this process), and making it says so if not
    odd = dataclasses.replace(job, imports=("no_such_module_here",))
    assert run_games(odd) == run_games(job)
    unknown = dataclasses.replace(
        job, bots=("no-such-bot", "planner"), imports=("no_such_module_here",)
    )
    with pytest.raises(BotSpecError, match="unknown bot 'no-such-bot'") as caught:
        run_games(unknown)
    # and why it may be unknown there: the registering module could not be imported
    assert "could not import" in str(caught.value)
    assert "No module named 'no_such_module_here'" in str(caught.value)
    assert caught.value.code == "unknown_bot"


SCRIPT = """
import random
import sys

from mextrain.bots import BotSpecError, register_bot
from mextrain.sim import simulate


class FirstLegal:
    name = "fl"

    def act(self, view, rng):
        return view.legal_actions[0]


if __name__ == "__main__":
    register_bot("fl", FirstLegal)  # in this process alone: the workers skip it
    jobs = int(sys.argv[1])
    try:
        report = simulate("classic", 2, ["fl", "random"], games=4, seed=1, rounds=1, jobs=jobs)
    except BotSpecError as err:
        print(f"{err.code}: {err}")
    else:
        print("played", report.games)
"""


def test_a_bot_registered_under_the_main_guard_is_said_unknown_to_the_workers_and_why(
    tmp_path: Path,
) -> None:
    import subprocess
    import sys

    script = tmp_path / "main_guard_bot.py"
    script.write_text(SCRIPT, encoding="utf-8")

    def run(jobs: int) -> str:
        done = subprocess.run(
            [sys.executable, str(script), str(jobs)],
            capture_output=True,
            text=True,
            timeout=120,
            check=True,
        )
        return done.stdout.strip()

    said = run(2)  # two spawned workers, which never run the guarded registration
    assert said.startswith(
        "unknown_bot: unknown bot 'fl' in the worker processes, though "
        "registered in this one (by __main__)"
    ), said
    assert "register it at the top level of a module" in said
    assert "or use jobs=1" in said
    assert run(1) == "played 4"  # in this process, where it is registered


def test_a_workers_unknown_bot_is_explained_only_for_a_bot_known_here() -> None:
    from mextrain.sim.backends import _unknown_in_workers

    job = SimConfig(Rules.preset("classic", rounds=1), 2, ("sim-test-first-legal", "zz"), 2, 1)

    def unknown(name: str) -> BotSpecError:
        return BotSpecError(f"unknown bot {name!r}", code="unknown_bot", name=repr(name), known="")

    on_ray = _unknown_in_workers(unknown("sim-test-first-legal"), job, "ray")
    assert f"registered in this one (by {__name__})" in str(on_ray)
    assert "a module the nodes can import (not the script you run)" in str(on_ray)
    assert (on_ray.code, on_ray.params["name"]) == ("unknown_bot", "'sim-test-first-legal'")
    for other in (unknown("zz"), BotSpecError("bad", code="twice")):  # unknown here too
        assert _unknown_in_workers(other, job, "process") is other


def test_rays_lines_go_to_standard_error_while_it_runs(capfd: pytest.CaptureFixture[str]) -> None:
    import sys

    from mextrain.sim.backends import _stdout_to_stderr

    print("before", flush=True)
    with _stdout_to_stderr():
        os.write(1, b"a raylet's warning\n")
        print("a worker's line", flush=True)
    print("after", flush=True)
    sys.stdout.flush()
    out, err = capfd.readouterr()
    assert out == "before\nafter\n"
    assert "a raylet's warning" in err
    assert "a worker's line" in err


@pytest.mark.parametrize(
    ("address", "said"),
    [
        ("bogus", "address is written HOST:PORT, ray://HOST:PORT or auto, not 'bogus'"),
        ("http://h:1", "address is written HOST:PORT, ray://HOST:PORT or auto, not 'http://h:1'"),
        ("127.0.0.1:1", "start one with `ray start --head`, or leave out address for a local Ray"),
    ],
)
def test_the_library_names_its_address_argument_not_the_command_s_option(
    monkeypatch: pytest.MonkeyPatch, address: str, said: str
) -> None:
    """``simulate(backend="ray", address="bogus")`` said "--address is written ...", an
    option a Python caller never wrote: the words name the argument, and the error has it
    as ``parameter`` (the command's option as ``option``), as for ``rounds`` and ``jobs``."""
    from mextrain.sim import check_cluster
    from mextrain.sim.backends import _on_ray

    monkeypatch.delenv("RAY_ADDRESS", raising=False)

    class NoRay:  # (the address is checked before Ray is asked anything)
        @staticmethod
        def is_initialized() -> bool:
            return False

        @staticmethod
        def init(**options: Any) -> None:
            raise AssertionError("Ray started for an address that was refused")

    cfg = SimConfig(Rules.preset("classic"), 2, ("random", "random"), 2, 1)
    refusals = []
    for call in (
        lambda: _on_ray(NoRay, cfg, 2, address, lambda batch: None),
        lambda: check_cluster(address, timeout=5),
    ):
        with pytest.raises(SimulationError) as info:
            call()
        refusals.append(info.value)
    if importlib.util.find_spec("ray") is not None:
        with pytest.raises(SimulationError) as info:
            simulate("classic", 2, ["random", "random"], 2, 1, backend="ray", address=address)
        refusals.append(info.value)
    for err in refusals:
        assert said in str(err), str(err)
        assert "--address" not in str(err)
        assert err.parameter == "address"
        assert err.option == "--address"
    # the command says its option (tests/test_cli_simulate.py), the variable itself
    with pytest.raises(SimulationError, match=r"^--address is written") as info:
        check_cluster("bogus", source="--address")
    with pytest.raises(SimulationError, match=r"^RAY_ADDRESS is written") as info:
        check_cluster("bogus", source="RAY_ADDRESS")
    assert info.value.option is None
    assert info.value.parameter is None


def test_an_address_without_the_ray_backend_is_the_address_argument_s_fault() -> None:
    with pytest.raises(SimulationError, match="an address is for the ray backend") as info:
        simulate("classic", 2, ["random", "random"], 2, 1, address="h:1")
    assert info.value.parameter == "address"
    assert info.value.option == "--address"


def test_ray_address_in_the_environment_joins_that_cluster(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from mextrain.sim.backends import _on_ray

    class Refused(RuntimeError):
        pass

    seen: dict[str, Any] = {}

    class FakeRay:
        @staticmethod
        def is_initialized() -> bool:
            return False

        @staticmethod
        def init(**options: Any) -> None:
            seen.update(options)
            raise Refused("no cluster there")

    cfg = SimConfig(Rules.preset("classic"), 2, ("random", "random"), 2, 1)
    monkeypatch.setenv("RAY_ADDRESS", "10.0.0.9:6379")
    with pytest.raises(SimulationError, match=r"at 10\.0\.0\.9:6379 \(the RAY_ADDRESS variable\)"):
        _on_ray(FakeRay, cfg, 2, None, lambda batch: None)
    assert "num_cpus" not in seen  # Ray refuses a CPU count for a cluster it joins
    monkeypatch.delenv("RAY_ADDRESS")
    with pytest.raises(SimulationError, match="cannot start or reach Ray here"):
        _on_ray(FakeRay, cfg, 2, None, lambda batch: None)
    assert seen["num_cpus"] == 2


@pytest.mark.parametrize("empty", ["", "  "])
def test_an_empty_records_path_is_refused_not_the_working_directory(
    empty: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SimulationError, match="an empty path is no directory") as caught:
        simulate("classic", 2, ["greedy", "random"], games=2, seed=1, rounds=1, records=empty)
    assert caught.value.option == "--records"
    assert list(tmp_path.iterdir()) == []  # nothing written where the records would land
