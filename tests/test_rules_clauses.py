"""The rules engine against RULES.md, clause by clause: explicit positions, with the
outcome the text calls for."""

from __future__ import annotations

import pytest

from mextrain.rules import DRAW, MEXICAN, PASS, Action, RoundState, Rules, RulesError, parse_tile
from mextrain.rules.tiles import tile_set


def mk(rules, hands, boneyard=(), starter=0, round_index=0):
    ts = tile_set(rules.max_pip)
    masks = []
    for hand in hands:
        m = 0
        for t in hand:
            m |= 1 << ts.ids[parse_tile(t)]
        masks.append(m)
    bone = tuple(ts.ids[parse_tile(t)] for t in boneyard)
    return RoundState._start(rules, len(hands), round_index, masks, bone, starter)


def P(tile, train):
    return Action.play(parse_tile(tile), MEXICAN if train == "M" else train)


def legal(st):
    return {str(a) for a in st.legal_actions()}


def do(st, *acts):
    for a in acts:
        if a == "draw":
            st.apply(DRAW)
        elif a == "pass":
            st.apply(PASS)
        else:
            tile, train = a.split("@")
            st.apply(P(tile, train if train == "M" else int(train)))


CLASSIC = Rules.preset("classic")
RELAXED = Rules.preset("relaxed")
CARDINAL = Rules.preset("cardinal")


# -- open_doubles_block ----------------------------------------------------------------


def test_block_only_oldest_double_even_on_unmarked_train():
    st = mk(CLASSIC, [["5-12", "5-5", "1-12", "9-9"], ["3-12", "5-6", "8-12", "3-4"]], ["0-1"])
    do(st, "5-12@0", "3-12@1", "5-5@0")
    # follow-ups anywhere the normal rules allow
    assert "1-12@M" in legal(st)
    do(st, "1-12@M")
    assert st.open_doubles == (0,)
    assert st.current_seat == 1
    # seat 0's train is unmarked, yet the only legal play is on its open double
    assert legal(st) == {"5-6@0"}


def test_block_cannot_satisfy_draws_plays_drawn_only_on_double():
    st = mk(
        CLASSIC, [["5-12", "5-5", "1-12", "9-9"], ["3-12", "8-12", "3-4", "8-9"]], ["5-7", "0-1"]
    )
    do(st, "5-12@0", "3-12@1", "5-5@0", "1-12@M")
    assert legal(st) == {"draw"}
    do(st, "draw")
    assert legal(st) == {"5-7@0"}


def test_block_cannot_satisfy_drawn_fits_elsewhere_pass_marker_up():
    st = mk(
        CLASSIC, [["5-12", "5-5", "1-12", "9-9"], ["3-12", "8-12", "3-4", "8-9"]], ["3-7", "0-1"]
    )
    do(st, "5-12@0", "3-12@1", "5-5@0", "1-12@M")
    do(st, "draw")
    assert legal(st) == {"pass"}
    do(st, "pass")
    assert st.marker_up(1)
    assert st.current_seat == 0
    # marked train 1 does not help seat 0: only the open double counts
    assert legal(st) == {"draw"}


def test_block_doubles_satisfied_in_order_played():
    # seat 0 opens M with 1-12 first, so that later its follow-up double 1-1 can go on M
    st = mk(
        CLASSIC,
        [["5-12", "5-5", "1-12", "1-1", "9-9", "0-9"], ["3-12", "1-6", "5-6", "3-4", "8-9", "0-8"]],
        ["0-0", "0-2"],
    )
    do(st, "5-12@0", "3-12@1", "1-12@M", "3-4@1")
    # seat 0: 5-5 on own train, follow-up 1-1 on M (a double too), follow-up 9-? none...
    do(st, "5-5@0")
    assert "1-1@M" in legal(st)
    do(st, "1-1@M")
    # owes a follow-up; 0-9 / 9-9 fit nothing (ends 5, 1, 4) -> draw
    assert legal(st) == {"draw"}
    do(st, "draw")  # 0-0 fits nothing
    assert legal(st) == {"pass"}
    do(st, "pass")
    assert st.marker_up(0)
    assert st.open_doubles == (0, MEXICAN)
    # seat 1 holds 1-6 (fits the newer double on M) and 5-6 (fits the older on train 0)
    assert legal(st) == {"5-6@0"}


