"""Game records against docs/RECORDS.md, clause by clause: the fields, their types and order,
the exit codes for unreadable (2) and illegal (1) records, replay, results and the CLI's
output."""

from __future__ import annotations

import copy
import json
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from mextrain.cli import main
from mextrain.records import (
    GameRecord,
    IllegalRecordError,
    RecordError,
    RecordFormatError,
    load_record,
    replay_record,
)
from mextrain.rules import MEXICAN, parse_action, train_name

Doc = dict[str, Any]


def _simulate(tmp: Path, rules: str, players: int, rounds: int, seed: int) -> Doc:
    bots = ",".join(["planner"] * players)
    out = tmp / f"{rules}-{players}-{rounds}-{seed}"
    done = subprocess.run(
        [
            sys.executable, "-m", "mextrain", "simulate", "--rules", rules,
            "--players", str(players), "--bots", bots, "--games", str(players),
            "--rounds", str(rounds), "--seed", str(seed), "--records", str(out),
        ],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    doc: Doc = json.loads((out / "game-000000.json").read_text(encoding="utf-8"))
    return doc


@pytest.fixture(scope="module")
def recs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Doc]:
    tmp = tmp_path_factory.mktemp("records")
    return {
        "one": _simulate(tmp, "classic", 2, 1, 1),  # classic, 1 round, starter 0
        "two": _simulate(tmp, "classic", 2, 2, 1),  # classic, 2 rounds
        "card": _simulate(tmp, "cardinal", 4, 1, 3),  # cardinal, engine_holder
    }


def mutated(base: Doc, change: Callable[[Doc], object]) -> Doc:
    doc = copy.deepcopy(base)
    change(doc)
    return doc


def outcome(doc: Doc) -> tuple[int, dict[str, Any]]:
    """(exit status, json object) as `mextrain replay --json` would give them."""
    try:
        return 0, replay_record(copy.deepcopy(doc)).to_json_dict()
    except RecordError as err:
        return err.exit_code, err.to_json_dict()


def set_action(r: int, i: int, text: Any) -> Callable[[Doc], None]:
    return lambda d: d["rounds"][r]["actions"].__setitem__(i, text)


def set_bone(i: int, text: Any) -> Callable[[Doc], None]:
    return lambda d: d["rounds"][0]["boneyard"].__setitem__(i, text)


# -- the generated records are legal ------------------------------------------------------


def test_generated_records_are_legal(recs: dict[str, Doc]) -> None:
    for doc in recs.values():
        code, out = outcome(doc)
        assert code == 0, out
        assert out["valid"] is True
        assert set(out) == {"valid", "complete", "rounds", "totals", "winners"}
        for r in out["rounds"]:
            assert set(r) == {"engine", "ended", "scores"}


def test_written_record_fields_and_canonical_tiles(recs: dict[str, Doc]) -> None:
    doc = recs["two"]
    assert doc["format"] == "mexican-train-record"
    assert doc["version"] == 1
    assert type(doc["version"]) is int
    assert list(doc)[:5] == ["format", "version", "rules", "players", "rounds"]
    assert set(doc["result"]) == {"scores", "totals"}
    for rnd in doc["rounds"]:
        for t in [t for h in rnd["hands"] for t in h] + rnd["boneyard"]:
            a, b = map(int, t.split("-"))
            assert a <= b  # smaller end first
    # round trip text is stable
    rec = load_record(json.dumps(doc))
    assert load_record(rec.to_json()) == rec


