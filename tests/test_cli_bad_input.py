"""The CLI under bad input: gets a clear error, a non-zero exit, no
traceback, and nothing on disk is lost or half-written."""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner, Result

from mextrain.cli import main
from mextrain.store import ServerLock

RECORDS = Path(__file__).parent / "records"
COMPLETE = RECORDS / "double6_complete.json"
ILLEGAL = RECORDS / "illegal_draw_with_a_play.json"
UNREADABLE = RECORDS / "unreadable_tile.json"
IN_PROGRESS = RECORDS / "double6_in_progress.json"
MEXTRAIN = Path(sys.executable).parent / "mextrain"


def invoke(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def assert_clean_error(result: Result, *words: str) -> None:
    """Non-zero exit, a short message naming the problem, no Python exception."""
    exc = result.exception
    assert exc is None or isinstance(exc, SystemExit), f"uncaught {exc!r}"
    assert result.exit_code != 0
    assert "Traceback" not in result.output
    err = result.stderr if result.stderr else result.stdout
    assert len(err.strip().splitlines()) <= 6, err
    for word in words:
        assert word in err, err


def sim(*extra: str, bots: str = "random,greedy", players: str = "2", games: str = "2") -> Result:
    return invoke(
        "simulate",
        "--players",
        players,
        "--bots",
        bots,
        "--games",
        games,
        "--seed",
        "1",
        "--rounds",
        "1",
        "--jobs",
        "1",
        *extra,
    )


# --------------------------------------------------------------------- simulate: bots


@pytest.mark.parametrize(
    ("bots", "word"),
    [
        ("random,nosuch", "unknown bot 'nosuch'"),
        ("random,ismcts:foo=1", "foo"),
        ("random,greedy:x=1", "'x'"),
        ("random,ismcts:iterations", "not key=value"),
        ("random,planner:search=x", "search"),
        ("random,,", "empty bot entry"),
        (",", "empty bot entry"),
        ("random", "need 2 bot entries"),
        ("random,greedy,planner", "need 2 bot entries"),
    ],
)
def test_simulate_bad_bots_are_clean_errors(bots: str, word: str) -> None:
    assert_clean_error(sim(bots=bots), word)


# out-of-range bot parameters are a clear error, not a traceback
@pytest.mark.parametrize(
    "bots",
    [
        "random,ismcts:iterations=-5",
        "random,ismcts:iterations=0",
        "random,ismcts:time_ms=-1",
        # a budget no game would live to see the end of: a bot that never moves
        "random,ismcts:iterations=99999999999999999999999",
        "random,ismcts:time_ms=1e9",
    ],
)
def test_simulate_out_of_range_bot_parameter(bots: str) -> None:
    assert_clean_error(sim(bots=bots), "must be")


@pytest.mark.parametrize("lang", ["en", "fr", "it", "fi"])
def test_a_bot_parameter_too_large_for_a_number_is_quoted_as_written(lang: str) -> None:
    """``time_ms=1e400`` (which Python reads as inf) was refused as "must be a finite
    number, not inf", quoting a value the user never wrote: it is quoted as written, with
    why (too large), by simulate and by play in the player's language."""
    from mextrain.i18n import Translator

    simulated = sim(bots="random,ismcts:time_ms=1e400")
    assert_clean_error(simulated, "time_ms", "1e400 is too large")
    assert "not inf" not in simulated.output
    played = invoke("play", "--lang", lang, "--seats", "you,ismcts:time_ms=1e400")
    said = Translator(lang)(
        "game.bot_error.too_large", name="'ismcts'", param="time_ms", shown="1e400"
    )
    assert_clean_error(played, said)
    assert " inf" not in played.output


# text where a number is wanted: the error names the parameter
def test_simulate_non_numeric_bot_parameter_names_the_parameter() -> None:
    result = sim(bots="random,ismcts:time_ms=abc")
    assert_clean_error(result, "time_ms")


# ------------------------------------------------------------------ simulate: rules etc


@pytest.mark.parametrize(
    ("rules", "word"),
    [
        ("nosuch", 'unknown preset "nosuch"'),
        ("{bad", "not a JSON object"),
        ('{"preset":"nosuch"}', "unknown preset"),
        ('{"preset":"classic","bogus":1}', "bogus: unknown option"),
        ('{"preset":"classic","draw_until_playable":"maybe"}', "draw_until_playable"),
        ("[1]", "must be a preset name (classic, relaxed, cardinal) or an object with"),
        # (a preset's name in JSON is a name: '"classic"' is played, '"nosuch"' unknown)
        ('"nosuch"', 'unknown preset "nosuch"'),
        ("1", 'unknown preset "1"'),
        ('{"preset":"classic","hand_size":7}', 'like {"2": 7, "3": 6, "4": 5}, not 7'),
        ('{"preset":"classic","max_pip":9}', 'like {"2": 7, "3": 6, "4": 5}; the set has 54'),
    ],
)
def test_simulate_bad_rules(rules: str, word: str) -> None:
    assert_clean_error(sim("--rules", rules), word)


@pytest.mark.parametrize(
    ("extra", "kw", "word"),
    [
        ((), {"players": "3", "bots": "random,greedy,random", "games": "4"}, "multiple of 3"),
        ((), {"games": "0"}, "--games"),
        ((), {"players": "20", "bots": "random", "games": "20"}, "2 to 8 players"),
        (("--rounds", "0"), {}, "--rounds"),
        (("--rounds", "99"), {}, "--rounds must be from 1 to 13"),
        (("--jobs", "0"), {}, "--jobs"),
        (("--jobs", "-3"), {}, "--jobs"),
        (("--backend", "nosuch"), {}, "--backend"),
        (("--address", "foo"), {}, "--address goes with --backend ray"),
    ],
)
def test_simulate_bad_numbers_and_options(
    extra: tuple[str, ...], kw: dict[str, str], word: str
) -> None:
    assert_clean_error(sim(*extra, **kw), word)


# an unwritable --records directory is refused before any game is played
def test_simulate_unwritable_records_dir() -> None:
    assert_clean_error(sim("--records", "/proc/x"), "/proc/x")


def test_simulate_read_only_records_dir_is_refused_before_any_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a directory that exists but takes no file (a read-only disk; root ignores modes, so
    # the refusal is made by hand here) was found out only after every game
    import errno
    import tempfile

    import mextrain.sim

    def read_only(*args: object, **kwargs: object) -> object:
        raise OSError(errno.EROFS, "Read-only file system")

    played: list[object] = []
    monkeypatch.setattr(tempfile, "TemporaryFile", read_only)
    monkeypatch.setattr(mextrain.sim, "run_games", lambda *a, **k: played.append(a))
    assert_clean_error(sim("--records", str(tmp_path)), "Read-only file system", str(tmp_path))
    assert not played


def test_simulate_interrupted_says_what_it_saved_and_exits_130(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import mextrain.sim
    from mextrain.sim import write_record

    def stopped(config: object, sink: object = None, **kwargs: object) -> object:
        results = mextrain.sim.play_games(config, [0])  # type: ignore[arg-type]
        sink(results)  # type: ignore[operator]
        raise KeyboardInterrupt

    assert write_record  # the records go out one by one, as the games end
    monkeypatch.setattr(mextrain.sim, "run_games", stopped)
    out = tmp_path / "recs"
    result = sim("--records", str(out))
    assert result.exit_code == 130
    assert "Traceback" not in result.output
    assert f"interrupted (1 finished game saved in {out})" in result.stderr
    assert [p.name for p in out.iterdir()] == ["game-000000.json"]
    # a run that stops before its first game makes no directory
    monkeypatch.setattr(
        mextrain.sim, "run_games", lambda *a, **k: (_ for _ in ()).throw(KeyboardInterrupt)
    )
    never = tmp_path / "never"
    result = sim("--records", str(never))
    assert result.exit_code == 130
    assert f"interrupted (no record saved in {never})" in result.stderr
    assert not never.exists()
    # with --json, still one object on standard output
    result = sim("--records", str(never), "--json")
    assert result.exit_code == 130
    assert json.loads(result.stdout) == {
        "error": {"reason": f"interrupted (no record saved in {never})"}
    }


def test_simulate_failure_leaves_records_dir_intact(tmp_path: Path) -> None:
    keep = tmp_path / "keep.json"
    keep.write_text("precious")
    result = sim("--records", str(tmp_path), bots="random,nosuch")
    assert_clean_error(result, "unknown bot")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["keep.json"]
    assert keep.read_text() == "precious"


@pytest.mark.parametrize(
    ("kw", "word"),
    [
        ({"bots": "random,nosuch"}, "unknown bot"),
        ({"games": "3"}, "multiple of 2"),
        ({"players": "20", "bots": "random", "games": "20"}, "2 to 8 players"),
    ],
)
def test_simulate_refused_job_makes_no_records_dir(
    tmp_path: Path, kw: dict[str, str], word: str
) -> None:
    out = tmp_path / "new" / "records"
    assert_clean_error(sim("--records", str(out), **kw), word)
    assert list(tmp_path.iterdir()) == []


def test_simulate_records_never_overwrite_another_runs(tmp_path: Path) -> None:
    out = tmp_path / "out"
    first = sim("--records", str(out))
    assert first.exit_code == 0, first.output
    saved = {p.name: p.read_bytes() for p in out.iterdir()}
    assert sorted(saved) == ["game-000000.json", "game-000001.json"]
    again = sim("--records", str(out), bots="planner,random")
    assert_clean_error(again, "already holds game records")
    assert again.exit_code == 1  # a refused job, as an unknown bot is (not a usage slip)
    assert {p.name: p.read_bytes() for p in out.iterdir()} == saved
    told = sim("--records", str(out), "--json")
    assert told.exit_code == 1
    error = json.loads(told.stdout)["error"]
    assert error["option"] == "--records"
    assert "already holds game records" in error["reason"]
    empty = sim("--records", "")
    assert_clean_error(empty, "empty path")
    assert empty.exit_code == 2  # (a command line that cannot be read)


@pytest.mark.parametrize("under", [True, False])
def test_simulate_records_under_a_file_is_a_refused_job(tmp_path: Path, under: bool) -> None:
    """A directory that cannot be made (a file is in the way, or the path is a file)
    refuses the job before the first game, with the status of a refused job and the
    option named (a path that is a file was Click's status 2, "a command line that
    cannot be read", where a file one folder up was 1)."""
    (tmp_path / "afile").write_text("x")
    path = tmp_path / "afile" / "sub" if under else tmp_path / "afile"
    told = sim("--records", str(path), "--json")
    assert told.exit_code == 1
    error = json.loads(told.stdout)["error"]
    assert error["option"] == "--records"
    assert "not a directory" in error["reason"]
    assert (tmp_path / "afile").read_text() == "x"
    plain = sim("--records", str(path))
    assert_clean_error(plain, "not a directory", str(path))
    assert plain.exit_code == 1


# ------------------------------------------------------------------------------ replay


def _bad_files(tmp_path: Path) -> dict[str, Path]:
    files = {
        "empty": b"",
        "bad": b"{not json",
        "list": b"[]",
        "obj": b"{}",
        "binary": b"\xff\xfe\x00garbage",
    }
    out = {}
    for name, data in files.items():
        p = tmp_path / f"{name}.json"
        p.write_bytes(data)
        out[name] = p
    out["missing"] = tmp_path / "missing.json"
    out["dir"] = tmp_path
    return out


@pytest.mark.parametrize("kind", ["empty", "bad", "list", "obj", "binary", "missing", "dir"])
@pytest.mark.parametrize("command", ["replay", "analyze"])
def test_not_a_record_is_exit_2(tmp_path: Path, kind: str, command: str) -> None:
    path = _bad_files(tmp_path)[kind]
    before = path.read_bytes() if path.is_file() else None
    extra = ["--round", "0", "--action", "0", "--iterations", "5"] if command == "analyze" else []
    result = invoke(command, str(path), *extra)
    assert_clean_error(result, "Not a game record")
    assert result.exit_code == 2
    if before is not None:
        assert path.read_bytes() == before


def test_not_a_record_is_said_once(tmp_path: Path) -> None:
    empty = tmp_path / "empty.json"
    empty.write_bytes(b"")
    result = invoke("replay", str(empty))
    assert_clean_error(result, "Not a game record: not JSON")
    assert "not a record" not in result.stderr


def test_replay_json_not_a_record(tmp_path: Path) -> None:
    result = invoke("replay", "--json", str(tmp_path / "missing.json"))
    assert result.exit_code == 2
    assert '"valid": false' in result.stdout
    assert result.exception is None or isinstance(result.exception, SystemExit)


@pytest.mark.parametrize("command", ["replay", "analyze"])
def test_illegal_record_is_exit_1(command: str) -> None:
    before = ILLEGAL.read_bytes()
    extra = ["--round", "0", "--action", "5", "--iterations", "5"] if command == "analyze" else []
    result = invoke(command, str(ILLEGAL), *extra)
    assert_clean_error(result, "Illegal record", "round 0, action 1")
    assert result.exit_code == 1
    assert ILLEGAL.read_bytes() == before


def test_replay_unreadable_tile() -> None:
    assert_clean_error(invoke("replay", str(UNREADABLE)), "'1-three' is not a tile")


# ----------------------------------------------------------------------------- analyze


@pytest.mark.parametrize(
    ("args", "word"),
    [
        # (12 is the position after the last action: analysed if the round is in play)
        (("--round", "0", "--action", "99999"), "0 to 11, and 12 is the one after the last; not"),
        (("--round", "0", "--action", "-1"), "not -1"),
        (("--round", "99", "--action", "0"), "rounds 0 to 0, not 99"),
        (("--round", "-1", "--action", "0"), "not -1"),
        (("--round", "0", "--action", "0", "--iterations", "0"), "--iterations"),
        (("--round", "0", "--action", "0", "--time-ms", "0"), "--time-ms"),
        # past the search's budgets: refused as usage, not a traceback
        (("--round", "0", "--action", "0", "--iterations", "1000001"), "--iterations"),
        (("--round", "0", "--action", "0", "--time-ms", "3600001"), "--time-ms"),
        (("--round", "0", "--action", "0", "--time-ms", "1e300"), "--time-ms"),
        (("--round", "0", "--action", "0", "--policy", "nosuch"), "--policy"),
        (("--json", "--round", "0", "--action", "99999"), "not 99999"),
    ],
)
def test_analyze_out_of_range(args: tuple[str, ...], word: str) -> None:
    result = invoke("analyze", str(COMPLETE), "--iterations", "5", *args)
    assert_clean_error(result, word)


# --json prints exactly one object whatever happens: a position not in the record too
@pytest.mark.parametrize(
    ("args", "option", "word"),
    [
        (("--round", "5", "--action", "0"), "--round", "rounds 0 to 0, not 5"),
        (("--round", "0", "--action", "99"), "--action", "not 99"),
    ],
)
def test_analyze_json_out_of_range_is_one_object(
    args: tuple[str, ...], option: str, word: str
) -> None:
    result = invoke("analyze", str(COMPLETE), *args, "--json")
    assert result.exit_code == 2
    report = json.loads(result.stdout)
    assert report["error"]["option"] == option
    assert word in report["error"]["reason"]


def test_analyze_a_record_with_no_rounds_says_so(tmp_path: Path) -> None:
    doc = json.loads(COMPLETE.read_text(encoding="utf-8"))
    doc["rounds"] = []
    doc.pop("result", None)
    path = tmp_path / "norounds.json"
    path.write_text(json.dumps(doc))
    assert_clean_error(
        invoke("analyze", str(path), "--round", "0", "--action", "0"), "no rounds yet"
    )


def test_analyze_a_round_with_no_actions_yet_names_its_one_position(tmp_path: Path) -> None:
    """A round just dealt has one position, 0: not "the positions before them are 0 to
    -1"."""
    doc = json.loads(IN_PROGRESS.read_text(encoding="utf-8"))
    doc["rounds"][1]["actions"] = []
    path = tmp_path / "dealt.json"
    path.write_text(json.dumps(doc))
    result = invoke("analyze", str(path), "--round", "1", "--action", "3")
    assert_clean_error(result, "round 1 has no actions yet: its one position is 0")
    assert "-1" not in result.stderr
    report = json.loads(
        invoke("analyze", str(path), "--round", "1", "--action", "3", "--json").stdout
    )
    assert report["error"]["option"] == "--action"
    assert "0 to -1" not in report["error"]["reason"]


# `--time-ms nan` is refused (a deadline of nan would never come)
def test_analyze_time_ms_nan_does_not_hang() -> None:
    try:
        proc = subprocess.run(
            [
                str(MEXTRAIN),
                "analyze",
                str(COMPLETE),
                "--round",
                "0",
                "--action",
                "0",
                "--time-ms",
                "nan",
            ],
            capture_output=True,
            text=True,
            timeout=20,
        )
    except subprocess.TimeoutExpired:
        pytest.fail("analyze --time-ms nan hangs")
    assert proc.returncode != 0
    assert "Traceback" not in proc.stderr


# ------------------------------------------------------------------------------- solve


@pytest.mark.parametrize(
    ("args", "word"),
    [
        (("--start", "12", "12-5", "5-x"), "'5-x' is not a tile"),
        (("--start", "12", "12-99"), "pips go from 0 to 12"),
        (("--start", "99", "12-5"), "--start 99"),
        (("--start", "-1", "12-5"), "--start -1"),
        (("--start", "12", "12-5", "12-5"), "given twice"),
        (("--start", "12", "--max-pip", "31", "12-5"), "--max-pip"),
        (("--start", "x", "12-5"), "--start"),
    ],
)
def test_solve_bad_input(args: tuple[str, ...], word: str) -> None:
    assert_clean_error(invoke("solve", *args), word)


# -------------------------------------------------------------------------------- play
# Only the validation path: every case below must fail before the terminal UI starts.


@pytest.mark.parametrize(
    ("args", "word"),
    [
        (("--rules", "nosuch"), 'unknown preset "nosuch"'),
        (("--option", "bogus=1"), "bogus: unknown option"),
        (("--option", "draw_until_playable=maybe"), "must be true or false"),
        (("--option", "noequals"), "is not NAME=VALUE"),
        (("--rules", "[1]"), "must be a preset name (classic, relaxed, cardinal) or an object"),
        (("--option", "=1"), "'=1' is not NAME=VALUE"),  # (no name: not "unknown option")
        (("--seats", "greedy,nosuch"), "unknown bot 'nosuch'"),
        (("--seats", "ismcts:iterations=-5,greedy"), "iterations must be from 1 to 1,000,000"),
        (("--players", "20"), "2 to 8 players, not 20"),
        (("--players", "1"), "not 1"),
        (("--lang", "xx"), "--lang"),
        (("--delay", "inf"), "inf is not a finite number"),  # bots that never move
        (("--delay", "nan"), "--delay"),
        (("--delay", "-1"), "--delay"),
        (("--delay", "1e308"), "--delay"),  # finite, and bots that never move all the same
        # finite too, though past what a float holds: past the range, not "not finite"
        (("--delay", "1e400"), "1e400 is not in the range 0<=x<=60."),
        (("--delay", "9" * 400), "99999999…(400 digits) is not in the range 0<=x<=60."),
        (("--seats", "you,,expert"), "empty bot entry"),
        (("--seats", "you,iterations=5"), "does not follow a bot name"),
        (("--seats", "you,ismcts:iterations=5,iterations=6"), "given twice"),
        (("--file", str(COMPLETE)), "add --resume"),
        (("--resume", "--rules", "relaxed"), "keeps the rules"),
        (("--resume", "--option", "draw_until_playable=true"), "keeps the rules"),
        (("--resume", "--players", "3"), "keeps the rules"),
    ],
)
def test_play_bad_options(args: tuple[str, ...], word: str) -> None:
    assert_clean_error(invoke("play", "--delay", "0", *args), word)


@pytest.mark.parametrize(
    ("args", "word"),
    [
        (("--rules", "{bad"), "pas un objet JSON\u00a0: "),
        (("--option", "noequals"), "'noequals' n'est pas de la forme NOM=VALEUR"),
        (("--players", "20"), "Ces règles se jouent de 2 à 8 joueurs, pas à 20."),
        (("--option", "bogus=1"), "bogus\u00a0: option inconnue"),
        (("--seats", "you,nosuch"), "robot inconnu 'nosuch'\u00a0; robots connus\u00a0:"),
        (("--seats", "you,greedy,greedy", "--players", "2"), "3 places données pour 2 joueurs"),
        (("--option", "rounds=14"), "rounds\u00a0: un jeu double-12 n'a que 13 moyeux"),
        (("--rules", "nosuch"), 'preset\u00a0: variante "nosuch" inconnue\u00a0; choisissez parmi'),
        (("--option", "max_pip=6"), 'par exemple {"2": 7, "3": 6, "4": 5}\u00a0; le jeu a 27 '),
        (("--option", "hand_size=7"), 'par exemple {"2": 7, "3": 6, "4": 5}, pas 7'),
    ],
)
def test_play_refusals_in_the_players_language(args: tuple[str, ...], word: str) -> None:
    result = invoke("play", "--lang", "fr", "--delay", "0", *args)
    assert_clean_error(result, word)
    # Click's frame too: "Erreur : valeur refusée pour --option : ...", not "Error:
    # Invalid value for '--option': ..." around the French, nor "Try ... for help."
    said = result.stderr or result.stdout
    assert said.startswith("Erreur\u00a0: "), said
    for english in ("Error", "Invalid value", "Usage:", "Try "):
        assert english not in said, said


@pytest.mark.parametrize(
    ("lang", "refused", "wrong_option", "help_line"),
    [
        ("en", "Error: ", "Error: Invalid value for --seats: ", "Try '"),
        (
            "fr",
            "Erreur\u00a0: ",
            "Erreur\u00a0: valeur refusée pour --seats\u00a0: ",
            "Pour l'aide\u00a0: ",
        ),
        ("it", "Errore: ", "Errore: valore non valido per --seats: ", "Per l'aiuto: "),
        ("fi", "Virhe: ", "Virhe valitsimen --seats arvossa: ", "Ohje: "),
    ],
)
def test_play_says_its_refusals_whole_in_the_players_language(
    lang: str, refused: str, wrong_option: str, help_line: str
) -> None:
    """A refusal `play` makes once it knows the language is framed in it too: a command
    line to mend names the option and where help is; a refused job says why alone."""
    bad = invoke("play", "--lang", lang, "--seats", "you,nosuch")
    assert bad.exit_code == 2
    lines = (bad.stderr or bad.stdout).splitlines()
    assert lines[0].startswith(wrong_option), lines
    assert "'nosuch'" in lines[0]
    assert lines[1].startswith(help_line), lines
    assert "play --help" in lines[1], lines
    assert len(lines) == 2, lines
    illegal = invoke("play", "--lang", lang, "--resume", "--file", str(ILLEGAL))
    assert illegal.exit_code == 1
    (line, *_detail) = (illegal.stderr or illegal.stdout).splitlines()
    assert line.startswith(refused), line
    assert not line.startswith(wrong_option), line
    assert help_line not in (illegal.stderr or illegal.stdout)


@pytest.mark.parametrize("lang", ["en", "fr", "it", "fi"])
def test_play_says_a_seat_count_the_rules_refuse_without_from_2_to_2(lang: str) -> None:
    """A set played by two only (a double-6 set with hand sizes for two) said "These rules
    are for 2 to 2 players, not 3."; and the usual range for a preset."""
    from mextrain.i18n import Translator

    t = Translator(lang)
    two = '{"preset": "classic", "max_pip": 6, "hand_size": {"2": 7}}'
    for rules, players, said in [
        (two, "3", t("tui.cli.players_exactly", low=2, count=3)),
        ("cardinal", "3", t("tui.cli.players_range", low=4, high=10, count=3)),
    ]:
        bad = invoke("play", "--rules", rules, "--players", players, "--lang", lang)
        assert bad.exit_code == 2, bad.output
        line = (bad.stderr or bad.stdout).splitlines()[0]
        assert line == t("tui.cli.error_option", option="--players", message=said), line
    assert "2 to 2" not in invoke("play", "--rules", two, "--players", "3").output


@pytest.mark.parametrize("lang", ["en", "fr", "it", "fi"])
def test_play_says_the_values_click_reads_wrong_in_the_players_language(
    lang: str, tmp_path: Path
) -> None:
    """``--delay x``, ``--players x``, ``--seed 1.5``, a ``--file`` that is not there were
    refused in Click's English whatever ``--lang`` said (Click reads the values before the
    command runs)."""
    from mextrain.i18n import Translator

    t = Translator(lang)
    gone = str(tmp_path / "gone.json")
    folder = str(tmp_path)
    for args, option, message in [
        (("--resume", "--file", gone), "--file", t("tui.cli.no_such_file", path=gone)),
        (("--resume", "--file", folder), "--file", t("tui.cli.not_a_file", path=folder)),
        (("--delay", "x"), "--delay", t("tui.cli.not_number", value="'x'")),
        (("--delay", "inf"), "--delay", t("tui.cli.not_finite", value="inf")),
        (("--delay", "99"), "--delay", t("tui.cli.out_of_range", value="99", low="0", high="60")),
        (
            ("--delay", "-1e400"),
            "--delay",
            t("tui.cli.out_of_range", value="-1e400", low="0", high="60"),
        ),
        (("--players", "x"), "--players", t("tui.cli.not_whole", value="'x'")),
        (("--seed", "1.5"), "--seed", t("tui.cli.not_whole", value="'1.5'")),
    ]:
        bad = invoke("play", *args, "--lang", lang)
        assert bad.exit_code == 2, args
        said, where = (bad.stderr or bad.stdout).splitlines()
        assert said == t("tui.cli.error_option", option=option, message=message), args
        # (the program's name as the test runner calls it)
        assert where == t("tui.cli.try_help", command="main play --help"), args


#: 1,000,000 (analyze --iterations' most), 0.5 and 1,500 as each language writes them
BOUNDS_WRITTEN = {
    "en": ("1,000,000", "0.5", "1,500"),
    "fr": ("1\u202f000\u202f000", "0,5", "1\u202f500"),
    "it": ("1.000.000", "0,5", "1500"),
    "fi": ("1\u00a0000\u00a0000", "0,5", "1\u00a0500"),
}


@pytest.mark.parametrize("lang", ["en", "fr", "it", "fi"])
def test_a_range_refused_in_a_language_writes_its_bounds_as_the_language_does(
    lang: str,
) -> None:
    """``analyze --iterations 0 --lang fr`` said "0 n'est pas entre 1 et 1000000." where
    its --help says "de 1 à 1 000 000"; a decimal bound was Python's "0.5" in every
    language. The value refused is quoted as given."""
    from mextrain.cli._common import (
        Choice,
        FiniteFloat,
        LanguageCommand,
        WholeNumber,
        speak_as_given,
    )
    from mextrain.i18n import LANGUAGES, Translator

    t = Translator(lang)
    million, half, most = BOUNDS_WRITTEN[lang]

    def refusal(result: Result) -> str:
        assert result.exit_code == 2, result.output
        return (result.stderr or result.stdout).splitlines()[0]

    def said(option: str, value: str, low: str, high: str) -> str:
        message = t("tui.cli.out_of_range", value=value, low=low, high=high)
        return t("tui.cli.error_option", option=option, message=message)

    many = invoke("analyze", str(COMPLETE), "--round", "0", "--action", "0", "--iterations", "0",
                  "--lang", lang)  # fmt: skip
    assert refusal(many) == said("--iterations", "0", "1", million)

    # (no command that speaks a language has a decimal bound yet: one made for the test)
    @click.command(cls=LanguageCommand)
    @click.option("--lang", type=Choice(LANGUAGES), is_eager=True, callback=speak_as_given)
    @click.option("--pause", type=FiniteFloat(0.5, 1500))
    @click.option("--count", type=WholeNumber(1, 1_000_000))
    def command(lang: str | None, pause: float | None, count: int | None) -> None:
        pass

    for args, option, low, high in [
        (("--pause", "0.25"), "--pause", half, most),
        (("--pause", "1e4"), "--pause", half, most),
        (("--count", "1000001"), "--count", "1", million),
    ]:
        result = CliRunner().invoke(command, [*args, "--lang", lang])
        assert refusal(result) == said(option, args[1], low, high), args
    if lang != "en":  # (English --help is Click's own: "0.5<=x<=1500")
        shown = CliRunner().invoke(command, ["--help", "--lang", lang]).output
        shown = re.sub(r"[ \n]+", " ", shown)  # (its lines wrapped as one; no-break spaces kept)
        assert t("tui.cli.help.range", low=half, high=most) in shown
        assert t("tui.cli.help.range", low="1", high=million) in shown


#: 3,600,000 as each language writes it
HOUR_MS_WRITTEN = {
    "en": "3,600,000",
    "fr": "3\u202f600\u202f000",
    "it": "3.600.000",
    "fi": "3\u00a0600\u00a0000",
}


@pytest.mark.parametrize("lang", ["en", "fr", "it", "fi"])
def test_a_range_open_below_is_refused_and_shown_in_the_language(lang: str) -> None:
    """``analyze --time-ms`` takes more than 0 and at most an hour: refused with ``--lang``,
    it was Click's English ("0 is not in the range 0<x<=3600000."), and its translated
    --help gave no range at all."""
    from mextrain.i18n import Translator

    t = Translator(lang)
    hour = HOUR_MS_WRITTEN[lang]
    assert t.whole(3_600_000) == hour
    for value in ("0", "-1", "3600001"):
        result = invoke("analyze", str(COMPLETE), "--round", "0", "--action", "0",
                        "--time-ms", value, "--lang", lang)  # fmt: skip
        assert result.exit_code == 2, result.output
        message = t("tui.cli.out_of_range_above", value=value, low="0", high=hour)
        first = (result.stderr or result.stdout).splitlines()[0]
        assert first == t("tui.cli.error_option", option="--time-ms", message=message), value
    if lang != "en":  # (English --help is Click's own: "0<x<=3600000")
        shown = invoke("analyze", "--help", "--lang", lang).output
        shown = re.sub(r"[ \n]+", " ", shown)  # (its lines wrapped as one; no-break spaces kept)
        assert t("tui.cli.help.range_above", low="0", high=hour) in shown


@pytest.mark.parametrize("lang", ["en", "fr", "it", "fi"])
def test_play_refuses_a_module_it_cannot_import_as_simulate_does(
    lang: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``play --import`` of a module that cannot be imported was a command line to mend
    (status 2, "Try ... --help"), where ``simulate --import`` refuses the job (status 1)
    as BOTS.md says: both now refuse it, with Python's reason and the option named, and
    no --help to read (the command line is right; the module is not)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", list(sys.path))  # (the import puts the folder on it)
    (tmp_path / "broken_bots_mod.py").write_text("1 / 0\n", encoding="utf-8")
    for module, reason in [
        ("no_such_module_at_all", "No module named"),
        ("broken_bots_mod", "ZeroDivisionError"),
        ("missing.py", "no such file"),
    ]:
        played = invoke("play", "--lang", lang, "--import", module)
        simulated = invoke(*SIM_BOTS, "--import", module)
        assert_clean_error(played, f"'{module}'", reason, "--import")
        assert played.exit_code == simulated.exit_code == 1, played.output
        assert "--help" not in played.output, played.output


def test_play_resume_of_a_file_nested_too_deep_to_read_is_a_clean_error(tmp_path: Path) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text('{"a": ' + "[" * 100_000 + "1" + "]" * 100_000 + "}")
    assert_clean_error(invoke("play", "--resume", "--file", str(deep)), "Cannot resume")


def test_play_resume_missing_file(tmp_path: Path) -> None:
    result = invoke("play", "--resume", "--file", str(tmp_path / "missing.json"))
    assert_clean_error(result, "does not exist")


def test_play_resume_malformed_file_is_kept(tmp_path: Path) -> None:
    saved = tmp_path / "saved.json"
    saved.write_text("{not json")
    digest = hashlib.sha256(saved.read_bytes()).hexdigest()
    result = invoke("play", "--resume", "--file", str(saved))
    assert_clean_error(result, "Cannot resume")
    french = invoke("play", "--resume", "--file", str(saved), "--lang", "fr")
    assert_clean_error(french, "Impossible de reprendre")
    assert hashlib.sha256(saved.read_bytes()).hexdigest() == digest


@pytest.mark.parametrize("lang", ["en", "fr", "it", "fi"])
def test_play_resume_says_why_in_the_players_words(tmp_path: Path, lang: str) -> None:
    from mextrain.i18n import Translator

    t = Translator(lang)
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    said = invoke("play", "--resume", "--file", str(broken), "--lang", lang)
    assert_clean_error(said, t("tui.cli.why.damaged"), "not JSON")  # the reader's detail
    assert "not a record: not JSON" not in said.output
    illegal = invoke("play", "--resume", "--file", str(ILLEGAL), "--lang", lang)
    assert_clean_error(illegal, t("tui.cli.why.illegal"))
    empty = tmp_path / "empty.json"
    no_round = {**json.loads(COMPLETE.read_text()), "rounds": []}
    del no_round["result"]  # (no result: left out; null is none of the record's values)
    empty.write_text(json.dumps(no_round))
    none = invoke("play", "--resume", "--file", str(empty), "--lang", lang)
    assert_clean_error(none, t("tui.cli.why.no_round"))
    seats = len(json.loads(COMPLETE.read_text())["players"])
    more = ",".join(["you"] + ["greedy"] * seats)
    crowded = invoke("play", "--resume", "--file", str(COMPLETE), "--seats", more, "--lang", lang)
    too_many = t("game.bot_error.too_many_seats", given=seats + 1, players=seats)
    assert_clean_error(crowded, too_many)


# ------------------------------------------------------------------------------- serve


@pytest.mark.parametrize(
    ("args", "word"),
    [
        (("--port", "70000"), "--port"),
        (("--port", "-1"), "--port"),
        (("--bot-delay", "-1"), "--bot-delay"),
        (("--takeover-after", "-1"), "--takeover-after"),
        (("--round-pause", "-1"), "--round-pause"),
        (("--messages-per-second", "0"), "--messages-per-second"),
        (("--tables-per-minute", "0"), "--tables-per-minute"),
        (("--tables-per-minute", "nan"), "nan is not a finite number"),
        (("--joins-per-minute", "0"), "--joins-per-minute"),
        (("--joins-per-minute", "inf"), "inf is not a finite number"),
        (("--lookups-per-minute", "0"), "--lookups-per-minute"),
        (("--lookups-per-minute", "nan"), "nan is not a finite number"),
        (("--connections-per-address", "0"), "--connections-per-address"),
        (("--log-level", "loud"), "--log-level"),
        # not numbers at all: nan would be no delay, inf a table that never deals again
        (("--bot-delay", "nan"), "nan is not a finite number"),
        (("--round-pause", "inf"), "inf is not a finite number"),
        (("--takeover-after", "nan"), "--takeover-after"),
        (("--messages-per-second", "inf"), "inf is not a finite number"),
        # finite, and a table that never deals again all the same
        (("--round-pause", "1e308"), "--round-pause"),
        (("--bot-delay", "1" + "0" * 400), "(401 digits) is not in the range 0<=x<=60."),
        (("--bot-delay", "61"), "--bot-delay"),
        (("--takeover-after", "86401"), "--takeover-after"),
        (("--min-turn-time", "0"), "--min-turn-time"),
        (("--min-turn-time", "3601"), "--min-turn-time"),
        (("--min-turn-time", "nan"), "nan is not a finite number"),
        (("--min-turn-time", "ten"), "--min-turn-time"),
        (("--idle-minutes", "-1"), "--idle-minutes"),
        (("--idle-minutes", "10081"), "--idle-minutes"),
        (("--idle-minutes", "inf"), "inf is not a finite number"),
    ],
)
def test_serve_bad_options(args: tuple[str, ...], word: str) -> None:
    assert_clean_error(invoke("serve", *args), word)


def test_serve_gives_the_server_its_options(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each timing option reaches the server's `Settings` (``--min-turn-time`` was none)."""
    import uvicorn

    import mextrain.web

    made: list[mextrain.web.Settings] = []
    real = mextrain.web.create_app

    def spy(path: Path, settings: mextrain.web.Settings) -> object:
        made.append(settings)
        return real(path, settings)

    monkeypatch.setattr(mextrain.web, "create_app", spy)
    monkeypatch.setattr(uvicorn, "run", lambda *args, **kwargs: None)
    db = tmp_path / "x.sqlite3"
    args = ["--min-turn-time", "5", "--round-pause", "2", "--takeover-after", "7"]
    result = invoke("serve", "--port", "0", "--db", str(db), *args)
    assert result.exit_code == 0, result.output
    assert [(s.min_turn_time, s.round_pause, s.takeover_after) for s in made] == [(5, 2, 7)]
    assert invoke("serve", "--port", "0", "--db", str(db)).exit_code == 0
    assert made[-1].min_turn_time == 10  # (the default, as `Settings` has it)
    assert mextrain.web.Settings().min_turn_time == 10
    # the idle time is given in minutes, kept in seconds; 0: tables never leave memory
    assert made[-1].idle_after == mextrain.web.Settings().idle_after == 1800
    for minutes, seconds in (("2.5", 150), ("0", 0)):
        result = invoke("serve", "--port", "0", "--db", str(db), "--idle-minutes", minutes)
        assert result.exit_code == 0, result.output
        assert made[-1].idle_after == seconds


def test_serve_db_is_a_directory(tmp_path: Path) -> None:
    assert_clean_error(invoke("serve", "--db", str(tmp_path), "--port", "0"), "is a directory")


def test_serve_refuses_a_database_another_server_holds(tmp_path: Path) -> None:
    db = tmp_path / "busy.sqlite3"
    with ServerLock(db):  # as a running server holds it
        assert_clean_error(
            invoke("serve", "--db", str(db), "--port", "0"), "one server per database"
        )


# a --db that names some other file (a slip of the keyboard) is refused, and left as it was
def test_serve_db_that_is_not_a_database_is_refused_and_kept(tmp_path: Path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("important notes")
    assert_clean_error(invoke("serve", "--db", str(notes), "--port", "0"), "file is not a database")
    assert notes.read_text() == "important notes"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]  # no lock beside it
    afile = tmp_path / "afile"
    afile.write_text("x")
    assert_clean_error(
        invoke("serve", "--db", str(afile / "x.sqlite3"), "--port", "0"), "is not a folder"
    )


# an unopenable --db is a clear error before the server starts
def test_serve_unwritable_db_is_clean_error() -> None:
    try:
        proc = subprocess.run(
            [str(MEXTRAIN), "serve", "--db", "/proc/x.db", "--port", "0"],
            capture_output=True,
            text=True,
            timeout=30,
            stdin=subprocess.DEVNULL,
        )
    except subprocess.TimeoutExpired:
        pytest.fail("serve with an unopenable --db kept running")
    assert proc.returncode != 0
    assert "/proc/x.db" in proc.stderr
    assert "Traceback" not in proc.stderr


# `ismcts:time_ms=nan` (or inf) is no budget: refused
def test_simulate_nan_time_budget_is_refused() -> None:
    assert_clean_error(sim(bots="random,ismcts:time_ms=nan,iterations=2"), "time_ms")


# JSON can spell a lone surrogate ("\ud800"), which no UTF-8 output can hold: such a
# record is "not a record" (exit 2), said in one line or one JSON object, never a traceback
@pytest.mark.parametrize("where", ["players", "format", "actions"])
@pytest.mark.parametrize("as_json", [False, True])
def test_a_lone_surrogate_in_a_record_is_a_clean_format_error(
    tmp_path: Path, where: str, as_json: bool
) -> None:
    doc = json.loads(COMPLETE.read_text(encoding="utf-8"))
    if where == "actions":
        doc["rounds"][0]["actions"].append("\ud800")
    elif where == "players":
        doc["players"][0] = "Ana\ud800"
    else:
        doc["format"] = "\ud800"
    path = tmp_path / "surrogate.json"
    path.write_text(json.dumps(doc), encoding="ascii")  # the escape as JSON writes it
    args = [str(MEXTRAIN), "replay", str(path), *(["--json"] if as_json else [])]
    proc = subprocess.run(args, capture_output=True, timeout=60, stdin=subprocess.DEVNULL)
    assert proc.returncode == 2
    assert b"Traceback" not in proc.stderr
    if as_json:
        report = json.loads(proc.stdout)
        assert report["valid"] is False
        assert where in report["error"]["reason"]
        assert "\ud800" in report["error"]["reason"] or "\\ud800" in report["error"]["reason"]
    else:
        assert proc.stdout == b""
        line = proc.stderr.decode("utf-8")
        assert line.startswith("Not a game record:")
        assert where in line
        assert "\\ud800" in line


# so is a lone surrogate among the rules' options, for analyze as for replay
def test_analyze_json_with_a_lone_surrogate_in_the_rules(tmp_path: Path) -> None:
    doc = json.loads(COMPLETE.read_text(encoding="utf-8"))
    doc["rules"] = {**doc["rules"], "\ud800": 1}
    path = tmp_path / "surrogate.json"
    path.write_text(json.dumps(doc), encoding="ascii")
    args = [str(MEXTRAIN), "analyze", str(path), "--round", "0", "--action", "0", "--json"]
    proc = subprocess.run(args, capture_output=True, timeout=60, stdin=subprocess.DEVNULL)
    assert proc.returncode == 2
    assert b"Traceback" not in proc.stderr
    report = json.loads(proc.stdout)
    assert report["valid"] is False
    assert "unknown option" in report["error"]["reason"]


# a record's names may hold anything JSON can spell: none of it reaches the terminal raw
def test_control_characters_in_names_are_shown_as_escapes(tmp_path: Path) -> None:
    doc = json.loads(COMPLETE.read_text(encoding="utf-8"))
    doc["players"] = ["An\na", "B\u001b[31mred\u202e"]
    path = tmp_path / "names.json"
    path.write_text(json.dumps(doc))
    result = invoke("replay", str(path))
    assert result.exit_code == 0, result.output
    assert "\x1b" not in result.stdout
    assert "\u202e" not in result.stdout
    assert "An\\u000aa, B\\u001b[31mred\\u202e" in result.stdout
    shown = invoke("analyze", str(path), "--round", "0", "--action", "0", "--iterations", "5")
    assert shown.exit_code == 0, shown.output
    assert "\x1b" not in shown.stdout
    assert "\\u00" in shown.stdout.splitlines()[0]  # the seat to move, by its name


# the viewer reads its keys from the terminal: without one it could never be left
@pytest.mark.parametrize(
    ("args", "word"),
    [
        (("-", "--watch"), "needs a record file"),
        ((str(COMPLETE), "--watch", "--json"), "pick one"),
        ((str(COMPLETE), "--watch"), "needs a terminal"),
    ],
)
def test_replay_watch_needs_a_terminal(args: tuple[str, ...], word: str) -> None:
    assert_clean_error(invoke("replay", *args), word)


NOT_A_RECORD = {"round": None, "action": None, "text": None}


@pytest.mark.parametrize(
    ("args", "reason"),
    [
        (
            (str(COMPLETE), "--watch"),
            "--watch shows the game on screen; --json prints it: pick one",
        ),
        (
            (str(COMPLETE), "--lang", "fr"),
            "--lang sets the language of --watch; the report and --json are in English",
        ),
        ((), "Missing argument 'FILE'."),
        ((str(COMPLETE), str(COMPLETE)), "Got unexpected extra argument"),
        ((str(COMPLETE), "--nosuch"), "No such option '--nosuch'"),
        ((str(COMPLETE), "--lang", "xx"), "--lang: 'xx' is not one of"),
    ],
)
def test_replay_json_says_a_command_line_it_cannot_read_as_every_exit_2(
    args: tuple[str, ...], reason: str
) -> None:
    """RECORD.md: for exit status 2 ``replay --json`` prints ``{"valid": false, "error":
    {"round": null, "action": null, "text": null, "reason": ...}}``. A command line it
    cannot read gave another object (``{"error": {"option": ..., "reason": ...}}``, no
    ``valid``): it is that one too, the reason naming the option."""
    told = invoke("replay", *args, "--json")
    assert told.exit_code == 2
    (line,) = told.stdout.splitlines()
    doc = json.loads(line)
    assert doc["valid"] is False
    assert list(doc["error"]) == ["round", "action", "text", "reason"]
    assert {k: doc["error"][k] for k in NOT_A_RECORD} == NOT_A_RECORD
    assert reason in doc["error"]["reason"]


# Ray retries an address where nothing answers for minutes: the simulator says so at once
@pytest.mark.parametrize("address", ["127.0.0.1:1", "ray://nosuchhost.invalid:10001"])
def test_simulate_on_an_unreachable_ray_cluster_is_a_clean_error(address: str) -> None:
    pytest.importorskip("ray")
    result = sim("--backend", "ray", "--address", address)
    assert_clean_error(result, f"no Ray cluster answers at {address}")
    assert result.exit_code == 1


def test_simulate_checks_the_cluster_ray_address_names_as_it_checks_address(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # `ray job submit` sets RAY_ADDRESS: the run joins that cluster, so its address is
    # checked first like --address's (Ray would retry for minutes), and --jobs is its
    # business (no bound of this machine's)
    pytest.importorskip("ray")
    monkeypatch.setenv("RAY_ADDRESS", "127.0.0.1:1")
    records = tmp_path / "recs"
    result = sim("--backend", "ray", "--jobs", "500", "--records", str(records))
    assert_clean_error(result, "no Ray cluster answers at 127.0.0.1:1")
    assert "unset RAY_ADDRESS for a local Ray" in result.output  # (no --address was given)
    assert not records.exists()
    monkeypatch.setenv("RAY_ADDRESS", "bogus")
    result = sim("--backend", "ray", "--records", str(records))
    assert_clean_error(result, "RAY_ADDRESS is written HOST:PORT, ray://HOST:PORT or auto")
    assert "--address" not in result.output


@pytest.mark.parametrize(
    "address", ["", "127.0.0.1", "127.0.0.1:abc", "garbage::://", "http://h:1", "h:1/x"]
)
def test_simulate_refuses_a_ray_address_of_no_shape_before_making_anything(
    tmp_path: Path, address: str
) -> None:
    """An address Ray cannot read ended in its traceback, after the records directory was
    made: it is refused first, in words, and nothing is made."""
    records = tmp_path / "recs"
    result = sim("--backend", "ray", "--address", address, "--records", str(records))
    assert_clean_error(result, "--address is written HOST:PORT, ray://HOST:PORT or auto")
    assert result.exit_code == 1
    assert not records.exists()


def test_a_records_words_never_reach_the_terminal_raw(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An option's name in a record's rules may hold an escape sequence: every command
    that says what is wrong with the record shows it escaped."""
    doc = json.loads(COMPLETE.read_text())
    doc["rules"] = {"preset": "classic", "max_pip": 6, "\u001b[31mzz": 1}
    path = tmp_path / "escape.json"
    path.write_text(json.dumps(doc))
    monkeypatch.setenv("MEXTRAIN_DATA_DIR", str(tmp_path / "data"))
    for args in (
        ["replay", str(path)],
        ["analyze", str(path), "--round", "0", "--action", "0"],
        ["play", "--resume", "--file", str(path)],
    ):
        result = invoke(*args)
        assert_clean_error(result, "\\u001b[31mzz")
        assert "\x1b" not in result.output, args


def test_a_record_with_no_round_is_refused_by_the_viewer_and_resume(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A legal record of a game not yet dealt: nothing to watch, nothing to go on with;
    said before any screen opens (it crashed inside them)."""
    doc = json.loads((RECORDS / "double6_in_progress.json").read_text())
    doc["rounds"] = []
    doc.pop("result", None)
    path = tmp_path / "none.json"
    path.write_text(json.dumps(doc))
    assert invoke("replay", str(path)).exit_code == 0  # legal: a game about to start
    monkeypatch.setattr("mextrain.cli.replay._has_terminal", lambda: True)
    assert_clean_error(invoke("replay", str(path), "--watch"), "no round dealt yet")
    monkeypatch.setenv("MEXTRAIN_DATA_DIR", str(tmp_path / "data"))
    assert_clean_error(invoke("play", "--resume", "--file", str(path)), "no round dealt yet")


def test_a_file_too_big_for_a_record_is_refused_unread(tmp_path: Path) -> None:
    """Reading stops past 64 MiB (a record of a whole ten-seat match is far smaller):
    `/dev/zero` or a huge file is no record, said as such, not a MemoryError."""
    huge = tmp_path / "huge.json"
    with open(huge, "wb") as f:
        f.truncate(65 * 1024 * 1024)  # sparse: nothing written
    for command in ("replay", "analyze"):
        args = [command, str(huge)] + (["--round", "0", "--action", "0"] * (command == "analyze"))
        result = invoke(*args)
        assert result.exit_code == 2
        assert_clean_error(result, "too big for a record")


@pytest.mark.parametrize(
    ("args", "word"),
    [
        (["--host", ""], "give an address"),
        (["--host", "  "], "give an address"),
        (["--messages-per-second", "1e308"], "1<=x<=10000"),
    ],
)
def test_serve_refuses_an_empty_host_and_a_rate_past_reason(args: list[str], word: str) -> None:
    result = invoke("serve", *args)
    assert result.exit_code == 2
    assert_clean_error(result, word)


def test_play_needs_a_terminal_and_a_folder_to_save_in(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without a terminal (keys from a pipe) `play` says so before any screen; with one,
    a data folder that cannot be made is refused before the game, not inside it."""
    from mextrain.tui import PlayApp

    started: list[object] = []
    monkeypatch.setattr(PlayApp, "run", lambda self: started.append(self))
    monkeypatch.setenv("MEXTRAIN_DATA_DIR", str(tmp_path / "data"))
    result = invoke("play", "--seats", "you,greedy", "--lang", "en")
    assert result.exit_code == 2
    assert_clean_error(result, "needs a terminal")
    monkeypatch.setattr("mextrain.cli.play._has_terminal", lambda: True)
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("MEXTRAIN_DATA_DIR", str(blocker))
    result = invoke("play", "--seats", "you,greedy", "--lang", "fi")
    assert result.exit_code == 1
    # why, in the player's words too (not the system's English "Not a directory")
    assert_clean_error(result, "MEXTRAIN_DATA_DIR", str(blocker), "osa polusta ei ole kansio")
    assert not started
    monkeypatch.setenv("MEXTRAIN_DATA_DIR", str(tmp_path / "data"))
    assert invoke("play", "--seats", "you,greedy", "--lang", "en").exit_code == 0
    assert len(started) == 1


def test_an_empty_path_is_said_to_be_missing() -> None:
    """An empty file name read "no such file: ." (the path shown as a full stop)."""
    for args in (["replay", ""], ["analyze", "", "--round", "0", "--action", "0"]):
        result = invoke(*args)
        assert result.exit_code == 2
        assert_clean_error(result, "no file named")
    result = invoke("serve", "--db", "")
    assert result.exit_code == 2
    assert_clean_error(result, "give the database file's path")


def test_serve_on_a_busy_port_says_so_before_making_anything(tmp_path: Path) -> None:
    """A port in use failed inside the server, after start-up, and left a new database
    behind: it is refused first, in words, and nothing is made."""
    import socket

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        db = tmp_path / "new" / "x.sqlite3"
        result = invoke("serve", "--port", str(port), "--db", str(db))
        assert result.exit_code == 1
        assert_clean_error(result, f"cannot listen on 127.0.0.1:{port}")
        assert not db.parent.exists()


def test_serve_on_an_address_not_this_machines_says_so_with_any_port(tmp_path: Path) -> None:
    """With ``--port 0`` (any free port) the address was not checked: the server made its
    database, then failed in its log. 192.0.2.1 is a documentation address, no machine's."""
    db = tmp_path / "x.sqlite3"
    result = invoke("serve", "--host", "192.0.2.1", "--port", "0", "--db", str(db))
    assert result.exit_code == 1
    assert_clean_error(result, "cannot listen on 192.0.2.1:0")
    assert list(tmp_path.iterdir()) == []


def test_serve_does_not_make_a_mistyped_folder(tmp_path: Path) -> None:
    db = tmp_path / "gmaes" / "x.sqlite3"
    result = invoke("serve", "--port", "0", "--db", str(db))
    assert result.exit_code == 1
    assert_clean_error(result, f"there is no folder {db.parent}")
    assert list(tmp_path.iterdir()) == []


def test_stats_json_stays_json_with_a_folder_name_that_is_not_utf8(tmp_path: Path) -> None:
    import os

    odd = os.fsdecode(os.fsencode(str(tmp_path)) + b"/bad\xffdir")
    os.mkdir(odd)
    result = invoke("stats", "--dir", odd, "--json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)  # valid JSON: the odd byte as the escape \udcff
    assert doc["folder"].endswith("bad\udcffdir")


@pytest.mark.parametrize("lang", ["en", "fr", "it", "fi"])
def test_stats_says_what_it_refuses_in_the_language_given(lang: str, tmp_path: Path) -> None:
    """``stats --lang fr --dir gone`` was refused in Click's English, and a file given as
    ``--dir`` was "Directory '…' is a file"; both are said in the language, in JSON too."""
    from mextrain.i18n import Translator

    t = Translator(lang)
    gone = str(tmp_path / "gone")
    a_file = tmp_path / "a.json"
    a_file.write_text("{}")
    for args, option, message, value in [
        (("--dir", gone), "--dir", t("tui.cli.no_such_file", path=gone), True),
        (("--dir", str(a_file)), "--dir", t("tui.cli.not_a_folder", path=str(a_file)), True),
        (("--nosuch",), "--nosuch", t("tui.cli.no_such_option", option="--nosuch"), False),
    ]:
        bad = invoke("stats", *args, "--lang", lang)
        assert bad.exit_code == 2, args
        said, where = (bad.stderr or bad.stdout).splitlines()
        if value:  # (a value refused: its option named)
            assert said == t("tui.cli.error_option", option=option, message=message), args
        else:  # (Click's words for a command line it cannot read: framed as an error)
            assert said == t("tui.cli.error", message=message), args
        assert where == t("tui.cli.try_help", command="main stats --help"), args
        as_json = invoke("stats", "--lang", lang, *args, "--json")
        assert as_json.exit_code == 2, args
        assert json.loads(as_json.stdout) == {"error": {"option": option, "reason": message}}
    # a folder it can read: the statistics, no refusal
    fine = invoke("stats", "--dir", str(tmp_path), "--lang", lang)
    assert fine.exit_code == 0, fine.output


SIM = ("simulate", "--players", "2", "--bots", "greedy,random", "--seed", "1")


@pytest.mark.parametrize(
    ("args", "option", "reason"),
    [
        ((*SIM, "--games", "0"), "--games", "0 is not in the range x>=1"),
        ((*SIM, "--games", "x"), "--games", "'x' is not a valid integer range"),
        (("simulate", "--players", "2", "--games", "2", "--seed", "1"), "--bots", "--bots"),
        ((*SIM, "--games", "2", "--nope"), "--nope", "No such option"),
        ((*SIM, "--games", "2", "--backend", "mpi"), "--backend", "'mpi' is not one of"),
        (("analyze", str(COMPLETE), "--round", "x", "--action", "0"), "--round", "'x'"),
        (("analyze", str(COMPLETE), "--action", "0"), "--round", "Missing option"),
        (("solve", "--start", "x"), "--start", "'x'"),
        (("solve", "-s", "1", "--max-pip", "99"), "--max-pip", "99 is not in the range"),
        (("stats", "--nosuch"), "--nosuch", "No such option"),
    ],
)
def test_with_json_a_command_line_that_cannot_be_read_is_one_object_too(
    args: tuple[str, ...], option: str, reason: str
) -> None:
    """``--json`` promises one JSON object: a command line click cannot read (a number
    that is not one, or out of range, an unknown or missing option) is one too, on
    standard output with click's status 2 -- not usage text for a person."""
    result = invoke(*args, "--json")
    assert result.exit_code == 2, result.output
    (line,) = result.stdout.splitlines()
    error = json.loads(line)["error"]
    assert error["option"] == option
    assert reason in error["reason"]
    # without --json it is usage text for a person, as before
    plain = invoke(*args)
    assert plain.exit_code == 2
    assert "Usage:" in plain.output


@pytest.mark.parametrize(
    ("args", "code", "reason"),
    [
        (("solve", "-s", "1", "1-x"), 2, "'1-x' is not a tile"),
        (("replay", str(COMPLETE), "--lang", "fr"), 2, "--lang sets the language of --watch"),
        ((*SIM, "--games", "3"), 1, "must be a multiple of 2"),
    ],
)
def test_with_json_the_commands_own_refusals_are_one_object(
    args: tuple[str, ...], code: int, reason: str
) -> None:
    """A refusal the command itself makes (not click) is one object with --json too, in
    every command that has it, with the status it has without."""
    result = invoke(*args, "--json")
    assert result.exit_code == code, result.output
    (line,) = result.stdout.splitlines()
    assert reason in json.loads(line)["error"]["reason"]
    plain = invoke(*args)
    assert plain.exit_code == code
    assert reason in plain.output
    assert not plain.stdout.lstrip().startswith("{")


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (("solve", "--start", "13", "1-2"), "--start"),
        (("analyze", str(COMPLETE), "--round", "99", "--action", "0"), "--round"),
    ],
)
def test_with_json_a_refused_option_value_is_named(args: tuple[str, ...], option: str) -> None:
    """A refusal the command makes of one option's value names that option, as click's
    own refusals do (``--start x`` names ``--start``, so ``--start 13`` does too)."""
    result = invoke(*args, "--json")
    assert result.exit_code == 2, result.output
    assert json.loads(result.stdout)["error"]["option"] == option


@pytest.mark.parametrize(
    "args",
    [
        (*SIM[:3], "--bots", "--json", "--games", "x", "--seed", "1"),  # a bot list "--json"
        (*SIM, "--games", "0", "--records", "--json"),  # a folder named "--json"
    ],
)
def test_json_as_another_options_value_asks_for_no_json(args: tuple[str, ...]) -> None:
    """``--json`` counts where click reads it as the flag, not as another option's value."""
    result = invoke(*args)
    assert result.exit_code == 2
    assert "Usage:" in result.output
    assert not result.stdout.lstrip().startswith("{")


def test_with_json_an_option_missing_its_value_is_named() -> None:
    result = invoke("solve", "--json", "--start")
    assert result.exit_code == 2
    assert json.loads(result.stdout) == {
        "error": {"option": "--start", "reason": "Option '--start' requires an argument."}
    }


def test_every_option_of_every_command_says_what_it_is_for() -> None:
    """`serve --help` listed --port and --log-level with their defaults and nothing else:
    every option of every command has a help text."""
    import click

    from mextrain.cli import main

    bare: list[str] = []

    def walk(command: click.Command, path: str) -> None:
        if isinstance(command, click.Group):
            for name, sub in command.commands.items():
                walk(sub, f"{path} {name}")
        bare.extend(
            f"{path} {param.opts[0]}"
            for param in command.params
            if isinstance(param, click.Option) and not (param.help or "").strip()
        )

    walk(main, "mextrain")
    assert bare == []


# ------------------------------------------------------------ a long number refused

LONG_NUMBER = "7" * 3000
SHORT_NUMBER = "77777777…(3,000 digits)"
#: as each language writes it (French sets thousands apart with a narrow no-break space,
#: Finnish with a no-break space; Italian groups from five digits)
SHORT_NUMBER_IN = {
    "en": SHORT_NUMBER,
    "fr": "77777777…(3\u202f000 chiffres)",
    "it": "77777777…(3000 cifre)",
    "fi": "77777777…(3\u00a0000 numeroa)",
}


@pytest.mark.parametrize(
    ("args", "code", "option"),
    [
        (("play", "--players", LONG_NUMBER), 2, "--players"),
        (("play", "--players", LONG_NUMBER, "--lang", "fr"), 2, "--players"),
        (("play", "--delay", LONG_NUMBER), 2, "--delay"),
        (("solve", "-s", "1", "--max-pip", LONG_NUMBER, "1-2"), 2, "--max-pip"),
        (("solve", "-s", "1", "--max-pip", LONG_NUMBER, "1-2", "--lang", "it"), 2, "--max-pip"),
        (("serve", "--port", LONG_NUMBER), 2, "--port"),
        (("analyze", str(IN_PROGRESS), "--round", LONG_NUMBER, "--action", "0"), 2, "--round"),
        (("analyze", str(IN_PROGRESS), "--round", "0", "--action", LONG_NUMBER), 2, "--action"),
        (
            (
                "simulate",
                "--players",
                LONG_NUMBER,
                "--bots",
                "random",
                "--games",
                "2",
                "--seed",
                "1",
            ),
            1,
            "--players",
        ),
        (
            (
                "simulate",
                "--players",
                "2",
                "--bots",
                "random,random",
                "--games",
                LONG_NUMBER,
                "--seed",
                "1",
            ),
            1,
            "--games",
        ),
    ],
)
def test_a_long_number_refused_is_quoted_shortened(
    args: tuple[str, ...], code: int, option: str
) -> None:
    """A number of thousands of digits refused was quoted back whole ("not in the range",
    "not a finite number", the rules' "for 2 to 8 players, not ..."): the refusal is
    shortened as replay shortens a long number, still one line naming the option, with
    the status it had -- and the count in the refusal's language ("(3,000 digits)" was
    English in a French refusal too)."""
    result = invoke(*args)
    lang = args[args.index("--lang") + 1] if "--lang" in args else "en"
    assert_clean_error(result, SHORT_NUMBER_IN[lang], option)
    assert result.exit_code == code
    assert LONG_NUMBER[:41] not in result.output
    err = result.stderr if result.stderr else result.stdout
    assert all(len(line) < 250 for line in err.splitlines()), err


@pytest.mark.parametrize(
    "args",
    [
        ("solve", "-s", "1", "--max-pip", LONG_NUMBER, "1-2"),
        ("analyze", str(IN_PROGRESS), "--round", "0", "--action", LONG_NUMBER),
        (
            "simulate",
            "--players",
            "2",
            "--bots",
            "random,random",
            "--games",
            LONG_NUMBER,
            "--seed",
            "1",
        ),
    ],
)
def test_with_json_a_long_number_refused_is_shortened_too(args: tuple[str, ...]) -> None:
    result = invoke(*args, "--json")
    (line,) = result.stdout.splitlines()
    reason = json.loads(line)["error"]["reason"]
    assert SHORT_NUMBER in reason
    assert LONG_NUMBER[:41] not in reason


# ------------------------------------------------------------ a long text refused

LONG_TEXT = "x" * 5000
#: how each language says a shortened text's length ("(5,000 characters)")
CHARACTERS_IN = {"en": "characters)", "fr": "caractères)", "it": "caratteri)", "fi": "merkkiä)"}
SIMULATE = ("simulate", "--players", "2", "--games", "2", "--seed", "1", "--jobs", "1")
SIM_BOTS = (*SIMULATE, "--bots", "random,random")
NOWHERE = "/nonexistent-mextrain-folder"

#: (what is refused, its command line, the exit status, said in --lang's language,
#: has --json)
LONG_TEXTS = [
    ("preset", ("play", "--rules", LONG_TEXT), 2, True, False),
    ("preset in JSON", ("play", "--rules", json.dumps(LONG_TEXT)), 2, True, False),
    ("house option", ("play", "--option", LONG_TEXT), 2, True, False),
    (
        "house option's value",
        ("play", "--option", f"draw_until_playable={LONG_TEXT}"),
        2,
        True,
        False,
    ),
    ("house option's name", ("play", "--option", f"{LONG_TEXT}=1"), 2, True, False),
    ("bot in --seats", ("play", "--seats", f"you,{LONG_TEXT}"), 2, True, False),
    ("bot parameter", ("play", "--seats", f"you,random:{LONG_TEXT}=1"), 2, True, False),
    ("name", ("play", "--seats", "you,random", "--names", LONG_TEXT), 2, True, False),
    (
        "unprintable name",
        ("play", "--seats", "you,random", "--names", f"\a{LONG_TEXT}"),
        2,
        True,
        False,
    ),
    ("module", ("play", "--import", LONG_TEXT), 1, True, False),
    ("module file", ("play", "--import", f"{LONG_TEXT}.py"), 1, True, False),
    ("saved game", ("play", "--resume", "--file", LONG_TEXT), 2, True, False),
    ("language", ("play", "--lang", LONG_TEXT), 2, False, False),
    ("players", ("play", "--players", LONG_TEXT), 2, True, False),
    ("delay", ("play", "--delay", LONG_TEXT), 2, True, False),
    ("record", ("replay", LONG_TEXT), 2, False, True),
    ("record to analyze", ("analyze", "--round", "0", "--action", "0", LONG_TEXT), 2, False, True),
    ("games' folder", ("stats", "--dir", LONG_TEXT), 2, True, True),
    ("solve's language", ("solve", "-s", "1", "--lang", LONG_TEXT, "1-2"), 2, False, True),
    ("database", ("serve", "--port", "0", "--db", f"{NOWHERE}/{LONG_TEXT}"), 1, False, False),
    ("host", ("serve", "--port", "0", "--host", LONG_TEXT), 1, False, False),
    ("cluster", (*SIM_BOTS, "--backend", "ray", "--address", LONG_TEXT), 1, False, True),
    ("bot in --bots", (*SIMULATE, "--bots", f"random,{LONG_TEXT}"), 1, False, True),
    ("800 bots", (*SIMULATE, "--bots", ",".join(["random"] * 800)), 1, False, True),
    ("simulate's preset", (*SIM_BOTS, "--rules", LONG_TEXT), 1, False, True),
    (
        "simulate's option",
        (*SIM_BOTS, "--rules", json.dumps({"preset": "classic", LONG_TEXT: 1})),
        1,
        False,
        True,
    ),
    ("simulate's module", (*SIM_BOTS, "--import", LONG_TEXT), 1, False, True),
    ("backend", (*SIM_BOTS, "--backend", LONG_TEXT), 2, False, True),
    ("records' folder", (*SIM_BOTS, "--records", f"{NOWHERE}/{LONG_TEXT}"), 1, False, True),
]


def _short_lines(err: str) -> None:
    """Every line of a refusal short, but for the names of the known bots an unknown one's
    refusal lists (as many as the process has registered: the tests add their own)."""
    from mextrain.bots import bot_names

    known = len(", ".join(bot_names()))
    assert all(len(line) < 320 + known for line in err.splitlines()), err


def _not_quoted_whole(text: str) -> None:
    """Nothing of a long argument past what a refusal shows of it (a path's 200
    characters), nor the 800 entries of a list."""
    assert LONG_TEXT[:201] not in text, text[:300]
    assert "random, " * 10 not in text, text[:300]


@pytest.mark.parametrize(
    ("args", "code"),
    [pytest.param(args, code, id=what) for what, args, code, _, _ in LONG_TEXTS],
)
def test_a_long_text_refused_is_quoted_shortened(
    args: tuple[str, ...], code: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A 5,000-character argument was quoted whole by the refusal (an unknown preset, bot,
    house option or module, a name, a path in Click's checks and the commands' own, a
    cluster's address, the 800 entries of a --bots list of the wrong length): it is
    quoted shortened (`show_text`: its first 40 characters, a path's 200, and its
    length), the refusal a short line, with the status it had."""
    monkeypatch.setenv("MEXTRAIN_DATA_DIR", str(tmp_path))
    result = invoke(*args)
    assert_clean_error(result, "characters)")
    assert result.exit_code == code
    _not_quoted_whole(result.output)
    err = result.stderr if result.stderr else result.stdout
    _short_lines(err)


@pytest.mark.parametrize("lang", ["fr", "it", "fi"])
@pytest.mark.parametrize(
    ("args", "code"),
    [pytest.param(args, code, id=what) for what, args, code, said, _ in LONG_TEXTS if said],
)
def test_a_long_text_refused_is_shortened_in_the_refusals_language(
    args: tuple[str, ...], code: int, lang: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same in every language, the length in the language's words ("(5 000
    caractères)"), not in English (but in Python's own English words for a module that
    cannot be imported)."""
    monkeypatch.setenv("MEXTRAIN_DATA_DIR", str(tmp_path))
    result = invoke(*args, "--lang", lang)
    assert_clean_error(result, CHARACTERS_IN[lang])
    assert result.exit_code == code
    _not_quoted_whole(result.output)
    err = result.stderr if result.stderr else result.stdout
    _short_lines(err)
    if "--import" not in args:
        assert "characters)" not in err, err


@pytest.mark.parametrize(
    ("args", "code"),
    [pytest.param(args, code, id=what) for what, args, code, _, has in LONG_TEXTS if has],
)
def test_with_json_a_long_text_refused_is_shortened_too(
    args: tuple[str, ...], code: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MEXTRAIN_DATA_DIR", str(tmp_path))
    result = invoke(*args, "--json")
    assert result.exit_code == code
    (line,) = result.stdout.splitlines()
    reason = json.loads(line)["error"]["reason"]
    assert "characters)" in reason
    assert len(reason) < 320, reason
    _not_quoted_whole(reason)


@pytest.mark.parametrize("lang", ["en", "fr", "it", "fi"])
def test_stats_of_a_long_name_quotes_it_shortened(
    lang: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``stats --name`` with a name no game has said so quoting the name whole."""
    monkeypatch.setenv("MEXTRAIN_DATA_DIR", str(tmp_path))
    result = invoke("stats", "--name", LONG_TEXT, "--lang", lang)
    assert result.exit_code == 0
    _not_quoted_whole(result.output)
    assert CHARACTERS_IN[lang] in result.output
    assert all(len(line) < 320 for line in result.output.splitlines()), result.output


@pytest.mark.parametrize("lang", ["en", "fr", "it", "fi"])
@pytest.mark.parametrize(
    ("args", "left_over"),
    [
        (("play", "--names", "Jean", "Paul"), "'Paul'"),  # (a name with a space, unquoted)
        (("stats", "a", "b"), "'a b'"),
        (("analyze", str(COMPLETE), "--round", "0", "--action", "0", "x"), "'x'"),
    ],
)
def test_what_is_left_over_on_a_command_line_is_said_in_the_language_given(
    lang: str, args: tuple[str, ...], left_over: str
) -> None:
    """``play --lang fr --names Jean Paul`` said "Erreur : Got unexpected extra argument
    (Paul)", Click's English inside French words: it is said in the language, with what
    to do about it (by ``stats --json`` too)."""
    from mextrain.i18n import Translator

    t = Translator(lang)
    message = t("tui.cli.extra_arguments", args=left_over)
    bad = invoke(*args, "--lang", lang)
    assert bad.exit_code == 2, bad.output
    said, where = (bad.stderr or bad.stdout).splitlines()
    assert said == t("tui.cli.error", message=message)
    assert where == t("tui.cli.try_help", command=f"main {args[0]} --help")
    if args[0] == "stats":  # (its --json says a refusal in the language; analyze's in English)
        as_json = invoke(*args, "--lang", lang, "--json")
        assert as_json.exit_code == 2, as_json.output
        assert json.loads(as_json.stdout) == {"error": {"reason": message}}