def test_block_applies_to_the_seat_that_played_double_on_its_next_turn():
    st = mk(
        CLASSIC,
        [["5-12", "5-5", "1-12", "1-2", "5-9"], ["3-12", "3-4", "8-9", "0-8"]],
        ["0-0", "0-2", "0-3"],
    )
    do(st, "5-12@0", "3-12@1", "5-5@0", "1-12@M")
    assert legal(st) == {"draw"}
    do(st, "draw", "pass")  # 0-0 does not fit 5-5
    # seat 0 holds 1-2 (fits M) and 5-9 (fits its open double)
    assert legal(st) == {"5-9@0"}


def test_blocked_round_by_unsatisfiable_double_even_if_other_trains_take_tiles():
    st = mk(CLASSIC, [["5-12", "5-5", "1-12", "1-2"], ["3-12", "3-4", "1-8"]], [])
    do(st, "5-12@0", "3-12@1", "5-5@0", "1-12@M")
    # seat 1 cannot satisfy 5-5, boneyard empty; seat 0 neither (1-2 fits M only):
    # blocked at once at the end of seat 0's turn
    assert st.ended == "blocked"
    assert st.scores() == [3, 16]


# -- doubles ----------------------------------------------------------------------------


def test_double_no_follow_up_draws_then_plays_drawn_anywhere():
    st = mk(CLASSIC, [["5-12", "5-5", "9-9"], ["3-12", "3-4", "0-8"]], ["2-12", "0-1"])
    do(st, "5-12@0", "3-12@1", "5-5@0")
    assert legal(st) == {"draw"}
    do(st, "draw")
    assert legal(st) == {"2-12@M"}
    do(st, "2-12@M")
    assert st.current_seat == 1
    assert not st.marker_up(0)


def test_double_no_follow_up_empty_boneyard_forced_pass_marker_up():
    st = mk(CLASSIC, [["5-12", "5-5", "9-9"], ["3-12", "3-4", "0-8"]], [])
    do(st, "5-12@0", "3-12@1", "5-5@0")
    assert legal(st) == {"pass"}
    do(st, "pass")
    assert st.marker_up(0)


def test_drawn_double_then_no_follow_up_no_second_draw():
    st = mk(CLASSIC, [["5-12", "9-9"], ["3-12", "3-4", "0-8"]], ["5-5", "0-1", "0-2"])
    do(st, "5-12@0", "3-12@1", "draw")
    assert legal(st) == {"5-5@0"}
    do(st, "5-5@0")
    assert legal(st) == {"pass"}
    do(st, "pass")
    assert st.marker_up(0)


def test_going_out_on_double_ends_round():
    st = mk(CLASSIC, [["5-12", "5-5"], ["3-12", "3-4", "0-8"]], ["0-1"])
    do(st, "5-12@0", "3-12@1", "5-5@0")
    assert st.ended == "out"
    assert st.out_seat == 0
    assert st.scores() == [0, 15]


def test_relaxed_no_double_follow_up():
    st = mk(RELAXED, [["5-12", "5-5", "5-6", "6-6"], ["3-12", "3-4", "0-8"]], ["0-1"])
    do(st, "5-12@0", "3-12@1", "5-5@0")
    assert legal(st) == {"5-6@0"}
    do(st, "5-6@0")
    assert st.current_seat == 1
    # relaxed: no block; seat 1 may play anywhere usual
    st2 = mk(RELAXED, [["5-12", "5-5", "6-6", "5-7"], ["3-12", "3-4", "0-8"]], ["5-8", "0-1"])
    do(st2, "5-12@0", "3-12@1", "5-5@0")
    assert legal(st2) == {"5-7@0"}