# -- structure: exit 2 ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "change",
    [
        lambda d: d.pop("format"),
        lambda d: d.__setitem__("format", "mexican-train"),
        lambda d: d.pop("version"),
        lambda d: d.__setitem__("version", 2),
        lambda d: d.__setitem__("version", "1"),
        lambda d: d.__setitem__("version", 1.0),
        lambda d: d.__setitem__("version", True),
        lambda d: d.pop("rules"),
        lambda d: d.__setitem__("rules", "Classic"),
        lambda d: d.__setitem__("rules", {"preset": "classic", "rounds": 1, "nope": 1}),
        lambda d: d.__setitem__("rules", {"rounds": 1}),
        lambda d: d.__setitem__("rules", {"preset": "classic", "open_doubles_block": "yes"}),
        lambda d: d.__setitem__("rules", 5),
        lambda d: d.pop("players"),
        lambda d: d.__setitem__("players", [1, 2]),
        lambda d: d.pop("rounds"),
        lambda d: d.__setitem__("rounds", {}),
        lambda d: d["rounds"][0].pop("engine"),
        lambda d: d["rounds"][0].__setitem__("engine", "12"),
        lambda d: d["rounds"][0].pop("hands"),
        lambda d: d["rounds"][0].pop("boneyard"),
        lambda d: d["rounds"][0].pop("actions"),
        lambda d: d["rounds"][0]["hands"].__setitem__(0, "0-3"),
        set_bone(0, "x"),
        set_bone(0, 7),
        set_action(0, 0, 5),
        set_action(0, 0, "0:8-12@m"),  # M written exactly so
        set_action(0, 0, "0:DRAW"),
        set_action(0, 0, "0:Pass"),
        lambda d: d["result"].pop("scores"),
        lambda d: d["result"].pop("totals"),
        lambda d: d.__setitem__("result", []),
        lambda d: d["result"].__setitem__("totals", [61.0, 0]),
    ],
)
def test_not_a_record_exit_2(recs: dict[str, Doc], change: Callable[[Doc], object]) -> None:
    code, out = outcome(mutated(recs["one"], change))
    assert code == 2
    assert out == {
        "valid": False,
        "error": {"round": None, "action": None, "text": None, "reason": out["error"]["reason"]},
    }
    assert out["error"]["reason"]


@pytest.mark.parametrize("text", ["abc", "[]", '{"format": NaN}', ""])
def test_not_json_exit_2(text: str) -> None:
    with pytest.raises(RecordFormatError) as info:
        load_record(text)
    assert info.value.exit_code == 2


def test_a_name_that_is_not_unicode_text_is_not_a_record(recs: dict[str, Doc]) -> None:
    doc = copy.deepcopy(recs["one"])
    doc["players"][1] = "Ben\udcff"  # a lone surrogate, as JSON can spell one
    with pytest.raises(RecordFormatError) as info:
        load_record(json.dumps(doc))
    assert info.value.exit_code == 2
    assert "players[1]" in str(info.value)
    assert "\\udcff" in str(info.value)


def test_structure_checked_before_replay(recs: dict[str, Doc]) -> None:
    # an illegal action in round 0 and a wrong player count, but an unreadable tile in round 1
    doc = mutated(recs["two"], set_action(0, 0, "1:pass"))
    doc["players"] = ["solo"]
    doc["rounds"][1]["boneyard"][0] = "x-y"
    code, out = outcome(doc)
    assert code == 2
    assert "rounds[1].boneyard[0]" in out["error"]["reason"]


# -- starter --------------------------------------------------------------------------------


@pytest.mark.parametrize("value", ["0", 0.0, False, None, "missing"])
def test_rotate_round0_starter_missing_or_not_int_exit_2(recs: dict[str, Doc], value: Any) -> None:
    doc = copy.deepcopy(recs["one"])
    if value == "missing":
        doc["rounds"][0].pop("starter")
    else:
        doc["rounds"][0]["starter"] = value
    assert outcome(doc)[0] == 2


@pytest.mark.parametrize("value", [2, 5, -1, 10**6])
def test_rotate_round0_starter_not_a_seat_exit_1(recs: dict[str, Doc], value: int) -> None:
    doc = mutated(recs["one"], lambda d: d["rounds"][0].__setitem__("starter", value))
    code, out = outcome(doc)
    assert code == 1
    assert out["error"]["round"] == 0
    assert out["error"]["action"] is None


