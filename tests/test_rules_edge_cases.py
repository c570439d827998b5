"""Edge cases of RULES.md the other rule tests leave out: hand-built positions, each checking
one sentence of the rules text (quoted in the docstring)."""

from __future__ import annotations

import pytest

from mextrain.rules import MEXICAN, Rules
from test_rules_clauses import CARDINAL, CLASSIC, do, legal, mk


def hand(st, seat):
    return {str(t) for t in st.hand(seat)}


# -- blocked rounds ---------------------------------------------------------------------


def test_not_blocked_while_the_seat_that_just_moved_can_still_play():
    """RULES.md: "at the end of a turn (after that turn's marker change) the boneyard is
    empty and no seat has a legal play" -- the seat that just moved counts too."""
    st = mk(CLASSIC, [["5-12", "5-6"], ["1-2", "3-4"]], [])
    do(st, "5-12@0")
    assert st.ended is None  # seat 1 cannot play, but seat 0 still can
    assert st.current_seat == 1
    assert legal(st) == {"pass"}
    do(st, "pass")
    assert st.ended is None
    assert st.marker_up(1)  # a forced pass (empty boneyard)
    assert legal(st) == {"5-6@0"}
    do(st, "5-6@0")
    assert st.ended == "out"
    assert st.scores() == [0, 10]


def test_blocked_after_the_very_first_pass_of_the_round():
    """RULES.md: "The round ends at once ... when it is blocked: at the end of a turn ...
    the boneyard is empty and no seat has a legal play ... Everyone then scores the pips in
    hand." No full round of passes is needed."""
    st = mk(CLASSIC, [["1-2", "2-3"], ["3-4", "0-0"]], [])
    assert legal(st) == {"pass"}
    assert st.ended is None
    do(st, "pass")
    assert st.marker_up(0)  # the marker change happens before the check
    assert st.ended == "blocked"
    assert st.out_seat is None
    assert st.scores() == [8, 7]
    assert st.legal_actions() == []


def test_blocked_not_before_the_owed_follow_up_turn_ends():
    """RULES.md: the block is checked "at the end of a turn"; a seat owing a follow-up with
    nothing to play and nothing to draw "makes a forced pass (and the marker rule
    applies)" first."""
    st = mk(CLASSIC, [["5-12", "5-5", "9-9"], ["3-12", "3-4"]], [])
    do(st, "5-12@0", "3-12@1", "5-5@0")
    assert st.ended is None
    assert legal(st) == {"pass"}
    do(st, "pass")
    assert st.marker_up(0)
    # seat 1 cannot satisfy 5-5 (the only play that counts), seat 0 neither: blocked
    assert st.ended == "blocked"
    assert st.scores() == [18, 7]


def test_engine_zero_zero_placed_by_holder_is_not_scored_as_double_blank():
    """RULES.md: "The engine itself is never scored: it is always on the table." With
    `double_blank_points` the 0-0 engine placed by its holder adds nothing to its score."""
    rules = Rules.preset("cardinal", rounds=[0], double_blank_points=50)
    st = mk(rules, [["1-2"], ["3-4"], ["0-0", "5-6"], ["5-5"]], [], starter=None)
    assert st.starter == 2
    assert hand(st, 2) == {"5-6"}
    assert legal(st) == {"pass"}
    do(st, "pass")
    assert st.ended == "blocked"
    assert st.scores() == [3, 7, 11, 10]


def test_double_blank_in_hand_counts_on_a_blocked_round():
    """RULES.md: "`double_blank_points` (0-0 counts 25 or 50)" -- at a blocked end, on top
    of the other pips in that hand."""
    rules = Rules.preset("relaxed", double_blank_points=25)
    st = mk(rules, [["1-2", "2-3"], ["3-4", "0-0"]], [])
    do(st, "pass")
    assert st.ended == "blocked"
    assert st.scores() == [8, 7 + 25]


# -- house rules -------------------------------------------------------------------------


def test_penalty_not_charged_to_a_seat_that_goes_out_on_its_double():
    """RULES.md: "a seat that went out scores 0" and "Going out on a double ends the round
    like any other last tile" -- `unsatisfied_double_penalty` does not change that."""
    rules = Rules.preset("classic", unsatisfied_double_penalty=10)
    st = mk(rules, [["5-12", "5-5"], ["3-12", "3-4"]], ["0-1"])
    do(st, "5-12@0", "3-12@1", "5-5@0")
    assert st.ended == "out"
    assert st.open_doubles == (0,)
    assert st.scores() == [0, 7]


