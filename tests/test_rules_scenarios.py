"""Golden scenarios: one game record per rule of RULES.md, with what must hold.

Every file in ``tests/golden/`` is a game record (docs/RECORDS.md) with an explicit deal, plus an
``expect`` list written by hand from the rules text, not from the engine. Each check names
the round (default 0) and how many of that round's actions have been applied (``after``;
``"end"`` or missing means all of them), then states what must hold there:

``current_seat``, ``starter``, ``legal`` (exact set, actions without the seat, like
``"5-12@M"``, ``"draw"``, ``"pass"``), ``legal_includes``, ``legal_excludes``, ``markers``
(the seats whose marker is up), ``open_ends`` / ``trains`` (keyed by seat or ``"M"``),
``open_doubles`` (oldest first), ``hands`` (keyed by seat), ``hand_sizes``,
``boneyard_size``, ``drew``, ``owes_follow_up``, ``ended``, ``scores``, ``totals``,
``winners``, ``complete``, and ``illegal``: actions that must be refused with a message
containing the given words, leaving the state unchanged.

A file may carry ``"xfail": "engine: ..."`` where the engine is known to disagree with
RULES.md; the test is then a strict expected failure.

`test_rules_differential.py` plays random rounds side by side with an independent reference
reading of RULES.md (`rules_reference.py`).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from mextrain.rules import (
    MEXICAN,
    IllegalActionError,
    Match,
    RoundState,
    Rules,
    parse_action,
    parse_tile,
)

GOLDEN = Path(__file__).parent / "golden"
FILES = sorted(GOLDEN.glob("*.json"))

KNOWN_CHECKS = {
    "round",
    "after",
    "note",
    "current_seat",
    "starter",
    "legal",
    "legal_includes",
    "legal_excludes",
    "markers",
    "open_ends",
    "trains",
    "open_doubles",
    "hands",
    "hand_sizes",
    "boneyard_size",
    "drew",
    "owes_follow_up",
    "ended",
    "scores",
    "totals",
    "winners",
    "complete",
    "illegal",
}


def load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def train_id(key: str | int) -> int:
    return MEXICAN if key == "M" else int(key)


def tiles(texts: list[str]) -> list[str]:
    return sorted(str(parse_tile(t)) for t in texts)


def snapshot(state: RoundState) -> dict[str, Any]:
    """Everything observable about a round, hidden parts included."""
    return {
        "views": [state.view(s).to_dict() for s in range(len(state.hand_sizes))],
        "hands": [state.hand(s) for s in range(len(state.hand_sizes))],
        "boneyard": state.boneyard_tiles(),
        "history": list(state.history),
        "legal": [str(a) for a in state.legal_actions()],
    }


def assert_illegal(state: RoundState, text: str, words: list[str], where: str) -> None:
    seat, action = parse_action(text)
    before = snapshot(state)
    with pytest.raises(IllegalActionError) as info:
        state.apply(action, seat=seat)
    message = str(info.value).lower()
    for word in words:
        assert word.lower() in message, f"{where}: {text!r} refused with {message!r}, no {word!r}"
    assert snapshot(state) == before, f"{where}: refusing {text!r} changed the state"


def check(match: Match, state: RoundState, spec: dict[str, Any], where: str) -> None:
    unknown = set(spec) - KNOWN_CHECKS
    assert not unknown, f"{where}: unknown checks {sorted(unknown)}"
    view = state.view(state.current_seat).to_dict()
    legal = sorted(view["legal_actions"])
    simple = {
        "current_seat": state.current_seat,
        "starter": state.starter,
        "hand_sizes": state.hand_sizes,
        "boneyard_size": state.boneyard_size,
        "drew": view["drew"],
        "owes_follow_up": view["owes_follow_up"],
        "ended": state.ended,
        "scores": state.scores(),
        "markers": [s for s in range(len(state.hand_sizes)) if state.marker_up(s)],
        "open_doubles": ["M" if t == MEXICAN else t for t in state.open_doubles],
        "totals": match.totals,
        "winners": match.winners,
        "complete": match.is_complete,
    }
    for key, actual in simple.items():
        if key in spec:
            assert actual == spec[key], f"{where}: {key} is {actual!r}, expected {spec[key]!r}"
    if "legal" in spec:
        assert legal == sorted(spec["legal"]), f"{where}: legal actions {legal}"
    for text in spec.get("legal_includes", []):
        assert text in legal, f"{where}: {text!r} should be legal; legal are {legal}"
    for text in spec.get("legal_excludes", []):
        assert text not in legal, f"{where}: {text!r} should not be legal; legal are {legal}"
    for key, pip in spec.get("open_ends", {}).items():
        actual_end = state.open_end(train_id(key))
        assert actual_end == pip, f"{where}: open end of train {key} is {actual_end}"
    for key, laid in spec.get("trains", {}).items():
        actual_tiles = [str(t) for t in state.train(train_id(key))]
        assert actual_tiles == [str(parse_tile(t)) for t in laid], (
            f"{where}: train {key} is {actual_tiles}"
        )
    for key, held in spec.get("hands", {}).items():
        actual_hand = sorted(str(t) for t in state.hand(int(key)))
        assert actual_hand == tiles(held), f"{where}: seat {key} holds {actual_hand}"
    for item in spec.get("illegal", []):
        assert_illegal(state, item["action"], item.get("words", []), where)


def checks_by_point(record: dict[str, Any]) -> dict[tuple[int, int], list[dict[str, Any]]]:
    points: dict[tuple[int, int], list[dict[str, Any]]] = {}
    for spec in record["expect"]:
        k = spec.get("round", 0)
        after = spec.get("after", "end")
        n = len(record["rounds"][k]["actions"]) if after == "end" else int(after)
        points.setdefault((k, n), []).append(spec)
    return points


def play_record(record: dict[str, Any]) -> Iterator[tuple[Match, RoundState, int, int]]:
    """Replay the record through the engine, yielding after each point (round, actions)."""
    rules = Rules.from_spec(record["rules"])
    match = Match(rules, len(record["players"]))
    for k, rnd in enumerate(record["rounds"]):
        assert rnd["engine"] == rules.engine_for(k), f"round {k}: wrong engine in the file"
        state = match.deal_next_round(
            [[parse_tile(t) for t in hand] for hand in rnd["hands"]],
            [parse_tile(t) for t in rnd["boneyard"]],
            rnd.get("starter"),
        )
        yield match, state, k, 0
        for i, text in enumerate(rnd["actions"]):
            seat, action = parse_action(text)
            try:
                state.apply(action, seat=seat)
            except IllegalActionError as err:  # pragma: no cover - a failing scenario
                pytest.fail(f"round {k} action {i} {text!r} refused: {err}")
            yield match, state, k, i + 1


def run_scenario(record: dict[str, Any]) -> None:
    points = checks_by_point(record)
    seen: set[tuple[int, int]] = set()
    match = None
    for match, state, k, n in play_record(record):
        for spec in points.get((k, n), []):
            check(match, state, spec, f"round {k} after {n} actions ({spec.get('note', '')})")
        seen.add((k, n))
    assert set(points) <= seen, f"checks at points never reached: {sorted(set(points) - seen)}"
    assert match is not None
    result = record.get("result")
    if result is not None:
        assert match.round_scores() == result["scores"]
        assert match.totals == result["totals"]


def _params() -> list[Any]:
    params = []
    for path in FILES:
        record = load(path)
        marks = []
        if "xfail" in record:
            marks.append(pytest.mark.xfail(strict=True, reason=record["xfail"]))
        params.append(pytest.param(path, id=path.stem, marks=marks))
    return params


@pytest.mark.parametrize("path", _params())
def test_golden_scenario(path: Path) -> None:
    run_scenario(load(path))


def test_golden_files_are_records() -> None:
    assert len(FILES) >= 40
    for path in FILES:
        record = load(path)
        assert record["format"] == "mexican-train-record", path.name
        assert record["version"] == 1, path.name
        assert record["expect"], f"{path.name} states nothing to check"
        assert record.get("rule"), f"{path.name} does not quote the rule it checks"
        for rnd in record["rounds"]:
            assert isinstance(rnd["hands"], list)
            assert isinstance(rnd["boneyard"], list)
            assert all(isinstance(a, str) for a in rnd["actions"])


@pytest.mark.parametrize("path", _params())
def test_golden_record_replays(path: Path) -> None:
    """Each golden file is a legal record for `mextrain.records` too, with the same outcome."""
    records = pytest.importorskip("mextrain.records", reason="mextrain.records is not built yet")
    text = path.read_text(encoding="utf-8")
    result = records.replay_record(records.load_record(text))
    record = load(path)
    assert len(result.rounds) == len(record["rounds"])
    for spec in record["expect"]:
        if spec.get("after", "end") == "end" and "scores" in spec:
            outcome = result.rounds[spec.get("round", 0)]
            assert outcome.scores == spec["scores"]
            assert outcome.ended == spec["ended"]
    if "result" in record:
        assert result.totals == record["result"]["totals"]