def test_starter_optional_elsewhere_and_checked(recs: dict[str, Doc]) -> None:
    two, card = recs["two"], recs["card"]
    assert outcome(mutated(two, lambda d: d["rounds"][1].pop("starter")))[0] == 0
    assert outcome(mutated(two, lambda d: d["rounds"][1].__setitem__("starter", None)))[0] == 0
    wrong = (two["rounds"][1]["starter"] + 1) % 2
    code, out = outcome(mutated(two, lambda d: d["rounds"][1].__setitem__("starter", wrong)))
    assert code == 1
    assert out["error"]["round"] == 1
    assert out["error"]["action"] is None
    assert outcome(mutated(card, lambda d: d["rounds"][0].pop("starter")))[0] == 0
    assert outcome(mutated(card, lambda d: d["rounds"][0].__setitem__("starter", None)))[0] == 0
    wrong = (card["rounds"][0]["starter"] + 1) % 4
    code, out = outcome(mutated(card, lambda d: d["rounds"][0].__setitem__("starter", wrong)))
    assert code == 1
    assert out["error"]["round"] == 0
    assert out["error"]["action"] is None
    code, _ = outcome(mutated(card, lambda d: d["rounds"][0].__setitem__("starter", "x")))
    assert code == 2


# -- players, engine, deal ------------------------------------------------------------------


@pytest.mark.parametrize("players", [[], ["a"], ["a"] * 9])
def test_player_count_not_allowed_exit_1_round_null(
    recs: dict[str, Doc], players: list[str]
) -> None:
    code, out = outcome(mutated(recs["one"], lambda d: d.__setitem__("players", players)))
    assert code == 1
    assert out["error"]["round"] is None
    assert out["error"]["action"] is None


def test_cardinal_three_players_exit_1(recs: dict[str, Doc]) -> None:
    code, out = outcome(mutated(recs["card"], lambda d: d.__setitem__("players", ["a", "b", "c"])))
    assert code == 1
    assert out["error"]["round"] is None


@pytest.mark.parametrize(
    "change",
    [
        lambda d: d["rounds"][0].__setitem__("engine", 11),
        set_bone(0, "13-1"),  # readable, not in the set
        set_bone(0, "12-12"),  # engine set aside, in no hand
        lambda d: d["rounds"][0]["boneyard"].__setitem__(0, d["rounds"][0]["boneyard"][1]),
        lambda d: d["rounds"][0]["boneyard"].pop(),
        lambda d: d["rounds"][0]["boneyard"].append(d["rounds"][0]["hands"][0].pop()),
        lambda d: d["rounds"][0]["hands"].append([]),
    ],
)
def test_illegal_deal_exit_1_action_null(
    recs: dict[str, Doc], change: Callable[[Doc], object]
) -> None:
    code, out = outcome(mutated(recs["one"], change))
    assert code == 1
    assert out["error"]["round"] == 0
    assert out["error"]["action"] is None
    assert out["error"]["text"] is None


def test_a_tile_not_in_the_set_is_named_before_a_deal_that_is_not_the_set(
    recs: dict[str, Doc],
) -> None:
    # docs/RECORDS.md's order: a tile that is not in the set, then hands and boneyard that
    # are not exactly the set -- even where the tile twice comes first in the deal
    def change(doc: Doc) -> None:
        hand = doc["rounds"][0]["hands"][0]
        hand[0] = hand[1]  # a tile twice, in seat 0's hand
        doc["rounds"][0]["boneyard"][-1] = "13-1"  # not in the set, the deal's last tile

    code, out = outcome(mutated(recs["one"], change))
    assert code == 1
    assert (out["error"]["round"], out["error"]["action"]) == (0, None)
    reason = out["error"]["reason"]
    assert reason == "1-13 in the boneyard is not in the double-12 set (pips go from 0 to 12)"


def test_wrong_engine_in_later_round(recs: dict[str, Doc]) -> None:
    code, out = outcome(mutated(recs["two"], lambda d: d["rounds"][1].__setitem__("engine", 12)))
    assert code == 1
    assert out["error"]["round"] == 1
    assert out["error"]["action"] is None


def test_tiles_either_order_and_spaces(recs: dict[str, Doc]) -> None:
    doc = copy.deepcopy(recs["one"])
    a, b = doc["rounds"][0]["boneyard"][0].split("-")
    doc["rounds"][0]["boneyard"][0] = f" {b} - {a} "
    assert outcome(doc)[0] == 0