def test_no_going_out_on_double_applies_to_a_follow_up():
    """RULES.md house rule `no_going_out_on_double`: a double may not be the last tile, so a
    follow-up double that would empty the hand is not a legal follow-up; with none, "it
    draws one tile ... plays it if it can, and otherwise makes a forced pass"."""
    rules = Rules.preset("classic", no_going_out_on_double=True)
    st = mk(rules, [["5-12", "5-5", "6-6"], ["6-12", "3-4", "8-9"]], ["0-1", "0-2"])
    do(st, "5-12@0", "6-12@M")
    assert legal(st) == {"5-5@0", "6-6@M"}  # two tiles in hand: either double may go
    do(st, "5-5@0")
    assert legal(st) == {"draw"}  # 6-6 on M would be going out on a double
    do(st, "draw")  # 0-1 fits nothing
    assert legal(st) == {"pass"}
    do(st, "pass")
    assert st.marker_up(0)
    assert st.ended is None


def test_mexican_after_own_train_counts_a_train_started_by_another_seat():
    """RULES.md: "`mexican_after_own_train` (the Mexican train only once the seat's own
    train is started)" -- started by anyone: another seat may start a marked train."""
    rules = Rules.preset("classic", mexican_after_own_train=True)
    st = mk(rules, [["1-2", "7-9"], ["4-12", "5-12", "9-10"]], ["0-3", "2-12", "0-4"])
    do(st, "draw", "pass")
    assert st.marker_up(0)
    # seat 1's own train is not started: no Mexican train for it
    assert legal(st) == {"4-12@0", "5-12@0", "4-12@1", "5-12@1"}
    do(st, "4-12@0")
    # seat 0's train is started now (by seat 1); its drawn 2-12 may open the Mexican train
    do(st, "draw")
    assert legal(st) == {"2-12@M"}
    do(st, "2-12@M")
    assert st.marker_up(0)  # not its own train: the marker stays up


def test_mexican_after_first_round_of_turns_with_holder_starts():
    """RULES.md: "`mexican_after_first_round_of_turns`" with `holder_starts`: the starter
    (not seat 0) opens the round, so the first round of turns is seats 2, 3, 0, 1; the
    cardinal starter's choice to "open the Mexican train instead of its own" is closed
    until that round is over."""
    rules = Rules.preset("cardinal", mexican_after_first_round_of_turns=True)
    hands = [["0-1", "0-2"], ["0-3", "0-5"], ["12-12", "5-12", "5-6", "7-12"], ["3-12", "0-4"]]
    st = mk(rules, hands, ["1-1", "2-2", "10-11", "9-11"], starter=None)
    assert st.starter == 2
    assert legal(st) == {"5-12@2", "7-12@2"}
    do(st, "5-12@2", "5-6@2")  # the run ends: nothing fits 6
    do(st, "3-12@3")  # the run ends: nothing fits 3
    do(st, "draw", "pass")  # seat 0
    do(st, "draw", "pass")  # seat 1
    assert st.current_seat == 2
    assert legal(st) == {"7-12@M", "7-12@0", "7-12@1"}


# -- markers ---------------------------------------------------------------------------


@pytest.mark.parametrize(("marker_rule", "up"), [("forced_pass", False), ("no_own_play", True)])
def test_drawn_tile_played_elsewhere_marker_depends_on_rule(marker_rule, up):
    """RULES.md: `forced_pass`: "the turn ended with a forced pass"; `no_own_play`: "the
    turn ended without a play on its own train". A drawn tile played on the Mexican train
    is no forced pass, but no own play either."""
    rules = Rules.preset("relaxed", marker_rule=marker_rule)
    st = mk(rules, [["5-12", "9-10"], ["3-12", "3-4", "8-9"]], ["2-12", "0-1"])
    do(st, "5-12@0", "3-12@1", "draw")
    assert legal(st) == {"2-12@M"}
    do(st, "2-12@M")
    assert st.current_seat == 1
    assert st.marker_up(0) is up


