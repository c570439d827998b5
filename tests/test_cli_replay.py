"""``mextrain replay``: exit statuses, the readable report and the ``--json`` shapes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from mextrain.cli import main

RECORDS = Path(__file__).parent / "records"
COMPLETE = RECORDS / "double6_complete.json"
IN_PROGRESS = RECORDS / "double6_in_progress.json"
ILLEGAL = RECORDS / "illegal_draw_with_a_play.json"
UNREADABLE = RECORDS / "unreadable_tile.json"


def run(*args: str, stdin: str | bytes | None = None) -> Result:
    return CliRunner().invoke(main, ["replay", *args], input=stdin)


def run_json(*args: str, stdin: str | bytes | None = None) -> tuple[int, dict[str, Any]]:
    result = run("--json", *args, stdin=stdin)
    assert result.stdout.endswith("\n")
    assert result.stdout.count("\n") == 1  # exactly one JSON object, on one line
    payload = json.loads(result.stdout)
    assert isinstance(payload, dict)
    return result.exit_code, payload


def check_valid_shape(payload: dict[str, Any], players: int) -> None:
    assert list(payload) == ["valid", "complete", "rounds", "totals", "winners"]
    assert payload["valid"] is True
    assert isinstance(payload["complete"], bool)
    for rnd in payload["rounds"]:
        assert list(rnd) == ["engine", "ended", "scores"]
        assert type(rnd["engine"]) is int
        assert rnd["ended"] in ("out", "blocked", None)
        if rnd["ended"] is None:
            assert rnd["scores"] is None
        else:
            assert len(rnd["scores"]) == players
            assert all(type(p) is int for p in rnd["scores"])
    assert len(payload["totals"]) == players
    assert all(type(p) is int for p in payload["totals"])
    assert all(type(s) is int and 0 <= s < players for s in payload["winners"])


def check_error_shape(payload: dict[str, Any]) -> dict[str, Any]:
    assert list(payload) == ["valid", "error"]
    assert payload["valid"] is False
    error: dict[str, Any] = payload["error"]
    assert list(error) == ["round", "action", "text", "reason"]
    assert error["round"] is None or type(error["round"]) is int
    assert error["action"] is None or type(error["action"]) is int
    assert error["text"] is None or isinstance(error["text"], str)
    assert isinstance(error["reason"], str)
    assert error["reason"]
    return error


def test_complete_game_report() -> None:
    result = run(str(COMPLETE))
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Ana, Ben" in out
    # the rules as the record writes them, nothing it did not say
    assert out.startswith(
        'Legal record: classic rules (max_pip=6, hand_size={"2": 7, "3": 5, "4": 5}, rounds=1)'
    )
    assert "Round 0 (engine 6-6): Ana went out. Ana 0, Ben 11." in out
    assert "Totals: Ana 0, Ben 11." in out
    assert "Winner: Ana" in out
    assert "complete" in out
    assert "in progress" not in out


def test_game_in_progress_report() -> None:
    result = run(str(IN_PROGRESS))
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Round 1 (engine 5-5): in play, Ben to move." in out
    # the count from 0 said, as for an illegal record: the second round is "Round 1"
    assert "(Rounds are counted from 0, as `analyze --round` and records count them.)" in out
    assert "Leader: Ana" in out
    assert "in progress: 1 of 2 rounds finished" in out


def test_seats_of_the_same_name_are_told_apart() -> None:
    """A simulator's record names each seat after its bot (``--bots planner,planner``):
    the report said "planner went out. planner 0, planner 11." and the reader could not
    tell who. Names that repeat carry their seat, counted from 1 as the terminal game and
    the web page count seats."""
    doc = json.loads(COMPLETE.read_text())
    doc["players"] = ["planner", "planner"]
    result = run("-", stdin=json.dumps(doc))
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "2 players: planner (seat 1), planner (seat 2)." in out
    assert "planner (seat 1) went out. planner (seat 1) 0, planner (seat 2) 11." in out
    assert "Totals: planner (seat 1) 0, planner (seat 2) 11." in out
    assert "Winner: planner (seat 1) (lowest total)." in out
    # a name once at the table is left as it is
    doc["players"] = ["planner", "greedy"]
    assert "planner went out. planner 0, greedy 11." in run("-", stdin=json.dumps(doc)).stdout


def test_the_report_counts_seats_from_1() -> None:
    """The report names seats as a player sees them, from 1 (the terminal game, the web
    page and ``analyze`` count them so; it said "seat 0"): a nameless seat, the seat to
    move, the one that went out, the winner. ``--json`` keeps the record's seats, from 0."""
    doc = json.loads(COMPLETE.read_text())
    doc["players"] = ["", "Ben"]
    result = run("-", stdin=json.dumps(doc))
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "2 players: seat 1, Ben." in out
    assert "Round 0 (engine 6-6): seat 1 went out. seat 1 0, Ben 11." in out
    assert "Totals: seat 1 0, Ben 11." in out
    assert "Winner: seat 1 (lowest total)." in out
    assert "seat 0" not in out
    code, payload = run_json("-", stdin=json.dumps(doc))
    assert code == 0
    assert payload["winners"] == [0]
    # a game in play: the seat to move, and a name that repeats beside a nameless seat
    doc = json.loads(IN_PROGRESS.read_text())
    doc["players"] = ["Ana", ""]
    out = run("-", stdin=json.dumps(doc)).stdout
    assert "2 players: Ana, seat 2." in out
    assert "Round 1 (engine 5-5): in play, seat 2 to move." in out
    doc["players"] = ["Ana", "Ana"]
    out = run("-", stdin=json.dumps(doc)).stdout
    assert "in play, Ana (seat 2) to move." in out