def test_relaxed_drawn_double_cannot_follow_up():
    st = mk(RELAXED, [["5-12", "5-5", "0-9"], ["3-12", "3-4", "0-8"]], ["6-6", "0-1"])
    do(st, "5-12@0", "3-12@1")
    do(st, "5-5@0")
    assert legal(st) == {"draw"}
    do(st, "draw")
    assert legal(st) == {"pass"}
    do(st, "pass")
    assert st.marker_up(0)


def test_relaxed_open_double_does_not_block():
    st = mk(RELAXED, [["5-12", "5-5", "1-12", "9-9"], ["3-12", "5-6", "8-12", "3-4"]], ["0-1"])
    do(st, "5-12@0", "3-12@1", "5-5@0", "1-12@M")
    # seat 0's train is not marked: 5-6 may not go there
    assert "5-6@0" not in legal(st)
    assert "3-4@1" in legal(st)


# -- cardinal: own_train_first, run, markers --------------------------------------------


def cardinal_table():
    # starter: seat 2 holds the engine 12-12; turns go 2, 3, 0, 1
    hands = [
        ["1-7", "0-0", "2-3"],
        ["0-1", "0-2", "2-2"],
        ["12-12", "5-12", "7-12", "5-6"],
        ["3-12", "4-12", "3-6", "6-6", "7-9"],
    ]
    return mk(CARDINAL, hands, ["10-11", "1-12", "0-3", "0-4", "0-5"], starter=None)


def test_cardinal_holder_starts_and_engine_not_in_hand():
    st = cardinal_table()
    assert st.starter == 2
    assert st.current_seat == 2
    assert "12-12" not in {str(t) for t in st.hand(2)}


def test_cardinal_starter_may_open_mexican_instead_of_own():
    st = cardinal_table()
    assert legal(st) == {"5-12@2", "7-12@2", "5-12@M", "7-12@M"}


def test_cardinal_starter_opens_mexican_single_play_no_marker():
    st = cardinal_table()
    do(st, "7-12@M")
    assert st.current_seat == 3
    assert not st.marker_up(2)


def test_cardinal_run_own_train_only_then_ends_when_nothing_fits_own():
    st = cardinal_table()
    do(st, "5-12@2")
    assert legal(st) == {"5-6@2", "pass"}  # 7-12 could open M, but a run stays on own train
    do(st, "5-6@2")
    # nothing fits its own train (end 6): the turn ends there, no play elsewhere
    assert st.current_seat == 3
    assert not st.marker_up(2)
    assert st.hand(2) == [parse_tile("7-12")]


def test_cardinal_non_starter_own_train_first():
    st = cardinal_table()
    do(st, "7-12@M")
    # seat 3 holds 7-9 which fits M, but must play on its own train
    assert legal(st) == {"3-12@3", "4-12@3"}


def test_cardinal_double_in_run_no_follow_up_no_marker():
    st = cardinal_table()
    do(st, "7-12@M", "3-12@3", "3-6@3", "6-6@3")
    # follow-up: own end 6 nothing, M end 7: 7-9 fits and own has nothing -> M allowed
    assert legal(st) == {"7-9@M"}
    st2 = st.copy()
    do(st2, "7-9@M")
    assert st2.current_seat == 0  # follow-up elsewhere ends the turn
    assert not st2.marker_up(3)


def test_cardinal_double_own_train_no_follow_up_forced_pass_no_marker():
    hands = [
        ["1-7", "0-0", "2-3"],
        ["0-1", "0-2", "2-2"],
        ["12-12", "5-12", "7-12", "5-6"],
        ["3-12", "4-12", "3-6", "6-6", "8-9"],
    ]
    st = mk(CARDINAL, hands, ["10-11", "1-12", "0-3", "0-4", "0-5"], starter=None)
    do(st, "7-12@M", "3-12@3", "3-6@3", "6-6@3")
    assert legal(st) == {"draw"}
    do(st, "draw")  # 10-11 fits nothing
    assert legal(st) == {"pass"}
    do(st, "pass")
    assert st.current_seat == 0
    assert not st.marker_up(3)