def test_owner_play_elsewhere_leaves_marker_up_own_double_takes_it_down():
    """RULES.md: "Marker down: when a seat plays on its own train, its marker comes down at
    once." Playing on the Mexican train does not take it down; a double on its own train
    does, and a follow-up placed elsewhere is no forced pass, so it stays down."""
    st = mk(
        CLASSIC,
        [["5-5", "2-6", "9-10", "6-9"], ["5-12", "2-12", "3-4", "8-11"]],
        ["0-7", "0-8", "0-10"],
    )
    do(st, "draw", "pass")
    assert st.marker_up(0)
    do(st, "2-12@M")
    assert legal(st) == {"2-6@M"}
    do(st, "2-6@M")
    assert st.marker_up(0)  # played, but not on its own train
    do(st, "5-12@0")  # seat 1 starts seat 0's marked train
    assert st.marker_up(0)
    assert legal(st) == {"5-5@0", "6-9@M"}
    do(st, "5-5@0")
    assert not st.marker_up(0)  # at once, before the turn ends
    assert legal(st) == {"6-9@M"}
    do(st, "6-9@M")
    assert st.current_seat == 1
    assert not st.marker_up(0)


def test_cardinal_starter_mexican_exemption_only_on_the_rounds_first_turn():
    """RULES.md cardinal `no_own_play`: "except the round's first turn when the starting
    seat opened the Mexican train in it". On the starter's next turn a Mexican play with
    no own play puts its marker up."""
    hands = [["0-1", "0-2"], ["0-3", "0-4"], ["12-12", "7-12", "7-8", "9-10"], ["3-12", "1-1"]]
    st = mk(CARDINAL, hands, ["10-11", "9-11", "1-3", "2-4"], starter=None)
    assert st.starter == 2
    assert legal(st) == {"7-12@2", "7-12@M"}
    do(st, "7-12@M")
    assert not st.marker_up(2)
    do(st, "3-12@3")
    assert st.current_seat == 0
    do(st, "draw", "pass", "draw", "pass")
    assert st.marker_up(0)
    assert st.marker_up(1)
    assert st.current_seat == 2
    assert legal(st) == {"7-8@M"}
    do(st, "7-8@M")
    assert st.ended is None
    assert st.marker_up(2)


# -- first-turn runs ---------------------------------------------------------------------


def test_cardinal_run_double_after_a_draw_owes_no_second_draw():
    """RULES.md `run`: "a draw earlier in that first turn does not take the privilege
    away" and "A double inside a run owes its follow-up ...: with none, one draw (if not
    drawn yet), then a forced pass." A seat whose double on its own train found no
    follow-up "did play on its own train: no marker"."""
    hands = [["0-1", "0-2"], ["0-3", "0-4"], ["12-12", "5-5", "9-10"], ["3-12", "1-1"]]
    st = mk(CARDINAL, hands, ["5-12", "10-11", "9-11"], starter=None)
    assert st.starter == 2
    assert legal(st) == {"draw"}
    do(st, "draw")
    # the starter's first turn: its own train, or open the Mexican train instead
    assert legal(st) == {"5-12@2", "5-12@M"}
    do(st, "5-12@2")
    assert legal(st) == {"5-5@2", "pass"}
    do(st, "5-5@2")
    assert legal(st) == {"pass"}  # no follow-up and already drew: no second draw
    assert st.boneyard_size == 2
    do(st, "pass")
    assert st.current_seat == 3
    assert not st.marker_up(2)
    assert st.open_doubles == (2,)


@pytest.mark.parametrize(("preset", "double_ok"), [("relaxed", False), ("classic", True)])
def test_run_double_follow_up_then_run_continues(preset, double_ok):
    """RULES.md: `double_follow_up` `no_double`: "any legal tile that is not a double" (vs
    `any`: "a double too"), also inside a run; a follow-up on the own train keeps the run
    going: "The run ends when the seat passes ... or when no tile fits its own train"."""
    rules = Rules.preset(preset, first_turn_run=True)
    st = mk(
        rules,
        [["6-12", "0-10", "1-10"], ["5-12", "5-5", "5-7", "6-6", "7-8", "9-10"]],
        ["0-1", "0-2"],
    )
    do(st, "6-12@M")  # a first play elsewhere is a single play
    assert st.current_seat == 1
    assert legal(st) == {"5-12@1", "6-6@M"}
    do(st, "5-12@1")
    assert legal(st) == {"5-5@1", "5-7@1", "pass"}  # own train only: no 6-6@M
    do(st, "5-5@1")
    follow_ups = {"5-7@1", "6-6@M"} if double_ok else {"5-7@1"}
    assert legal(st) == follow_ups
    do(st, "5-7@1")
    assert legal(st) == {"7-8@1", "pass"}  # the run goes on, pass allowed again
    do(st, "pass")
    assert st.current_seat == 0
    assert not st.marker_up(1)  # ending a run is not a forced pass


