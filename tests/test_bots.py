"""Bots: the registry, the view boundary, and legality of every bot's choices."""

from __future__ import annotations

import dataclasses
import random
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mextrain.bots import Bot, BotSpecError, bot_names, make_bot, register_bot
from mextrain.bots.base import parse_bot_spec
from mextrain.bots.simple import GreedyBot
from mextrain.rules import (
    DRAW,
    MEXICAN,
    PASS,
    Action,
    RoundState,
    Rules,
    SeatView,
    Tile,
    parse_tile,
)

BUILTIN = ("random", "greedy", "planner")
PRESET_PLAYERS = {"classic": (2, 8), "relaxed": (2, 8), "cardinal": (4, 10)}


def random_position(preset: str, players: int, seed: int, depth: int) -> RoundState:
    """A round played ``depth`` actions in by random choices (or to its end)."""
    rng = random.Random(seed)
    rules = Rules.preset(preset)
    state = RoundState.new(rules, players, rng.randrange(rules.round_count), rng)
    for _ in range(depth):
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_actions()))
    return state


# -- registry ----------------------------------------------------------------------------


def test_builtin_bots_are_registered() -> None:
    names = bot_names()
    for name in BUILTIN:
        assert name in names
        bot = make_bot(name)
        assert isinstance(bot, Bot)
        assert bot.name == name


def test_bot_parameters_are_parsed_and_passed() -> None:
    assert parse_bot_spec("greedy:random_ties=true") == ("greedy", {"random_ties": True})
    assert parse_bot_spec("x:a=1,b=0.5,c=word") == ("x", {"a": 1, "b": 0.5, "c": "word"})
    bot = make_bot("greedy:random_ties=true")
    assert isinstance(bot, GreedyBot)
    assert bot.random_ties is True


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("nosuchbot", "unknown bot 'nosuchbot'"),
        # an unknown parameter names the ones the bot takes, not Python's __init__
        (
            "greedy:depth=3",
            r"bot 'greedy' has no parameter 'depth' \(its parameters: random_ties\)",
        ),
        ("random:x=1", r"bot 'random' has no parameter 'x' \(it takes none\)"),
        ("ismcts:time_ms=abc", "bad parameters for bot 'ismcts': time_ms must be a number"),
        ("greedy:oops", "is not key=value"),
        ("greedy:", r"bot parameter '' in 'greedy:' is not key=value"),  # a colon, nothing after
        # a value of the wrong kind is refused, not taken (true would be 1 iteration)
        ("ismcts:iterations=true", "iterations must be a number, not true"),
        ("ismcts:iterations=10.5", "iterations must be a whole number, not 10.5"),
        # nan and inf are floats, but no number a bot can weigh or wait with
        ("planner:extra_cost=nan", "extra_cost must be a finite number, not nan"),
        ("planner:extra_cost=inf", "extra_cost must be a finite number, not inf"),
        ("planner:extra_cost=-inf", "extra_cost must be a finite number, not -inf"),
        ("ismcts:exploration=NaN", "exploration must be a finite number, not nan"),
        # digits that a float cannot hold are read as inf: quoted as written, and why
        (
            "ismcts:time_ms=1e400",
            "time_ms must be a finite number, and 1e400 is too large to be one",
        ),
        (
            "planner:extra_cost=-1e400",
            "extra_cost must be a finite number, and -1e400 is too large to be one",
        ),
        ("ismcts:iterations=1e400", "iterations must be a whole number, not 1e400"),
        ("ismcts:iterations=1e5", "iterations must be a whole number, not 1e5"),
        # a parameter that takes text gets the text as written, not the number it reads as
        ("ismcts:policy=1e400", r"unknown bot '1e400'"),
        ("ismcts:fallback=12", r"unknown bot '12'"),
        ("ismcts:infer_warm=3", "infer_warm must be true or false, not 3"),
        ("greedy:random_ties=1", "random_ties must be true or false"),
        ("ismcts:iterations=5,iterations=6", "'iterations' is given twice"),
        # a mistyped fallback is found before any game, not at the first failed deal
        ("ismcts:fallback=nope", "unknown bot 'nope'"),
        # a playout that searched at every move would never end
        ("ismcts:policy=ismcts", "policy=ismcts is a search bot"),
        ("ismcts:policy=expert", "policy=expert is a search bot"),
    ],
)
def test_bad_bot_specs_are_named(spec: str, message: str) -> None:
    with pytest.raises(BotSpecError, match=message):
        make_bot(spec)