def test_boneyard_first_tile_drawn_first(recs: dict[str, Doc]) -> None:
    doc = recs["one"]
    acts = doc["rounds"][0]["actions"]
    first_draw = next(i for i, a in enumerate(acts) if a.endswith("draw"))
    assert acts[first_draw + 1].endswith(doc["rounds"][0]["boneyard"][0] + "@M") or (
        doc["rounds"][0]["boneyard"][0] in acts[first_draw + 1]
    )
    swapped = copy.deepcopy(doc)
    bone = swapped["rounds"][0]["boneyard"]
    bone[0], bone[1] = bone[1], bone[0]
    code, out = outcome(swapped)
    assert code == 1
    assert out["error"]["round"] == 0
    assert out["error"]["action"] is not None


def test_unknown_extra_fields_ignored(recs: dict[str, Doc]) -> None:
    doc = copy.deepcopy(recs["one"])
    doc["comment"] = {"x": 1}
    doc["rounds"][0]["note"] = [1, 2]
    doc["result"]["by"] = "me"
    assert outcome(doc) == outcome(recs["one"])


# -- actions --------------------------------------------------------------------------------


def test_action_spaces_allowed(recs: dict[str, Doc]) -> None:
    first = recs["one"]["rounds"][0]["actions"][0]  # "0:8-12@M"
    seat, rest = first.split(":")
    tile, train = rest.split("@")
    a, b = tile.split("-")
    spaced = f" {seat} : {b} - {a} @ {train} "
    assert outcome(mutated(recs["one"], set_action(0, 0, spaced)))[0] == 0


@pytest.mark.parametrize("text", ["9:8-12@M", "0:8-12@9", "2:draw"])
def test_action_seat_or_train_not_a_seat_exit_1(recs: dict[str, Doc], text: str) -> None:
    code, out = outcome(mutated(recs["one"], set_action(0, 0, text)))
    assert code == 1
    assert out["error"] == {"round": 0, "action": 0, "text": text, "reason": out["error"]["reason"]}


@pytest.mark.parametrize("text", ["10000:draw", "0:8-12@10000", "123456:pass"])
def test_action_large_seat_number_is_no_seat_exit_1(recs: dict[str, Doc], text: str) -> None:
    # "S and T are seat numbers from 0 (a number that is no seat: exit 1)", however long
    code, out = outcome(mutated(recs["one"], set_action(0, 0, text)))
    assert code == 1, out
    assert out["error"]["round"] == 0
    assert out["error"]["action"] == 0


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("-1:draw", "there is no seat -1"),
        ("-12:pass", "there is no seat -12"),
        ("0:8-12@-1", "there is no train -1"),
        ("0:8-12@-7", "there is no train -7"),
    ],
)
def test_a_negative_seat_number_is_no_seat_exit_1(
    recs: dict[str, Doc], text: str, reason: str
) -> None:
    # "S and T are seat numbers from 0 (a number that is no seat: exit 1)": -1 is a number
    # that is no seat, as a starter of -1 is (exit 1) -- and ``@-1`` is never read as the
    # Mexican train
    code, out = outcome(mutated(recs["one"], set_action(0, 0, text)))
    assert code == 1, out
    assert out["error"]["text"] == text
    assert reason in out["error"]["reason"]


def test_a_negative_train_number_is_its_own_and_reads_back() -> None:
    seat, action = parse_action("0:5-6@-1")
    assert action.train != MEXICAN
    assert action != parse_action("0:5-6@M")[1]
    assert action.notation(seat) == "0:5-6@-1"
    assert parse_action(action.notation(seat)) == (seat, action)
    assert train_name(MEXICAN) == "M"


def test_a_plus_sign_makes_an_action_unreadable(recs: dict[str, Doc]) -> None:
    # record notation writes numbers plainly: "+1" is no way to write seat 1
    code, out = outcome(mutated(recs["one"], set_action(0, 0, "+1:draw")))
    assert code == 2, out
    assert "is not an action" in out["error"]["reason"]


def test_action_tile_not_in_set_exit_1(recs: dict[str, Doc]) -> None:
    code, out = outcome(mutated(recs["one"], set_action(0, 0, "0:13-12@M")))
    assert code == 1
    assert out["error"]["action"] == 0
    assert out["error"]["text"] == "0:13-12@M"


