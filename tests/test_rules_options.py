"""Options and presets as RULES.md states them; validation; whole matches scored by hand.

Scores and totals are recomputed here from the tiles left in each hand (and the house rules'
extra points), independently of `RoundState.scores`.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mextrain.rules import (
    DRAW,
    PASS,
    PRESETS,
    Action,
    DealError,
    Match,
    RoundState,
    Rules,
    RulesError,
    Tile,
    tile_set,
)

# ---------------------------------------------------------------------------- the presets

CLASSIC_HANDS = {2: 16, 3: 16, 4: 15, 5: 14, 6: 12, 7: 10, 8: 9}
CARDINAL_HANDS = {4: 15, 5: 12, 6: 12, 7: 10, 8: 10, 9: 8, 10: 8}

PRESET_TABLE: dict[str, dict[str, Any]] = {
    "classic": {
        "players": (2, 8),
        "hands": CLASSIC_HANDS,
        "engine_setup": "set_aside",
        "first_player": "rotate",
        "first_turn": "single",
        "double_follow_up": "any",
        "open_doubles_block": True,
        "own_train_first": False,
        "marker_rule": "forced_pass",
    },
    "relaxed": {
        "players": (2, 8),
        "hands": CLASSIC_HANDS,
        "engine_setup": "set_aside",
        "first_player": "rotate",
        "first_turn": "single",
        "double_follow_up": "no_double",
        "open_doubles_block": False,
        "own_train_first": False,
        "marker_rule": "forced_pass",
    },
    "cardinal": {
        "players": (4, 10),
        "hands": CARDINAL_HANDS,
        "engine_setup": "holder_starts",
        "first_player": "engine_holder",
        "first_turn": "run",
        "double_follow_up": "any",
        "open_doubles_block": False,
        "own_train_first": True,
        "marker_rule": "no_own_play",
    },
}

HOUSE_OFF = {
    "double_blank_points": 0,
    "mexican_after_own_train": False,
    "mexican_after_first_round_of_turns": False,
    "no_going_out_on_double": False,
    "draw_until_playable": False,
    "unsatisfied_double_penalty": 0,
}


@pytest.mark.parametrize("name", sorted(PRESET_TABLE))
def test_preset_matches_the_rules_table(name: str) -> None:
    rules = Rules.preset(name)
    assert rules is PRESETS[name] or rules == PRESETS[name]
    want = PRESET_TABLE[name]
    assert rules.max_pip == 12
    assert rules.rounds == tuple(range(12, -1, -1))
    lo, hi = want["players"]
    for n in range(1, 12):
        assert rules.allows_players(n) == (lo <= n <= hi)
    for n, size in want["hands"].items():
        assert rules.hand_size_for(n) == size
    for option in (
        "engine_setup",
        "first_player",
        "first_turn",
        "double_follow_up",
        "open_doubles_block",
        "own_train_first",
        "marker_rule",
    ):
        assert getattr(rules, option) == want[option], option
    for option, value in HOUSE_OFF.items():
        assert getattr(rules, option) == value, option
    assert Rules.from_spec(name) == rules
    assert rules.to_spec() == name


@pytest.mark.parametrize(("name", "players"), [("classic", 9), ("classic", 1), ("cardinal", 3)])
def test_player_count_outside_the_preset(name: str, players: int) -> None:
    with pytest.raises(RulesError) as info:
        Match(Rules.preset(name), players)
    assert info.value.option == "players"


# ----------------------------------------------------------------------- validation errors

BAD_OPTIONS: list[tuple[dict[str, Any], set[str]]] = [
    ({"preset": "classic", "colour": "red"}, {"colour"}),
    ({"preset": "mexicano"}, {"preset"}),
    ({"max_pip": 6}, {"preset"}),
    ({"preset": "classic", "marker_rule": "sometimes"}, {"marker_rule"}),
    ({"preset": "classic", "double_follow_up": "triple"}, {"double_follow_up"}),
    ({"preset": "classic", "first_turn": "many"}, {"first_turn"}),
    ({"preset": "classic", "engine_setup": "hub"}, {"engine_setup"}),
    ({"preset": "classic", "open_doubles_block": "yes"}, {"open_doubles_block"}),
    ({"preset": "classic", "own_train_first": 1}, {"own_train_first"}),
    ({"preset": "classic", "mexican_after_own_train": "no"}, {"mexican_after_own_train"}),
    (
        {"preset": "classic", "mexican_after_first_round_of_turns": None},
        {"mexican_after_first_round_of_turns"},
    ),
    ({"preset": "classic", "no_going_out_on_double": 0}, {"no_going_out_on_double"}),
    ({"preset": "classic", "draw_until_playable": "always"}, {"draw_until_playable"}),
    ({"preset": "classic", "first_turn_run": "yes"}, {"first_turn_run"}),
    ({"preset": "classic", "first_turn_run": True, "first_turn": "single"}, {"first_turn_run"}),
    ({"preset": "classic", "double_blank_points": -25}, {"double_blank_points"}),
    ({"preset": "classic", "double_blank_points": "fifty"}, {"double_blank_points"}),
    ({"preset": "classic", "double_blank_points": 25.0}, {"double_blank_points"}),
    ({"preset": "classic", "double_blank_points": True}, {"double_blank_points"}),
    ({"preset": "classic", "unsatisfied_double_penalty": -1}, {"unsatisfied_double_penalty"}),
    ({"preset": "classic", "unsatisfied_double_penalty": 2.5}, {"unsatisfied_double_penalty"}),
    # bounded: a match's totals stay ordinary numbers (a database, a browser's JSON)
    ({"preset": "classic", "unsatisfied_double_penalty": 1001}, {"unsatisfied_double_penalty"}),
    ({"preset": "classic", "rounds": [12] * 101}, {"rounds"}),
    ({"preset": "classic", "rounds": [13]}, {"rounds"}),
    ({"preset": "classic", "rounds": [12, -1]}, {"rounds"}),
    ({"preset": "classic", "rounds": 14}, {"rounds"}),
    ({"preset": "classic", "rounds": 0}, {"rounds"}),
    ({"preset": "classic", "rounds": []}, {"rounds"}),
    ({"preset": "classic", "rounds": "all"}, {"rounds"}),
    ({"preset": "classic", "max_pip": 9}, {"hand_size"}),
    ({"preset": "classic", "max_pip": -1, "hand_size": {"2": 5}}, {"max_pip"}),
    ({"preset": "classic", "max_pip": "nine", "hand_size": {"2": 5}}, {"max_pip"}),
    ({"preset": "classic", "max_pip": 6, "hand_size": {"4": 7}}, {"hand_size"}),
    ({"preset": "classic", "max_pip": 6, "hand_size": {"2": 0}}, {"hand_size"}),
    ({"preset": "classic", "max_pip": 6, "hand_size": {"one": 5}}, {"hand_size"}),
    ({"preset": "classic", "hand_size": []}, {"hand_size"}),
    ({"preset": "classic", "players": [1, 4]}, {"players"}),
    ({"preset": "classic", "players": [2, 9]}, {"players", "hand_size"}),
    ({"preset": "classic", "players": "many"}, {"players"}),
    # the two must agree: the error names the one the spec changed
    ({"preset": "classic", "engine_setup": "holder_starts"}, {"engine_setup"}),
    ({"preset": "cardinal", "first_player": "rotate"}, {"first_player"}),
]


@pytest.mark.parametrize("rounds", [True, "all", [], 2.5])
def test_rounds_that_are_neither_says_both_shapes(rounds: Any) -> None:
    """A count of rounds is as good as a list of engines: the refusal names both."""
    with pytest.raises(RulesError, match=r"a number of rounds \(like 4\) or a list of engine"):
        Rules.from_spec({"preset": "classic", "rounds": rounds})


@pytest.mark.parametrize(("spec", "options"), BAD_OPTIONS, ids=[str(s) for s, _ in BAD_OPTIONS])
def test_invalid_options_name_the_option(spec: dict[str, Any], options: set[str]) -> None:
    with pytest.raises(RulesError) as info:
        Rules.from_spec(spec)
    assert info.value.option in options
    assert info.value.option in str(info.value)


def test_rules_spec_must_be_a_name_or_an_object() -> None:
    with pytest.raises(RulesError) as info:
        Rules.from_spec(12)
    assert info.value.option == "rules"


def test_double_blank_points_is_25_or_50() -> None:
    for points in (0, 25, 50):
        assert Rules.preset("classic", double_blank_points=points).double_blank_points == points
    with pytest.raises(RulesError) as info:
        Rules.preset("classic", double_blank_points=30)
    assert info.value.option == "double_blank_points"


GOOD_OPTIONS: list[dict[str, Any]] = [
    {"preset": "classic", "double_blank_points": 25},
    {"preset": "relaxed", "double_blank_points": 50},
    {"preset": "classic", "mexican_after_own_train": True},
    {"preset": "cardinal", "mexican_after_first_round_of_turns": True},
    {"preset": "relaxed", "no_going_out_on_double": True},
    {"preset": "classic", "draw_until_playable": True},
    {"preset": "classic", "first_turn_run": True},
    {"preset": "cardinal", "first_turn_run": False},
    {"preset": "classic", "unsatisfied_double_penalty": 15},
    {"preset": "classic", "rounds": 4},
    {"preset": "classic", "rounds": list(range(13))},
    {"preset": "relaxed", "max_pip": 6, "hand_size": {"2": 7, "3": 5, "4": 5}},
    {"preset": "classic", "max_pip": 9, "hand_size": {str(n): 8 for n in range(2, 7)}},
    {"preset": "classic", "max_pip": 15, "hand_size": {str(n): 12 for n in range(2, 9)}},
    {"preset": "cardinal", "max_pip": 18, "hand_size": {str(n): 11 for n in range(4, 11)}},
    # another set dealt with the preset's own table: written all the same (it is needed)
    {
        "preset": "classic",
        "max_pip": 15,
        "hand_size": {"2": 16, "3": 16, "4": 15, "5": 14, "6": 12, "7": 10, "8": 9},
    },
]


@pytest.mark.parametrize("spec", GOOD_OPTIONS, ids=[str(s) for s in GOOD_OPTIONS])
def test_house_options_are_valid_and_round_trip(spec: dict[str, Any]) -> None:
    rules = Rules.from_spec(spec)
    assert rules.preset_name == spec["preset"]
    again = Rules.from_spec(rules.to_spec())
    assert again == rules
    for key, value in spec.items():
        if key in ("preset", "rounds", "hand_size", "first_turn_run"):
            continue
        assert getattr(rules, key) == value, key


def test_the_bounds_themselves_are_allowed() -> None:
    rules = Rules.preset("classic", unsatisfied_double_penalty=1000, rounds=[12, 0] * 50)
    assert rules.unsatisfied_double_penalty == 1000
    assert rules.round_count == 100


def test_rounds_option_sets_the_engines() -> None:
    assert Rules.preset("classic", rounds=4).rounds == (12, 11, 10, 9)
    assert Rules.preset("classic", rounds=list(range(13))).rounds == tuple(range(13))
    rules = Rules.from_spec({"preset": "classic", "max_pip": 9, "hand_size": {"4": 10}})
    assert rules.rounds == tuple(range(9, -1, -1))
    assert rules.players == (4, 4)
    assert Rules.preset("classic", first_turn_run=True).first_turn == "run"
    assert Rules.preset("cardinal", first_turn_run=False).first_turn == "single"


def test_naming_the_set_already_played_changes_nothing() -> None:
    """RULES.md: "a preset plus overrides is a valid rule set", "never a silent fallback".
    A house option given on top of a rules object (`mextrain play --rules … --option
    max_pip=12`) that names the set the rules already play keeps their engines and their
    hand sizes: it neither drops a short game's rounds nor asks again for a table that
    is there."""
    short = Rules.preset("classic", rounds=4)
    assert short.with_options(max_pip=12) == short
    ascending = Rules.preset("classic", rounds=list(range(13)))
    assert ascending.with_options(max_pip=12).rounds == tuple(range(13))
    nine = Rules.from_spec(
        {"preset": "classic", "max_pip": 9, "hand_size": {"4": 10}, "rounds": [9, 5]}
    )
    assert nine.with_options(max_pip=9) == nine
    # another set still takes that set's engines, and needs its own hand sizes
    assert nine.with_options(max_pip=12, hand_size={"4": 15}).rounds == tuple(range(12, -1, -1))
    with pytest.raises(RulesError) as info:
        short.with_options(max_pip=9)
    assert info.value.option == "hand_size"


# -------------------------------------------------------------------------- deals


def test_set_aside_engine_may_not_be_dealt() -> None:
    rules = Rules.from_spec({"preset": "classic", "max_pip": 2, "hand_size": {"2": 2}})
    hands = [[Tile(2, 2), Tile(0, 1)], [Tile(0, 2), Tile(1, 2)]]
    with pytest.raises(DealError):
        RoundState.from_deal(rules, 2, 0, hands, [Tile(0, 0), Tile(1, 1)], 0)


def test_holder_starts_deals_the_engine() -> None:
    rules = Rules.from_spec({"preset": "cardinal", "max_pip": 3, "hand_size": {"4": 2}})
    ts = tile_set(3)
    tiles = [t for t in ts.tiles if t != Tile(3, 3)]
    hands = [tiles[0:2], tiles[2:4], tiles[4:6], tiles[6:8]]
    with pytest.raises(DealError):  # 3-3 left out: under holder_starts it must be dealt
        RoundState.from_deal(rules, 4, 0, hands, tiles[8:], None)
    state = RoundState.from_deal(rules, 4, 0, hands, [*tiles[8:], Tile(3, 3)], None)
    # one draw cycle: seat 0 draws 2-3, seat 1 draws 3-3 and starts
    assert state.starter == 1
    assert state.hand_sizes == [3, 2, 2, 2]
    assert Tile(3, 3) not in state.hand(1)


# ----------------------------------------------------------------- whole matches, scored


def pips(tiles: list[Tile]) -> int:
    return sum(t.low + t.high for t in tiles)


def expected_scores(state: RoundState) -> list[int]:
    """Each seat's points by RULES.md: pips in hand (0-0 extra), penalty per open double."""
    rules = state.rules
    players = len(state.hand_sizes)
    scores = []
    for seat in range(players):
        hand = state.hand(seat)
        points = pips(hand)
        if Tile(0, 0) in hand:
            points += rules.double_blank_points
        scores.append(points)
    if rules.unsatisfied_double_penalty:
        for train in state.open_doubles:
            double = state.train(train)[-1]
            assert double.is_double
            by = [s for s, a in state.history if a.kind == "play" and a.tile == double]
            if by[0] != state.out_seat:  # a seat that went out scores 0, penalty or not
                scores[by[0]] += rules.unsatisfied_double_penalty
    return scores


