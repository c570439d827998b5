"""The rollout search, the fast planner playout and inference from the opponents' plays."""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mextrain.bots import Bot, make_bot
from mextrain.bots.planner import PlannerBot, RacerBot
from mextrain.rules import RoundState, Rules, SeatView, iter_bits
from mextrain.search import (
    FastPlannerPlayout,
    InfoState,
    ISMCTSBot,
    SearchConfig,
    paired_difference,
    rollout_search,
)
from mextrain.search.policy import _play_table
from test_search_ismcts import _decision, _run_to_win
from test_search_resample import _check_sample, _position

TABLES = [("classic", 2), ("classic", 4), ("relaxed", 3), ("cardinal", 4), ("cardinal", 6)]
ROLLOUT = "ismcts:algorithm=rollout,policy=planner,infer=planner"


def _planner_round(preset: str, players: int, seed: int) -> list[RoundState]:
    """Every position of a round in which all seats play the planner's way."""
    rules = Rules.preset(preset)
    rng = random.Random(seed)
    state = RoundState.new(rules, players, rng.randrange(rules.round_count), rng)
    model = FastPlannerPlayout()
    table = _play_table(state.ts.max_pip, players)
    out = []
    while not state.is_over:
        out.append(state.copy())
        plays = state.legal_plays()
        if not plays:
            state.apply(state.legal_actions()[0])
            continue
        tid, train = model.choose(state, plays)
        state.apply(table[tid][train + 1])
    return out


def _check_model_moves(
    model: FastPlannerPlayout, table: tuple[str, int], seed: int, bot_of: Callable[[int], Bot]
) -> None:
    """In every position of a planners' round, ``model`` makes the move of the bot
    ``bot_of(seat)`` for the seat to move."""
    rng = random.Random(seed)
    for state in _planner_round(*table, seed):
        plays = state.legal_plays()
        legal = state.legal_actions()
        if not plays or len(legal) == 1:
            continue
        tid, train = model.choose(state, plays)
        mine = _play_table(state.ts.max_pip, state.n)[tid][train + 1]
        assert mine == bot_of(state.current_seat).act(state.view(state.current_seat), rng)


@settings(max_examples=12)
@given(table=st.sampled_from(TABLES), seed=st.integers(0, 10**6))
def test_fast_planner_makes_the_planner_bots_moves(table: tuple[str, int], seed: int) -> None:
    bot = make_bot("planner:search=memo")
    _check_model_moves(FastPlannerPlayout(), table, seed, lambda seat: bot)


@settings(max_examples=12)
@given(table=st.sampled_from(TABLES), seed=st.integers(0, 10**6), own=st.integers(0, 5))
def test_fast_planner_plays_its_own_seat_by_its_own_weights(
    table: tuple[str, int], seed: int, own: int
) -> None:
    """With ``own`` weights, seat ``own_seat`` makes the racer's moves, the others the
    planner's."""
    racer, planner = make_bot("racer:search=memo"), make_bot("planner:search=memo")
    model = FastPlannerPlayout(own=RacerBot(search="memo"))
    model.own_seat = own % table[1]
    _check_model_moves(
        model, table, seed, lambda seat: racer if seat == model.own_seat else planner
    )


def test_the_search_bot_plays_its_own_style() -> None:
    """``own=racer``: the prior (kept unless the search is confident) is the racer's move,
    and the playouts play the seat the racer's way."""
    racer, planner = make_bot("racer"), make_bot("planner")
    rng = random.Random(0)
    views = (
        state.view(state.current_seat)
        for seed in range(20)
        for state in _planner_round("classic", 4, seed)
        if len(state.legal_actions()) > 1
    )
    view = next(v for v in views if racer.act(v, rng) != planner.act(v, rng))
    sure = "iterations=40,confidence=1000000"
    bot = make_bot(f"ismcts:{sure}")  # own=racer is the default
    assert bot.act(view, random.Random(1)) == racer.act(view, rng)
    assert make_bot(f"ismcts:own=planner,{sure}").act(view, random.Random(1)) == planner.act(
        view, rng
    )
    policy = bot._policy  # type: ignore[attr-defined]
    assert isinstance(policy.own, RacerBot)
    assert policy.own_seat == view.seat
    assert type(make_bot("ismcts:own=planner")._policy.own) is PlannerBot  # type: ignore[attr-defined]
    model = FastPlannerPlayout.for_seat(2, "racer")
    assert isinstance(model.own, RacerBot)
    assert model.own_seat == 2
    with pytest.raises(ValueError, match="planner-style"):
        FastPlannerPlayout.for_seat(0, "random")
    with pytest.raises(ValueError, match="planner-style"):
        make_bot("ismcts:own=greedy")


