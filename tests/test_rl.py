"""The reinforcement-learning interfaces: action indices and masks, observations that hold
nothing hidden, the Gymnasium and PettingZoo environments against their own checkers, and
rewards that add up to the match's scores."""

from __future__ import annotations

import random
import warnings
from collections.abc import Callable
from typing import Any

import pytest

pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

import gymnasium
import numpy as np
from gymnasium.utils.env_checker import check_env
from hypothesis import given, settings
from hypothesis import strategies as st
from pettingzoo.test import api_test, seed_test

from mextrain.bots import register_bot
from mextrain.i18n import Translator
from mextrain.rl import (
    ENV_ID,
    ActionCodec,
    MexicanTrainEnv,
    ObservationCodec,
    PolicyBot,
    episode_rules,
)
from mextrain.rl.pettingzoo_env import MexicanTrainAECEnv, env, raw_env
from mextrain.rules import MEXICAN, PASS, IllegalActionError, Match, RoundState, Rules, Tile
from mextrain.search import InfoState
from mextrain.sim import simulate
from test_search_resample import _position

TABLES = [("classic", 2), ("classic", 4), ("relaxed", 3), ("cardinal", 4), ("cardinal", 6)]


# -- actions and observations ----------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(TABLES), st.integers(0, 10_000), st.floats(0.0, 0.2))
def test_every_legal_action_has_its_own_index_and_the_mask_is_the_legal_set(
    table: tuple[str, int], seed: int, stop: float
) -> None:
    preset, players = table
    state = _position(preset, players, seed, stop)
    codec = ActionCodec(state.rules, players)
    view = state.view(state.current_seat)
    indices = [codec.index(a, view.seat) for a in view.legal_actions]
    assert len(set(indices)) == len(indices)
    for action, index in zip(view.legal_actions, indices, strict=True):
        assert codec.action(index, view.seat) == action
    mask = codec.mask(view)
    assert mask.dtype == np.int8
    assert set(np.flatnonzero(mask)) == set(indices)
    # another seat, not to move, has an empty mask
    other = (view.seat + 1) % players
    assert not codec.mask(state.view(other)).any()
    # the environments' fast path, straight off the state, agrees for every seat
    for seat in range(players):
        assert np.array_equal(codec.mask_of_state(state, seat), codec.mask(state.view(seat)))


def test_action_indices_are_seat_relative() -> None:
    rules = Rules.preset("classic")
    codec = ActionCodec(rules, 4)
    assert codec.size == 91 * 5 + 2
    tile = codec.ts.tiles[7]
    for seat in range(4):
        own = codec.action(7 * 5 + 0, seat)
        assert (own.tile, own.train) == (tile, seat)
        assert codec.action(7 * 5 + 1, seat).train == (seat + 1) % 4
        assert codec.action(7 * 5 + 4, seat).train == MEXICAN
    assert codec.action(codec.draw_index, 2).kind == "draw"
    assert codec.action(codec.pass_index, 2).kind == "pass"
    for bad in (-1, codec.size):
        with pytest.raises(ValueError, match="out of range"):
            codec.action(bad, 0)


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(TABLES), st.integers(0, 10_000), st.floats(0.0, 0.2))
def test_an_observation_holds_only_what_the_seat_sees(
    table: tuple[str, int], seed: int, stop: float
) -> None:
    preset, players = table
    state = _position(preset, players, seed, stop)
    codec = ObservationCodec(state.rules, players)
    rng = random.Random(seed)
    for seat in range(players):
        view = state.view(seat)
        obs = codec.encode(view)
        assert obs.shape == (codec.size,)
        assert obs.dtype == np.float32
        assert obs.min() >= 0.0
        assert obs.max() <= 1.0
        assert obs[codec.block("hand")].sum() == len(view.hand)
        on_table = sum(len(t.tiles) for t in view.trains) + 1  # the engine
        assert obs[codec.block("table")].sum() == on_table
        assert obs[codec.block("to_move")].sum() == 1
        assert obs[codec.block("to_move")][(view.current_seat - seat) % players] == 1
        assert obs[codec.block("hand_size")][0] * codec.ts.size == pytest.approx(len(view.hand))
        # the other hands and the boneyard dealt again, consistently with this seat's
        # knowledge: the observation does not change
        totals = [rng.randrange(600) for _ in range(players)]
        assert np.array_equal(codec.encode_state(state, seat, totals), codec.encode(view, totals))
        other = InfoState(view, rng).sample(rng)
        assert other.hands != state.hands or other.boneyard != state.boneyard or players == 2
        assert np.array_equal(codec.encode(other.view(seat)), obs)