# -- holder_starts -----------------------------------------------------------------------


def test_holder_starts_draw_cycle_then_later_draws_continue_the_boneyard():
    """RULES.md `holder_starts`: "every seat in order 0, 1, 2, ... draws one tile from the
    boneyard (a cycle is completed while tiles remain); after the cycle in which the engine
    was drawn, its holder starts." Later draws take the next tile of the boneyard."""
    hands = [["0-1"], ["0-2"], ["0-3"], ["0-4"]]
    st = mk(CARDINAL, hands, ["1-1", "12-12", "1-2", "1-3", "5-12", "2-2"], starter=None)
    assert st.starter == 1
    assert st.current_seat == 1
    assert hand(st, 0) == {"0-1", "1-1"}
    assert hand(st, 1) == {"0-2"}
    assert hand(st, 2) == {"0-3", "1-2"}
    assert hand(st, 3) == {"0-4", "1-3"}
    assert st.boneyard_size == 2
    assert legal(st) == {"draw"}
    do(st, "draw")
    assert hand(st, 1) == {"0-2", "5-12"}
    assert st.boneyard_size == 1


# -- more house-rule and double interactions -----------------------------------------------


def test_block_check_takes_the_mexican_train_as_it_stands():
    """RULES.md: blocked means "no seat has a legal play in the position as it stands";
    with `mexican_after_first_round_of_turns` the Mexican train is still closed while the
    first round of turns lasts, so a seat whose only play is on it has none as it stands,
    though the train would open before its next turn: with the boneyard empty and nobody
    else able to play, the round is blocked."""
    rules = Rules.preset("classic", mexican_after_first_round_of_turns=True)
    st = mk(rules, [["5-12", "7-12", "3-4"], ["0-1", "1-2"], ["0-2", "2-3"]], [])
    assert legal(st) == {"5-12@0", "7-12@0"}  # the Mexican train is not open yet
    do(st, "5-12@0")
    assert st.ended == "blocked"
    assert st.scores() == [7 + 12 + 3 + 4, 1 + 1 + 2, 2 + 2 + 3]


def test_block_check_counts_the_mexican_train_once_every_seat_has_had_a_turn():
    """The same table, one turn later in the round: once every seat has had a turn the
    Mexican train is open, and a seat that can play on it keeps the round going."""
    rules = Rules.preset("classic", mexican_after_first_round_of_turns=True)
    st = mk(rules, [["5-12", "7-12", "3-4"], ["0-12", "0-1"], ["2-12", "2-3"]], [])
    do(st, "5-12@0", "0-12@1")
    assert st.ended is None
    do(st, "2-12@2")  # every seat has had a turn: 7-12 may go on the Mexican train
    assert st.ended is None
    assert st.current_seat == 0
    assert legal(st) == {"7-12@M"}


def test_follow_ups_within_the_turn_may_satisfy_the_newer_double_first():
    """RULES.md `open_doubles_block`: "within the turn that played a double, that seat's
    follow-ups go anywhere the normal rules allow"; only "Once that turn has ended" is the
    oldest open double the only legal play."""
    st = mk(
        CLASSIC,
        [["5-12", "1-12", "5-5", "1-1", "1-3", "5-6", "9-9"], ["3-12", "3-4", "8-9", "0-8"]],
        ["0-0", "0-2"],
    )
    do(st, "5-12@0", "3-12@1", "1-12@M", "3-4@1", "5-5@0", "1-1@M")
    assert st.open_doubles == (0, MEXICAN)
    assert legal(st) == {"5-6@0", "1-3@M"}
    do(st, "1-3@M")
    assert st.open_doubles == (0,)
    assert st.current_seat == 1
    assert not st.marker_up(0)
    assert legal(st) == {"draw"}  # seat 1 holds nothing for the 5-5


