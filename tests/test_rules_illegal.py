"""Illegal actions: each kind is refused with a message naming the rule, and changes nothing.

The positions are small explicit deals (a double-6 set unless said otherwise), built from
RULES.md, not from the engine's code.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mextrain.rules import (
    DRAW,
    MEXICAN,
    PASS,
    Action,
    IllegalActionError,
    Match,
    RoundState,
    Rules,
    Tile,
    parse_action,
    parse_tile,
    tile_set,
)

CLASSIC6 = {"preset": "classic", "max_pip": 6, "hand_size": {"2": 5}}


def deal(
    spec: dict[str, Any],
    hands: list[list[str]],
    top: tuple[str, ...] = (),
    starter: int | None = 0,
) -> RoundState:
    """Round 0 with these hands; the boneyard is ``top`` then every other tile, in set order."""
    rules = Rules.from_spec(spec)
    ts = tile_set(rules.max_pip)
    held = [[parse_tile(t) for t in hand] for hand in hands]
    first = [parse_tile(t) for t in top]
    engine = Tile(rules.rounds[0], rules.rounds[0])
    used = {t for hand in held for t in hand} | set(first)
    if rules.engine_setup == "set_aside":
        used.add(engine)
    rest = [t for t in ts.tiles if t not in used]
    return RoundState.from_deal(rules, len(hands), 0, held, first + rest, starter)


def snapshot(state: RoundState) -> dict[str, Any]:
    seats = range(len(state.hand_sizes))
    return {
        "views": [state.view(s).to_dict() for s in seats],
        "hands": [state.hand(s) for s in seats],
        "boneyard": state.boneyard_tiles(),
        "history": list(state.history),
        "legal": list(state.legal_actions()),
        "markers": [state.marker_up(s) for s in seats],
        "open_doubles": state.open_doubles,
        "seat": state.current_seat,
        "ended": state.ended,
    }


def refuse(state: RoundState, text: str, *words: str) -> str:
    """Apply ``text``; it must be refused naming ``words``, and leave the state as it was."""
    seat, action = parse_action(text)
    before = snapshot(state)
    assert not state.is_legal(action) or seat != state.current_seat
    with pytest.raises(IllegalActionError) as info:
        state.apply(action, seat=seat)
    message = str(info.value)
    for word in words:
        assert word.lower() in message.lower(), f"{text!r} refused with {message!r}"
    assert snapshot(state) == before
    return message


def play(state: RoundState, *texts: str) -> None:
    for text in texts:
        seat, action = parse_action(text)
        state.apply(action, seat=seat)


A = ["1-6", "2-3", "0-0", "4-5", "1-1"]
B = ["2-6", "3-4", "0-5", "1-2", "0-3"]
NO_SIX = ["0-1", "2-3", "0-0", "4-5", "1-1"]


def test_wrong_turn() -> None:
    state = deal(CLASSIC6, [A, B])
    message = refuse(state, "1:2-6@1", "turn")
    assert "seat 0" in message
    assert "seat 1" in message
    play(state, "0:1-6@0")
    refuse(state, "0:draw", "turn")


def test_no_such_seat() -> None:
    state = deal(CLASSIC6, [A, B])
    refuse(state, "5:draw", "seat 5")


def test_tile_not_held() -> None:
    state = deal(CLASSIC6, [A, B])
    message = refuse(state, "0:2-6@0", "hold")
    assert "2-6" in message


def test_wrong_end() -> None:
    state = deal(CLASSIC6, [A, B])
    message = refuse(state, "0:2-3@0", "open end")
    assert "6" in message
    play(state, "0:1-6@M")
    refuse(state, "1:3-4@M", "open end", "1")


def test_marker_down() -> None:
    state = deal(CLASSIC6, [A, B])
    refuse(state, "0:1-6@1", "marker")
    play(state, "0:1-6@0")
    refuse(state, "1:1-2@0", "marker")


def test_must_play_instead_of_draw() -> None:
    state = deal(CLASSIC6, [A, B])
    refuse(state, "0:draw", "must play")


def test_must_play_instead_of_pass() -> None:
    state = deal(CLASSIC6, [A, B])
    refuse(state, "0:pass", "must play")


def test_second_draw() -> None:
    state = deal(CLASSIC6, [NO_SIX, B], top=("2-4", "3-6"))
    play(state, "0:draw")
    assert state.legal_actions() == [PASS]
    refuse(state, "0:draw", "one draw")


def test_drawn_tile_must_be_played() -> None:
    state = deal(CLASSIC6, [NO_SIX, B], top=("3-6",))
    play(state, "0:draw")
    refuse(state, "0:pass", "must play")
    refuse(state, "0:draw", "must play")


def test_pass_before_drawing() -> None:
    state = deal(CLASSIC6, [NO_SIX, B])
    refuse(state, "0:pass", "draw")


def test_draw_from_empty_boneyard() -> None:
    spec = {"preset": "classic", "max_pip": 3, "hand_size": {"3": 3}}
    state = deal(spec, [["0-0", "1-1", "1-2"], ["0-3", "1-3", "2-2"], ["2-3", "0-1", "0-2"]])
    assert state.boneyard_size == 0
    refuse(state, "0:draw", "boneyard")


def test_tile_not_in_the_set() -> None:
    state = deal(CLASSIC6, [A, B])
    message = refuse(state, "0:6-7@0", "not in the double-6 set")
    assert "6-7" in message


def test_no_such_train() -> None:
    state = deal(CLASSIC6, [A, B])
    refuse(state, "0:1-6@2", "no train")
    with pytest.raises(IllegalActionError):
        state.apply(Action.play(Tile(1, 6), 9))


def test_round_over() -> None:
    spec = {"preset": "classic", "max_pip": 6, "hand_size": {"2": 1}}
    state = deal(spec, [["1-6"], ["2-6"]])
    play(state, "0:1-6@0")
    assert state.ended == "out"
    assert state.legal_actions() == []
    refuse(state, "1:2-6@1", "over")
    with pytest.raises(IllegalActionError):
        state.apply(DRAW)


def test_open_double_must_be_satisfied() -> None:
    state = deal(
        CLASSIC6, [["3-6", "3-3", "2-5", "0-0", "0-1"], ["5-6", "1-3", "2-4", "4-4", "0-2"]]
    )
    play(state, "0:3-6@0", "1:5-6@M", "0:3-3@0", "0:2-5@M")
    message = refuse(state, "1:2-4@M", "open double")
    assert "3-3" in message


def test_answer_first_names_the_open_double_to_answer_before_any_other_play() -> None:
    """`RoundState.answer_first()`: under classic's open doubles block, the oldest open
    double's train once the turn that played it has ended -- for the seat to move, the
    double's own player too, before and after a draw -- and nothing while its player owes
    the follow-up (which may go anywhere) nor once it is answered; never under relaxed."""
    hands = [["3-6", "3-3", "2-5", "0-0", "0-1"], ["5-6", "1-2", "2-4", "4-4", "0-2"]]
    state = deal(CLASSIC6, hands, top=("4-5", "3-4"))
    play(state, "0:3-6@0", "1:5-6@M")
    assert state.answer_first() is None  # (no double open)
    play(state, "0:3-3@0")
    assert state.answer_first() is None  # its follow-up may go anywhere
    assert Action.play(Tile(2, 5), MEXICAN) in state.legal_actions()
    play(state, "0:2-5@M")
    assert state.answer_first() == 0  # 3-3, on seat 0's train, for seat 1
    refuse(state, "1:2-4@M", "open double", "3-3")  # (2-4 fits the Mexican train's 2)
    assert state.legal_actions() == [DRAW]
    play(state, "1:draw")  # 4-5: no 3
    assert state.answer_first() == 0
    play(state, "1:pass")
    assert state.answer_first() == 0  # the double's own player answers it too
    play(state, "0:draw")  # 3-4 fits the double, and is all that may be played
    assert state.answer_first() == 0
    assert state.legal_actions() == [Action.play(Tile(3, 4), 0)]
    play(state, "0:3-4@0")
    assert state.answer_first() is None  # answered
    assert Action.play(Tile(2, 4), MEXICAN) in state.legal_actions()
    # a double on the Mexican train, which found no follow-up: answered first there
    hands = [["3-6", "2-5", "2-3", "0-0", "0-1"], ["5-6", "2-2", "1-3", "4-4", "0-4"]]
    state = deal(CLASSIC6, hands, top=("4-5",))
    play(state, "0:3-6@0", "1:5-6@M", "0:2-5@M", "1:2-2@M")
    assert state.answer_first() is None
    play(state, "1:draw", "1:pass")
    assert state.answer_first() == MEXICAN
    refuse(state, "0:2-3@0", "open double", "2-2", "Mexican")  # (2-3 fits its own 3)
    assert state.legal_actions() == [Action.play(Tile(2, 3), MEXICAN)]
    # relaxed: open doubles do not block, whoever is to move
    spec = {"preset": "relaxed", "max_pip": 6, "hand_size": {"2": 5}}
    hands = [["3-6", "3-3", "2-5", "0-0", "0-1"], ["5-6", "1-2", "2-4", "4-4", "0-2"]]
    state = deal(spec, hands, top=("4-5", "3-4"))
    play(state, "0:3-6@0", "1:5-6@M", "0:3-3@0", "0:2-5@M")
    assert state.open_doubles == (0,)
    assert state.answer_first() is None
    assert Action.play(Tile(2, 4), MEXICAN) in state.legal_actions()


def test_follow_up_may_not_be_a_double_under_relaxed() -> None:
    spec = {"preset": "relaxed", "max_pip": 6, "hand_size": {"2": 5}}
    state = deal(spec, [["3-6", "3-3", "5-5", "0-1", "1-2"], ["5-6", "2-4", "4-5", "1-4", "3-4"]])
    play(state, "0:3-6@0", "1:5-6@M", "0:3-3@0")
    refuse(state, "0:5-5@M", "double")
    refuse(state, "0:pass", "draw")


def cardinal_at_seat_2() -> RoundState:
    """Cardinal, double-6, four seats: seat 0 (the engine's holder) opened the Mexican
    train with 1-6, seat 1 started its own train with 2-6 and passed; seat 2 is to move,
    its own train unstarted (the engine's 6), holding 4-6, 1-5, 0-2, 3-3, 5-5."""
    spec = {"preset": "cardinal", "max_pip": 6, "hand_size": {"4": 5}}
    hands = [
        ["6-6", "1-6", "2-3", "0-0", "0-1"],
        ["2-6", "2-2", "0-5", "4-5", "3-4"],
        ["4-6", "1-5", "0-2", "3-3", "5-5"],
        ["1-2", "1-3", "0-3", "2-4", "1-4"],
    ]
    state = deal(spec, hands, starter=None)
    assert state.starter == 0
    play(state, "0:1-6@M", "1:2-6@1", "1:pass")
    return state


def test_own_train_first() -> None:
    refuse(cardinal_at_seat_2(), "2:1-5@M", "own train")


def test_run_tiles_go_on_the_own_train() -> None:
    spec = {"preset": "classic", "max_pip": 6, "hand_size": {"2": 5}, "first_turn_run": True}
    run_hand = ["3-6", "3-5", "4-5", "0-6", "1-4"]
    state = deal(spec, [run_hand, B])
    play(state, "0:0-6@M")
    # a first play elsewhere is a single play: the turn is over
    assert state.current_seat == 1
    state = deal(spec, [run_hand, B])
    play(state, "0:3-6@0")
    refuse(state, "0:0-6@M", "own train")
    assert set(state.legal_actions()) == {Action.play(Tile(3, 5), 0), PASS}


def test_mexican_train_closed_by_house_rules() -> None:
    spec = {**CLASSIC6, "mexican_after_own_train": True}
    state = deal(spec, [A, B])
    refuse(state, "0:1-6@M", "own train")
    spec = {**CLASSIC6, "mexican_after_first_round_of_turns": True}
    state = deal(spec, [A, B])
    refuse(state, "0:1-6@M", "mexican")


def test_no_going_out_on_a_double() -> None:
    spec = {
        "preset": "classic",
        "max_pip": 6,
        "hand_size": {"2": 2},
        "no_going_out_on_double": True,
    }
    state = deal(spec, [["1-6", "1-1"], ["2-6", "3-4"]])
    play(state, "0:1-6@0", "1:2-6@1")
    refuse(state, "0:1-1@0", "double")


def _candidates(state: RoundState) -> list[Action]:
    """Every play of every tile of the set on every train, and draw and pass."""
    ts = state.ts
    trains = [*range(len(state.hand_sizes)), MEXICAN]
    return [Action.play(t, train) for t in ts.tiles for train in trains] + [DRAW, PASS]


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), preset=st.sampled_from(["classic", "relaxed", "cardinal"]))
def test_every_refused_action_leaves_the_state_unchanged(seed: int, preset: str) -> None:
    rng = random.Random(seed)
    players = 4 if preset == "cardinal" else 3
    spec = {"preset": preset, "max_pip": 6, "hand_size": {str(players): 5}}
    state = RoundState.new(Rules.from_spec(spec), players, 0, rng)
    while not state.is_over:
        legal = state.legal_actions()
        assert legal
        before = snapshot(state)
        for action in rng.sample(_candidates(state), 12):
            if action in legal:
                continue
            assert not state.is_legal(action)
            with pytest.raises(IllegalActionError):
                state.apply(action)
            assert snapshot(state) == before
        other = (state.current_seat + 1) % players
        with pytest.raises(IllegalActionError):
            state.apply(legal[0], seat=other)
        assert snapshot(state) == before
        state.apply(rng.choice(legal), seat=state.current_seat)
    assert state.legal_actions() == []