def test_the_search_bot_trusts_its_search_by_default() -> None:
    """``confidence=0`` (the default): the bot plays the race's best move whenever it leads,
    however narrowly; the racer's move only breaks ties, or stands when each move was tried
    on a single deal. ``confidence=1`` keeps the racer's move where the lead is within a
    standard error of the difference."""
    racer = make_bot("racer")
    rng = random.Random(0)
    views = [
        state.view(state.current_seat)
        for seed in range(2)
        for state in _planner_round("classic", 2, seed)
        if len(state.legal_actions()) > 1
    ]
    default = make_bot("ismcts:iterations=60")
    cautious = make_bot("ismcts:iterations=60,confidence=1")
    assert default.confidence == 0.0  # type: ignore[attr-defined]
    # the tree's means come from different deals: it stays cautious by default
    assert make_bot("ismcts:algorithm=ismcts").confidence == 1.0  # type: ignore[attr-defined]
    assert make_bot("ismcts:algorithm=ismcts,confidence=0").confidence == 0.0  # type: ignore[attr-defined]
    overruled = kept = 0
    for view in views:
        action = default.act(view, random.Random(7))
        result = default.last  # type: ignore[attr-defined]
        assert action == result.action
        if action != racer.act(view, rng):
            overruled += 1
        careful = cautious.act(view, random.Random(7))
        if careful != cautious.last.action:  # type: ignore[attr-defined]
            assert careful == racer.act(view, rng)
            kept += 1
    assert overruled > 0
    assert kept > 0  # the two settings differ on these positions
    # one deal per move is no evidence against the racer's move, however they came out
    once = 0
    for view in views:
        bot = make_bot(f"ismcts:iterations={len(view.legal_actions)}")
        action = bot.act(view, random.Random(7))
        assert bot.last.iterations == len(view.legal_actions)  # type: ignore[attr-defined]
        assert action == racer.act(view, rng)
        once += action != bot.last.action  # type: ignore[attr-defined]
    assert once > 0


@settings(max_examples=25)
@given(
    table=st.sampled_from(TABLES),
    seed=st.integers(0, 10**6),
    stop=st.floats(0.005, 0.2),
    pick=st.integers(0, 2**64),
)
def test_plays_if_holding_is_what_that_hand_could_play(
    table: tuple[str, int], seed: int, stop: float, pick: int
) -> None:
    state = _position(*table, seed, stop)
    seat = state.current_seat
    before = (state.legal_plays(), list(state.hands), state.legal_actions())
    assert state.plays_if_holding(state.hands[seat]) == before[0]
    # another hand for the seat, made of its tiles and hidden ones
    hidden = 0
    for hand in state.hands:
        hidden |= hand
    for tid in state.boneyard[state.bone_pos :]:
        hidden |= 1 << tid
    size = state.hands[seat].bit_count()
    bits = [i for i in range(state.ts.size) if hidden >> i & 1]
    chosen = random.Random(pick).sample(bits, min(size, len(bits)))
    hand = sum(1 << i for i in chosen)
    found = state.plays_if_holding(hand)
    # the same as the plays of a real state in which the seat holds that hand
    hands = [h & ~hand for h in state.hands]
    hands[seat] = hand
    rest = hidden & ~hand
    for h in hands:
        rest &= ~h
    other = state.with_hidden(
        hands, [i for i in range(state.ts.size) if rest >> i & 1], keep_sizes=False
    )
    assert found == other.legal_plays()
    assert (state.legal_plays(), list(state.hands), state.legal_actions()) == before


def _decision_of(states: list[RoundState], seat: int, skip: int) -> RoundState | None:
    decisions = [s for s in states if s.current_seat == seat and len(s.legal_actions()) > 1]
    return decisions[min(skip, len(decisions) - 1)] if decisions else None


def _seat0(
    table: tuple[str, int], seed: int, skip: int
) -> tuple[RoundState, SeatView, random.Random] | None:
    """Seat 0's decision number ``skip`` in a round of planners, its view and an RNG."""
    true = _decision_of(_planner_round(*table, seed), 0, skip)
    if true is None:
        return None
    return true, true.view(0), random.Random(seed)