def test_registering_a_bot_makes_it_available() -> None:
    class FirstBot:
        name = "first-legal"

        def act(self, view: SeatView, rng: random.Random) -> Action:
            return view.legal_actions[0]

    register_bot("bots-test-first-legal", FirstBot)
    assert "bots-test-first-legal" in bot_names()
    state = random_position("classic", 3, 1, 5)
    view = state.view(state.current_seat)
    assert make_bot("bots-test-first-legal").act(view, random.Random(0)) == view.legal_actions[0]


# -- the view boundary -------------------------------------------------------------------


def _reachable(obj: object, seen: set[int] | None = None) -> list[object]:
    """Every object reachable from ``obj`` through dataclass fields, tuples and lists."""
    seen = set() if seen is None else seen
    if id(obj) in seen:
        return []
    seen.add(id(obj))
    out = [obj]
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        for f in dataclasses.fields(obj):
            out += _reachable(getattr(obj, f.name), seen)
    elif isinstance(obj, tuple | list | set | frozenset):
        for item in obj:
            out += _reachable(item, seen)
    elif isinstance(obj, dict):
        for key, value in obj.items():
            out += _reachable(key, seen) + _reachable(value, seen)
    return out


def test_a_view_holds_no_round_state() -> None:
    state = random_position("classic", 4, 7, 40)
    view = state.view(state.current_seat)
    for obj in _reachable(view):
        assert not isinstance(obj, RoundState)
    # bots only see the view's declared fields: no slot leads back to the state
    assert not hasattr(view, "__dict__")


def _swap_hidden(state: RoundState, seat: int, rng: random.Random) -> RoundState:
    """The same fresh round from ``seat``'s point of view, every hidden tile re-dealt."""
    rules, n, ts = state.rules, state.n, state.ts
    hidden = [
        t for s, hand in enumerate(state.initial.hands) if s != seat for t in ts.tiles_of(hand)
    ]
    hidden += [ts.tiles[i] for i in state.initial.boneyard]
    rng.shuffle(hidden)
    size = rules.hand_size_for(n)
    hands: list[list[Tile]] = []
    for s in range(n):
        if s == seat:
            hands.append(ts.tiles_of(state.initial.hands[seat]))
        else:
            hands.append(hidden[:size])
            hidden = hidden[size:]
    return RoundState.from_deal(rules, n, state.round_index, hands, hidden, state.starter)


@settings(max_examples=30)
@given(seed=st.integers(0, 10_000), players=st.integers(2, 6))
def test_bots_cannot_tell_deals_apart_that_differ_only_in_hidden_tiles(
    seed: int, players: int
) -> None:
    """Two rounds with the same table but different hidden tiles give the same view, so
    every bot (with the same RNG) makes the same choice in both."""
    rng = random.Random(seed)
    rules = Rules.preset("classic")
    first = RoundState.new(rules, players, 0, rng, starter=0)
    seat = 0
    second = _swap_hidden(first, seat, rng)
    assert first.boneyard_tiles() != second.boneyard_tiles()
    view_a, view_b = first.view(seat), second.view(seat)
    assert view_a == view_b
    for name in BUILTIN:
        a = make_bot(name).act(view_a, random.Random(seed))
        b = make_bot(name).act(view_b, random.Random(seed))
        assert a == b


# -- every bot plays only legal actions ---------------------------------------------------


@st.composite
def positions(draw: st.DrawFn) -> RoundState:
    preset = draw(st.sampled_from(sorted(PRESET_PLAYERS)))
    lo, hi = PRESET_PLAYERS[preset]
    players = draw(st.integers(lo, min(hi, 7)))
    seed = draw(st.integers(0, 2**32 - 1))
    depth = draw(st.integers(0, 250))
    state = random_position(preset, players, seed, depth)
    if state.is_over:
        state = random_position(preset, players, seed, 0)
    return state


@settings(max_examples=150)
@given(state=positions(), bot_seed=st.integers(0, 2**32 - 1))
@pytest.mark.parametrize("name", BUILTIN)
def test_every_bot_returns_a_legal_action(name: str, state: RoundState, bot_seed: int) -> None:
    seat = state.current_seat
    view = state.view(seat)
    action = make_bot(name).act(view, random.Random(bot_seed))
    assert action in state.legal_actions()
    state.apply(action, seat)  # and the engine agrees


@pytest.mark.parametrize("name", BUILTIN)
def test_every_bot_finishes_whole_rounds(name: str) -> None:
    for seed in range(5):
        state = random_position("classic", 4, seed, 0)
        bot, rng = make_bot(name), random.Random(seed)
        while not state.is_over:
            state.apply(bot.act(state.view(state.current_seat), rng))
        assert state.scores() is not None


# -- greedy ------------------------------------------------------------------------------