def test_the_observation_holds_the_turn_state_the_table_does_not_show() -> None:
    """A first-turn run after a tile on the seat's own train: passing now raises no marker,
    which the table alone does not tell. The observation says so, for every seat."""
    rules = Rules.preset("classic", first_turn_run=True)
    for seed in range(200):
        state = RoundState.new(rules, 3, 0, random.Random(seed))
        me = state.seat
        own = [a for a in state.legal_actions() if a.kind == "play" and a.train == me]
        if own:
            state.apply(own[0])
            if state.seat == me and PASS in state.legal_actions():
                break
    else:
        pytest.fail("no deal in 200 lets the starter play on its own train and stop")
    codec = ObservationCodec(rules, 3)
    for seat in range(3):
        obs = codec.encode_state(state, seat)
        assert np.array_equal(obs, codec.encode(state.view(seat)))
        assert obs[codec.block("run")][0] == 1
        assert obs[codec.block("own_played")][0] == 1
        assert obs[codec.block("turn_plays")][0] * codec.ts.size == pytest.approx(1)
        assert obs[codec.block("first_turn_done")].sum() == 0
    state.apply(PASS)
    nxt = state.seat
    obs = codec.encode_state(state, nxt)
    assert obs[codec.block("run")][0] == 1  # the next seat's run begins
    assert obs[codec.block("own_played")][0] == 0
    assert obs[codec.block("turn_plays")][0] == 0
    done = obs[codec.block("first_turn_done")]
    assert list(done) == [1 if r == (me - nxt) % 3 else 0 for r in range(3)]


def test_the_observation_holds_the_open_doubles_order_and_who_played_them() -> None:
    """Under blocking doubles several doubles can stand open: the order they are owed in,
    and who played each (the seat charged an ``unsatisfied_double_penalty``), are public and
    in the observation, read off the history as the engine keeps them."""
    rules = Rules.preset("classic", unsatisfied_double_penalty=50)
    codec = ObservationCodec(rules, 4)
    n = 4
    seen = 0
    for seed in range(60):
        rng = random.Random(seed)
        state = RoundState.new(rules, n, 0, rng)
        while state.ended is None:
            if len(state.open_doubles) >= 2:
                seen += 1
            for seat in range(n):
                view = state.view(seat)
                assert view.open_doubles_by() == state.double_by
                obs = codec.encode_state(state, seat)
                assert np.array_equal(obs, codec.encode(view))
                rank = obs[codec.block("double_rank")]
                by = obs[codec.block("double_by")].reshape(n + 1, n)
                assert np.count_nonzero(rank) == len(state.open_doubles)
                assert by.sum() == len(state.open_doubles)
                for k, (train, who) in enumerate(
                    zip(state.open_doubles, state.double_by, strict=True)
                ):
                    r = n if train == MEXICAN else (train - seat) % n
                    assert rank[r] == pytest.approx((k + 1) / (n + 1))
                    assert by[r, (who - seat) % n] == 1
            state.apply(rng.choice(state.legal_actions()))
    assert seen > 20  # positions with two or more open doubles were met


@pytest.mark.parametrize(
    ("options", "ambiguous"),
    [
        ({"no_going_out_on_double": True}, True),
        ({"no_going_out_on_double": True, "draw_until_playable": True}, True),
        ({}, False),
    ],
)
def test_the_observation_says_which_tile_was_just_drawn(
    options: dict[str, object], ambiguous: bool
) -> None:
    """Right after a draw only the drawn tile may be played, and the hand alone does not
    say which it is: under no_going_out_on_double a seat holding only a double it may not
    go out on draws, and the double still fits. The observation says which (to the seat
    alone), so equal observations have equal legal moves."""
    rules = Rules.preset("classic", max_pip=6, hand_size={3: 4}, **options)
    observations = ObservationCodec(rules, 3)
    drawn_seen = 0
    other_tiles_fit = 0  # positions where another tile in hand fits too
    for seed in range(300):
        rng = random.Random(seed)
        state = RoundState.new(rules, 3, 0, rng)
        while state.ended is None:
            seat = state.current_seat
            obs = observations.encode_state(state, seat)
            assert np.array_equal(obs, observations.encode(state.view(seat)))
            drawn = obs[observations.block("drawn")]
            plays = [a for a in state.legal_actions() if a.kind == "play"]
            if state.drawn >= 0 and plays:  # (a double played since lifts it)
                drawn_seen += 1
                assert drawn.sum() == 1
                (tile,) = {a.tile for a in plays}
                assert observations.ts.tiles[int(np.flatnonzero(drawn)[0])] == tile
                # another tile in hand fits the seat's own train, free of open doubles:
                # it would be a play, but for the draw
                own_end = state.ends[seat]
                held = [t for t in state.view(seat).hand if t != tile]
                if not state.open_doubles and any(own_end in t for t in held):
                    other_tiles_fit += 1
            else:
                assert drawn.sum() == 0
            for other in range(3):  # the others do not see it
                if other != seat:
                    hidden = observations.encode_state(state, other)
                    assert not hidden[observations.block("drawn")].any()
            state.apply(rng.choice(state.legal_actions()))
    assert drawn_seen > 50
    assert (other_tiles_fit > 0) == ambiguous