def test_report_before_any_round_finishes() -> None:
    doc = json.loads(IN_PROGRESS.read_text())
    doc["rounds"] = doc["rounds"][:1]
    doc["rounds"][0]["actions"] = []
    del doc["result"]
    result = run("-", stdin=json.dumps(doc))
    assert result.exit_code == 0, result.output
    assert "nobody leads" in result.stdout
    # RECORD.md: a legal record's report prints the totals (before a round ends, all 0, as
    # --json gives them)
    assert "Totals: Ana 0, Ben 0." in result.stdout
    code, payload = run_json("-", stdin=json.dumps(doc))
    assert code == 0
    check_valid_shape(payload, 2)
    assert payload["winners"] == []
    assert payload["totals"] == [0, 0]
    assert payload["rounds"] == [{"engine": 6, "ended": None, "scores": None}]


def test_json_complete() -> None:
    code, payload = run_json(str(COMPLETE))
    assert code == 0
    check_valid_shape(payload, 2)
    assert payload == {
        "valid": True,
        "complete": True,
        "rounds": [{"engine": 6, "ended": "out", "scores": [0, 11]}],
        "totals": [0, 11],
        "winners": [0],
    }


def test_json_in_progress() -> None:
    code, payload = run_json(str(IN_PROGRESS))
    assert code == 0
    check_valid_shape(payload, 2)
    assert payload["complete"] is False
    assert payload["rounds"][1] == {"engine": 5, "ended": None, "scores": None}


def test_illegal_record() -> None:
    result = run(str(ILLEGAL))
    assert result.exit_code == 1
    assert result.stdout == ""
    message = result.stderr
    assert 'round 0, action 1 "1:draw"' in message
    assert "seat 1 can't draw: it has a legal play and must play" in message
    code, payload = run_json(str(ILLEGAL))
    assert code == 1
    error = check_error_shape(payload)
    assert error == {
        "round": 0,
        "action": 1,
        "text": "1:draw",
        "reason": "seat 1 can't draw: it has a legal play and must play",
    }


def test_illegal_deal_has_no_action() -> None:
    doc = json.loads(COMPLETE.read_text())
    doc["rounds"][0]["engine"] = 5
    code, payload = run_json("-", stdin=json.dumps(doc))
    assert code == 1
    error = check_error_shape(payload)
    assert (error["round"], error["action"], error["text"]) == (0, None, None)
    assert "engine 6-6" in error["reason"]


def test_player_count_error_has_no_round() -> None:
    doc = json.loads(COMPLETE.read_text())
    doc["players"] = ["Solo"]
    result = run("-", stdin=json.dumps(doc))
    assert result.exit_code == 1
    assert "2 to 4 players" in result.stderr
    code, payload = run_json("-", stdin=json.dumps(doc))
    assert code == 1
    error = check_error_shape(payload)
    assert (error["round"], error["action"], error["text"]) == (None, None, None)


