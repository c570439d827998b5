"""`benchmarks/search_oracle.py`'s ``reveal`` searcher: told exactly where some of the
other hands' tiles are, and nothing of the rest."""

from __future__ import annotations

import random
import sys
from pathlib import Path
from types import ModuleType

import pytest

from mextrain.rules import RoundState, Rules, iter_bits

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def oracle(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))
    sys.modules.pop("search_oracle", None)
    import search_oracle

    return search_oracle


def _mid_round(seed: int) -> RoundState:
    """A classic 4-seat round some random legal moves in."""
    rng = random.Random(seed)
    state = RoundState.new(Rules.preset("classic"), 4, 0, rng)
    for _ in range(rng.randrange(4, 30)):
        if state.ended is not None:
            break
        state.apply(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("seed", range(12))
def test_a_revealed_deal_keeps_what_the_seat_is_told_and_deals_the_rest(
    oracle: ModuleType, seed: int
) -> None:
    state = _mid_round(seed)
    if state.ended is not None:
        pytest.skip("the round ended")
    me = state.current_seat
    rng = random.Random(seed)
    told = oracle._revealed(state, 0.5, rng)
    assert told[me] == 0
    for seat in range(state.n):
        assert told[seat] & ~state.hands[seat] == 0  # told only what is true
    unseen = set(state.boneyard[state.bone_pos :])
    for seat in range(state.n):
        if seat != me:
            unseen |= set(iter_bits(state.hands[seat]))
    moved = 0
    for _ in range(20):
        deal = oracle._reveal(state, told, rng)
        assert deal.hands[me] == state.hands[me]
        dealt = set(deal.boneyard[deal.bone_pos :])
        assert len(dealt) == len(state.boneyard) - state.bone_pos
        for seat in range(state.n):
            assert deal.hands[seat].bit_count() == state.hands[seat].bit_count()
            assert deal.hands[seat] & told[seat] == told[seat]
            if seat != me:
                assert not dealt & set(iter_bits(deal.hands[seat]))
                dealt |= set(iter_bits(deal.hands[seat]))
                moved += (deal.hands[seat] & ~state.hands[seat]).bit_count()
        assert dealt == unseen  # every unseen tile once, none invented
        assert deal.legal_actions() == state.legal_actions()
    assert moved > 0  # the untold tiles are dealt again


def test_reveal_all_is_the_real_hands_and_reveal_none_tells_nothing(
    oracle: ModuleType,
) -> None:
    state = _mid_round(3)
    rng = random.Random(1)
    everything = oracle._revealed(state, 1.0, rng)
    me = state.current_seat
    assert everything == [0 if s == me else state.hands[s] for s in range(state.n)]
    assert oracle._reveal(state, everything, rng).hands == state.hands
    assert oracle._revealed(state, 0.0, rng) == [0] * state.n


def test_an_unknown_row_is_refused(oracle: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    for bad in ("reveal", "reveal:x", "peek:5"):
        monkeypatch.setattr(sys, "argv", ["search_oracle.py", "--knows", bad])
        with pytest.raises(SystemExit):
            oracle.main()