def test_after_a_draw_another_tile_is_refused_saying_whether_to_play_it_or_pass() -> None:
    # a random classic round shows both cases: the drawn tile fits (it must be played; no
    # pass), or it fits nowhere (the seat passes); either way no other tile may be played
    rng = random.Random(0)
    state = Match.new(Rules.preset("classic"), players=4, rng=rng).current
    seen: dict[str, tuple[bool, bool]] = {}  # code: (pass legal, the words say pass)
    while not state.is_over and len(seen) < 2:
        seat = state.current_seat
        legal = state.legal_actions()
        if state.history and state.history[-1] == (seat, DRAW):
            for tile in sorted(state.hand(seat)):
                for train in [*range(4), MEXICAN]:
                    try:
                        state.copy().apply(Action.play(tile, train))
                    except IllegalActionError as err:
                        if err.code in ("drawn_tile_only", "drawn_tile_fits_nowhere"):
                            seen[err.code] = (PASS in legal, "so pass" in str(err))
        state.apply(rng.choice(legal))
    assert seen == {"drawn_tile_only": (False, False), "drawn_tile_fits_nowhere": (True, True)}


def test_an_open_double_that_blocks_is_the_reason_given_before_a_wrong_end() -> None:
    """A tile played elsewhere while an open double blocks breaks two rules when it does
    not fit there either; the open double is named, the rule in the way of any tile there
    (told only "its open end is 3", a player tried another tile and was refused again)."""
    found = 0
    rng = random.Random(7)
    for _ in range(400):
        state = RoundState.new(Rules.preset("classic"), 3, 0, random.Random(rng.random()))
        while not state.is_over and found < 5:
            s = state.current_seat
            view = state.view(s)
            blocked = state.open_doubles and not view.owes_follow_up and view.drew is False
            own = state.open_doubles[0] if state.open_doubles else None
            misfit = [t for t in state.hand(s) if not t.has(view.trains[s].open_end)]
            if blocked and own != s and misfit and view.trains[s].tiles:
                action = Action.play(misfit[0], s)
                with pytest.raises(IllegalActionError) as info:
                    state.copy().apply(action, s)
                assert info.value.code == "open_double_first", info.value
                found += 1
            state.apply(rng.choice(state.legal_actions()), s)
        if found >= 5:
            break
    assert found >= 5