def test_leading_zeros_leave_a_number_as_it_is_however_many(recs: dict[str, Doc]) -> None:
    """Tiles are "integers": ``"0005-03"`` is 5-3, and so it is behind 5,000 zeros (past
    the digits Python converts, which counts zeros too: such a number was read as 1)."""
    zeros = "0" * 5000
    pad = lambda m: zeros + m.group(0)  # noqa: E731

    def padded(doc: Doc) -> None:
        for rnd in doc["rounds"]:
            rnd["hands"] = [[re.sub(r"\d+", pad, t) for t in hand] for hand in rnd["hands"]]
            rnd["boneyard"] = [re.sub(r"\d+", pad, t) for t in rnd["boneyard"]]
            rnd["actions"] = [re.sub(r"\d+", pad, a) for a in rnd["actions"]]

    for name in ("one", "card"):
        assert outcome(mutated(recs[name], padded)) == outcome(recs[name])


@pytest.mark.parametrize(
    ("where", "text"),
    [
        ("bone", "1000-1"),
        ("bone", "12-1000"),
        ("action", "0:1000-12@M"),
        # past the digits Python converts (4,300 unless told otherwise): still readable
        ("bone", "9" * 5000 + "-1"),
        ("action", "0:12-" + "9" * 5000 + "@M"),
        ("action", "9" * 5000 + ":8-12@M"),  # a number that is no seat: exit 1 too
        ("action", "0:8-12@" + "9" * 5000),
        ("action", "-" + "9" * 5000 + ":draw"),
    ],
    ids=[
        "bone-low",
        "bone-high",
        "action",
        "bone-5000",
        "tile-5000",
        "seat-5000",
        "train-5000",
        "negative-seat-5000",
    ],
)
def test_readable_tile_with_big_number_not_in_set_exit_1(
    recs: dict[str, Doc], where: str, text: str
) -> None:
    # "a readable tile that is not in the rules' set ... makes the record illegal (exit 1),
    # not unreadable" -- however many digits its numbers have
    change = set_bone(0, text) if where == "bone" else set_action(0, 0, text)
    code, out = outcome(mutated(recs["one"], change))
    assert code == 1, out
    assert out["error"]["round"] == 0
    # a number too long to write out is shortened in the words, not thousands of digits
    assert len(out["error"]["reason"]) < 200, out["error"]["reason"]


@pytest.mark.parametrize(
    ("where", "text"),
    [("bone", "\u0667-\u0668"), ("action", "\u0660:8-12@M")],
)
def test_non_ascii_digits_are_not_readable(recs: dict[str, Doc], where: str, text: str) -> None:
    # tiles and seats are written in ASCII digits: other scripts' digits (which a regex's
    # \d would match) make the text unreadable, not a tile 7-8 or seat 0
    change = set_bone(0, text) if where == "bone" else set_action(0, 0, text)
    if where == "bone":
        doc = copy.deepcopy(recs["one"])
        bone = doc["rounds"][0]["boneyard"]
        bone[bone.index("7-8")] = text
    else:
        doc = mutated(recs["one"], change)
    code, _ = outcome(doc)
    assert code == 2


@pytest.mark.parametrize("space", ["\t", "\n", "\u00a0", "\u2003"])
@pytest.mark.parametrize("where", ["bone", "action"])
def test_only_spaces_may_stand_around_the_parts(
    recs: dict[str, Doc], where: str, space: str
) -> None:
    """ "Spaces around the parts are allowed": ASCII spaces, so "2 : 5-12 @ M" reads; a tab,
    a line break or another kind of space makes the text unreadable (exit 2)."""
    doc = copy.deepcopy(recs["one"])
    if where == "bone":
        bone = doc["rounds"][0]["boneyard"]
        i = bone.index("7-8")
        bone[i] = " 7 - 8 "
        assert outcome(doc)[0] == 0
        bone[i] = f"7-8{space}"
    else:
        acts = doc["rounds"][0]["actions"]
        seat, rest = acts[0].split(":")
        acts[0] = f" {seat} : {rest.replace('@', ' @ ')} "
        assert outcome(doc)[0] == 0
        acts[0] = f"{seat}:{space}{rest}"
    code, out = outcome(doc)
    assert code == 2, out