BETAS = st.sampled_from([None, 0.5, 2.0])  # hard, and tempered (softens plays, never facts)


@settings(max_examples=15)
@given(
    table=st.sampled_from(TABLES),
    seed=st.integers(0, 10**6),
    skip=st.integers(0, 12),
    beta=BETAS,
)
def test_inferred_samples_keep_what_the_seat_knows(
    table: tuple[str, int], seed: int, skip: int, beta: float | None
) -> None:
    found = _seat0(table, seed, skip)
    if found is None:
        return
    true, view, rng = found
    info = InfoState(view, rng, model=FastPlannerPlayout(), depth=4, beta=beta)
    # every seat here played the planner's way: the real hands explain every recent play
    for seat in range(1, true.n):
        assert info.mismatches(seat, true.hands[seat]) == 0
        assert len(info.decisions[seat]) <= 4
        assert not true.hands[seat] & info.voids[seat]
    assert info.decisions[0] == ()
    _check_samples(info, true, view, rng)


def _check_samples(info: InfoState, true: RoundState, view: SeatView, rng: random.Random) -> None:
    """Five samples keep everything the seat knows, and every seat's void."""
    for _ in range(5):
        sample = info.sample(rng)
        _check_sample(true, view, sample)
        for seat, void in enumerate(info.voids):
            assert not sample.hands[seat] & void


def _overlap(info: InfoState, true: RoundState, rng: random.Random, samples: int) -> float:
    """Mean share of the other seats' tiles that a sample puts in the right hand."""
    right = total = 0
    for _ in range(samples):
        sample = info.sample(rng)
        for seat in range(1, true.n):
            right += (sample.hands[seat] & true.hands[seat]).bit_count()
            total += true.hands[seat].bit_count()
    return right / total


def test_inference_puts_more_tiles_in_the_right_hands() -> None:
    """Reading the opponents' plays as the planner's narrows down their hands."""
    plain = inferred = 0.0
    count = 0
    for seed in range(12):
        true = _decision_of(_planner_round("classic", 4, seed), 0, 4)
        assert true is not None
        view = true.view(0)
        plain += _overlap(InfoState(view, random.Random(seed)), true, random.Random(1), 40)
        model = InfoState(view, random.Random(seed), model=FastPlannerPlayout())
        inferred += _overlap(model, true, random.Random(1), 40)
        count += 1
    assert inferred / count > plain / count + 0.01


def _unshown_draws(states: list[RoundState], upto: int, seat: int) -> list[int]:
    """The tiles ``seat`` drew and never showed (it passed after the draw) before
    ``states[upto]``, oldest first: the truth `InfoState` deals with ``history``."""
    out = []
    final = states[upto].history
    for before, after in itertools.pairwise(states[: upto + 1]):
        for index in range(len(before.history), len(after.history)):
            who, action = after.history[index]
            if who != seat or action.kind != "draw":
                continue
            nxt = next((a for s, a in final[index + 1 :] if s == seat), None)
            if nxt is None or nxt.kind != "play":
                drawn = after.hands[seat] & ~before.hands[seat]
                assert drawn.bit_count() == 1
                out.append(drawn.bit_length() - 1)
    return out


@settings(max_examples=15)
@given(
    table=st.sampled_from(TABLES),
    seed=st.integers(0, 10**6),
    skip=st.integers(0, 14),
    beta=BETAS,
)
def test_the_whole_history_is_explained_by_the_real_deal(
    table: tuple[str, int], seed: int, skip: int, beta: float | None
) -> None:
    states = _planner_round(*table, seed)
    true = _decision_of(states, 0, skip)
    if true is None:
        return
    upto = next(i for i, s in enumerate(states) if s is true)
    view = true.view(0)
    rng = random.Random(seed)
    info = InfoState(view, rng, model=FastPlannerPlayout(), depth=40, history=True, beta=beta)
    assert info.decisions[0] == ()
    assert info.pasts[0] == ()
    assert info.latent[0] == ()
    for seat in range(1, true.n):
        roles = _unshown_draws(states, upto, seat)
        assert len(roles) == len(info.latent[seat])
        # every void of the round holds and every play is the planner's: no penalty
        assert info.penalty(seat, true.hands[seat], roles=roles) == 0
        assert not true.hands[seat] & info.voids[seat]
        plays = sum(1 for s, a in view.history if s == seat and a.kind == "play")
        assert len(info.decisions[seat]) == min(plays, 40)
    _check_samples(info, true, view, rng)


