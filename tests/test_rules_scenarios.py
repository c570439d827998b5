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

The second half of the file is a plain, slow reference reading of RULES.md that plays random
rounds side by side with the engine (random presets, set sizes and options) and compares the
legal actions, the table and the scores after every action.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mextrain.rules import (
    MEXICAN,
    IllegalActionError,
    Match,
    RoundState,
    Rules,
    Tile,
    deal_round,
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


# ------------------------------------------------------------------------------------------
# A reference reading: RULES.md written out plainly (slow, sets and lists), run side by side
# with the engine over random games. It mirrors the table by itself from the deal and the
# actions, and after every action the two must agree on the legal actions, the table and
# the scores. It checks the engine; nothing outside the tests uses it.
# ------------------------------------------------------------------------------------------

M = MEXICAN


class Reference:
    """One round by the letter of RULES.md."""

    def __init__(
        self,
        rules: Rules,
        hands: list[list[Tile]],
        boneyard: list[Tile],
        starter: int | None,
        round_index: int = 0,
    ) -> None:
        self.rules = rules
        self.n = len(hands)
        self.engine = rules.rounds[round_index]
        self.hands = [set(h) for h in hands]
        self.bone = list(boneyard)
        self.trains: dict[int, list[Tile]] = {t: [] for t in [*range(self.n), M]}
        self.ends = dict.fromkeys(self.trains, self.engine)
        self.markers: set[int] = set()
        self.open: list[int] = []  # trains with an open double, oldest first
        self.played_by: dict[Tile, int] = {}
        self.turns = 0
        self.had_turn: set[int] = set()
        self.ended: str | None = None
        if rules.engine_setup == "holder_starts":
            engine = Tile(self.engine, self.engine)
            while not any(engine in h for h in self.hands):
                for seat in range(self.n):  # a draw cycle, completed while tiles remain
                    if self.bone:
                        self.hands[seat].add(self.bone.pop(0))
            starter = next(s for s in range(self.n) if engine in self.hands[s])
            self.hands[starter].discard(engine)
        assert starter is not None
        self.starter = starter
        self.begin(starter)

    def begin(self, seat: int) -> None:
        self.seat = seat
        self.drew = False
        self.drawn: Tile | None = None  # the tile just drawn, until the next play
        self.owe = False
        self.plays = 0
        self.own_played = False
        self.opened_mexican = False
        self.run = self.rules.first_turn == "run" and seat not in self.had_turn

    # -- where tiles may go ------------------------------------------------------------

    def fits(self, tile: Tile, train: int) -> bool:
        return tile.has(self.ends[train])

    def usable(self, seat: int, follow_up: bool) -> set[Tile]:
        tiles = set(self.hands[seat])
        if follow_up and self.rules.double_follow_up == "no_double":
            tiles = {t for t in tiles if not t.is_double}
        if self.rules.no_going_out_on_double and len(self.hands[seat]) == 1:
            tiles = {t for t in tiles if not t.is_double}
        return tiles

    def mexican_open(self, seat: int, turn: int) -> bool:
        if self.rules.mexican_after_own_train and not self.trains[seat]:
            return False
        return not (self.rules.mexican_after_first_round_of_turns and turn < self.n)

    def reachable(self, seat: int, tiles: set[Tile], turn: int) -> set[tuple[Tile, int]]:
        own = {(t, seat) for t in tiles if self.fits(t, seat)}
        mexican = set()
        if self.mexican_open(seat, turn):
            mexican = {(t, M) for t in tiles if self.fits(t, M)}
        marked = {(t, s) for s in self.markers - {seat} for t in tiles if self.fits(t, s)}
        if self.rules.own_train_first and own:
            if turn == 0 and self.plays == 0 and not self.trains[M]:
                return own | mexican  # the starter may open the Mexican train instead
            return own
        return own | mexican | marked

    def turn_plays(self, seat: int, turn: int) -> set[tuple[Tile, int]]:
        tiles = self.usable(seat, follow_up=False)
        if self.open and self.rules.open_doubles_block:
            oldest = self.open[0]
            return {(t, oldest) for t in tiles if self.fits(t, oldest)}
        return self.reachable(seat, tiles, turn)

    def legal(self) -> set[str]:
        if self.ended:
            return set()
        s = self.seat
        if self.owe:
            plays = self.reachable(s, self.usable(s, follow_up=True), self.turns)
        elif self.run and self.plays:
            plays = {(t, s) for t in self.usable(s, follow_up=False) if self.fits(t, s)}
        else:
            plays = self.turn_plays(s, self.turns)
        if self.drawn is not None and not self.rules.draw_until_playable:
            plays = {(t, train) for t, train in plays if t == self.drawn}
        out = {f"{t}@{'M' if train == M else train}" for t, train in plays}
        if plays:
            if self.run and self.plays and not self.owe:
                out.add("pass")
            return out
        can_draw = bool(self.bone) and (not self.drew or self.rules.draw_until_playable)
        return {"draw"} if can_draw else {"pass"}

    # -- actions ------------------------------------------------------------------------

    def apply(self, text: str) -> None:
        seat, action = parse_action(text)
        assert seat == self.seat
        assert str(action) in self.legal()
        if action.kind == "draw":
            self.drawn = self.bone.pop(0)
            self.hands[seat].add(self.drawn)
            self.drew = True
        elif action.kind == "pass":
            self.end_turn(forced=not (self.run and self.plays and not self.owe))
        else:
            assert action.tile is not None
            assert action.train is not None
            self.play(action.tile, action.train)

    def play(self, tile: Tile, train: int) -> None:
        s = self.seat
        self.hands[s].remove(tile)
        opening_mexican = train == M and not self.trains[M]
        self.trains[train].append(tile)
        self.ends[train] = tile.other_end(self.ends[train])
        self.played_by[tile] = s
        if train in self.open:
            self.open.remove(train)
        self.plays += 1
        self.drawn = None
        if train == s:
            self.own_played = True
            self.markers.discard(s)
        elif opening_mexican and self.turns == 0:
            self.opened_mexican = True
        if not self.hands[s]:
            if tile.is_double:
                self.open.append(train)
            self.ended = "out"
            return
        if tile.is_double:
            self.open.append(train)
            self.owe = True
            if train != s:
                self.run = False
            return
        self.owe = False
        if self.run and train == s:
            if any(self.fits(t, s) for t in self.usable(s, follow_up=False)):
                return
            self.end_turn(forced=False)
        else:
            self.run = False
            self.end_turn(forced=False)

    def end_turn(self, forced: bool) -> None:
        s = self.seat
        if self.rules.marker_rule == "forced_pass":
            if forced:
                self.markers.add(s)
        elif not self.own_played and not self.opened_mexican:
            self.markers.add(s)
        self.turns += 1
        self.had_turn.add(s)
        if not self.bone:
            others = [(s + 1 + i) % self.n for i in range(self.n)]
            if not any(self.turn_plays(o, self.turns + i) for i, o in enumerate(others)):
                self.ended = "blocked"
                return
        self.begin((s + 1) % self.n)

    def scores(self) -> list[int] | None:
        if not self.ended:
            return None
        out = []
        for hand in self.hands:
            points = sum(t.low + t.high for t in hand)
            if Tile(0, 0) in hand:
                points += self.rules.double_blank_points
            out.append(points)
        for train in self.open:
            by = self.played_by[self.trains[train][-1]]
            if self.hands[by]:  # a seat that went out scores 0, penalty or not
                out[by] += self.rules.unsatisfied_double_penalty
        return out


def compare(ref: Reference, state: RoundState, where: str) -> None:
    legal = {str(a) for a in state.legal_actions()}
    assert legal == ref.legal(), f"{where}: engine {sorted(legal)}, reference {sorted(ref.legal())}"
    assert state.ended == ref.ended, where
    if ref.ended is None:
        assert state.current_seat == ref.seat, where
    assert state.scores() == ref.scores(), where
    for seat in range(ref.n):
        assert set(state.hand(seat)) == ref.hands[seat], where
        assert state.marker_up(seat) == (seat in ref.markers), f"{where}: marker {seat}"
    for train, tiles in ref.trains.items():
        assert state.train(train) == tiles, where
        assert state.open_end(train) == ref.ends[train], where
    assert list(state.open_doubles) == ref.open, f"{where}: open doubles"
    assert state.boneyard_size == len(ref.bone), where


HOUSE = {
    "double_blank_points": 25,
    "unsatisfied_double_penalty": 10,
    "mexican_after_own_train": True,
    "mexican_after_first_round_of_turns": True,
    "draw_until_playable": True,
}


CORE: dict[str, list[Any]] = {
    "double_follow_up": ["any", "no_double"],
    "open_doubles_block": [True, False],
    "own_train_first": [True, False],
    "marker_rule": ["forced_pass", "no_own_play"],
}


def random_rules(rng: random.Random) -> tuple[Rules, int]:
    preset = rng.choice(["classic", "relaxed", "cardinal"])
    spec: dict[str, Any] = {"preset": preset}
    size = rng.choice([4, 5, 6, 9, 12])
    if size != 12:
        players = rng.randint(4, 5) if preset == "cardinal" else rng.randint(2, 4)
        tiles = (size + 1) * (size + 2) // 2 - 1
        spec.update(max_pip=size, hand_size={str(players): rng.randint(2, tiles // players)})
    else:
        players = rng.randint(4, 10) if preset == "cardinal" else rng.randint(2, 8)
    spec.update({option: value for option, value in HOUSE.items() if rng.random() < 0.25})
    spec.update(
        {option: rng.choice(values) for option, values in CORE.items() if rng.random() < 0.2}
    )
    if rng.random() < 0.25:
        spec["first_turn_run"] = preset != "cardinal"
    return Rules.from_spec(spec), players


def random_game(seed: int) -> None:
    rng = random.Random(seed)
    rules, players = random_rules(rng)
    round_index = rng.randrange(rules.round_count)
    hands, boneyard = deal_round(rules, players, round_index, rng)
    starter = rng.randrange(players) if rules.first_player == "rotate" else None
    state = RoundState.from_deal(rules, players, round_index, hands, boneyard, starter)
    ref = Reference(rules, hands, boneyard, starter, round_index)
    where = f"seed {seed} {rules.to_spec()} players {players}"
    compare(ref, state, where)
    while not state.is_over:
        action = rng.choice(state.legal_actions())
        text = action.notation(state.current_seat)
        state.apply(action, seat=state.current_seat)
        ref.apply(text)
        compare(ref, state, f"{where} after {state.record_actions()}")


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_engine_agrees_with_the_reference_reading(seed: int) -> None:
    random_game(seed)


@pytest.mark.slow
def test_engine_agrees_with_the_reference_reading_at_length() -> None:
    for seed in range(1500):
        random_game(seed)