def test_results_that_disagree() -> None:
    doc = json.loads(COMPLETE.read_text())
    doc["result"]["totals"] = [0, 10]
    code, payload = run_json("-", stdin=json.dumps(doc))
    assert code == 1
    error = check_error_shape(payload)
    assert (error["round"], error["action"]) == (None, None)
    assert "totals" in error["reason"]
    doc["result"] = {"scores": [[0, 10]], "totals": [0, 10]}
    code, payload = run_json("-", stdin=json.dumps(doc))
    assert code == 1
    assert check_error_shape(payload)["round"] == 0


def test_unreadable_tile() -> None:
    result = run(str(UNREADABLE))
    assert result.exit_code == 2
    assert "rounds[0].hands[1][3]" in result.stderr
    code, payload = run_json(str(UNREADABLE))
    assert code == 2
    error = check_error_shape(payload)
    assert (error["round"], error["action"], error["text"]) == (None, None, None)
    assert "rounds[0].hands[1][3]" in error["reason"]


@pytest.mark.parametrize(
    ("stdin", "words"),
    [
        ("not json at all", "not JSON"),
        ("", "not JSON"),
        (b"\xff\xfe", "not UTF-8"),
        ("[]", "JSON object"),
        ('{"format": "mexican-train-record"}', "version"),
        ('{"format": "mexican-train-record", "version": 1, "rules": "domino"}', "unknown preset"),
    ],
)
def test_not_a_record(stdin: str | bytes, words: str) -> None:
    result = run("-", stdin=stdin)
    assert result.exit_code == 2
    assert words in result.stderr
    code, payload = run_json("-", stdin=stdin)
    assert code == 2
    error = check_error_shape(payload)
    assert (error["round"], error["action"], error["text"]) == (None, None, None)
    assert words in error["reason"]


def test_missing_file(tmp_path: Path) -> None:
    missing = tmp_path / "no-such-record.json"
    result = run(str(missing))
    assert result.exit_code == 2
    assert "no such file" in result.stderr
    assert str(missing) in result.stderr
    code, payload = run_json(str(missing))
    assert code == 2
    assert "no such file" in check_error_shape(payload)["reason"]


def test_directory(tmp_path: Path) -> None:
    code, payload = run_json(str(tmp_path))
    assert code == 2
    assert "directory" in check_error_shape(payload)["reason"]


def test_stdin_and_file_agree() -> None:
    text = IN_PROGRESS.read_text()
    assert run_json("-", stdin=text) == run_json(str(IN_PROGRESS))


def test_usage_error_exits_2() -> None:
    assert run().exit_code == 2