def test_a_wrong_drawn_tile_breaks_an_old_void() -> None:
    """With ``history`` an old void binds exactly: a tile of the void that the seat holds
    now must be one it drew since; deal another tile as that draw and the penalty counts
    the void tile as held when the void was shown."""
    for seed in range(60):
        states = _planner_round("classic", 4, seed)
        true = _decision_of(states, 0, 10)
        if true is None:
            continue
        info = InfoState(true.view(0), random.Random(seed), history=True)
        for seat in range(1, 4):
            roles = _unshown_draws(states, states.index(true), seat)
            hand = true.hands[seat]
            assert info.penalty(seat, hand, roles=roles) == 0
            for void, _played, _known, latent in info.pasts[seat]:
                for k in range(latent, len(roles)):
                    if not void >> roles[k] & 1:
                        continue
                    taken = sum(1 << r for r in roles)
                    others = (hand | info.latent[seat][k]) & ~taken & ~void
                    if not others:
                        continue
                    moved = list(roles)
                    moved[k] = (others & -others).bit_length() - 1
                    assert info.penalty(seat, hand, roles=moved) > 0
                    return
    pytest.fail("no position with an old void broken by a later draw")


def test_reading_the_whole_history_puts_more_tiles_in_the_right_hands() -> None:
    """Plays before the last draw say more than the recent plays alone."""
    recent = whole = 0.0
    for seed in range(12):
        true = _decision_of(_planner_round("classic", 4, seed), 0, 8)
        assert true is not None
        view = true.view(0)
        model = FastPlannerPlayout()
        recent += _overlap(
            InfoState(view, random.Random(seed), model=model), true, random.Random(1), 40
        )
        deep = InfoState(
            view, random.Random(seed), model=model, depth=30, history=True, settle=1500
        )
        whole += _overlap(deep, true, random.Random(1), 40)
    assert whole / 12 > recent / 12 + 0.03


def test_tempered_chain_keeps_a_worse_deal_with_the_metropolis_probability() -> None:
    """``beta``: a change adding ``d`` to the penalty is kept with probability
    ``exp(-beta * d)`` -- the slack drawn per step is ``d`` or more that often."""
    true = _decision_of(_planner_round("classic", 4, 3), 0, 4)
    assert true is not None
    view = true.view(0)
    assert InfoState(view, random.Random(0))._slack(random.Random(0)) == 0  # hard: none
    with pytest.raises(ValueError, match="beta"):
        InfoState(view, random.Random(0), beta=0.0)
    info = InfoState(view, random.Random(0), model=FastPlannerPlayout(), beta=1.5)
    rng = random.Random(7)
    draws = [info._slack(rng) for _ in range(40_000)]
    for d in range(4):
        share = sum(1 for x in draws if x >= d) / len(draws)
        assert share == pytest.approx(math.exp(-1.5 * d), abs=0.01)


def _mean_penalty(beta: float) -> float:
    total = count = 0
    for seed in range(4):
        true = _decision_of(_planner_round("classic", 4, seed), 0, 6)
        assert true is not None
        rng = random.Random(seed)
        info = InfoState(true.view(0), rng, model=FastPlannerPlayout(), beta=beta, depth=4)
        for _ in range(15):
            sample = info.sample(rng)
            for seat in range(1, 4):
                total += info.penalty(seat, sample.hands[seat])
                count += 1
    return total / count


def test_a_colder_chain_explains_more_of_the_history() -> None:
    """The tempered chain's law is proportional to ``exp(-beta * penalty)``: a hot chain
    keeps deals the planner would not have played like that, a cold one hardly any."""
    hot, cold = _mean_penalty(0.3), _mean_penalty(4.0)
    assert hot > 0.3
    assert cold < hot / 2


def _log_score(info: InfoState, true: RoundState, rng: random.Random, samples: int) -> float:
    """Mean log of the (smoothed) share of samples putting each of the other seats'
    tiles in the right hand: a proper score, so over-confident samples lose."""
    drawn = [info.sample(rng) for _ in range(samples)]
    logs = []
    for seat in range(1, true.n):
        for tid in iter_bits(true.hands[seat]):
            hits = sum(1 for s in drawn if s.hands[seat] >> tid & 1)
            logs.append(math.log((hits + 0.5) / (samples + 2.0)))
    return sum(logs) / len(logs)