def test_cardinal_no_own_play_marker_up():
    st = cardinal_table()
    do(st, "7-12@M", "3-12@3", "pass")
    assert not st.marker_up(3)
    # seat 0: nothing for its own train, 1-7 fits M -> allowed; no own play -> marker up
    assert legal(st) == {"1-7@M"}
    do(st, "1-7@M")
    assert st.marker_up(0)
    assert st.current_seat == 1
    # seat 1: 0-1 fits M (end 1); nothing fits its own train
    assert legal(st) == {"0-1@M"}
    do(st, "0-1@M")
    assert st.marker_up(1)


def test_cardinal_drawn_tile_must_go_on_own_train_and_run_continues():
    hands = [
        ["7-8", "0-0", "2-3"],
        ["0-1", "0-2", "2-2"],
        ["12-12", "5-12", "7-12", "5-6"],
        ["3-12", "4-12", "3-6", "6-6", "7-9"],
    ]
    st = mk(CARDINAL, hands, ["1-12", "0-3", "0-4", "0-5"], starter=None)
    do(st, "7-12@M", "3-12@3", "pass", "7-8@M")
    assert st.marker_up(0)
    do(st, "draw")  # 1-12 fits own (12) and seat 0's marked train (12)
    assert legal(st) == {"1-12@1"}
    do(st, "1-12@1")
    # a draw earlier in the first turn keeps the run: 0-1 fits the own train
    assert legal(st) == {"0-1@1", "pass"}


def test_cardinal_draw_cycles():
    hands = [["0-1"], ["0-2"], ["0-3"], ["0-4"]]
    bone = ["1-1", "1-2", "1-3", "1-4", "2-2", "12-12", "2-3", "2-4", "3-3"]
    st = mk(CARDINAL, hands, bone, starter=None)
    assert st.starter == 1
    assert {str(t) for t in st.hand(0)} == {"0-1", "1-1", "2-2"}
    assert {str(t) for t in st.hand(1)} == {"0-2", "1-2"}
    assert {str(t) for t in st.hand(2)} == {"0-3", "1-3", "2-3"}
    assert {str(t) for t in st.hand(3)} == {"0-4", "1-4", "2-4"}
    assert st.boneyard_size == 1


def test_cardinal_follow_up_own_train_first():
    hands = [
        ["1-7", "0-0", "2-3"],
        ["0-1", "0-2", "2-2"],
        ["12-12", "5-12", "7-12", "5-6"],
        ["3-12", "4-12", "3-6", "6-6", "6-7"],
    ]
    st = mk(CARDINAL, hands, ["10-11", "1-12"], starter=None)
    do(st, "7-12@M", "3-12@3", "3-6@3", "6-6@3")
    assert legal(st) == {"6-7@3"}  # 6-7 fits M (7) too, but its own train comes first
    do(st, "6-7@3")
    assert st.current_seat == 0  # nothing fits 7 on its own train: the run ends there


# -- markers ------------------------------------------------------------------------------


def test_only_owner_takes_marker_down():
    st = mk(CLASSIC, [["0-1", "0-2", "0-3"], ["3-12", "4-12", "5-6"]], ["0-4", "0-5", "0-6"])
    do(st, "draw", "pass")
    assert st.marker_up(0)
    assert "4-12@0" in legal(st)
    do(st, "4-12@0")
    assert st.marker_up(0)  # seat 1 playing on it leaves it up


def test_classic_first_turn_run_first_play_elsewhere_is_single():
    rules = Rules.preset("classic", first_turn_run=True)
    st = mk(rules, [["3-12", "3-4", "4-5", "9-9"], ["2-12", "2-6", "8-9"]], ["0-1", "0-2"])
    assert legal(st) == {"3-12@0", "3-12@M"}
    do(st, "3-12@M")
    assert st.current_seat == 1
    st = mk(rules, [["3-12", "3-4", "4-5", "9-9"], ["2-12", "2-6", "8-9"]], ["0-1", "0-2"])
    do(st, "3-12@0")
    assert legal(st) == {"3-4@0", "pass"}
    do(st, "3-4@0", "pass")
    assert st.current_seat == 1
    assert not st.marker_up(0)