def test_action_breaking_rule_exit_1(recs: dict[str, Doc]) -> None:
    acts = recs["one"]["rounds"][0]["actions"]
    code, out = outcome(mutated(recs["one"], set_action(0, 0, "1:" + acts[1].split(":")[1])))
    assert code == 1
    assert out["error"]["action"] == 0
    code, out = outcome(mutated(recs["one"], set_action(0, 1, "1:draw")))
    assert code == 1
    assert out["error"] == {
        "round": 0,
        "action": 1,
        "text": "1:draw",
        "reason": out["error"]["reason"],
    }
    assert out["error"]["reason"]


def test_action_text_reported_as_written(recs: dict[str, Doc]) -> None:
    code, out = outcome(mutated(recs["one"], set_action(0, 1, " 1 : draw ")))
    assert code == 1
    assert out["error"]["text"] == " 1 : draw "


def test_actions_after_round_end_exit_1(recs: dict[str, Doc]) -> None:
    n = len(recs["one"]["rounds"][0]["actions"])
    doc = mutated(recs["one"], lambda d: d["rounds"][0]["actions"].append("0:draw"))
    code, out = outcome(doc)
    assert code == 1
    assert out["error"]["round"] == 0
    assert out["error"]["action"] == n


# -- rounds, result, json output ------------------------------------------------------------


def test_unfinished_round_before_later_one(recs: dict[str, Doc]) -> None:
    doc = mutated(
        recs["two"], lambda d: d["rounds"][0].__setitem__("actions", d["rounds"][0]["actions"][:5])
    )
    doc.pop("result")
    code, out = outcome(doc)
    assert code == 1
    assert out["error"]["round"] == 0
    assert out["error"]["action"] is None


def test_more_rounds_than_rules_exit_1(recs: dict[str, Doc]) -> None:
    doc = mutated(recs["two"], lambda d: d["rounds"].append(copy.deepcopy(d["rounds"][1])))
    code, out = outcome(doc)
    assert code == 1
    assert out["error"]["round"] == 2


def test_game_in_progress(recs: dict[str, Doc]) -> None:
    doc = mutated(
        recs["two"], lambda d: d["rounds"][1].__setitem__("actions", d["rounds"][1]["actions"][:3])
    )
    doc["result"] = {"scores": doc["result"]["scores"][:1], "totals": doc["result"]["scores"][0]}
    code, out = outcome(doc)
    assert code == 0
    assert out["complete"] is False
    assert out["rounds"][1] == {"engine": 11, "ended": None, "scores": None}
    assert out["totals"] == doc["result"]["scores"][0]
    t = out["totals"]
    assert out["winners"] == [s for s in range(2) if t[s] == min(t)]
    # no round finished: winners [] and totals zeros
    doc = mutated(
        recs["one"], lambda d: d["rounds"][0].__setitem__("actions", d["rounds"][0]["actions"][:3])
    )
    doc.pop("result")
    code, out = outcome(doc)
    assert code == 0
    assert out["winners"] == []
    assert out["totals"] == [0, 0]
    assert out["complete"] is False


def test_complete_game(recs: dict[str, Doc]) -> None:
    code, out = outcome(recs["two"])
    assert code == 0
    assert out["complete"] is True
    assert [r["ended"] for r in out["rounds"]] == ["out", "out"] or all(
        r["ended"] in ("out", "blocked") for r in out["rounds"]
    )
    assert out["totals"] == recs["two"]["result"]["totals"]
    assert [r["scores"] for r in out["rounds"]] == recs["two"]["result"]["scores"]


def test_result_optional(recs: dict[str, Doc]) -> None:
    assert outcome(mutated(recs["one"], lambda d: d.pop("result")))[0] == 0