def test_a_tempered_well_mixed_chain_gives_better_calibrated_deals() -> None:
    """Requiring every recent play to be explained, with few steps between samples, makes
    samples crowd onto a few deals (worse than plain sampling by the log score); the
    tempered chain with more steps does not."""
    plain = hard = tempered = 0.0
    model = FastPlannerPlayout()
    for seed in range(8):
        true = _decision_of(_planner_round("classic", 4, seed), 0, 3)
        assert true is not None
        view = true.view(0)
        plain += _log_score(InfoState(view, random.Random(seed)), true, random.Random(1), 40)
        hard += _log_score(
            InfoState(view, random.Random(seed), model=model), true, random.Random(1), 40
        )
        soft = InfoState(view, random.Random(seed), model=model, beta=2.0, model_swaps=60)
        tempered += _log_score(soft, true, random.Random(1), 40)
    # measured: plain -1.78, hard -2.78, tempered -1.78 (mean log score per tile)
    plain, hard, tempered = plain / 8, hard / 8, tempered / 8
    assert hard < plain - 0.4
    assert tempered > hard + 0.5


@settings(max_examples=10)
@given(table=st.sampled_from(TABLES), seed=st.integers(0, 10**6), skip=st.integers(0, 12))
def test_reused_deals_share_the_hands_and_keep_what_the_seat_knows(
    table: tuple[str, int], seed: int, skip: int
) -> None:
    found = _seat0(table, seed, skip)
    if found is None:
        return
    true, view, rng = found
    info = InfoState(view, rng, model=FastPlannerPlayout(), beta=2.0, reuse=3)
    samples = [info.sample(rng) for _ in range(9)]
    for block in range(3 if info.constrained else 0):  # otherwise: fresh uniform deals
        first = samples[3 * block]
        for other in samples[3 * block + 1 : 3 * block + 3]:
            assert other.hands == first.hands  # the chain ran only before the block
            assert sorted(other.boneyard[other.bone_pos :]) == sorted(
                first.boneyard[first.bone_pos :]
            )
    for sample in samples:
        _check_sample(true, view, sample)
        for seat, void in enumerate(info.voids):
            assert not sample.hands[seat] & void
    with pytest.raises(ValueError, match="reuse"):
        InfoState(view, rng, reuse=0)


def test_reused_deals_reshuffle_the_boneyard() -> None:
    true = _decision_of(_planner_round("classic", 4, 3), 0, 2)
    assert true is not None
    rng = random.Random(3)
    info = InfoState(true.view(0), rng, model=FastPlannerPlayout(), beta=2.0, reuse=20)
    orders = {tuple(info.sample(rng).boneyard) for _ in range(20)}
    assert len(orders) > 10


@settings(max_examples=10)
@given(table=st.sampled_from(TABLES), seed=st.integers(0, 10**6), skip=st.integers(1, 12))
def test_a_hint_starts_the_chain_at_that_deal(table: tuple[str, int], seed: int, skip: int) -> None:
    """A consistent deal given as the hint is where the chain starts; a hint from an
    earlier decision still gives samples that keep every fact."""
    states = _planner_round(*table, seed)
    true = _decision_of(states, 0, skip)
    if true is None:
        return
    view = true.view(0)
    rng = random.Random(seed)
    info = InfoState(view, rng, model=FastPlannerPlayout(), beta=2.0)
    here = info.hands()
    assert here is not None  # seat 0 has plays of the others to read
    assert here[0] == 0
    assert sum(h.bit_count() for h in here) == sum(view.hand_sizes) - len(view.hand)
    again = InfoState(view, rng, model=FastPlannerPlayout(), beta=2.0)
    again._deal(again._initial(rng, here))
    assert again.hands() == here
    earlier = _decision_of(states, 0, skip - 1)
    assert earlier is not None
    old = InfoState(earlier.view(0), rng, model=FastPlannerPlayout(), beta=2.0).hands()
    warm = InfoState(view, rng, model=FastPlannerPlayout(), beta=2.0, hint=old)
    _check_samples(warm, true, view, rng)