def test_observation_blocks_cover_the_vector() -> None:
    codec = ObservationCodec(Rules.preset("cardinal"), 5)
    assert sum(length for _, length in codec.blocks) == codec.size
    assert codec.block("open_end") == slice(182, 182 + 6 * 13)
    # the sizes RL.md gives
    classic = Rules.preset("classic")
    assert (ObservationCodec(classic, 4).size, ObservationCodec(classic, 2).size) == (428, 366)
    assert ActionCodec(classic, 4).size == 91 * 5 + 2


def test_the_totals_block_is_each_seats_total_over_500_clipped_at_1() -> None:
    state = _position("classic", 3, 1, 0.1)
    codec = ObservationCodec(state.rules, 3)
    obs = codec.encode_state(state, 1, [750, 250, 0])
    assert list(obs[codec.block("totals")]) == [0.5, 0.0, 1.0]  # seats 1, 2, 0


# -- Gymnasium ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs",
    [
        {"players": 2},
        {"rules": "cardinal", "players": 4, "opponents": ["greedy", "planner", "random"]},
        {"rules": "relaxed", "players": 3, "seat": 2, "reward": "win", "rounds": 2},
    ],
)
def test_the_gymnasium_checker_passes(kwargs: dict[str, Any]) -> None:
    check_env(gymnasium.make(ENV_ID, **kwargs).unwrapped)


def play_episode(env_: MexicanTrainEnv, seed: int) -> tuple[float, list[int]]:
    """Random legal moves to the end: the return, and the actions taken."""
    rng = np.random.default_rng(seed)
    obs, info = env_.reset(seed=seed)
    assert np.array_equal(obs["action_mask"], info["action_mask"])
    assert np.array_equal(env_.action_masks(), obs["action_mask"].astype(bool))
    total, taken, done = 0.0, [], False
    while not done:
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        taken.append(action)
        obs, reward, done, truncated, info = env_.step(action)
        assert not truncated
        assert "illegal" not in info
        assert np.array_equal(info["action_mask"], obs["action_mask"])
        assert info["round"] == env_.game.match.round_index
        assert info["totals"] == list(env_.game.match.totals)
        total += float(reward)
    return total, taken


def test_points_rewards_add_up_to_minus_the_agents_total() -> None:
    env_ = MexicanTrainEnv(players=3, opponents=["greedy", "random"], seat=1, rounds=3)
    for seed in range(3):
        total, _ = play_episode(env_, seed)
        match = env_.game.match
        assert match.is_complete
        assert len(match.rounds) == 3
        assert total == -match.totals[1]


def test_skip_forced_makes_every_step_a_choice() -> None:
    kwargs: dict[str, Any] = {"players": 4, "opponents": ["greedy"], "rounds": 2}
    kwargs["skip_forced"] = True
    check_env(gymnasium.make(ENV_ID, **kwargs).unwrapped)
    env_ = MexicanTrainEnv(**kwargs)
    for seed in range(3):
        rng = np.random.default_rng(seed)
        obs, _ = env_.reset(seed=seed)
        total, steps, done = 0.0, 0, False
        while not done:
            assert obs["action_mask"].sum() >= 2  # never a forced move
            obs, reward, done, _, _ = env_.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            total += float(reward)
            steps += 1
        assert steps > 0
        assert total == -env_.game.match.totals[0]
    # a NumPy yes (a value from an array of settings) is the yes it is
    assert MexicanTrainEnv(**{**kwargs, "skip_forced": np.bool_(True)}).skip_forced is True
    assert MexicanTrainEnv(**{**kwargs, "skip_forced": np.bool_(False)}).skip_forced is False


def test_a_win_reward_is_paid_once_at_the_end() -> None:
    env_ = MexicanTrainEnv(players=2, opponents=["planner"], reward="win", rounds=2)
    for seed in range(4):
        total, _ = play_episode(env_, seed)
        winners = env_.game.match.winners
        assert total == (1.0 / len(winners) if 0 in winners else 0.0)


def test_the_same_seed_gives_the_same_episode() -> None:
    env_ = MexicanTrainEnv(players=4, opponents=["planner"], rounds=2)
    first = play_episode(env_, 11)
    record = [list(r.history) for r in env_.game.match.rounds]
    again = play_episode(env_, 11)
    assert again == first
    assert [list(r.history) for r in env_.game.match.rounds] == record


class Habitual:
    """A bot that remembers: it plays the legal action its count of decisions so far
    points at, so what it does depends on every game it has played (as a search bot that
    starts each decision from the last one's deal does)."""

    name = "test-habitual"

    def __init__(self) -> None:
        self.decisions = 0

    def act(self, view: Any, rng: random.Random) -> Any:
        self.decisions += 1
        return view.legal_actions[self.decisions % len(view.legal_actions)]