# -- what is no rules, seat count, random source or action at all ---------------------------


@pytest.mark.parametrize(
    ("make", "words"),
    [
        (
            lambda: Match("classic", 4),
            "rules are a Rules, e.g. Rules.preset('classic'), not 'classic'",
        ),  # type: ignore[arg-type]
        (lambda: Match.new(None, 4, random.Random(1)), "rules are a Rules"),  # type: ignore[arg-type]
        (
            lambda: Match(Rules.preset("classic"), "4"),
            "players is a whole number of seats, not '4'",
        ),  # type: ignore[arg-type]
        (
            lambda: Match(Rules.preset("classic"), 4.0),
            "players is a whole number of seats, not 4.0",
        ),  # type: ignore[arg-type]
        (
            lambda: Match(Rules.preset("classic"), True),
            "players is a whole number of seats, not True",
        ),
        (lambda: Match.new(Rules.preset("classic"), 4, None), "rng is a random.Random"),  # type: ignore[arg-type]
        (lambda: Match.new(Rules.preset("classic"), 4, 5), "not 5"),  # type: ignore[arg-type]
        (lambda: RoundState.new("relaxed", 2, 0, random.Random(1)), "rules are a Rules"),  # type: ignore[arg-type]
        (lambda: RoundState.from_deal("relaxed", 2, 0, [[], []], []), "rules are a Rules"),  # type: ignore[arg-type]
        (lambda: Action("jump"), "an action is a 'play', a 'draw' or a 'pass', not 'jump'"),  # type: ignore[arg-type]
    ],
)
def test_what_is_not_rules_a_seat_count_a_random_source_or_an_action_is_said(
    make: Any, words: str
) -> None:
    """The Python API said nothing useful of these: 'str' object has no attribute
    'check_players', "'<=' not supported", an AssertionError from inside the engine."""
    with pytest.raises((TypeError, ValueError)) as raised:
        make()
    assert words in str(raised.value)
    assert not isinstance(raised.value, AttributeError)