def test_a_hint_is_followed_as_far_as_the_new_facts_allow() -> None:
    """Started from the last decision's deal, the chain keeps most of it: the tiles that
    stayed hidden mostly stay where the hint put them."""
    kept = total = 0
    for seed in range(6):
        states = _planner_round("classic", 4, seed)
        earlier = _decision_of(states, 0, 3)
        now = _decision_of(states, 0, 4)
        assert earlier is not None
        assert now is not None
        rng = random.Random(seed)
        old = InfoState(earlier.view(0), rng, model=FastPlannerPlayout(), beta=2.0).hands()
        assert old is not None
        info = InfoState(now.view(0), rng, model=FastPlannerPlayout(), beta=2.0, hint=old)
        info._deal(info._initial(rng, old))
        new = info.hands()
        assert new is not None
        for seat in range(1, 4):
            still = old[seat] & info.unseen
            kept += (new[seat] & still).bit_count()
            total += still.bit_count()
    assert kept > 0.8 * total


def test_a_warm_bot_starts_from_its_last_deal_in_the_same_round_only() -> None:
    states = _planner_round("classic", 4, 11)
    decisions = [s for s in states if s.current_seat == 0 and len(s.legal_actions()) > 1]
    bot = make_bot("ismcts:iterations=20,infer=planner,infer_beta=2,infer_reuse=5,infer_warm=true")
    assert bot._warm is None  # type: ignore[attr-defined]
    rng = random.Random(1)
    bot.act(decisions[0].view(0), rng)
    warm = bot._warm  # type: ignore[attr-defined]
    assert warm is not None
    assert warm[0] == decisions[0].round_index
    assert warm[1] == decisions[0].view(0).history
    bot.act(decisions[1].view(0), rng)
    assert bot._warm[1] == decisions[1].view(0).history  # type: ignore[attr-defined]
    cold = make_bot("ismcts:iterations=20,infer=planner,infer_beta=2")
    cold.act(decisions[0].view(0), rng)
    assert cold._warm is None  # type: ignore[attr-defined]


