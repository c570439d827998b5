"""``mextrain simulate``: the JSON contract, records, determinism and errors."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from mextrain.cli import main
from mextrain.cli.simulate import _split_bots

BASE = ["simulate", "--players", "3", "--bots", "planner,greedy,random", "--seed", "9"]


def run(*args: str) -> Any:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result


def run_json(*args: str) -> dict[str, Any]:
    result = run(*args, "--json")
    assert result.exit_code == 0, result.output
    lines = [line for line in result.stdout.splitlines() if line.strip()]
    assert len(lines) == 1  # exactly one object, nothing else on stdout
    doc: dict[str, Any] = json.loads(lines[0])
    return doc


def test_json_contract() -> None:
    doc = run_json(*BASE, "--games", "6", "--rounds", "2")
    assert list(doc) == [
        "rules",
        "players",
        "games",
        "rounds_per_game",
        "seed",
        "entries",
        "pairs",
        "rounds_per_second",
        "actions_per_second",
    ]
    assert doc["rules"] == {"preset": "classic", "rounds": 2}  # the rules played
    assert (doc["players"], doc["games"], doc["rounds_per_game"], doc["seed"]) == (3, 6, 2, 9)
    assert [e["bot"] for e in doc["entries"]] == ["planner", "greedy", "random"]
    for entry in doc["entries"]:
        assert list(entry) == [
            "bot",
            "wins",
            "win_rate",
            "win_rate_ci95",
            "mean_score",
            "mean_score_ci95",
            "rating",
        ]
        lo, hi = entry["win_rate_ci95"]
        assert 0 <= lo <= entry["win_rate"] <= hi <= 1
        assert entry["win_rate"] == pytest.approx(entry["wins"] / 6)
        lo, hi = entry["mean_score_ci95"]
        assert lo <= entry["mean_score"] <= hi
        assert set(entry["rating"]) == {"mu", "sigma"}
        assert entry["rating"]["sigma"] > 0
    # every game has its winners: split wins add up to the number of games
    assert sum(e["wins"] for e in doc["entries"]) == pytest.approx(6)
    assert [p["entries"] for p in doc["pairs"]] == [[0, 1], [0, 2], [1, 2]]
    for pair in doc["pairs"]:
        assert list(pair) == [
            "entries",
            "win_rate_difference",
            "win_rate_difference_ci95",
            "mean_score_difference",
            "mean_score_difference_ci95",
        ]
        lo, hi = pair["win_rate_difference_ci95"]
        if lo is None:  # alike by chance: greedy and random won as many games in each deal
            assert (pair["entries"], hi, pair["win_rate_difference"]) == ([1, 2], None, 0.0)
        else:
            assert lo <= pair["win_rate_difference"] <= hi
    assert doc["rounds_per_second"] > 0
    assert doc["actions_per_second"] > doc["rounds_per_second"]


def test_full_matches_by_default() -> None:
    args = ["simulate", "--players", "2", "--bots", "greedy,random", "--games", "2"]
    doc = run_json(*args, "--seed", "4")
    assert doc["rounds_per_game"] == 13
    assert run(*args).exit_code != 0  # the seed is required: results are always reproducible


def test_one_deal_has_no_score_interval() -> None:
    doc = run_json(*BASE, "--games", "3", "--rounds", "1")
    assert all(e["mean_score_ci95"] == [None, None] for e in doc["entries"])


def test_same_seed_same_statistics_whatever_the_jobs() -> None:
    one = run_json(*BASE, "--games", "9", "--rounds", "1", "--jobs", "1")
    two = run_json(*BASE, "--games", "9", "--rounds", "1", "--jobs", "2")
    assert one["entries"] == two["entries"]
    other = run_json(*BASE[:-1], "10", "--games", "9", "--rounds", "1")
    assert other["entries"] != one["entries"]


def test_rules_can_be_a_presets_name_in_json() -> None:
    """'"relaxed"' names a preset as JSON spells a string: as good as relaxed."""
    quoted = run_json(*BASE, "--games", "3", "--rules", '"relaxed"')
    plain = run_json(*BASE, "--games", "3", "--rules", "relaxed")
    assert quoted["rules"] == plain["rules"] == "relaxed"
    assert quoted["entries"] == plain["entries"]


def test_rules_can_be_a_json_object() -> None:
    spec = '{"preset": "relaxed", "draw_until_playable": true}'
    doc = run_json(*BASE, "--games", "3", "--rounds", "1", "--rules", spec)
    assert doc["rules"] == {"preset": "relaxed", "rounds": 1, "draw_until_playable": True}


def test_records_are_saved_and_replay(tmp_path: Path) -> None:
    out = tmp_path / "games"
    result = run(*BASE, "--games", "3", "--rounds", "1", "--records", str(out))
    assert result.exit_code == 0, result.output
    files = sorted(out.glob("*.json"))
    assert len(files) == 3
    for path in files:
        check = run("replay", str(path), "--json")
        assert check.exit_code == 0, check.output
        verdict = json.loads(check.stdout)
        assert verdict["valid"] is True
        assert verdict["complete"] is True
        doc = json.loads(path.read_text(encoding="utf-8"))
        assert sorted(doc["players"]) == ["greedy", "planner", "random"]


def test_text_report_names_every_entry() -> None:
    result = run(*BASE, "--games", "3", "--rounds", "1")
    assert result.exit_code == 0
    for name in ("planner", "greedy", "random", "win rate", "rounds/s"):
        assert name in result.stdout
    assert result.stderr == ""  # no progress bar off a terminal


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--games", "4"], "multiple of 3: try 3 or 6"),
        (["--games", "3", "--rounds", "14"], "--rounds must be from 1 to 13"),
        (["--games", "3", "--address", "127.0.0.1:6379"], "--address goes with --backend ray"),
        (["--games", "3", "--rules", "nosuch"], 'unknown preset "nosuch"'),
        (["--games", "3", "--rules", "{bad"], "not a JSON object"),
    ],
)
def test_errors_are_reported_in_words(args: list[str], message: str) -> None:
    result = run(*BASE, *args)
    assert result.exit_code != 0
    assert message in result.output


@pytest.mark.parametrize(
    ("args", "code", "option", "message"),
    [
        # a refused job names the option at fault too (its status stays 1)
        (["--games", "4"], 1, "--games", "multiple of 3: try 3 or 6"),
        (["--games", "3", "--rules", "nosuch"], 1, "--rules", 'unknown preset "nosuch"'),
        (["--games", "3", "--bots", "greedy,nosuch,random"], 1, "--bots", "unknown bot"),
        (["--games", "3", "--bots", "greedy:foo=1,greedy,random"], 1, "--bots", "no parameter"),
        (["--games", "3", "--bots", "greedy,random"], 1, "--bots", "3 players need 3"),
        (["--games", "3", "--rounds", "14"], 1, "--rounds", "--rounds must be from 1 to 13"),
        (["--games", "3", "--rules", "cardinal"], 1, "--players", "4 to 10 players"),
        (["--games", "3", "--jobs", "999"], 1, "--jobs", "more processes than"),
        (["--games", "3", "--import", "no_such_module_here"], 1, "--import", "cannot import"),
        (
            ["--games", "3", "--backend", "ray", "--address", "bogus"],
            1,
            "--address",
            "--address is written HOST:PORT, ray://HOST:PORT or auto",
        ),
        (["--games", "3", "--bots", "greedy,,random"], 2, "--bots", "empty bot entry"),
        # a slip in writing a list is a usage error wherever it is, as an empty entry
        (["--games", "3", "--bots", "greedy:oops,greedy,random"], 2, "--bots", "not key=value"),
        (["--games", "3", "--bots", "greedy:x=1,x=2,greedy,random"], 2, "--bots", "given twice"),
        (["--games", "3", "--bots", "depth=2,greedy,random"], 2, "--bots", "does not follow"),
        (["--games", "3", "--bots", ":x=1,greedy,random"], 2, "--bots", "does not follow"),
        (["--games", "3", "--records", ""], 2, "--records", "an empty path is no directory"),
    ],
)
def test_with_json_a_refused_job_is_one_object_too(
    args: list[str], code: int, option: str | None, message: str
) -> None:
    result = CliRunner().invoke(main, [*BASE, *args, "--json"])
    assert result.exit_code == code
    error = json.loads(result.stdout)["error"]
    assert error.get("option") == option
    assert message in error["reason"]


@pytest.mark.parametrize(
    ("args", "option", "reason"),
    [
        (
            ["--rules", '{"preset": "classic", "x": 1}'],
            "--rules",
            "x: unknown option",
        ),
        (
            ["--rules", "nosuch"],
            "--rules",
            'preset: unknown preset "nosuch"; choose one of classic, relaxed, cardinal',
        ),
        # the rules core's "players: " in front said again what --players says
        (["--rules", "cardinal"], "--players", "these rules are for 4 to 10 players, not 3"),
    ],
)
def test_a_value_the_rules_refuse_names_its_option_in_words_too(
    args: list[str], option: str, reason: str
) -> None:
    """``--rules x`` said "Error: x: unknown option", naming no option of the command line
    (x is one of the rules'); it says which option, as Click does for a value it refuses,
    with a refused job's status. ``--json`` names it beside the reason, as before."""
    result = run(*BASE, "--games", "3", *args)
    assert result.exit_code == 1
    assert result.stderr == f"Error: Invalid value for {option}: {reason}\n"
    as_json = run(*BASE, "--games", "3", *args, "--json")
    assert as_json.exit_code == 1
    assert json.loads(as_json.stdout) == {"error": {"option": option, "reason": reason}}


@pytest.mark.parametrize(
    ("args", "option", "reason"),
    [
        (["--bots", "greedy,nosuch,random"], "--bots", "unknown bot 'nosuch'; known bots: "),
        (["--bots", "greedy:foo=1,greedy,random"], "--bots", "bot 'greedy' has no parameter 'foo'"),
        (
            ["--import", "no_such_module_here"],
            "--import",
            "cannot import 'no_such_module_here': ModuleNotFoundError: ",
        ),
        (["--records", "{tmp}/file/records"], "--records", "cannot save records in {tmp}/file/"),
    ],
    ids=["unknown-bot", "bot-parameter", "import", "records"],
)
def test_a_refused_bot_module_or_directory_names_its_option_in_words_too(
    tmp_path: Path, args: list[str], option: str, reason: str
) -> None:
    """ "Error: unknown bot 'nosuch'" and "Error: cannot import 'x': ..." named no option
    (the other refusals do: "--rounds must be ...", "Invalid value for --rules: ..."):
    they are said as Click says a value it refuses; ``--json`` names the option beside
    the reason, as before."""
    (tmp_path / "file").write_text("not a directory")
    args = [arg.replace("{tmp}", str(tmp_path)) for arg in args]
    reason = reason.replace("{tmp}", str(tmp_path))
    result = run(*BASE, "--games", "3", *args)
    assert result.exit_code == 1
    assert result.stderr.startswith(f"Error: Invalid value for {option}: {reason}"), result.stderr
    as_json = run(*BASE, "--games", "3", *args, "--json")
    assert as_json.exit_code == 1
    error = json.loads(as_json.stdout)["error"]
    assert error["option"] == option
    assert error["reason"].startswith(reason), error


def test_the_command_names_its_options_where_the_library_names_its_arguments() -> None:
    """The library's words name its arguments (``rounds must be ...``, ``jobs=N is
    ...``); the command's name its options, in the text and the ``--json`` reason."""
    from mextrain.sim import max_jobs

    too_many = max_jobs() + 1
    for args, option, reason in [
        (["--rounds", "14"], "--rounds", "--rounds must be from 1 to 13 for these rules, not 14"),
        (["--jobs", str(too_many)], "--jobs", f"--jobs {too_many} is more processes than"),
    ]:
        result = run(*BASE, "--games", "3", *args)
        assert result.exit_code == 1
        assert result.stderr.startswith(f"Error: {reason}"), result.stderr
        as_json = run(*BASE, "--games", "3", *args, "--json")
        assert as_json.exit_code == 1
        error = json.loads(as_json.stdout)["error"]
        assert error["option"] == option
        assert error["reason"].startswith(reason), error


@pytest.mark.parametrize(
    ("args", "option", "reason"),
    [
        (
            ["--bots", "planner,greedy", "--games", "3"],
            "--bots",
            "3 players need 3 bot entries, got 2: planner, greedy; give --bots one entry "
            "per seat, or change --players",
        ),
        (
            ["--bots", "planner,greedy,random", "--games", "4"],
            "--games",
            "each deal is played once per seat rotation (3 games with --players 3), so "
            "--games must be a multiple of 3: try 3 or 6",
        ),
    ],
    ids=["bot-count", "games-multiple"],
)
def test_a_count_that_does_not_fit_the_players_names_the_options_to_change(
    args: list[str], option: str, reason: str
) -> None:
    """ "Error: 3 players need 3 bot entries ..." and "... the number of games must be a
    multiple of 3" named no option (the other refusals do): they are said as Click says a
    value it refuses, naming --players beside it; ``--json`` names the option beside the
    reason, as before."""
    base = ["simulate", "--players", "3", "--seed", "9"]
    result = run(*base, *args)
    assert result.exit_code == 1
    assert result.stderr == f"Error: Invalid value for {option}: {reason}\n"
    as_json = run(*base, *args, "--json")
    assert as_json.exit_code == 1
    assert json.loads(as_json.stdout) == {"error": {"option": option, "reason": reason}}


@pytest.mark.parametrize(
    ("bots", "message"),
    [
        ("planner,greedy", "3 players need 3 bot entries"),
        ("planner,greedy,nosuch", "unknown bot 'nosuch'"),
        ("planner,,random", "empty bot entry"),
        ("depth=2,greedy,random", "does not follow a bot name"),
    ],
)
def test_bad_bot_lists_are_refused(bots: str, message: str) -> None:
    result = run("simulate", "--players", "3", "--bots", bots, "--games", "3", "--seed", "1")
    assert result.exit_code != 0
    assert message in result.output


def test_bot_parameters_stay_with_their_entry() -> None:
    assert _split_bots("greedy:random_ties=true,random") == ["greedy:random_ties=true", "random"]
    assert _split_bots("planner:endgame=3,extra_cost=4, greedy ,random") == [
        "planner:endgame=3,extra_cost=4",
        "greedy",
        "random",
    ]
    doc = run_json(
        "simulate",
        "--players",
        "2",
        "--bots",
        "planner:endgame=3,extra_cost=4,greedy:random_ties=true",
        "--games",
        "2",
        "--rounds",
        "1",
        "--seed",
        "1",
    )
    assert [e["bot"] for e in doc["entries"]] == [
        "planner:endgame=3,extra_cost=4",
        "greedy:random_ties=true",
    ]


def _children(pid: int) -> set[int]:
    """The processes ``pid`` started (Linux's /proc)."""
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        found.update(int(c) for c in (task / "children").read_text().split())
    return found


def _running(pid: int) -> bool:
    """Whether ``pid`` is a live process (a zombie waiting to be reaped is not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads Linux's /proc")
def test_sigterm_stops_the_workers_too_and_keeps_the_finished_records(tmp_path: Path) -> None:
    """``kill`` (SIGTERM) killed the command alone and its workers played on; it stops the
    run as Ctrl-C does: the workers end with it, the finished games' records stay, and the
    exit status is the shell's for SIGTERM (143)."""
    import contextlib
    import os
    import signal
    import subprocess
    import sys
    import time

    out = tmp_path / "recs"
    args = [*BASE, "--games", "3000", "--jobs", "2", "--records", str(out)]
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "mextrain", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    workers: set[int] = set()
    left: list[int] = []
    try:
        deadline = time.monotonic() + 120
        while not (out.is_dir() and any(out.glob("game-*.json"))):
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "no game finished in two minutes"
            time.sleep(0.1)
        workers = _children(proc.pid)
        assert len({w for w in workers if _running(w)}) >= 2  # the pool's workers
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
        deadline = time.monotonic() + 10  # (a moment for any worker to end)
        while any(_running(w) for w in workers) and time.monotonic() < deadline:
            time.sleep(0.1)
        for worker in workers:  # (none is left playing, even when the test fails)
            if _running(worker):
                left.append(worker)
                with contextlib.suppress(ProcessLookupError):
                    os.kill(worker, signal.SIGKILL)
        _, err = proc.communicate()
    assert not left, "workers left playing"
    assert proc.returncode == 128 + signal.SIGTERM, err
    assert "Traceback" not in err
    saved = len(list(out.glob("game-*.json")))
    assert 0 < saved < 3000
    assert f"terminated ({saved} finished game" in err


def test_import_makes_the_bots_of_a_module_of_yours_playable_in_every_worker(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """`--import MODULE` (found from the current directory, as `python -m` finds it, or a
    .py file) registers its bots in this process, and the spawned workers import it too."""
    (tmp_path / "sim_yours_mod.py").write_text(
        "from mextrain.bots import register_bot\n"
        "class First:\n"
        "    name = 'sim-imported'\n"
        "    def act(self, view, rng):\n"
        "        return view.legal_actions[0]\n"
        "register_bot('sim-imported', First)\n",
        encoding="utf-8",
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", list(sys.path))  # (the import puts the folder on it)
    args = ["simulate", "--players", "2", "--games", "4", "--seed", "3", "--rounds", "1"]
    mine = [*args, "--import", "sim_yours_mod", "--bots", "sim-imported,greedy"]
    one = run_json(*mine, "--jobs", "1")
    two = run_json(*mine, "--jobs", "2")  # (spawned workers: they import it themselves)
    assert one["entries"][0]["bot"] == "sim-imported"
    assert one["entries"] == two["entries"]
    by_file = run_json(
        *args,
        "--import",
        str(tmp_path / "sim_yours_mod.py"),
        "--bots",
        "sim-imported,greedy",
        "--jobs",
        "1",
    )
    assert by_file["entries"] == one["entries"]


def test_help_keeps_each_example_command_on_one_line() -> None:
    """The examples are commands to copy: Click's wrapping put "--seed 1" (a required
    option) on a line of its own, and the second example had half its options."""
    result = CliRunner().invoke(main, ["simulate", "--help"], terminal_width=80)
    assert result.exit_code == 0
    lines = [line.strip() for line in result.output.splitlines()]
    assert "mextrain simulate --players 3 --bots planner,greedy,random --games 300 --seed 1" in (
        lines
    )
    assert (
        "mextrain simulate --import mybots --bots mine,planner --players 2 --games 4 --seed 1"
        in lines
    )