def _view_with(legal: list[Action], seat: int = 0) -> SeatView:
    state = random_position("classic", 3, 3, 0)
    view = state.view(state.current_seat)
    return view._replace(seat=seat, current_seat=seat, legal_actions=tuple(legal))


def test_greedy_plays_the_heaviest_tile() -> None:
    legal = [
        Action.play(parse_tile("3-12"), 0),
        Action.play(parse_tile("12-11"), MEXICAN),
        Action.play(parse_tile("12-0"), 0),
    ]
    assert GreedyBot().act(_view_with(legal), random.Random(0)) == legal[1]


def test_greedy_prefers_its_own_train_for_the_same_tile() -> None:
    tile = parse_tile("12-9")
    legal = [Action.play(tile, 2), Action.play(tile, MEXICAN), Action.play(tile, 0)]
    assert GreedyBot().act(_view_with(legal, seat=0), random.Random(0)) == legal[2]
    assert GreedyBot().act(_view_with(legal[:2], seat=0), random.Random(0)) == legal[1]


def test_greedy_draws_before_passing_and_passes_when_it_must() -> None:
    assert GreedyBot().act(_view_with([DRAW]), random.Random(0)) == DRAW
    assert GreedyBot().act(_view_with([PASS]), random.Random(0)) == PASS


def test_greedy_random_ties_uses_every_heaviest_choice() -> None:
    legal = [Action.play(parse_tile("5-7"), 0), Action.play(parse_tile("6-6"), 0)]
    view = _view_with(legal)
    rng = random.Random(1)
    picks = {GreedyBot(random_ties=True).act(view, rng) for _ in range(50)}
    assert picks == set(legal)
    assert {GreedyBot().act(view, rng) for _ in range(50)} == {legal[0]}


# -- the registry ------------------------------------------------------------------------


class _Mine:
    name = "mine"

    def act(self, view: SeatView, rng: random.Random) -> Action:
        return view.legal_actions[-1]


def test_a_name_taken_is_refused_unless_replaced(monkeypatch: pytest.MonkeyPatch) -> None:
    from mextrain.bots import base

    monkeypatch.setattr(base, "_REGISTRY", dict(base._REGISTRY))  # (undone after the test)
    monkeypatch.setattr(base, "_REGISTERED_BY", dict(base._REGISTERED_BY))
    with pytest.raises(ValueError, match=r"'planner' is already registered .*replace=True"):
        register_bot("planner", _Mine)
    assert type(make_bot("planner")).__name__ == "PlannerBot"  # left as it was
    register_bot("planner", _Mine, replace=True)
    assert isinstance(make_bot("planner"), _Mine)
    register_bot("bots-test-mine", _Mine)
    register_bot("bots-test-mine", GreedyBot)  # the module that took it may again
    assert isinstance(make_bot("bots-test-mine"), GreedyBot)


@pytest.mark.parametrize("spec", [None, 1, b"greedy", ["greedy"]])
def test_a_bot_spec_that_is_not_text_is_a_type_error_that_says_so(spec: object) -> None:
    # (not "'NoneType' object has no attribute 'strip'" from inside the parser)
    with pytest.raises(TypeError, match="a bot spec is text such as 'planner', not"):
        make_bot(spec)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="a bot spec is text"):
        parse_bot_spec(spec)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", ["", "a:b", "a,b", "a=b", " x", "x ", "a b", "a\tb"])
def test_a_name_no_spec_could_reach_is_refused(name: str) -> None:
    with pytest.raises(ValueError, match="name"):
        register_bot(name, _Mine)
    assert name not in bot_names()


def test_a_factory_that_is_not_callable_is_refused() -> None:
    with pytest.raises(TypeError, match="callable"):
        register_bot("bots-test-not-callable", _Mine())  # type: ignore[arg-type]


def test_the_built_in_bots_never_overwrite_a_bot_registered_before_them() -> None:
    """The built-in bots load on the registry's first use; a bot registered before any
    other call used to be overwritten by them when they did, without a word."""
    code = (
        "import mextrain.bots as b\n"
        "class Mine:\n"
        "    name = 'mine'\n"
        "    def act(self, view, rng):\n"
        "        return view.legal_actions[0]\n"
        "try:\n"
        "    b.register_bot('greedy', Mine)\n"
        "except ValueError as err:\n"
        "    print('refused:', err)\n"
        "b.register_bot('greedy', Mine, replace=True)\n"
        "print(type(b.make_bot('greedy')).__name__, 'planner' in b.bot_names())\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    )
    lines = done.stdout.splitlines()
    assert lines[0].startswith("refused: a bot named 'greedy' is already registered")
    assert lines[1] == "Mine True"