@pytest.mark.parametrize("action", ["0:draw", None, ("draw",)])
def test_an_action_that_is_no_action_is_refused_and_nothing_changes(action: Any) -> None:
    match = Match.new(Rules.preset("classic"), 4, random.Random(1))
    state = match.current
    before = (state.copy().history, state.seat, state.hands[:])
    with pytest.raises(TypeError, match="an action is an Action"):
        state.apply(action)
    assert (state.history, state.seat, state.hands) == before


def why_not(state: RoundState, tile: str) -> str | None:
    """`RoundState.why_not`'s rule (its code), and the train it names if it names one
    (-1: the Mexican train)."""
    err = state.why_not(parse_tile(tile))
    if err is None:
        return None
    train = err.params.get("train")
    return err.code if train is None else f"{err.code} on {train}"


def test_why_not_names_the_rule_that_keeps_a_tile_off_the_train_it_matches() -> None:
    """A tile that fits nowhere now is explained by the rule in the way on a train it
    matches, not by its own train's open end (`RoundState.why_not`)."""
    # classic: 2-4 matches the Mexican train's 2, but the open double 3-3 comes first
    state = deal(
        CLASSIC6, [["3-6", "3-3", "2-5", "0-0", "0-1"], ["5-6", "1-2", "2-4", "4-4", "0-2"]]
    )
    play(state, "0:3-6@0", "1:5-6@M", "0:3-3@0", "0:2-5@M")  # (the Mexican train ends in 2)
    assert why_not(state, "2-4") == "open_double_first on 0"  # (3-3 is on seat 0's train)
    # cardinal: 1-5 matches the Mexican train's 1 but not seat 2's own train (its 6)
    state = cardinal_at_seat_2()
    assert why_not(state, "1-5") == "own_train_first on -1"  # (the Mexican train)
    assert state.why_not(Tile(4, 6)) is None  # (it fits seat 2's own train)
    assert why_not(state, "0-2") == "marker_down on 1"  # (seat 1's train ends in 2)
    assert why_not(state, "3-3") == "wrong_end on 2"  # (no train ends in 3: its own's end)
    # relaxed: after a double, 5-5 matches the Mexican train's 5 but is a double
    spec = {"preset": "relaxed", "max_pip": 6, "hand_size": {"2": 5}}
    state = deal(spec, [["3-6", "3-3", "5-5", "0-1", "1-2"], ["5-6", "2-4", "4-5", "1-4", "3-4"]])
    play(state, "0:3-6@0", "1:5-6@M", "0:3-3@0")
    assert why_not(state, "5-5") == "follow_up_no_double"
