"""``mextrain analyze``: the JSON contract, the report, exit statuses."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from mextrain.cli import main
from mextrain.records import load_record, replay_record
from mextrain.rules import RoundState

RECORDS = Path(__file__).parent / "records"
COMPLETE = RECORDS / "double6_complete.json"
IN_PROGRESS = RECORDS / "double6_in_progress.json"

ACTION_KEYS = {
    "action",
    "win_probability",
    "win_interval",
    "expected_score",
    "visits",
    "stderr",
    "score_stderr",
}


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["analyze", *args])
    return result.exit_code, result.output


def _position(path: Path, round_index: int, action_index: int) -> RoundState:
    played = replay_record(load_record(path.read_bytes())).match.rounds[round_index]
    data = played.to_dict()
    data["actions"] = data["actions"][:action_index]
    return RoundState.from_dict(data)


@pytest.mark.parametrize(("path", "rnd", "act"), [(COMPLETE, 0, 2), (IN_PROGRESS, 1, 3)])
def test_json_contract(path: Path, rnd: int, act: int) -> None:
    code, out = _run(
        str(path), "--round", str(rnd), "--action", str(act), "--iterations", "120", "--json"
    )
    assert code == 0, out
    data = json.loads(out)
    assert set(data) == {
        "round",
        "action",
        "seat",
        "seed",
        "iterations",
        "policy",
        "position",
        "actions",
        "best",
        "played",
        "played_rank",
    }
    state = _position(path, rnd, act)
    seat = state.current_seat
    assert (data["round"], data["action"], data["seat"]) == (rnd, act, seat)
    assert data["iterations"] == 120
    assert data["position"] == state.view(seat).to_dict()
    legal = sorted(a.notation(seat) for a in state.legal_actions())
    assert sorted(a["action"] for a in data["actions"]) == legal
    for entry in data["actions"]:
        assert set(entry) == ACTION_KEYS
        assert 0.0 <= entry["win_interval"][0] <= entry["win_probability"]
        assert entry["win_probability"] <= entry["win_interval"][1] <= 1.0
        assert entry["expected_score"] >= 0
    visits = [entry["visits"] for entry in data["actions"]]
    assert visits == sorted(visits, reverse=True)
    assert sum(visits) == 120
    assert data["best"] == data["actions"][0]["action"]
    history = _position(path, rnd, act + 1).history
    assert data["played"] == history[-1][1].notation(seat)
    assert data["actions"][data["played_rank"]]["action"] == data["played"]


def test_same_seed_same_figures() -> None:
    args = (str(COMPLETE), "--round", "0", "--action", "4", "--iterations", "80", "--json")
    first = _run(*args, "--seed", "3")
    assert first == _run(*args, "--seed", "3")
    assert first[0] == 0


def test_current_position_of_a_round_in_play() -> None:
    rounds = replay_record(load_record(IN_PROGRESS.read_bytes())).match.rounds
    last = len(rounds) - 1
    count = len(rounds[last].history)
    code, out = _run(
        str(IN_PROGRESS),
        "--round",
        str(last),
        "--action",
        str(count),
        "--iterations",
        "40",
        "--json",
    )
    assert code == 0, out
    data = json.loads(out)
    assert data["played"] is None
    assert data["played_rank"] is None


def test_text_report() -> None:
    code, out = _run(str(COMPLETE), "--round", "0", "--action", "2", "--iterations", "60")
    assert code == 0, out
    assert "to move, holding" in out
    assert "60 search iterations, seed 0, planner playouts." in out
    assert "<- played" in out


def test_text_report_names_the_seat_to_move_once(tmp_path: Path) -> None:
    """A seat the record leaves nameless was "seat 1 (seat 1) to move"; a named one is
    "Ben (seat 1)"."""
    doc = json.loads(IN_PROGRESS.read_text())
    args = ("--round", "1", "--action", "0", "--iterations", "10")
    code, out = _run(str(IN_PROGRESS), *args)
    assert code == 0, out
    assert "before action 0: Ben (seat 1) to move, holding" in out
    doc["players"] = ["", ""]
    nameless = tmp_path / "nameless.json"
    nameless.write_text(json.dumps(doc))
    code, out = _run(str(nameless), *args)
    assert code == 0, out
    assert "before action 0: seat 1 to move, holding" in out


def test_the_command_lines_budgets_are_the_searchs() -> None:
    from mextrain.cli import analyze as command
    from mextrain.search import ismcts

    assert command.MAX_ITERATIONS == ismcts.MAX_ITERATIONS
    assert command.MAX_TIME_MS == ismcts.MAX_TIME_MS


def test_an_action_never_tried_has_no_estimate() -> None:
    """With fewer iterations than actions some are never tried: no chance and no score
    for them (not a sure loss), and an interval that says nothing; one tried twice with
    no win is no sure loss either."""
    code, out = _run(str(COMPLETE), "--round", "0", "--action", "2", "--iterations", "1", "--json")
    assert code == 0, out
    actions = json.loads(out)["actions"]
    assert len(actions) > 1
    unseen = [a for a in actions if a["visits"] == 0]
    assert unseen
    for entry in unseen:
        assert entry["win_probability"] is None
        assert entry["expected_score"] is None
        assert entry["win_interval"] == [0.0, 1.0]
    code, text = _run(str(COMPLETE), "--round", "0", "--action", "2", "--iterations", "1")
    assert "1 search iteration, seed 0" in text
    rows = [re.match(r"(\S+) +(\S+) +\[.*\] +(\S+) +(\d+)", line) for line in text.splitlines()]
    untried = [row.group(2, 3) for row in rows if row and row.group(4) == "0"]
    assert untried
    assert set(untried) == {("-", "-")}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--round", "5", "--action", "0"], "--round"),
        (["--round", "0", "--action", "999"], "--action"),
        (["--round", "0", "--action", "-1"], "--action"),
    ],
)
def test_positions_not_in_the_record(args: list[str], message: str) -> None:
    code, out = _run(str(COMPLETE), *args, "--iterations", "5")
    assert code == 2
    assert message in out


def test_a_finished_round_has_nothing_to_analyse() -> None:
    count = len(replay_record(load_record(COMPLETE.read_bytes())).match.rounds[0].history)
    code, out = _run(str(COMPLETE), "--round", "0", "--action", str(count), "--iterations", "5")
    assert code == 2
    assert "is over" in out


def test_bad_records(tmp_path: Path) -> None:
    code, out = _run(
        str(RECORDS / "unreadable_tile.json"), "--round", "0", "--action", "0", "--json"
    )
    assert code == 2
    assert json.loads(out)["valid"] is False
    code, out = _run(
        str(RECORDS / "illegal_draw_with_a_play.json"), "--round", "0", "--action", "0"
    )
    assert code == 1
    assert "Illegal record" in out
    code, out = _run(str(tmp_path / "missing.json"), "--round", "0", "--action", "0")
    assert code == 2
    assert "no such file" in out