def test_a_seed_gives_the_same_episode_whatever_the_bots_played_before() -> None:
    """The opponents start each episode afresh, as in a tournament's games: a bot that
    keeps something from one game to the next does not make a seed's episode depend on
    the episodes played before it."""
    register_bot("test-habitual", Habitual, replace=True)
    kwargs: dict[str, Any] = {"players": 3, "opponents": "test-habitual", "rounds": 2}
    fresh = MexicanTrainEnv(**kwargs)
    first = play_episode(fresh, 5)
    record = [list(r.history) for r in fresh.game.match.rounds]
    used = MexicanTrainEnv(**kwargs)
    for seed in (1, 2):
        play_episode(used, seed)
    assert play_episode(used, 5) == first
    assert [list(r.history) for r in used.game.match.rounds] == record


def test_a_whole_match_episode() -> None:
    env_ = MexicanTrainEnv(
        Rules.preset("classic", max_pip=6, hand_size={2: 7}), rounds=None, opponents=["random"]
    )
    total, _ = play_episode(env_, 5)
    assert len(env_.game.match.rounds) == 7
    assert total == -env_.game.match.totals[0]


def test_an_illegal_action_changes_nothing() -> None:
    env_ = MexicanTrainEnv(players=2, opponents=["greedy"], render_mode="ansi")
    obs, _ = env_.reset(seed=3)
    before = env_.render()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    again, reward, done, truncated, info = env_.step(illegal)
    assert reward == -1.0
    assert not done
    assert not truncated
    assert info["illegal"]  # the engine's reason, in words
    assert info["illegal_code"] == "not_held"  # and its stable code (action 0: tile 0-0)
    assert np.array_equal(again["observation"], obs["observation"])
    assert env_.render() == before
    strict = MexicanTrainEnv(players=2, opponents=["greedy"], illegal="raise")
    strict.reset(seed=3)
    with pytest.raises(IllegalActionError):
        strict.step(illegal)
    with pytest.raises(ValueError, match="out of range"):
        strict.step(strict.action_space.n)


def test_a_deal_the_agent_never_plays_is_redealt_and_counted() -> None:
    # cardinal, 10 seats: an opponent can go out on its first-turn run before the agent's
    # first turn (about one deal in 130 with greedy opponents); reset deals again, and says so
    env_ = MexicanTrainEnv(rules="cardinal", players=10, opponents="greedy")
    counts = [env_.reset(seed=seed)[1]["redealt"] for seed in range(240)]
    assert counts[73] == 1
    assert counts[239] == 1
    assert sum(counts) == 2
    obs, _ = env_.reset(seed=73)
    assert obs["action_mask"].any()  # the agent has a choice in the deal it got


def test_a_round_over_before_the_agents_first_choice_pays_with_the_first_step() -> None:
    # the deal of seed 73 above, in a two-round episode: an opponent goes out on its
    # first-turn run, the episode goes on to round 2 (no redeal), and the agent's points
    # of round 1 come with its first step's reward
    env_ = MexicanTrainEnv(rules="cardinal", players=10, opponents="greedy", rounds=2)
    obs, info = env_.reset(seed=73)
    match = env_.game.match
    assert info["redealt"] == 0
    assert info["round"] == 1
    (first,) = match.round_scores()
    assert first[0] > 0
    assert info["totals"] == first
    _, reward, done, _, info = env_.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert not done
    assert info["round"] == 1  # round 2 goes on: the reward is round 1's alone
    assert reward == -first[0]


@pytest.mark.parametrize("action", [3.9, 3.0, True, np.bool_(False), "3", None])
def test_an_action_that_is_no_whole_number_is_refused(action: Any) -> None:
    gym_env = MexicanTrainEnv(players=2)
    gym_env.reset(seed=1)
    with pytest.raises(ValueError, match="whole number"):
        gym_env.step(action)
    aec = raw_env(players=2)
    aec.reset(seed=1)
    with pytest.raises(ValueError, match=r"whole number|None"):
        aec.step(action)


def test_numpy_integers_and_0d_arrays_are_actions() -> None:
    for action in (np.int64, np.int32, np.uint8, np.array):
        gym_env = MexicanTrainEnv(players=2, opponents="greedy")
        obs, _ = gym_env.reset(seed=4)
        legal = int(np.flatnonzero(obs["action_mask"])[0])
        _, reward, *_rest, info = gym_env.step(action(legal))
        assert "illegal" not in info
        assert reward != -1.0


def test_bad_settings_are_refused_clearly() -> None:
    for kwargs, words in [
        ({"rounds": 0}, "at least 1"),
        ({"rounds": 14}, "13 rounds"),
        ({"reward": "money"}, "reward must be one of"),
        ({"players": 3, "opponents": ["greedy", "greedy", "greedy"]}, "opponent bot"),
        ({"seat": 2}, "seat must be"),
        ({"players": 0}, "2 to 8 players"),
        ({"skip_forced": "no"}, "skip_forced must be True or False"),
        ({"illegal": "ignore"}, "illegal must be"),
        ({"render_mode": "human"}, "render_mode"),
        ({"rules": "cardinal", "players": 2}, "4 to 10"),
        ({"opponents": ["nobody"]}, "nobody"),
    ]:
        with pytest.raises(ValueError, match=words):
            MexicanTrainEnv(**kwargs)
    with pytest.raises(RuntimeError, match="reset"):
        MexicanTrainEnv().step(0)
    assert episode_rules("relaxed", 4).rounds == (12, 11, 10, 9)
    with pytest.raises(ValueError, match="players must be a whole number"):
        MexicanTrainEnv(players=4.0)  # type: ignore[arg-type]
    # settings read from arrays are NumPy integers: taken as the numbers they are
    made = MexicanTrainEnv(players=np.int64(3), seat=np.int64(1), rounds=np.int64(2))
    assert (made.seat, made.game.players, made.game.rules.round_count) == (1, 3, 2)
    assert type(made.seat) is int
    assert raw_env(players=np.int64(2), rounds=np.int64(1)).game.rules.round_count == 1