def test_as_a_real_process() -> None:
    command = [sys.executable, "-m", "mextrain", "replay"]
    done = subprocess.run(
        [*command, "--json", str(COMPLETE)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["complete"] is True
    done = subprocess.run(
        [*command, "-"], input=ILLEGAL.read_text(), capture_output=True, text=True, check=False
    )
    assert done.returncode == 1
    assert 'action 1 "1:draw"' in done.stderr
    done = subprocess.run(
        [*command, "--json", str(UNREADABLE)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 2
    assert json.loads(done.stdout)["valid"] is False


# -- the viewer's refusals, in its language ------------------------------------------------


@pytest.mark.parametrize(
    ("lang", "error", "words"),
    [
        ("fi", "Virhe", "tarvitsee päätteen"),
        ("fr", "Erreur", "a besoin d'un terminal"),
        ("it", "Errore", "ha bisogno di un terminale"),
        ("en", "Error", "needs a terminal"),
    ],
)
def test_watch_without_a_terminal_says_so_in_its_language(
    lang: str, error: str, words: str
) -> None:
    """`replay --watch --lang fi` with no terminal answered in English: the viewer speaks
    its language, its refusals too, the words around them as well."""
    result = run(str(COMPLETE), "--watch", "--lang", lang)
    assert result.exit_code == 2
    assert result.output.startswith(f"{error}: " if lang != "fr" else f"{error}\u00a0: ")
    assert words in result.output
    assert "mextrain replay --watch" in result.output
    if lang != "en":
        assert "needs a terminal" not in result.output
        assert "Error:" not in result.output


def test_watch_from_standard_input_is_refused_in_its_language() -> None:
    result = run("-", "--watch", "--lang", "fr")
    assert result.exit_code == 2
    assert "a besoin d'un fichier de partie" in result.output
    assert "needs a record file" not in result.output


@pytest.mark.parametrize(
    ("record", "code", "words", "detail"),
    [
        (
            ILLEGAL,
            1,
            "tallenne rikkoo sääntöjä",
            "  kierros 1, siirto 2 (1:draw): Ben: kädessä on sopiva domino, joten se on pelattava.",
        ),
        (UNREADABLE, 2, "tiedosto on vioittunut", "'1-three' is not a tile"),
    ],
)
def test_watch_says_a_bad_record_in_its_language(
    record: Path, code: int, words: str, detail: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A record the viewer cannot show is said in its language, with the checker's exit
    status, and on a line of its own the detail: a file that is no record in the reader's
    own English (as the report gives it); a rule a record breaks where a reader counts
    (round 1, move 2: the report's "round 0, action 1") and in the viewer's language, its
    seats by the record's names (it was the checker's English too)."""
    monkeypatch.setattr("mextrain.cli.replay._has_terminal", lambda: True)
    opened: list[object] = []
    monkeypatch.setattr("mextrain.tui.watch.watch_record", lambda *a: opened.append(a))
    result = run(str(record), "--watch", "--lang", "fi")
    assert result.exit_code == code
    first, second = result.output.splitlines()
    assert first == f"Virhe: Tiedostoa {record} ei voi näyttää: {words}"
    assert detail in second
    assert not opened


def test_watch_says_a_missing_file_in_its_language(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("mextrain.cli.replay._has_terminal", lambda: True)
    missing = tmp_path / "nosuch.json"
    result = run(str(missing), "--watch", "--lang", "it")
    assert result.exit_code == 2
    assert f"{missing} non esiste." in result.output
    assert run(str(tmp_path), "--watch", "--lang", "it").output.count("non è un file") == 1


def test_watch_says_a_command_line_it_cannot_read_in_its_language() -> None:
    # (--lang names the language, wherever it stands; the report's command line stays
    # English, as its refusals do)
    result = run(str(COMPLETE), "--watch", "--nosuch", "--lang", "fi")
    assert result.exit_code == 2
    assert "--nosuch" in result.output
    assert "No such option" not in result.output
    assert "No such option" in run(str(COMPLETE), "--nosuch", "--lang", "fi").output


def test_the_report_and_its_refusals_stay_english() -> None:
    """RECORD.md fixes the report's words: without --watch nothing changes."""
    for args in ((str(UNREADABLE),), ("-",)):
        result = run(*args, stdin="not json")
        assert result.output.startswith("Not a game record:"), result.output
    refused = run(str(COMPLETE), "--lang", "fi")
    assert "--lang sets the language of --watch" in refused.output


def test_a_key_given_twice_is_no_record_in_the_format_s_words() -> None:
    """RECORD.md's shape for input that is not a record: exit 2, ``round``, ``action`` and
    ``text`` null, the reason naming the field (here the key given twice, and where)."""
    text = COMPLETE.read_text(encoding="utf-8").replace('"engine": 6,', '"engine": 6, "engine": 5,')
    code, payload = run_json("-", stdin=text)
    assert code == 2
    assert check_error_shape(payload) == {
        "round": None,
        "action": None,
        "text": None,
        "reason": 'rounds[0].engine: the key "engine" is given twice in rounds[0]: a record '
        "that gives a field more than once is ambiguous",
    }
    result = run("-", stdin=text)
    assert result.exit_code == 2
    assert result.stderr.startswith('Not a game record: rounds[0].engine: the key "engine" is')


def test_an_action_s_long_number_is_shortened_in_the_report_not_in_the_json() -> None:
    doc = json.loads(COMPLETE.read_text(encoding="utf-8"))
    text = f"0:{'7' * 100}-6@0"
    doc["rounds"][0]["actions"][0] = text
    result = run("-", stdin=json.dumps(doc))
    assert result.exit_code == 1
    short = "77777777…(100 digits)"
    assert result.stderr == (
        f'Illegal record: round 0, action 0 "0:{short}-6@0": 6-{short} is not in the '
        "double-6 set.\n(Rounds, actions and seats are counted from 0, as in the record.)\n"
    )
    code, payload = run_json("-", stdin=json.dumps(doc))
    assert code == 1
    assert check_error_shape(payload) == {
        "round": 0,
        "action": 0,
        "text": text,  # (as the record writes it)
        "reason": f"6-{short} is not in the double-6 set",
    }