def check_conservation(state: RoundState) -> None:
    """Hands + trains + boneyard + the engine are the whole set, each tile once."""
    ts = tile_set(state.rules.max_pip)
    players = len(state.hand_sizes)
    seen: list[Tile] = [Tile(state.engine, state.engine), *state.boneyard_tiles()]
    for seat in range(players):
        seen += state.hand(seat)
        seen += state.train(seat)
    seen += state.train(-1)
    assert sorted(seen) == sorted(ts.tiles)


def play_match(rules: Rules, players: int, seed: int) -> Match:
    rng = random.Random(seed)
    match = Match.new(rules, players, rng)
    while True:
        state = match.current
        while not state.is_over:
            state.apply(rng.choice(state.legal_actions()), seat=state.current_seat)
        if match.is_complete:
            return match
        match.next_round(rng)


def check_match(match: Match) -> None:
    rules = match.rules
    players = match.players
    assert len(match.rounds) == rules.round_count
    totals = [0] * players
    first = match.rounds[0].starter
    for k, state in enumerate(match.rounds):
        assert state.engine == rules.rounds[k]
        if rules.first_player == "rotate":
            assert state.starter == (first + k) % players
        check_conservation(state)
        assert state.ended in ("out", "blocked")
        if state.ended == "out":
            assert 0 in state.hand_sizes
        else:
            assert state.boneyard_size == 0
        scores = expected_scores(state)
        assert state.scores() == scores
        for seat in range(players):
            totals[seat] += scores[seat]
    assert match.round_scores() == [r.scores() for r in match.rounds]
    assert match.totals == totals
    assert match.winners == [s for s in range(players) if totals[s] == min(totals)]
    assert match.is_complete