@pytest.mark.parametrize("opponents", [None, 5, [None], ["random", 1], b"random", {"random": 1}])
def test_opponents_that_are_no_bot_specs_are_refused_by_name(opponents: Any) -> None:
    # (not "'NoneType' object is not iterable" nor "'int' object has no attribute 'strip'")
    with pytest.raises(ValueError, match="opponents must be a bot spec such as 'planner'"):
        MexicanTrainEnv(players=3, opponents=opponents)


def test_opponents_may_be_any_iterable_of_specs() -> None:
    made = MexicanTrainEnv(players=3, opponents=(spec for spec in ["random", "greedy"]))
    assert made.opponent_specs == ["random", "greedy"]
    assert MexicanTrainEnv(players=3, opponents="greedy").opponent_specs == ["greedy"] * 2


@pytest.mark.parametrize("value", ["a", "-1", None, True, float("nan"), float("inf"), [1.0]])
def test_an_illegal_reward_that_is_no_finite_number_is_refused_by_name(value: Any) -> None:
    # (not Python's "could not convert string to float: 'a'", nor a nan that would make
    # every return it is added to nan)
    with pytest.raises(ValueError, match="illegal_reward must be a finite number"):
        MexicanTrainEnv(illegal_reward=value)
    with pytest.raises(ValueError, match="illegal_reward must be a finite number"):
        raw_env(illegal_reward=value)


def test_an_illegal_reward_of_any_number_kind_is_taken() -> None:
    for value in (-2, -0.5, np.float32(-0.25), np.int64(-3), np.array(-1.5)):
        made = MexicanTrainEnv(illegal_reward=value)
        assert made.illegal_reward == float(value)
        assert type(made.illegal_reward) is float
        assert raw_env(illegal_reward=value).illegal_reward == float(value)


def test_reset_gives_up_clearly_on_rules_that_never_give_the_agent_a_choice() -> None:
    # double-1, one tile a hand, cardinal: the agent's turns all have one legal action, and
    # skip_forced plays them for it, so every deal ends before it chooses
    rules = {"preset": "cardinal", "max_pip": 1, "hand_size": {"3": 1}}
    stuck = MexicanTrainEnv(rules=rules, players=3, opponents="random", skip_forced=True)
    with pytest.raises(ValueError, match="no choice to make in 1,000 deals"):
        stuck.reset(seed=0)
    # without skip_forced the same table plays
    obs, _ = MexicanTrainEnv(rules=rules, players=3, opponents="random").reset(seed=0)
    assert obs["action_mask"].any()


def test_a_tiny_classic_table_with_skip_forced_still_gives_the_agent_a_choice() -> None:
    # RL.md's counter-example: a double-1 set alone does not leave the agent without a
    # choice; holding 0-1 it may lay it on its own train or on another
    rules = {"preset": "classic", "max_pip": 1, "hand_size": {"2": 1}}
    env_ = MexicanTrainEnv(rules=rules, players=2, skip_forced=True)
    for seed in range(20):
        obs, _ = env_.reset(seed=seed)
        assert obs["action_mask"].sum() >= 2
        assert env_.game.match.current.legal_actions()[0].tile == Tile(0, 1)


# -- PettingZoo -----------------------------------------------------------------------------------

# PettingZoo's checker advises Box observations; a dict with the action mask is its own
# convention for turn-based games (its classic environments do the same).
ADVICE = (
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be",
)


def quiet_advice() -> warnings.catch_warnings[None]:
    caught = warnings.catch_warnings()
    caught.__enter__()
    for advice in ADVICE:
        warnings.filterwarnings("ignore", message=advice, category=UserWarning)
    return caught


@pytest.mark.parametrize("kwargs", [{"players": 2}, {"rules": "cardinal", "players": 5}])
def test_the_pettingzoo_checkers_pass(kwargs: dict[str, Any]) -> None:
    caught = quiet_advice()
    try:
        api_test(env(**kwargs), num_cycles=300)
        seed_test(lambda: env(**kwargs), num_cycles=300)
    finally:
        caught.__exit__(None, None, None)