def test_result_scores_wrong_names_first_round(recs: dict[str, Doc]) -> None:
    doc = copy.deepcopy(recs["two"])
    s = doc["result"]["scores"]
    s[1] = [x + 1 for x in s[1]]
    s[0] = [x + 1 for x in s[0]]
    code, out = outcome(doc)
    assert code == 1
    assert out["error"]["round"] == 0
    assert out["error"]["action"] is None
    doc = copy.deepcopy(recs["two"])
    doc["result"]["scores"][1][0] += 1
    code, out = outcome(doc)
    assert code == 1
    assert out["error"]["round"] == 1
    assert out["error"]["action"] is None


def test_result_only_totals_wrong_round_null(recs: dict[str, Doc]) -> None:
    doc = copy.deepcopy(recs["two"])
    doc["result"]["totals"][0] += 1
    code, out = outcome(doc)
    assert code == 1
    assert out["error"]["round"] is None
    assert out["error"]["action"] is None


def test_result_scores_for_unfinished_or_missing_round(recs: dict[str, Doc]) -> None:
    doc = mutated(
        recs["one"], lambda d: d["rounds"][0].__setitem__("actions", d["rounds"][0]["actions"][:3])
    )
    code, out = outcome(doc)  # claims scores for a round still in play
    assert code == 1
    assert out["error"]["round"] == 0
    doc = mutated(recs["one"], lambda d: d["result"].__setitem__("scores", []))
    code, out = outcome(doc)
    assert code == 1
    assert out["error"]["round"] == 0


# -- CLI --------------------------------------------------------------------------------------


def _cli(tmp_path: Path, doc: Doc | str, *args: str) -> tuple[int, str, str]:
    f = tmp_path / "rec.json"
    f.write_text(doc if isinstance(doc, str) else json.dumps(doc), encoding="utf-8")
    res = CliRunner().invoke(main, ["replay", str(f), *args])
    return res.exit_code, res.stdout, res.stderr


def test_cli_json_shapes(recs: dict[str, Doc], tmp_path: Path) -> None:
    code, out, _ = _cli(tmp_path, recs["two"], "--json")
    assert code == 0
    assert json.loads(out) == outcome(recs["two"])[1]
    assert out.strip().count("\n") == 0
    bad = mutated(recs["two"], set_action(1, 0, "0:pass"))
    code, out, _ = _cli(tmp_path, bad, "--json")
    assert code == 1
    obj = json.loads(out)
    assert obj["valid"] is False
    assert set(obj["error"]) == {"round", "action", "text", "reason"}
    assert obj["error"]["round"] == 1
    assert obj["error"]["action"] == 0
    assert obj["error"]["text"] == "0:pass"
    code, out, _ = _cli(tmp_path, "{", "--json")
    assert code == 2
    obj = json.loads(out)
    assert obj["valid"] is False
    assert {k: obj["error"][k] for k in ("round", "action", "text")} == {
        "round": None, "action": None, "text": None,
    }  # fmt: skip


def test_cli_text_report(recs: dict[str, Doc], tmp_path: Path) -> None:
    code, out, _ = _cli(tmp_path, recs["two"])
    assert code == 0
    assert "61" in out
    assert "40" in out
    assert "Totals" in out
    assert "Winner" in out
    assert "complete" in out
    doc = mutated(
        recs["two"], lambda d: d["rounds"][1].__setitem__("actions", d["rounds"][1]["actions"][:3])
    )
    doc.pop("result")
    code, out, _ = _cli(tmp_path, doc)
    assert code == 0
    assert "in progress" in out
    bad = mutated(recs["two"], set_action(1, 0, "0:pass"))
    code, out, err = _cli(tmp_path, bad)
    assert code == 1
    assert "round 1" in err
    assert "action 0" in err
    assert "0:pass" in err
    code, out, err = _cli(tmp_path, mutated(recs["two"], lambda d: d.pop("players")))
    assert code == 2
    assert "players" in err


def test_illegal_record_error_type(recs: dict[str, Doc]) -> None:
    with pytest.raises(IllegalRecordError):
        replay_record(mutated(recs["one"], set_bone(0, "13-1")))
    assert isinstance(load_record(recs["one"]), GameRecord)


GOLDEN = Path(__file__).parent / "golden"