def test_block_check_the_last_turn_of_the_first_round_of_turns_still_counts_it_closed():
    """As above with two seats: after seat 0's first turn only one turn has ended, so the
    first round of turns is not over (seat 1 has not had its turn) and the Mexican train
    is still closed as the position stands, though it opens at seat 0's next turn."""
    rules = Rules.preset("classic", mexican_after_first_round_of_turns=True)
    st = mk(rules, [["5-12", "7-12", "3-4"], ["0-1", "1-2"]], [])
    do(st, "5-12@0")
    assert st.ended == "blocked"
    assert st.scores() == [7 + 12 + 3 + 4, 1 + 1 + 2]


def test_run_whose_first_play_is_a_double_elsewhere_ends_after_its_follow_up():
    """RULES.md `run`: "A tile played anywhere else ends the run: a first play elsewhere is
    a single play, and a double's follow-up placed elsewhere ends the turn once the
    follow-ups are done." A run opened with a double on the Mexican train is over: its
    follow-up may start the seat's own train, and the turn ends there, though more tiles
    would fit that train."""
    rules = Rules.preset("classic", first_turn_run=True)
    st = mk(rules, [["3-12", "0-1", "0-2"], ["3-3", "4-12", "4-5", "5-6", "9-10"]], ["0-3"])
    do(st, "3-12@M")
    assert legal(st) == {"3-3@M", "4-12@1"}
    do(st, "3-3@M")
    assert legal(st) == {"4-12@1"}  # the follow-up (nothing answers the 3-3)
    do(st, "4-12@1")
    assert st.current_seat == 0  # no run after it: 4-5 stays in hand
    assert hand(st, 1) == {"4-5", "5-6", "9-10"}
    assert st.open_doubles == (MEXICAN,)


def test_open_double_on_the_mexican_train_is_answered_by_a_seat_the_house_rule_keeps_off():
    """RULES.md: "Where a seat may play": "under `open_doubles_block`, the rules for open
    doubles below override all of this", and the only legal play is "a tile on the
    oldest open double -- wherever it stands". `mexican_after_own_train` keeps seat 1 (its
    own train not started) off the Mexican train, started or not, until a double stands
    open there."""
    rules = Rules.preset("classic", mexican_after_own_train=True)
    st = mk(
        rules,
        [["5-12", "1-12", "1-1", "7-8"], ["1-2", "0-3", "9-10"]],
        ["0-4", "0-6", "2-3", "0-0"],
    )
    do(st, "5-12@0", "draw", "pass", "1-12@M")
    assert legal(st) == {"draw"}  # 1-2 would fit the Mexican train, closed to seat 1
    do(st, "draw", "pass", "1-1@M", "draw", "pass")
    assert st.open_doubles == (MEXICAN,)
    assert st.current_seat == 1
    assert legal(st) == {"1-2@M"}
    do(st, "1-2@M")
    assert st.open_doubles == ()


# -- the starter's Mexican train, with house rules ----------------------------------------


def test_cardinal_starter_may_not_open_the_mexican_train_before_its_own_under_the_house_rule():
    """RULES.md: `own_train_first` lets "the starting seat ... open the Mexican train
    instead of its own" on the round's first turn; `mexican_after_own_train` opens "the
    Mexican train only once the seat's own train is started", so with both the starter's
    choice is gone. Once its own train is started the Mexican train is open to it."""
    rules = Rules.preset("cardinal", mexican_after_own_train=True)
    hands = [["0-1", "0-2"], ["0-3", "0-4"], ["12-12", "7-12", "7-8", "5-12"], ["3-12", "1-1"]]
    st = mk(rules, hands, ["10-11", "9-11", "1-3", "2-4"], starter=None)
    assert st.starter == 2
    assert legal(st) == {"7-12@2", "5-12@2"}
    do(st, "5-12@2")  # the run ends: nothing fits 5
    assert not st.marker_up(2)
    do(st, "3-12@3", "draw", "pass", "draw", "pass")
    assert st.current_seat == 2
    # nothing fits its own train: the Mexican train is open to it now, and the marked trains
    assert legal(st) == {"7-12@M", "7-12@0", "7-12@1"}