def play_at_random(
    aec: MexicanTrainAECEnv, seed: int, each_move: Callable[..., None] | None = None
) -> dict[str, float]:
    """One episode of random legal moves from ``reset(seed)``: each agent's rewards summed.
    ``each_move(agent, obs, reward, info)`` looks at every step that is a move first."""
    aec.reset(seed=seed)
    rng = np.random.default_rng(seed)
    returns = dict.fromkeys(aec.possible_agents, 0.0)
    for agent in aec.agent_iter():
        obs, reward, termination, truncation, info = aec.last()
        returns[agent] += float(reward)
        if termination or truncation:
            aec.step(None)
            continue
        if each_move is not None:
            each_move(agent, obs, reward, info)
        aec.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return returns


def test_every_agents_rewards_add_up_to_minus_its_total() -> None:
    aec = raw_env(players=4, rounds=2)

    def check(agent: str, obs: Any, reward: float, info: dict[str, Any]) -> None:
        # only the agent to move has legal actions
        for other in aec.agents:
            assert aec.observe(other)["action_mask"].any() == (other == agent)
        assert np.array_equal(info["action_mask"], obs["action_mask"])
        assert info["round"] == aec.game.match.round_index
        assert info["totals"] == list(aec.game.match.totals)

    for seed in range(3):
        returns = play_at_random(aec, seed, check)
        totals = aec.game.match.totals
        assert returns == {f"player_{s}": -float(totals[s]) for s in range(4)}


def test_a_win_reward_in_pettingzoo_goes_to_the_winners_shared() -> None:
    # a double-3 set, two tiles a hand: totals often tie
    tiny = {"preset": "classic", "max_pip": 3, "hand_size": {"3": 2}}
    aec = raw_env(rules=tiny, players=3, rounds=2, reward="win")
    shared = 0

    def check(agent: str, obs: Any, reward: float, info: dict[str, Any]) -> None:
        if not aec.game.over:
            assert reward == 0  # nothing before the episode's end

    for seed in range(12):
        returns = play_at_random(aec, seed, check)
        winners = aec.game.match.winners
        shared += len(winners) > 1
        assert returns == {
            f"player_{s}": (1.0 / len(winners) if s in winners else 0.0) for s in range(3)
        }
    assert shared > 0  # a tie was met, and shared


def test_an_illegal_action_in_pettingzoo_changes_nothing_and_the_agent_moves_again() -> None:
    aec = MexicanTrainAECEnv(players=3)
    aec.reset(seed=2)
    agent = aec.agent_selection
    obs = aec.observe(agent)
    aec.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    assert aec.agent_selection == agent
    assert aec.rewards[agent] == -1.0
    assert aec.infos[agent]["illegal"]
    code = aec.infos[agent]["illegal_code"]  # a stable code, with words in every language
    assert Translator("fi").has(f"game.error.{code}"), code
    assert np.array_equal(aec.observe(agent)["observation"], obs["observation"])
    with pytest.raises(ValueError, match="None"):
        aec.step(None)