@pytest.mark.parametrize(
    "name", ["cardinal_engine_drawn_in_first_cycle", "cardinal_engine_drawn_in_second_cycle"]
)
def test_cardinal_draw_cycle_starter_checked(name: str) -> None:
    doc = json.loads((GOLDEN / f"{name}.json").read_text(encoding="utf-8"))
    starter = replay_record(copy.deepcopy(doc)).match.rounds[0].starter
    assert doc["rounds"][0].get("starter") is None  # cycle draws are not actions
    assert outcome(mutated(doc, lambda d: d["rounds"][0].__setitem__("starter", starter)))[0] == 0
    wrong = (starter + 1) % len(doc["players"])
    code, out = outcome(mutated(doc, lambda d: d["rounds"][0].__setitem__("starter", wrong)))
    assert code == 1
    assert out["error"]["round"] == 0
    assert out["error"]["action"] is None


def test_full_thirteen_round_game(tmp_path: Path) -> None:
    out = tmp_path / "full"
    done = subprocess.run(
        [
            sys.executable, "-m", "mextrain", "simulate", "--rules", "classic", "--players",
            "2", "--bots", "planner,planner", "--games", "2", "--seed", "2", "--records", str(out),
        ],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    doc = json.loads((out / "game-000000.json").read_text(encoding="utf-8"))
    assert doc["rules"] == "classic"
    assert len(doc["rounds"]) == 13
    code, res = outcome(doc)
    assert code == 0
    assert res["complete"] is True
    assert [r["engine"] for r in res["rounds"]] == list(range(12, -1, -1))
    t = res["totals"]
    assert t == [sum(r["scores"][s] for r in res["rounds"]) for s in range(2)]
    assert res["winners"] == [s for s in range(2) if t[s] == min(t)]
    # twelve finished rounds: in progress, leaders given
    short = copy.deepcopy(doc)
    short["rounds"] = short["rounds"][:12]
    short["result"] = {
        "scores": doc["result"]["scores"][:12],
        "totals": [sum(s[i] for s in doc["result"]["scores"][:12]) for i in range(2)],
    }
    code, res = outcome(short)
    assert code == 0
    assert res["complete"] is False
    assert res["winners"]


def test_rules_object_with_option_overrides(recs: dict[str, Doc]) -> None:
    doc = mutated(recs["one"], lambda d: d.pop("result"))
    doc["rules"] = {"preset": "classic", "rounds": [12], "double_blank_points": 25,
                    "unsatisfied_double_penalty": 10}  # fmt: skip
    assert outcome(doc)[0] == 0
    doc["rules"]["double_blank_points"] = "lots"
    code, out = outcome(doc)
    assert code == 2
    assert "double_blank_points" in out["error"]["reason"]


# -- the reasons' words -----------------------------------------------------------------


def test_reasons_show_values_as_json_and_count_rightly(recs: dict[str, Doc]) -> None:
    # a tile or an action of the wrong type is shown as the JSON it was written as
    _, out = outcome(mutated(recs["one"], set_bone(0, None)))
    assert out["error"]["reason"].endswith("not null")
    _, out = outcome(mutated(recs["one"], set_action(0, 0, ["3", "draw"])))
    assert out["error"]["reason"].endswith('not ["3", "draw"]')
    # a second round under rules of one: "1 round", not "1 rounds"
    extra = mutated(recs["two"], lambda d: d["rules"].__setitem__("rounds", 1))
    extra.pop("result", None)
    code, out = outcome(extra)
    assert code == 1
    assert "these rules play 1 round (round 0): there is no round 1" in out["error"]["reason"]
    # an engine no double has is named as written
    code, out = outcome(mutated(recs["one"], lambda d: d["rounds"][0].__setitem__("engine", -1)))
    assert code == 1
    assert out["error"]["reason"].endswith("not -1")


def test_two_hand_sizes_for_one_player_count_are_refused(recs: dict[str, Doc]) -> None:
    # "2" and "02" are the same count: two sizes for it contradict each other (exit 2)
    def twice(d: Doc) -> None:
        d["rules"] = {"preset": "classic", "hand_size": {"2": 16, "02": 15}}

    code, out = outcome(mutated(recs["one"], twice))
    assert code == 2
    assert "two hand sizes for 2 players" in out["error"]["reason"]
