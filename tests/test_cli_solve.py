"""``mextrain solve``: the readable answer, the JSON contract and bad input (exit 2)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from click.testing import CliRunner, Result

from mextrain.cli import main
from mextrain.i18n import LANGUAGES, Translator
from mextrain.planner import best_train, plan
from mextrain.rules import parse_tile, tile_set

HAND = ["12-5", "5-3", "3-3", "3-9", "9-12", "0-1", "2-2", "12-4"]


def run(*args: str) -> Result:
    return CliRunner().invoke(main, ["solve", *args], prog_name="mextrain")


def run_json(*args: str) -> dict[str, Any]:
    result = run("--json", *args)
    assert result.exit_code == 0, result.output
    assert result.stdout.count("\n") == 1  # exactly one JSON object, on one line
    payload = json.loads(result.stdout)
    assert isinstance(payload, dict)
    return payload


def test_json_contract() -> None:
    payload = run_json("--start", "12", *HAND)
    assert payload == {
        "start": 12,
        "train": ["12-5", "5-3", "3-3", "3-9", "9-12", "12-4"],
        "tiles": 6,
        "pips": 80,
        "extras": ["0-1", "2-2"],
        "mexican_starters": [],
        "stranded_doubles": ["2-2"],
    }


def test_json_train_is_written_from_the_touching_ends() -> None:
    payload = run_json("-s", "6", "1-6", "1-2", "0-2", "6-5", "4-5", "3-4", "--max-pip", "6")
    assert payload["train"] == ["6-5", "5-4", "4-3"]
    pip = payload["start"]
    for text in payload["train"]:
        near, far = map(int, text.split("-"))
        assert near == pip
        pip = far


@pytest.mark.parametrize("start", range(0, 13, 4))
def test_json_agrees_with_the_planner(start: int) -> None:
    hand = [str(t) for t in tile_set(12).tiles[start * 3 : start * 3 + 16]]
    payload = run_json("--start", str(start), *hand)
    train = best_train([parse_tile(t) for t in hand], start)
    assert payload["train"] == train.oriented()
    assert (payload["tiles"], payload["pips"]) == (train.length, train.pips)
    assert payload["extras"] == [
        str(t) for t in sorted(set(map(parse_tile, hand)) - set(train.tiles))
    ]
    planned = plan([parse_tile(t) for t in hand], start)
    assert payload["mexican_starters"] == [str(t) for t in planned.mexican_starters]
    assert payload["stranded_doubles"] == [str(t) for t in planned.stranded_doubles]


def test_the_whole_set_in_one_train() -> None:
    hand = [str(t) for t in tile_set(12).tiles]
    payload = run_json("--start", "7", *hand)
    assert payload["tiles"] == 91
    assert payload["extras"] == []


def test_readable_output() -> None:
    result = run("--start", "12", *HAND)
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert lines[0] == "Best train from 12: 6 tiles, 80 pips"
    assert lines[1].split() == ["12-5", "5-3", "3-3", "3-9", "9-12", "12-4"]
    assert lines[2] == "Extras (2, 5 pips): 0-1 2-2"
    assert "stranded doubles" in lines[-1]
    assert "2-2" in lines[-1]


def test_no_tile_at_all() -> None:
    payload = run_json("--start", "3")
    assert payload == {
        "start": 3,
        "train": [],
        "tiles": 0,
        "pips": 0,
        "extras": [],
        "mexican_starters": [],
        "stranded_doubles": [],
    }


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--start", "12", "12-5", "5-x"], "'5-x' is not a tile"),
        (["--start", "12", "12-5", "5-12"], "5-12 is given twice"),
        (["--start", "12", "12-13"], "pips go from 0 to 12"),
        (["--start", "13", "12-5"], "the pip must be from 0 to 12"),
        (["--start", "-1", "12-5"], "the pip must be from 0 to 12"),
        (["--start", "7", "6-7", "--max-pip", "6"], "the pip must be from 0 to 6"),
        (["--start", "5", "5-16", "--max-pip", "15"], "pips go from 0 to 15"),
        (["12-5"], "Missing option '--start'"),
        (["--start", "five", "12-5"], "'five' is not a valid integer"),
    ],
)
def test_bad_input_exits_2_with_a_message(args: list[str], message: str) -> None:
    result = run(*args)
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output


LONG = "7" * 5000


@pytest.mark.parametrize(
    ("args", "said"),
    [
        # (quoted as a record's reader quotes a bad tile: its first 40 characters and
        # how many there are; a number as the replay writes one)
        (["--start", "1", f"x{LONG}"], f"'x{'7' * 39}…' (5,001 characters) is not a tile"),
        (["--start", "1", f"1-{LONG}"], f"'1-{'7' * 38}…' (5,002 characters): pips go"),
        (["--start", "7" * 100, "1-2"], "--start 77777777…(100 digits): the pip must be"),
    ],
    ids=["not-a-tile", "pip-range", "start"],
)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_long_bad_argument_is_quoted_shortened(args: list[str], said: str, lang: str) -> None:
    """A 5,000-character tile was quoted whole in the refusal (and a 100-digit --start
    written out); it is shortened, as replay shortens a record's bad tile, in every
    language, its length in the language's words ("5 001 caractères", "100 cifre"), and
    the refusal stays one short line."""
    result = run(*args, "--lang", lang)
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    line = result.output.splitlines()[0]
    assert len(line) < 200, line
    if lang == "en":
        assert said in line
    shown = said.split(" is not", 1)[0].split(": pips", 1)[0].split(": the pip", 1)[0]
    head, _, length = shown.removeprefix("--start ").rpartition("(")
    count, unit = length.rstrip(")").split(" ")
    words = Translator(lang).count_words(unit, int(count.replace(",", "")))
    assert f"{head}({words})" in line, line


def test_one_tile_and_one_pip_are_singular() -> None:
    lines = run("--start", "0", "0-1", "5-5").output.splitlines()
    assert lines[0] == "Best train from 0: 1 tile, 1 pip"
    assert lines[2] == "Extras (1, 10 pips): 5-5"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_answer_and_the_refusals_in_each_language(lang: str) -> None:
    t = Translator(lang)
    result = run("--lang", lang, "--start", "12", *HAND)
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert lines[0] == t(
        "tui.solve.best",
        start=12,
        tiles=t.plural("tui.solve.tiles", 6),
        pips=t.plural("tui.solve.pips", 80),
    )
    assert lines[1].split() == ["12-5", "5-3", "3-3", "3-9", "9-12", "12-4"]
    assert lines[2] == t(
        "tui.solve.extras", count=2, pips=t.plural("tui.solve.pips", 5), tiles="0-1 2-2"
    )
    assert lines[3].strip() == t("tui.solve.stranded", tiles="2-2")
    empty = run("--lang", lang, "--start", "12", "0-1").output.splitlines()
    assert empty[1].strip() == t("tui.solve.no_tile")
    # French counts 0 as one ("0 domino"); the others say "0 tiles"
    assert t.plural("tui.solve.tiles", 0) in empty[0]
    for args, key, params in (
        (("12-5", "12-5"), "tui.solve.twice", {"tile": "5-12"}),
        (("5-x",), "tui.solve.not_a_tile", {"text": "'5-x'"}),
        (("5-13",), "tui.solve.pip_range", {"text": "'5-13'", "max_pip": 12}),
    ):
        refused = run("--lang", lang, "--start", "12", *args)
        assert refused.exit_code == 2
        # the whole refusal in the language, its frame too: not Click's English
        # "Usage: …", "Try … for help." and "Error: …" around French words
        assert refused.stderr.splitlines() == [
            t("tui.cli.error", message=t(key, **params)),
            t("tui.cli.try_help", command="mextrain solve --help"),
        ]
    refused = run("--lang", lang, "--start", "13", "5-1")
    assert refused.exit_code == 2
    said = t("tui.solve.start_range", start=13, max_pip=12)
    assert refused.stderr.splitlines()[0] == t("tui.cli.error", message=said)
    # the JSON contract stays the same in every language
    assert run_json("--lang", lang, "--start", "12", *HAND)["train"][0] == "12-5"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_command_line_click_cannot_read_is_refused_in_the_language_given(lang: str) -> None:
    """``--start x`` and the like were refused in Click's English ("Usage: ...", "Error:
    Invalid value for '--start' / '-s': 'x' is not a valid integer.") even after
    ``--lang``: the language is read first, so the whole refusal is in it, wherever
    ``--lang`` stands on the line."""
    t = Translator(lang)
    cases = [  # (the command line, the option at fault, the reason; "Invalid value for")
        (["--start", "x", "--lang", lang, "12-5"], "--start", "not_whole", {"value": "'x'"}, True),
        ([f"--lang={lang}", "-s", "5.5"], "--start", "not_whole", {"value": "'5.5'"}, True),
        (
            ["--lang", lang, "-s", "1", "--max-pip", "40"],
            "--max-pip",
            "out_of_range",
            {"value": 40, "low": 0, "high": 30},
            True,
        ),
        (["--lang", lang, "12-5"], "--start", "missing", {"option": "--start"}, False),
        (["--lang", lang, "--bogus"], "--bogus", "no_such_option", {"option": "--bogus"}, False),
        (["--lang", lang, "--start"], "--start", "needs_value", {"option": "--start"}, False),
    ]
    for args, option, key, params, invalid in cases:
        reason = t(f"tui.cli.{key}", **params)
        first = (
            t("tui.cli.error_option", option=option, message=reason)
            if invalid
            else t("tui.cli.error", message=reason)
        )
        refused = run(*args)
        assert refused.exit_code == 2, args
        assert refused.stderr.splitlines() == [
            first,
            t("tui.cli.try_help", command="mextrain solve --help"),
        ], args
        # --json: one object, its reason in the language too, naming the option
        said = run("--json", *args)
        assert said.exit_code == 2, args
        assert json.loads(said.stdout) == {"error": {"option": option, "reason": reason}}, args
    # without --lang, Click's own words, as before (the locale is not known yet)
    assert "is not a valid integer" in run("--start", "x", "12-5").stderr


def test_the_language_comes_from_the_locale_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANG", "fi_FI.UTF-8")
    result = run("--start", "12", "0-1")
    assert result.output.splitlines()[1].strip() == Translator("fi")("tui.solve.no_tile")


#: 60 tiles of a double-30 set whose best train from 30 the exact search takes minutes to
#: prove (over 100 s on the reference machine)
_HARD = (
    "0-0 0-2 0-6 0-14 0-26 1-6 1-22 1-27 2-5 2-8 2-12 2-21 2-22 2-25 2-26 3-6 3-14 3-20 3-23 "
    "4-12 4-13 4-16 4-29 5-8 5-20 6-18 6-25 6-29 7-10 7-19 8-15 8-26 8-28 10-16 10-21 10-23 "
    "11-18 12-22 12-24 13-20 13-21 14-24 15-29 16-18 16-19 16-30 17-18 17-22 17-23 18-20 "
    "18-21 20-20 21-24 21-26 23-24 24-25 24-28 26-27 28-29 28-30"
)
HARD = _HARD.split()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_hand_too_hard_for_the_time_limit_gets_no_answer_but_says_so(lang: str) -> None:
    """`solve` had no time limit: a hand like this one kept it busy for minutes, saying
    nothing. Past --time-limit it stops with no answer (not a train that may not be the
    best), says so and how to give it more time: status 1, one object with --json."""
    import time

    t = Translator(lang)
    args = ("--start", "30", "--max-pip", "30", "--time-limit", "0.3", "--lang", lang, *HARD)
    began = time.monotonic()
    result = run(*args)
    assert time.monotonic() - began < 20
    assert result.exit_code == 1, result.output
    tiles = t.plural("tui.solve.tiles", len(HARD))
    said = t("tui.solve.timeout", seconds=t.number(0.3), start=30, tiles=tiles)
    assert said in result.stderr
    assert "--time-limit 0" in said
    assert result.stdout == ""
    shown = run("--json", *args)
    assert shown.exit_code == 1
    assert json.loads(shown.stdout) == {"error": {"reason": said}}


def test_a_time_limit_changes_no_answer_and_0_means_none() -> None:
    """An easy hand under a time limit, or with none (0), gets the answer it always got."""
    hand = [str(t) for t in tile_set(12).tiles[:16]]
    expected = run_json("--start", "0", *hand)
    for limit in ("0", "0.5", "86400"):
        assert run_json("--start", "0", "--time-limit", limit, *hand) == expected
    refused = run("--start", "0", "--time-limit", "-1", *hand)
    assert refused.exit_code == 2
    assert "--time-limit" in refused.output