@pytest.mark.parametrize(
    ("name", "players", "seed"),
    [
        ("classic", 4, 1),
        ("classic", 2, 2),
        ("relaxed", 3, 3),
        ("cardinal", 4, 4),
        ("cardinal", 6, 5),
    ],
)
def test_full_thirteen_round_match(name: str, players: int, seed: int) -> None:
    match = play_match(Rules.preset(name), players, seed)
    assert len(match.rounds) == 13
    assert [r.engine for r in match.rounds] == list(range(12, -1, -1))
    check_match(match)


@pytest.mark.parametrize(
    "spec",
    [
        {"preset": "classic", "double_blank_points": 50, "unsatisfied_double_penalty": 10},
        {"preset": "relaxed", "double_blank_points": 25, "unsatisfied_double_penalty": 5},
        {"preset": "cardinal", "unsatisfied_double_penalty": 20, "draw_until_playable": True},
        {"preset": "classic", "rounds": [0, 1, 2, 3], "no_going_out_on_double": True},
        {"preset": "classic", "max_pip": 9, "hand_size": {"3": 10}, "first_turn_run": True},
        {"preset": "relaxed", "max_pip": 15, "hand_size": {"5": 12}, "rounds": 3},
        {"preset": "cardinal", "max_pip": 18, "hand_size": {"8": 11}, "rounds": 2},
        {
            "preset": "classic",
            "mexican_after_own_train": True,
            "mexican_after_first_round_of_turns": True,
            "rounds": 5,
        },
    ],
    ids=lambda s: "-".join(f"{k}={v}" for k, v in s.items() if k != "hand_size"),
)
def test_house_rule_matches_score_by_hand(spec: dict[str, Any]) -> None:
    rules = Rules.from_spec(spec)
    players = rules.players[0] if rules.players[0] > 2 else 3
    match = play_match(rules, players, seed=len(str(spec)))
    assert [r.engine for r in match.rounds] == list(rules.rounds)
    check_match(match)