@pytest.mark.parametrize("starter", [0, 1])
def test_no_own_play_exempts_only_the_starter_opening_the_mexican_train(starter):
    """RULES.md `marker_rule` `no_own_play`: "the turn ended without a play on its own
    train -- except the round's first turn when the starting seat opened the Mexican train
    in it", under `set_aside` too, whichever seat starts. A seat that opens the Mexican
    train on the round's second turn is not the starter in its first turn: marker up."""
    rules = Rules.preset("classic", marker_rule="no_own_play")
    other = 1 - starter
    hands = [[], []]
    hands[starter] = ["5-12", "0-1"]
    hands[other] = ["5-6", "0-2"]
    st = mk(rules, hands, ["9-10", "9-11", "8-10"], starter=starter)
    assert legal(st) == {"5-12@M", f"5-12@{starter}"}
    do(st, "5-12@M")
    assert st.current_seat == other
    assert not st.marker_up(starter)
    assert legal(st) == {"5-6@M"}  # nothing fits 12 on its own train
    do(st, "5-6@M")
    assert st.marker_up(other)

    # the same tiles the other way round: the starter cannot play, the next seat opens
    hands[starter], hands[other] = ["0-1", "0-2"], ["3-12", "3-6"]
    st = mk(rules, hands, ["9-10", "9-11", "8-10"], starter=starter)
    do(st, "draw", "pass")
    assert st.marker_up(starter)
    assert legal(st) == {"3-12@M", f"3-12@{other}", f"3-12@{starter}"}
    do(st, "3-12@M")
    assert st.current_seat == starter
    assert st.marker_up(other)


# -- first-turn runs and open doubles -----------------------------------------------------


def test_first_turn_begun_with_an_open_double_answers_it_and_has_no_run():
    """RULES.md, `open_doubles_block`: "while any double stands open, the **only** legal
    play for any seat is a tile on the **oldest** open double" -- the rules for open doubles
    "override all of this", a first-turn run included. That tile goes on another seat's
    train, and for a run "a first play elsewhere is a single play". The run belongs to the
    seat's first turn only: its next turn is a single play."""
    rules = Rules.preset("classic", first_turn_run=True)
    hands = [["5-12", "5-5", "1-1", "0-1"], ["4-12", "5-9", "4-9", "2-2"], ["7-12", "7-8", "3-3"]]
    st = mk(rules, hands, ["0-0", "10-11"])
    do(st, "5-12@0", "5-5@0", "draw", "pass")  # a run, a double, no follow-up
    assert st.marker_up(0)
    assert st.open_doubles == (0,)
    # seat 1's first turn: 4-12 would start its run, but the open double comes first
    assert legal(st) == {"5-9@0"}
    do(st, "5-9@0")
    assert st.current_seat == 2  # a single play: the turn is over
    assert not st.marker_up(1)  # not a forced pass
    assert legal(st) == {"7-12@2", "7-12@M"}
    do(st, "7-12@2")
    assert legal(st) == {"7-8@2", "pass"}  # seat 2 has its run
    do(st, "pass", "draw", "pass")
    assert st.current_seat == 1
    do(st, "4-12@1")  # its second turn: one tile, though 4-9 fits its own train now
    assert st.current_seat == 2


def test_cardinal_starter_may_not_open_the_mexican_train_before_everyone_has_had_a_turn():
    """RULES.md: `own_train_first` lets "the starting seat ... open the Mexican train
    instead of its own" on the round's first turn; `mexican_after_first_round_of_turns`
    keeps the Mexican train closed until every seat has had a turn, so with both the
    starter's choice is gone (the house rule closes the train; the exception only lifts
    own-train-first)."""
    rules = Rules.preset("cardinal", mexican_after_first_round_of_turns=True)
    hands = [["0-1", "0-2"], ["0-3", "0-4"], ["12-12", "7-12", "7-8", "5-12"], ["3-12", "1-1"]]
    st = mk(rules, hands, ["10-11", "9-11", "1-3", "2-4"], starter=None)
    assert st.starter == 2
    assert legal(st) == {"7-12@2", "5-12@2"}