def test_a_warm_bot_does_not_start_from_a_deal_of_another_game(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The same bot played on in another game (a caller that keeps one bot object): its
    first round's later decision started its chain from the last game's deal, which was
    kept by round and history length alone, so a seed's game hung on what the bot had
    played before."""
    from mextrain.search import bots as search_bots

    hints: list[object] = []
    real = search_bots.InfoState

    def seen(*args: object, **kwargs: object) -> object:
        hints.append(kwargs.get("hint"))
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(search_bots, "InfoState", seen)
    one = [s for s in _planner_round("classic", 4, 11) if s.current_seat == 0]
    other = [s for s in _planner_round("classic", 4, 12) if s.current_seat == 0]
    one = [s for s in one if len(s.legal_actions()) > 1]
    other = [s for s in other if len(s.legal_actions()) > 1]
    bot = make_bot("ismcts:iterations=20,infer=planner,infer_beta=2,infer_reuse=5,infer_warm=true")
    rng = random.Random(1)
    bot.act(one[0].view(0), rng)
    later = next(s for s in other if len(s.history) > len(one[0].history))
    bot.act(later.view(0), rng)
    assert hints == [None, None]
    bot.act(one[1].view(0), rng)  # (back in the first game's round: no deal of its own since)
    bot.act(one[2].view(0), rng)
    assert hints[-1] is not None  # the same round of the same game: its last deal


def test_paired_difference() -> None:
    mean, se = paired_difference([1.0, 0.0, 1.0, 1.0], [0.0, 0.0, 1.0, 0.0])
    assert mean == pytest.approx(0.5)
    # differences 1, 0, 0, 1: sample variance 1/3, standard error sqrt(1/12)
    assert se == pytest.approx((1 / 12) ** 0.5)
    assert paired_difference([1.0], [0.0]) == (1.0, float("inf"))


@settings(max_examples=10)
@given(table=st.sampled_from(TABLES[:4]), seed=st.integers(0, 10**6), stop=st.floats(0.02, 0.3))
def test_rollout_search_returns_a_legal_action(
    table: tuple[str, int], seed: int, stop: float
) -> None:
    view = _decision(*table, seed, stop)
    config = SearchConfig(iterations=40, policy="planner")
    result = rollout_search(view, random.Random(seed), config)
    assert result.action in view.legal_actions
    assert {s.action for s in result.stats} == set(view.legal_actions)
    assert 0 < result.iterations <= max(40, len(view.legal_actions))
    assert sum(s.visits for s in result.stats) == result.iterations
    # every action ran on the first batch; the race only ever drops actions
    assert all(s.visits >= 1 for s in result.stats)
    assert all(len(result.samples[s.action]) == s.visits for s in result.stats)
    bot = make_bot(f"{ROLLOUT},iterations=30")
    assert bot.act(view, random.Random(seed)) in view.legal_actions


def _same(view: SeatView, spec: str) -> None:
    first = make_bot(spec)
    second = make_bot(spec)
    assert isinstance(first, ISMCTSBot)
    assert isinstance(second, ISMCTSBot)
    assert first.act(view, random.Random(5)) == second.act(view, random.Random(5))
    assert first.last is not None
    assert second.last is not None
    assert [(s.action, s.visits, s.reward) for s in first.last.stats] == [
        (s.action, s.visits, s.reward) for s in second.last.stats
    ]


def test_rollout_same_seed_same_move() -> None:
    _same(_decision("classic", 4, 12, 0.1), f"{ROLLOUT},iterations=80")
    without_inference = ROLLOUT.replace("infer=planner", "infer=none")
    _same(_decision("classic", 2, 3, 0.2), f"{without_inference},iterations=80")


def test_rollout_finds_going_out_now() -> None:
    state = _run_to_win()
    view = state.view(0)
    for seed in range(3):
        result = rollout_search(
            view, random.Random(seed), SearchConfig(iterations=40, policy="planner")
        )
        assert str(result.action) == "5-6@0"
        going_out = result.stats[0]
        assert going_out.win_probability == 1.0
        bot = make_bot(f"{ROLLOUT},iterations=40,prior=none")
        assert str(bot.act(view, random.Random(seed))) == "5-6@0"


def test_rollout_one_legal_move_is_returned_at_once() -> None:
    rng = random.Random(2)
    state = RoundState.new(Rules.preset("classic"), 2, 0, rng, starter=0)
    greedy = make_bot("greedy")
    while len(state.legal_actions()) != 1:
        state.apply(greedy.act(state.view(state.current_seat), rng))
    bot = make_bot(f"{ROLLOUT},iterations=100000")
    assert isinstance(bot, ISMCTSBot)
    view = state.view(state.current_seat)
    assert bot.act(view, rng) == view.legal_actions[0]
    assert bot.last is None


def test_voids_false_deals_the_bots_samples_without_voids(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``ismcts:voids=false`` (a measurement of what the voids are worth) builds its
    information set without them, and still plays a legal move; it cannot go with
    ``infer=history``, which reads every void of the round."""
    import mextrain.search.bots as bots_module

    built: list[InfoState] = []

    class Recorded(InfoState):
        def __init__(self, *args: object, **kwargs: object) -> None:
            super().__init__(*args, **kwargs)  # type: ignore[arg-type]
            built.append(self)

    monkeypatch.setattr(bots_module, "InfoState", Recorded)
    for seed in range(60):
        true = _position("classic", 3, seed, 0.02)
        view = true.view(true.current_seat)
        if any(InfoState(view, random.Random(seed)).voids) and len(view.legal_actions) > 1:
            break
    else:
        pytest.fail("no position with a void")
    for spec, kept in (("ismcts:iterations=20", True), ("ismcts:iterations=20,voids=false", False)):
        action = make_bot(spec).act(view, random.Random(1))
        assert action in view.legal_actions
        assert any(built[-1].voids) == kept, spec
    with pytest.raises(ValueError, match="voids"):
        make_bot("ismcts:voids=false,infer=history")


def test_rollout_parameters_are_checked() -> None:
    with pytest.raises(ValueError, match="algorithm"):
        make_bot("ismcts:algorithm=alphabeta")
    with pytest.raises(ValueError, match="infer"):
        make_bot("ismcts:infer=psychic")
    with pytest.raises(ValueError, match="infer_depth"):
        make_bot("ismcts:infer_depth=0")
    with pytest.raises(ValueError, match="infer_settle"):
        make_bot("ismcts:infer=history,infer_settle=0")
    with pytest.raises(ValueError, match="infer_beta"):
        make_bot("ismcts:infer=planner,infer_beta=0")
    assert make_bot("ismcts:infer=planner,infer_beta=2.5").infer_beta == 2.5  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="infer_reuse"):
        make_bot("ismcts:infer=planner,infer_reuse=0")
    with pytest.raises(ValueError, match="race_z"):
        make_bot("ismcts:race_z=-1")
    with pytest.raises(ValueError, match="race_min"):
        make_bot("ismcts:race_min=0")