@pytest.mark.slow
@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), name=st.sampled_from(sorted(PRESETS)))
def test_random_matches_score_by_hand(seed: int, name: str) -> None:
    rules = Rules.preset(name)
    players = random.Random(seed).randint(*rules.players)
    check_match(play_match(rules, players, seed))


def test_rotation_moves_one_seat_each_round() -> None:
    rules = Rules.from_spec({"preset": "relaxed", "max_pip": 6, "hand_size": {"3": 5}})
    starters = set()
    for seed in range(12):
        match = play_match(rules, 3, seed)
        first = match.rounds[0].starter
        starters.add(first)
        assert [r.starter for r in match.rounds] == [(first + k) % 3 for k in range(7)]
    assert starters == {0, 1, 2}  # the first starter is chosen at random


def test_views_show_hand_sizes_not_hands() -> None:
    rules = Rules.preset("classic")
    state = RoundState.new(rules, 4, 0, random.Random(7))
    for seat in range(4):
        view = state.view(seat).to_dict()
        assert view["hand_sizes"] == [15, 15, 15, 15]
        assert view["boneyard_size"] == 30
        assert view["hand"] == [str(t) for t in state.hand(seat)]
        text = str(view)
        for other in range(4):
            if other != seat:
                assert not any(f"'{t}'" in text for t in state.hand(other))
        assert not any(f"'{t}'" in text for t in state.boneyard_tiles())