# -- options ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("overrides", "option"),
    [
        ({"double_blank_points": 30}, "double_blank_points"),
        ({"rounds": 14}, "rounds"),
        ({"rounds": [13]}, "rounds"),
        ({"first_turn_run": True, "first_turn": "single"}, "first_turn_run"),
        ({"max_pip": 6}, "hand_size"),
        ({"unsatisfied_double_penalty": -1}, "unsatisfied_double_penalty"),
        ({"engine_setup": "holder_starts"}, "engine_setup"),  # the option changed
        # seats the preset's hand sizes do not cover: the seats were changed, not the sizes
        ({"players": 9}, "players"),
        ({"players": [2, 10]}, "players"),
        ({"players": [2, 9], "hand_size": {"2": 16, "9": 8}}, "hand_size"),
        ({"bogus": 1}, "bogus"),
    ],
)
def test_invalid_options_name_the_option(overrides, option):
    with pytest.raises(RulesError) as err:
        Rules.preset("classic", **overrides)
    assert err.value.option == option


def test_rounds_short_and_ascending():
    assert Rules.preset("classic", rounds=4).rounds == (12, 11, 10, 9)
    assert Rules.preset("classic", rounds=list(range(13))).rounds == tuple(range(13))
    assert Rules.preset("classic").rounds == tuple(range(12, -1, -1))


def test_hand_sizes():
    classic, cardinal = Rules.preset("classic"), Rules.preset("cardinal")
    assert [classic.hand_size_for(n) for n in range(2, 9)] == [16, 16, 15, 14, 12, 10, 9]
    assert [cardinal.hand_size_for(n) for n in range(4, 11)] == [15, 12, 12, 10, 10, 8, 8]


def test_double_blank_points_and_penalty_scores():
    rules = Rules.preset("classic", double_blank_points=50)
    st = mk(rules, [["5-12", "0-0", "1-1"], ["3-12", "0-9"]], [])
    # seat 0 plays, seat 1 plays; then nobody can play; blocked
    do(st, "5-12@0")
    do(st, "3-12@1")
    assert st.ended == "blocked"
    assert st.scores() == [2 + 50, 9]


def test_cardinal_non_starter_opening_mexican_gets_marker():
    hands = [
        ["1-7", "0-0", "2-3"],
        ["0-1", "0-2", "2-2"],
        ["12-12", "5-12", "5-6", "9-10"],
        ["8-12", "7-12", "3-4"],
    ]
    st = mk(CARDINAL, hands, ["10-11", "1-1", "9-11", "0-5"], starter=None)
    do(st, "5-12@2", "5-6@2")
    assert st.current_seat == 3
    assert legal(st) == {"8-12@3", "7-12@3"}  # own train first (M is unopened)
    do(st, "8-12@3")  # run: nothing fits 8 any more, turn ends
    assert st.current_seat == 0
    do(st, "draw", "pass", "draw", "pass", "draw", "pass")
    assert st.marker_up(0)
    assert st.marker_up(1)
    assert st.marker_up(2)
    assert legal(st) == {"7-12@M", "7-12@0", "7-12@1"}
    do(st, "7-12@M")
    assert st.marker_up(3)  # opening M is exempt only for the starter on the first turn


def _play_out(st, rng):
    while not st.is_over:
        acts = st.legal_actions()
        st.apply(rng.choice(acts))


def test_match_rotation_and_holder():
    import random

    from mextrain.rules import Match

    rng = random.Random(5)
    m = Match.new(Rules.preset("classic", rounds=4), 3, rng)
    first = m.current.starter
    for k in range(1, 4):
        _play_out(m.current, rng)
        m.next_round(rng)
        assert m.current.starter == (first + k) % 3
        assert m.current.engine == 12 - k
    _play_out(m.current, rng)
    assert m.is_complete
    totals = m.totals
    assert m.winners == [i for i, t in enumerate(totals) if t == min(totals)]
    mc = Match.new(Rules.preset("cardinal", rounds=2), 4, rng)
    st = mc.current
    ts = tile_set(12)
    holder_hand_plus_engine = [s for s in range(4) if st.initial.hands[s] >> ts.double_id[12] & 1]
    if holder_hand_plus_engine:
        assert st.starter == holder_hand_plus_engine[0]