def test_max_steps_truncates_a_pettingzoo_episode_for_every_agent() -> None:
    """Agents that ignore the mask are refused for ever without a limit: ``max_steps``
    truncates the episode for all of them, refused steps counted."""
    game = env(players=3, max_steps=7)
    game.reset(seed=1)
    steps = 0
    returns: dict[str, float] = {}
    for i, agent in enumerate(game.agent_iter()):
        assert i < 100, "the episode never ended"
        obs, reward, termination, truncation, _ = game.last()
        returns[agent] = returns.get(agent, 0.0) + float(reward)
        if termination or truncation:
            assert truncation
            assert not termination
            game.step(None)
            continue
        steps += 1
        game.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))  # always refused
    assert steps == 7
    assert sum(returns.values()) == -7.0  # each refusal's penalty, and nothing else
    assert not game.agents  # every agent was let go
    # a limit the game stays under changes nothing; a limit that is not one is refused
    full = raw_env(players=2, max_steps=10_000)
    full.reset(seed=3)
    rng = np.random.default_rng(3)
    for _agent in full.agent_iter():
        obs, _, termination, truncation, _ = full.last()
        assert not truncation
        full.step(None if termination else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    for bad in (0, -1, 2.5, True, "10", np.int64(0)):
        with pytest.raises(ValueError, match="max_steps"):
            raw_env(players=2, max_steps=bad)
    # a limit read from an array is a NumPy integer: taken as the number it is
    limited = raw_env(players=2, max_steps=np.int64(7))
    assert limited.max_steps == 7
    assert type(limited.max_steps) is int


def test_a_refused_action_under_raise_keeps_the_reward_waiting_for_the_agent() -> None:
    aec = raw_env(players=2, rounds=2, illegal="raise")
    aec.reset(seed=0)
    rng = np.random.default_rng(0)
    while len(aec.game.match.rounds) < 2:  # the first round's scores are waiting
        obs = aec.observe(aec.agent_selection)
        aec.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    obs, waiting, *_ = aec.last()
    assert waiting < 0
    rewards = dict(aec.rewards)
    with pytest.raises(IllegalActionError):
        aec.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    assert aec.last()[1] == waiting
    assert aec.rewards == rewards


def test_render_shows_the_agents_hand_and_pettingzoos_shows_none() -> None:
    gym_env = MexicanTrainEnv(players=3, seat=1, opponents="greedy", render_mode="ansi")
    gym_env.reset(seed=4)
    hand = " ".join(str(t) for t in gym_env.game.match.current.view(1).hand)
    text = str(gym_env.render())
    assert f"seat 1's hand: {hand}\n" in text
    assert text.count("hand:") == 1  # its own, no other
    aec = raw_env(players=3, render_mode="ansi")
    aec.reset(seed=4)
    table = aec.render()
    assert isinstance(table, str)
    assert "hand:" not in table
    assert "hand sizes: 16 16 16" in table
    assert MexicanTrainEnv(players=3).render() is None  # no render mode: nothing
    assert raw_env(players=3).render() is None


def test_the_mask_of_an_environment_from_gymnasium_make() -> None:
    made = gymnasium.make(ENV_ID, players=3, opponents="greedy")
    obs, _ = made.reset(seed=2)
    expected = obs["action_mask"].astype(bool)
    assert np.array_equal(made.unwrapped.action_masks(), expected)  # type: ignore[attr-defined]
    assert np.array_equal(made.get_wrapper_attr("action_masks")(), expected)


def test_render_at_the_end_names_no_seat_to_move() -> None:
    gym_env = MexicanTrainEnv(players=2, opponents="greedy", render_mode="ansi")
    obs, _ = gym_env.reset(seed=2)
    assert "to move" in str(gym_env.render())
    done = False
    while not done:
        obs, _, done, _, _ = gym_env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    first = str(gym_env.render()).splitlines()[0]
    assert first.endswith("round over")
    assert "to move" not in first


# -- a policy as a bot ------------------------------------------------------------------------


def test_a_policy_plays_as_a_bot_in_tournaments_and_as_an_opponent() -> None:
    seen: list[int] = []

    def first_legal(obs: dict[str, Any]) -> int:
        seen.append(int(obs["observation"].shape[0]))
        return int(np.flatnonzero(obs["action_mask"])[0])

    register_bot("test-first-legal", lambda: PolicyBot(first_legal, "test-first-legal"))
    report = simulate("classic", 2, ["test-first-legal", "greedy"], games=4, seed=1, rounds=1)
    assert sum(e.wins for e in report.entries) == pytest.approx(4)
    assert set(seen) == {ObservationCodec(Rules.preset("classic"), 2).size}
    before = len(seen)
    play_episode(MexicanTrainEnv(players=3, opponents=["test-first-legal"]), 2)
    assert len(seen) > before
    # a policy that ignores the mask gets a clear error, naming it and the legal actions
    sloppy = PolicyBot(lambda obs: int(np.flatnonzero(obs["action_mask"] == 0)[0]), "sloppy")
    state = _position("classic", 3, 7, 0.1)
    with pytest.raises(ValueError, match=r"sloppy chose action .* the legal actions are"):
        sloppy.act(state.view(state.current_seat), random.Random(1))
    for index in (-1, 10**6):
        wild = PolicyBot(lambda obs, index=index: index, "wild")
        with pytest.raises(ValueError, match=rf"wild chose action {index}, which is no action "):
            wild.act(state.view(state.current_seat), random.Random(1))
    # what is not a whole number is refused as the environments' step refuses it: 273.9 is
    # no action 273, nor is the text "273" or True an action index
    legal = ActionCodec(state.rules, 3).index(state.legal_actions()[0], state.current_seat)
    for odd in (legal + 0.9, str(legal), float(legal), True):
        odd_bot = PolicyBot(lambda obs, odd=odd: odd, "odd")
        with pytest.raises(ValueError, match=r"odd chose .*: an action is a whole number"):
            odd_bot.act(state.view(state.current_seat), random.Random(1))
    # NumPy integers and 0-d integer arrays, as learners hand them over, are indices
    for fine in (np.int64(legal), np.array(legal)):
        fine_bot = PolicyBot(lambda obs, fine=fine: fine, "fine")
        assert (
            fine_bot.act(state.view(state.current_seat), random.Random(1))
            == (state.legal_actions()[0])
        )


def test_a_bot_at_a_match_is_shown_the_totals_before_the_round() -> None:
    rules = Rules.preset("classic", max_pip=6, rounds=[6, 5, 4], hand_size={3: 6})
    rng = random.Random(4)
    match = Match.new(rules, 3, rng)
    codec = ObservationCodec(rules, 3)
    for _ in range(3):
        state = match.current
        while not state.is_over:
            seat = state.current_seat
            view = match.view(seat)
            before = match.totals
            assert view.totals_before == tuple(before)  # the round in play is not scored yet
            assert view._replace(totals_before=None) == state.view(seat)
            assert np.array_equal(codec.encode(view), codec.encode_state(state, seat, before))
            state.apply(rng.choice(state.legal_actions()))
        if len(match.rounds) < 3:
            match.next_round(rng)
    assert match.view(0).totals_before == tuple(
        t - s for t, s in zip(match.totals, match.round_scores()[-1], strict=True)
    )
    assert state.view(0).totals_before is None
    assert match.copy().view(0) == match.view(0)


def test_a_policy_in_a_tournament_sees_the_totals_its_environment_would_give() -> None:
    totals: list[float] = []

    def spy(obs: dict[str, Any]) -> int:
        totals.append(float(obs["observation"][block].sum()))
        return int(np.flatnonzero(obs["action_mask"])[0])

    block = ObservationCodec(Rules.preset("classic"), 2).block("totals")
    register_bot("test-totals-spy", lambda: PolicyBot(spy, "test-totals-spy"))
    simulate("classic", 2, ["test-totals-spy", "greedy"], games=2, seed=3, rounds=2)
    assert totals[0] == 0  # the first round: nothing scored yet
    assert max(totals) > 0  # later rounds: the score sheet so far


@pytest.mark.parametrize("players", [2, 7])
def test_one_opponent_spec_given_as_text_is_one_for_all(players: int) -> None:
    env_ = MexicanTrainEnv(players=players, opponents="random")
    assert env_.opponent_specs == ["random"] * (players - 1)
    with pytest.raises(ValueError, match="give one opponent bot for all seats or 2, not 3"):
        MexicanTrainEnv(players=3, opponents=["random"] * 3)


def _first_legal(masks: Any) -> Any:
    """The first legal index of each environment's mask (0 where none is legal: the
    observation that ends an episode, whose next action the vector ignores)."""
    return np.array([int(m.argmax()) for m in masks])


def _vector_steps(mode: str, seed: int, steps: int) -> list[tuple[Any, ...]]:
    kwargs: dict[str, Any] = {"vector_kwargs": {"context": "spawn"}} if mode == "async" else {}
    envs = gymnasium.make_vec(
        "mextrain/MexicanTrain-v0",
        num_envs=2,
        vectorization_mode=mode,
        players=2,
        opponents=["planner"],
        **kwargs,
    )
    try:
        obs, _ = envs.reset(seed=seed)
        out: list[tuple[Any, ...]] = [(obs["observation"].copy(), obs["action_mask"].copy())]
        for _ in range(steps):
            obs, reward, terminated, truncated, _ = envs.step(_first_legal(obs["action_mask"]))
            out.append(
                (
                    obs["observation"].copy(),
                    obs["action_mask"].copy(),
                    reward.copy(),
                    terminated.copy(),
                    truncated.copy(),
                )
            )
        return out
    finally:
        envs.close()


def test_a_vector_of_environments_plays_each_as_the_single_environment_would() -> None:
    """gymnasium.make_vec runs several tables at once: environment i of a vector reset
    with seed s plays exactly the episode of a lone environment reset with seed s + i, the
    observation that ends an episode has no legal action, and the next step starts a new
    episode (Gymnasium's next-step autoreset) with legal actions again."""
    seed, steps = 40, 70
    vector = _vector_steps("sync", seed, steps)
    ended = [False, False]
    for i in range(2):
        lone = gymnasium.make("mextrain/MexicanTrain-v0", players=2, opponents=["planner"])
        obs, _ = lone.reset(seed=seed + i)
        assert np.array_equal(vector[0][0][i], obs["observation"])
        for t in range(1, steps + 1):
            obs, reward, terminated, truncated, _ = lone.step(int(obs["action_mask"].argmax()))
            v_obs, v_mask, v_reward, v_term, v_trunc = vector[t]
            assert np.array_equal(v_obs[i], obs["observation"])
            assert np.array_equal(v_mask[i], obs["action_mask"])
            assert (v_reward[i], v_term[i], v_trunc[i]) == (reward, terminated, truncated)
            if terminated:
                ended[i] = True
                assert not v_mask[i].any()
                assert vector[t + 1][1][i].any()
                assert not vector[t + 1][3][i]
                break
    assert all(ended), "both episodes should end within the steps played"


def test_an_async_vector_of_environments_plays_as_the_sync_one() -> None:
    """Each environment of an asynchronous vector (one process each) plays what the
    synchronous vector plays, episodes ending and restarting included."""
    assert all(
        all(np.array_equal(a, b) for a, b in zip(x, y, strict=True))
        for x, y in zip(_vector_steps("async", 7, 90), _vector_steps("sync", 7, 90), strict=True)
    )


def test_pettingzoo_will_not_make_a_parallel_env_of_a_turn_based_table() -> None:
    """A turn can be several actions of one seat while the others wait: the AEC
    environment says it is not parallelizable, and PettingZoo's conversion refuses it
    (as docs/RL.md says) instead of asking every seat for a move at each step."""
    from pettingzoo.utils.conversions import aec_to_parallel

    table = env(players=3)
    assert table.metadata["is_parallelizable"] is False
    with pytest.raises(AssertionError, match="is_parallelizable"):
        aec_to_parallel(table)