def test_rotation_fixes_the_later_starters() -> None:
    rules = Rules.from_spec({"preset": "classic", "max_pip": 2, "hand_size": {"2": 2}})
    match = Match(rules, 2)
    with pytest.raises(DealError):  # under rotate the first round needs its starter
        match.deal_next_round([[Tile(0, 1), Tile(1, 1)], [Tile(0, 2), Tile(1, 2)]], [Tile(0, 0)])
    state = match.deal_next_round(
        [[Tile(0, 1), Tile(1, 1)], [Tile(0, 2), Tile(1, 2)]], [Tile(0, 0)], 1
    )
    with pytest.raises(ValueError, match="still in play"):
        match.deal_next_round([[Tile(0, 1), Tile(2, 2)], [Tile(1, 2), Tile(0, 2)]], [Tile(0, 0)])
    while not state.is_over:
        state.apply(state.legal_actions()[0])
    hands = [[Tile(0, 1), Tile(2, 2)], [Tile(1, 2), Tile(0, 2)]]
    with pytest.raises(DealError):  # seat 0 starts round 1, not seat 1 again
        match.deal_next_round(hands, [Tile(0, 0)], 1)
    assert match.deal_next_round(hands, [Tile(0, 0)], 0).starter == 0


def test_deal_errors_count_rounds_from_0_as_round_index_does() -> None:
    """The second round is round 1, as `Match.round_index`, records and `analyze --round`
    count it: not "round 1 is still in play" while round 0 is, nor "seat 0 starts round 2"."""
    rules = Rules.from_spec({"preset": "classic", "max_pip": 2, "hand_size": {"2": 2}})
    match = Match(rules, 2)
    state = match.deal_next_round(
        [[Tile(0, 1), Tile(1, 1)], [Tile(0, 2), Tile(1, 2)]], [Tile(0, 0)], 1
    )
    assert match.round_index == 0
    hands = [[Tile(0, 1), Tile(2, 2)], [Tile(1, 2), Tile(0, 2)]]
    with pytest.raises(ValueError, match=r"^round 0 is still in play$"):
        match.deal_next_round(hands, [Tile(0, 0)])
    with pytest.raises(ValueError, match=r"^round 0 is still in play$"):
        match.next_round(random.Random(1))
    while not state.is_over:
        state.apply(state.legal_actions()[0])
    with pytest.raises(DealError, match=r"^seat 0 starts round 1 \(one seat on each round\)"):
        match.deal_next_round(hands, [Tile(0, 0)], 1)


