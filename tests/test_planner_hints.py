"""Move suggestions: every legal action ranked, from the seat's view only."""

from __future__ import annotations

import random

import pytest

from mextrain.planner import best_action, plan, rank_actions
from mextrain.rules import DRAW, MEXICAN, Action, RoundState, Rules, Tile, parse_tile, tile_set

CLASSIC = Rules.preset("classic")
ENGINE = Tile(12, 12)
# 12-5 5-3 3-9 9-8 is seat 0's best train; 12-1 is a spare tile carrying the engine pip;
# the rest touches none of the train's pips


def tiles(text: str) -> list[Tile]:
    return [parse_tile(t) for t in text.split()]


SEAT0 = tiles("12-5 5-3 3-9 9-8 12-1 0-0 0-2 0-4 0-6 0-7 0-10 0-11 2-2 2-4 2-6 2-7")


def deal(seat0: list[Tile], seed: int) -> RoundState:
    """Round 0 for two players, seat 0 holding ``seat0`` and starting; the rest shuffled."""
    rest = [t for t in tile_set(12).tiles if t not in set(seat0) and t != ENGINE]
    random.Random(seed).shuffle(rest)
    return RoundState.from_deal(CLASSIC, 2, 0, [seat0, rest[:16]], rest[16:], starter=0)


def test_every_legal_action_is_ranked_once() -> None:
    view = deal(SEAT0, 1).view(0)
    ranked = rank_actions(view)
    assert sorted(map(str, (s.action for s in ranked))) == sorted(map(str, view.legal_actions))
    assert all(s.reason for s in ranked)
    assert [s.score for s in ranked] == sorted((s.score for s in ranked), reverse=True)


def test_spare_tiles_go_first_and_the_train_is_kept() -> None:
    view = deal(SEAT0, 2).view(0)
    assert plan(SEAT0, 12).train.oriented() == ["12-5", "5-3", "3-9", "9-8"]
    ranked = {s.action: s for s in rank_actions(view)}
    spare = ranked[Action.play(Tile(1, 12), MEXICAN)]
    on_own = ranked[Action.play(Tile(5, 12), 0)]
    wasted = ranked[Action.play(Tile(5, 12), MEXICAN)]
    assert best_action(view) == spare.action
    assert "spare tile" in spare.reason
    assert "next tile of your best train (4 tiles)" in on_own.reason
    assert "shortens your best train from 4 to 1 tiles" in wasted.reason
    assert spare.score > on_own.score > wasted.score


def test_hints_see_only_the_seat_view() -> None:
    # the same hand with different hidden tiles (the other hand, the boneyard) gets the
    # same suggestions
    first = rank_actions(deal(SEAT0, 3).view(0))
    second = rank_actions(deal(SEAT0, 4).view(0))
    assert first == second


def test_no_suggestion_out_of_turn() -> None:
    state = deal(SEAT0, 5)
    assert rank_actions(state.view(1)) == []
    with pytest.raises(ValueError, match="not its turn"):
        best_action(state.view(1))


def test_nothing_fits_means_draw() -> None:
    no_twelve = [t for t in tile_set(12).tiles if 12 not in t][:16]
    view = deal(no_twelve, 6).view(0)
    assert view.legal_actions == (DRAW,)
    (only,) = rank_actions(view)
    assert only.action == DRAW
    assert "draw" in only.reason


def test_a_double_wants_its_follow_up() -> None:
    # after 12-5 the seat may lay 5-5 only if it holds another 5 to follow it
    hand = tiles("12-5 5-5 5-3 0-0 0-1 0-2 0-3 0-4 1-1 1-2 1-3 1-4 2-2 2-3 2-4 3-3")
    state = deal(hand, 7)
    state.apply(Action.play(Tile(5, 12), 0))
    # seat 1 plays its best suggestions until seat 0 is to move again
    while state.current_seat != 0 and not state.is_over:
        state.apply(best_action(state.view(state.current_seat)))
    view = state.view(0)
    ranked = {s.action: s for s in rank_actions(view)}
    double = Action.play(Tile(5, 5), 0)
    assert "you hold its follow-up" in ranked[double].reason


def test_a_hand_too_hard_to_plan_is_still_ranked_and_says_so() -> None:
    """The first 40 tiles of the set with the train's open end at 3: the exact train
    search takes minutes there. Each value of a hint gets `HINT_STEPS` steps; past them
    the ranking goes on without the train's part (spare tiles still before the train's,
    heavy ones first, a double with its follow-up) and each reason says the hand is too
    big to plan."""
    hard = list(tile_set(12).tiles[:40])
    view = deal(SEAT0, 3).view(0)
    trains = tuple(t._replace(open_end=3) if t.owner == 0 else t for t in view.trains)
    plays = [Action.play(t, 0) for t in hard if t.has(3)]
    view = view._replace(hand=tuple(hard), trains=trains, legal_actions=tuple(plays))
    ranked = rank_actions(view)
    assert sorted(str(s.action) for s in ranked) == sorted(str(a) for a in plays)
    assert all("too big to plan" in s.reason for s in ranked), ranked
    # (among plays on the same train, the heavier tile first; 3-3 has its follow-up)
    assert ranked[0].action == Action.play(parse_tile("3-3"), 0), ranked
    assert [s.action.tile for s in ranked[1:]] == sorted(
        (a.tile for a in plays if a.tile != parse_tile("3-3")), key=lambda t: -t.pips
    )