def test_draw_until_playable_keeps_drawing_for_a_drawn_doubles_follow_up() -> None:
    """docs/RULES.md's reading: the house rule lifts the one-draw limit ("instead of one
    draw a turn"), the follow-up of a double included: seat 0 draws the 5-5, plays it,
    finds no follow-up and draws again, where the base rules make it pass."""
    ts = tile_set(6)
    rules = Rules.preset("classic", max_pip=6, hand_size={2: 4}, draw_until_playable=True)
    hands = [
        [Tile(0, 1), Tile(0, 2), Tile(1, 2), Tile(0, 0)],
        [Tile(3, 6), Tile(3, 4), Tile(4, 5), Tile(1, 1)],
    ]
    top = [Tile(2, 3), Tile(5, 6), Tile(5, 5), Tile(4, 4), Tile(3, 3)]
    used = {*hands[0], *hands[1], *top, Tile(6, 6)}
    boneyard = top + [t for t in ts.tiles if t not in used]
    state = RoundState.from_deal(rules, 2, 0, hands, boneyard, starter=0)
    for seat, action in [
        (0, DRAW),
        (0, DRAW),
        (0, Action.play(Tile(5, 6), 0)),
        (1, Action.play(Tile(3, 6), 1)),
        (0, DRAW),
        (0, Action.play(Tile(5, 5), 0)),
    ]:
        state.apply(action, seat)
    assert state.current_seat == 0
    assert state.drew
    assert state.legal_actions() == [DRAW]
    base = Rules.preset("classic", max_pip=6, hand_size={2: 4})
    state = RoundState.from_deal(base, 2, 0, hands, boneyard, starter=0)
    for seat, action in [
        (0, DRAW),
        (0, PASS),
        (1, Action.play(Tile(3, 6), 1)),
        (0, DRAW),
        (0, Action.play(Tile(5, 6), 0)),
        (1, Action.play(Tile(3, 4), 1)),
        (0, DRAW),
        (0, Action.play(Tile(5, 5), 0)),
    ]:
        state.apply(action, seat)
    assert state.legal_actions() == [PASS]  # one draw a turn: a forced pass


@pytest.mark.parametrize("index", [-1, 13, 99, True, 1.0])
def test_a_round_is_dealt_only_at_an_index_the_rules_play(index: Any) -> None:
    """``RoundState.new`` took -1 as the last round (the 0-0) and 13 failed deep inside
    as an IndexError; both it and ``from_deal`` say which indices the rules play."""
    rules = Rules.preset("classic")
    with pytest.raises(DealError, match=r"13 rounds, indexed 0 to 12|whole number"):
        RoundState.new(rules, 2, index, random.Random(1))
    dealt = RoundState.new(rules, 2, 0, random.Random(1))
    hands = [dealt.ts.tiles_of(mask) for mask in dealt.initial.hands]
    bone = [dealt.ts.tiles[i] for i in dealt.initial.boneyard]
    with pytest.raises(DealError, match=r"13 rounds, indexed 0 to 12|whole number"):
        RoundState.from_deal(rules, 2, index, hands, bone, starter=0)
    assert RoundState.new(rules, 2, 12, random.Random(1)).engine == 0


def test_a_round_index_of_any_integer_type_is_a_plain_int_in_the_round() -> None:
    """A NumPy integer, as a learner hands it over, is an index (kept as a plain int, so
    that the round writes as JSON); a float is not."""
    np = pytest.importorskip("numpy")
    rules = Rules.preset("classic")
    state = RoundState.new(rules, 2, np.int64(3), random.Random(1))
    assert state.engine == 9
    assert type(state.round_index) is int
