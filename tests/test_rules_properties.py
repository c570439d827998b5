"""Property-based tests of the engine's invariants over random games of every preset."""

from __future__ import annotations

import pickle
import random
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mextrain.rules import (
    DRAW,
    MEXICAN,
    PASS,
    PRESETS,
    Action,
    IllegalActionError,
    Match,
    RoundState,
    Rules,
    Tile,
    TurnState,
    deal_round,
    tile_set,
)

PRESET_SEATS = {
    "classic": range(2, 9),
    "relaxed": range(2, 9),
    "cardinal": range(4, 11),
}
HOUSE = [
    {},
    {"first_turn_run": True},
    {"draw_until_playable": True},
    {"no_going_out_on_double": True},
    {"mexican_after_own_train": True},
    {"mexican_after_first_round_of_turns": True},
    {"double_blank_points": 50, "unsatisfied_double_penalty": 25},
]


@st.composite
def games(draw: st.DrawFn) -> tuple[Rules, int, int, int]:
    preset = draw(st.sampled_from(sorted(PRESET_SEATS)))
    players = draw(st.sampled_from(list(PRESET_SEATS[preset])))
    house = draw(st.sampled_from(HOUSE))
    rules = Rules.preset(preset, **house)
    round_index = draw(st.integers(0, 12))
    seed = draw(st.integers(0, 2**32))
    return rules, players, round_index, seed


def check_tiles_accounted(state: RoundState) -> None:
    """Every tile of the set is in exactly one place: a hand, a train, the boneyard, or the
    engine on the table."""
    ts = state.ts
    seen = 0
    places = [*state.hands, *(ts.mask_of(state.train(t)) for t in (*range(state.n), MEXICAN))]
    places.extend(1 << tid for tid in state.boneyard[state.bone_pos :])
    places.append(1 << ts.double_id[state.engine])
    total = 0
    for mask in places:
        assert seen & mask == 0, "a tile is in two places"
        seen |= mask
        total += mask.bit_count()
    assert seen == ts.all_mask
    assert total == ts.size


def check_view(state: RoundState, seat: int) -> None:
    view = state.view(seat)
    assert list(view.hand) == state.hand(seat)
    assert list(view.hand_sizes) == state.hand_sizes
    assert view.boneyard_size == state.boneyard_size
    public = {str(t) for train in view.trains for t in train.tiles}
    visible = public | {str(t) for t in view.hand}
    data = view.to_dict()
    seen = set(data["hand"])
    for train in data["trains"]:
        seen |= {str(Tile.of(*map(int, t.split("-")))) for t in train["tiles"]}
    for text in data["history"]:
        if "@" in text:
            seen.add(str(Tile.of(*map(int, text.split(":")[1].split("@")[0].split("-")))))
    assert seen <= visible
    hidden = set(map(str, state.boneyard_tiles()))
    for other in range(state.n):
        if other != seat:
            hidden |= set(map(str, state.hand(other)))
    assert not (hidden & seen), "a view leaks a hidden tile"
    text = repr(data)
    for tile in hidden:  # no hidden tile appears anywhere in the view's data
        assert f"'{tile}'" not in text


def random_illegal(state: RoundState, rng: random.Random) -> Action:
    legal = set(state.legal_actions())
    ts = state.ts
    for _ in range(200):
        kind = rng.random()
        if kind < 0.15:
            action = DRAW
        elif kind < 0.3:
            action = PASS
        else:
            tile = rng.choice(ts.tiles)
            train = rng.randrange(-1, state.n)
            action = Action.play(tile, train)
        if action not in legal:
            return action
    return Action.play(Tile(0, 13), 0)  # not even in the set


@settings(max_examples=60)
@given(games())
def test_random_games_keep_every_invariant(game: tuple[Rules, int, int, int]) -> None:
    rules, players, round_index, seed = game
    rng = random.Random(seed)
    state = RoundState.new(rules, players, round_index, rng)
    steps = 0
    while not state.is_over:
        legal = state.legal_actions()
        assert legal, "no legal action before the round ended"
        assert len(set(legal)) == len(legal)
        check_tiles_accounted(state)
        if steps % 7 == 0:
            check_view(state, rng.randrange(players))
            bad = random_illegal(state, rng)
            before = state.fingerprint()
            with pytest.raises(IllegalActionError):
                state.apply(bad)
            assert state.fingerprint() == before
            assert not state.is_legal(bad)
        action = rng.choice(legal)
        assert state.is_legal(action)
        state.apply(action)
        steps += 1
        assert steps < 2000, "the round does not end"
    check_tiles_accounted(state)
    assert state.legal_actions() == []
    scores = state.scores()
    assert scores is not None
    if state.ended == "out":
        assert state.out_seat is not None
        assert state.hands[state.out_seat] == 0
    else:
        assert state.boneyard_size == 0
        assert not any(state.has_legal_play(s) for s in range(players))
    if not rules.double_blank_points and not rules.unsatisfied_double_penalty:
        assert scores == [state.ts.pips_of(h) for h in state.hands]
    parts = state.score_parts()
    assert parts is not None
    assert [p.total for p in parts] == scores
    assert [p.pips for p in parts] == [state.ts.pips_of(h) for h in state.hands]
    blank = state.ts.double_id[0]
    for seat, p in enumerate(parts):
        holds_blank = bool(state.hands[seat] >> blank & 1)
        assert p.double_blank == (rules.double_blank_points if holds_blank else 0)
        owed = sum(by == seat for by in state.double_by) if seat != state.out_seat else 0
        assert p.penalty == rules.unsatisfied_double_penalty * owed
        assert p.open_doubles == (owed if rules.unsatisfied_double_penalty else 0)


@settings(max_examples=25)
@given(games())
def test_copies_are_independent_and_serialise(game: tuple[Rules, int, int, int]) -> None:
    rules, players, round_index, seed = game
    rng = random.Random(seed)
    state = RoundState.new(rules, players, round_index, rng)
    snapshots = []
    while not state.is_over:
        if rng.random() < 0.1:
            snapshots.append((state.copy(), state.fingerprint(), state.to_dict()))
        state.apply(rng.choice(state.legal_actions()))
    # the round as dealt, replayed, is the round again
    replayed = state.as_dealt()
    assert replayed.history == []
    assert replayed.initial.hands == state.initial.hands
    assert replayed.initial.boneyard == state.initial.boneyard
    for seat, action in state.history:
        replayed.apply(action, seat)
    assert replayed.fingerprint() == state.fingerprint()
    for copy, fingerprint, data in snapshots:
        assert copy.fingerprint() == fingerprint  # untouched by play on the original
        assert RoundState.from_dict(data).fingerprint() == fingerprint
        assert pickle.loads(pickle.dumps(copy)).fingerprint() == fingerprint
        # a copy plays on to the same end as a replay of the original's actions would
        copy_rng = random.Random(seed)
        while not copy.is_over:
            copy.apply(copy_rng.choice(copy.legal_actions()))


@settings(max_examples=20)
@given(games())
def test_same_seed_same_game(game: tuple[Rules, int, int, int]) -> None:
    rules, players, round_index, seed = game

    def play() -> list[str]:
        rng = random.Random(seed)
        state = RoundState.new(rules, players, round_index, rng)
        while not state.is_over:
            state.apply(rng.choice(state.legal_actions()))
        return state.record_actions()

    assert play() == play()


@settings(max_examples=20)
@given(games())
def test_deal_round_matches_new(game: tuple[Rules, int, int, int]) -> None:
    rules, players, round_index, seed = game
    a = RoundState.new(rules, players, round_index, random.Random(seed), starter=0)
    hands, boneyard = deal_round(rules, players, round_index, random.Random(seed))
    b = RoundState.from_deal(rules, players, round_index, hands, boneyard, 0)
    assert a.fingerprint() == b.fingerprint()
    size = rules.hand_size_for(players)
    assert all(len(h) == size for h in hands)
    expected = tile_set(rules.max_pip).size - (rules.engine_setup == "set_aside")
    assert sum(map(len, hands)) + len(boneyard) == expected


@pytest.mark.parametrize("preset", sorted(PRESET_SEATS))
def test_whole_match_totals(preset: str) -> None:
    rules = Rules.preset(preset)
    players = 4
    rng = random.Random(7)
    match = Match.new(rules, players, rng)
    expected_totals = [0] * players
    while True:
        state = match.current
        while not state.is_over:
            state.apply(rng.choice(state.legal_actions()))
        for seat in range(players):
            expected_totals[seat] += sum(t.pips for t in state.hand(seat))
        if len(match.rounds) == rules.round_count:
            break
        match.next_round(rng)
    assert match.is_complete
    assert [r.engine for r in match.rounds] == list(range(12, -1, -1))
    assert match.totals == expected_totals
    best = min(expected_totals)
    assert match.winners == [s for s, t in enumerate(expected_totals) if t == best]
    if rules.first_player == "rotate":
        first = match.rounds[0].starter
        assert [r.starter for r in match.rounds] == [(first + k) % players for k in range(13)]
    with pytest.raises(ValueError, match="over"):
        match.next_round(rng)


OPTION_VALUES = {
    "engine_setup": st.sampled_from(["set_aside", "holder_starts"]),
    "first_turn": st.sampled_from(["single", "run"]),
    "first_turn_run": st.booleans(),
    "double_follow_up": st.sampled_from(["any", "no_double"]),
    "open_doubles_block": st.booleans(),
    "own_train_first": st.booleans(),
    "marker_rule": st.sampled_from(["forced_pass", "no_own_play"]),
    "rounds": st.one_of(st.integers(1, 13), st.permutations(list(range(13)))),
    "double_blank_points": st.sampled_from([0, 25, 50]),
    "unsatisfied_double_penalty": st.sampled_from([0, 10]),
    "mexican_after_own_train": st.booleans(),
    "mexican_after_first_round_of_turns": st.booleans(),
    "no_going_out_on_double": st.booleans(),
    "draw_until_playable": st.booleans(),
}


@settings(max_examples=150)
@given(
    st.sampled_from(sorted(PRESET_SEATS)),
    st.lists(st.dictionaries(st.sampled_from(sorted(OPTION_VALUES)), st.none()), max_size=3),
    st.data(),
)
def test_rules_spec_round_trips(
    preset: str, steps: list[dict[str, None]], data: st.DataObject
) -> None:
    """Whatever chain of overrides built a rule set, its spec reads back as the same rules."""
    from mextrain.rules import RulesError

    rules = Rules.preset(preset)
    for step in steps:
        options = {k: data.draw(OPTION_VALUES[k], label=k) for k in step}
        if "engine_setup" in options:
            options["first_player"] = (
                "engine_holder" if options["engine_setup"] == "holder_starts" else "rotate"
            )
        if "first_turn_run" in options and "first_turn" in options:
            options["first_turn"] = "run" if options["first_turn_run"] else "single"
        try:
            rules = rules.with_options(**options)
        except RulesError:
            continue  # e.g. set_aside with every tile dealt: refused, rules unchanged
    spec = rules.to_spec()
    assert Rules.from_spec(spec) == rules
    if spec == preset:
        assert rules == PRESETS[preset]


@given(max_pip=st.integers(0, 20), bits=st.integers(0, 2**300))
def test_pips_of_adds_up_the_tiles(max_pip: int, bits: int) -> None:
    ts = tile_set(max_pip)
    mask = bits & ts.all_mask
    assert ts.pips_of(mask) == sum(tile.pips for tile in ts.tiles_of(mask))


TURN_HOUSE = [
    {},
    {"first_turn_run": True},
    {"first_turn_run": True, "own_train_first": True},
    {"mexican_after_first_round_of_turns": True},
    {"marker_rule": "forced_pass", "first_turn_run": True},
    {"draw_until_playable": True, "first_turn_run": True},
]


#: a double-4 set, 3 tiles a hand: seats go out in their first turn (on a run too)
SMALL = {"max_pip": 4, "hand_size": {2: 3, 3: 3, 4: 3}, "rounds": [4, 3]}


@settings(max_examples=80)
@given(
    preset=st.sampled_from(sorted(PRESET_SEATS)),
    house=st.sampled_from(TURN_HOUSE),
    small=st.booleans(),
    seed=st.integers(0, 2**32),
    pass_bias=st.floats(0.0, 0.9),
)
def test_every_seat_reads_the_engines_turn_state_from_the_history(
    preset: str, house: dict[str, object], small: bool, seed: int, pass_bias: float
) -> None:
    """What the table does not show (a first-turn run, a play on one's own train this turn,
    who has had a first turn) each seat reads from the public history exactly as the engine
    keeps it, at every position and at the round's end."""
    rng = random.Random(seed)
    rules = Rules.preset(preset, **house, **(SMALL if small else {}))
    seats = [p for p in PRESET_SEATS[preset] if p <= 4] if small else PRESET_SEATS[preset]
    players = rng.choice(list(seats))
    state = RoundState.new(rules, players, rng.randrange(rules.round_count), rng)
    while True:
        expected = state.turn_state()
        for seat in range(players):
            assert state.view(seat).turn_state() == expected
        if state.is_over:
            break
        legal = state.legal_actions()
        doubles = [a for a in legal if a.tile is not None and a.tile.is_double]
        # passing ends a first-turn run early; doubles keep a turn going: take both often
        if PASS in legal and len(legal) > 1 and rng.random() < pass_bias:
            state.apply(PASS)
        elif doubles and rng.random() < 0.5:
            state.apply(rng.choice(doubles))
        else:
            state.apply(rng.choice(legal))


def test_turn_state_agrees_where_a_seat_goes_out_on_its_first_turn_run() -> None:
    """Going out stops the engine before it ends the run: the last tile, played away from
    the seat's own train, leaves the run flag on in both readings."""
    rules = Rules.preset("classic", first_turn_run=True, **SMALL)
    found = 0
    for seed in range(3000):
        rng = random.Random(seed)
        state = RoundState.new(rules, 2, 0, rng)
        while not state.is_over:
            state.apply(rng.choice(state.legal_actions()))
        last_seat, last = state.history[-1]
        if state.ended == "out" and state.run and last.train != last_seat:
            assert state.view(1 - last_seat).turn_state() == state.turn_state()
            found += 1
    assert found


def test_turn_state_tells_what_the_table_does_not() -> None:
    """A first-turn run stopped by a pass after a tile on the seat's own train: the turn
    state says the run is on and the own train played (so the pass raises no marker), then
    that the next seat's run begins."""
    rules = Rules.preset("classic", first_turn_run=True)
    for seed in range(200):
        state = RoundState.new(rules, 2, 0, random.Random(seed))
        me = state.seat
        own = [a for a in state.legal_actions() if a.kind == "play" and a.train == me]
        if not own:
            continue
        state.apply(own[0])
        if state.seat == me and PASS in state.legal_actions():
            break
    else:
        pytest.fail("no deal in 200 lets the starter play on its own train and stop")
    during = state.turn_state()
    assert during == TurnState(
        turns=0, first_turn_done=(False, False), plays=1, own_played=True, run=True
    )
    assert state.view(1 - me).turn_state() == during
    state.apply(PASS)  # stops the run; its own train was played, so no marker
    after = state.turn_state()
    done = (True, False) if me == 0 else (False, True)
    # the other seat's run begins
    assert after == TurnState(turns=1, first_turn_done=done, plays=0, own_played=False, run=True)
    assert state.view(me).turn_state() == after
    assert not state.markers >> me & 1


@settings(max_examples=60, deadline=None)
@given(games())
def test_playable_tiles_are_the_plays_open_at_the_start_of_a_turn(
    game: tuple[Rules, int, int, int],
) -> None:
    """`RoundState.playable_tiles(seat)` is the seat's tiles that some train open to it
    takes now: at the start of the seat to move's turn (before it draws or plays),
    exactly the tiles of its legal plays; for every seat, tiles of its hand, and some
    exactly when `has_legal_play` says so."""
    rules, players, round_index, seed = game
    rng = random.Random(seed)
    state = RoundState.new(rules, players, round_index, rng)
    steps = 0
    while not state.is_over and steps < 400:
        for seat in range(players):
            mask = state.playable_tiles(seat)
            assert mask & ~state.hands[seat] == 0
            assert bool(mask) == state.has_legal_play(seat)
        if not state.drew and not state.plays and not state.owe:
            legal = 0
            for _, tiles in state.legal_plays():
                legal |= tiles
            assert state.playable_tiles(state.seat) == legal
        state.apply(rng.choice(state.legal_actions()))
        steps += 1


def _walk(game: tuple[Rules, int, int, int], actions: int = 300) -> Iterator[RoundState]:
    """The round of ``game`` (rules, players, round, seed), at each of its positions as
    random legal actions are played, for up to ``actions`` actions: its end too, if it
    comes. Each position is taken on as soon as the loop asks for the next."""
    rules, players, round_index, seed = game
    rng = random.Random(seed)
    state = RoundState.new(rules, players, round_index, rng)
    for _ in range(actions):
        yield state
        if state.is_over:
            return
        state.apply(rng.choice(state.legal_actions()))
    yield state


@settings(max_examples=40, deadline=None)
@given(games())
def test_why_not_names_a_rule_exactly_for_the_tiles_that_cannot_be_played(
    game: tuple[Rules, int, int, int],
) -> None:
    """`RoundState.why_not(tile)`, at every decision of random games, for every tile of
    the mover's hand: None exactly when some legal action plays the tile; else the
    refusal of the tile on one of the trains, which every train refuses, and "its open
    end is N" only when no train it matches has another rule to name."""
    trains = (*range(game[1]), MEXICAN)
    for state in _walk(game):
        if state.is_over:
            break
        played = {a.tile for a in state.legal_actions() if a.tile is not None}
        for tile in state.hand(state.seat):
            err = state.why_not(tile)
            assert (err is None) == (tile in played), tile
            if err is None:
                continue
            refusals = []
            for train in trains:
                with pytest.raises(IllegalActionError) as info:
                    state.copy().apply(Action.play(tile, train))
                refusals.append(info.value)
            assert (err.code, err.params) in [(r.code, r.params) for r in refusals]
            matched = [r for r, t in zip(refusals, trains, strict=True) if tile.has(state.ends[t])]
            if err.code == "wrong_end":
                assert all(r.code == "wrong_end" for r in matched)


@st.composite
def games_any_doubles_rule(draw: st.DrawFn) -> tuple[Rules, int, int, int]:
    """`games`, with open doubles blocking or not whatever the preset says, and now and
    then another rule that changes what a seat may play around a double (own train
    first, no double to follow a double, the marker rule)."""
    preset = draw(st.sampled_from(sorted(PRESET_SEATS)))
    players = draw(st.sampled_from(list(PRESET_SEATS[preset])))
    house = dict(draw(st.sampled_from(HOUSE)))
    block = draw(st.sampled_from([None, True, False]))
    if block is not None:
        house["open_doubles_block"] = block
    house.update(
        draw(
            st.sampled_from(
                [
                    {},
                    {"own_train_first": True},
                    {"double_follow_up": "no_double"},
                    {"marker_rule": "no_own_play"},
                ]
            )
        )
    )
    rules = Rules.preset(preset, **house)
    return rules, players, draw(st.integers(0, 12)), draw(st.integers(0, 2**32))


@settings(max_examples=80, deadline=None)
@given(games_any_doubles_rule())
def test_answer_first_is_the_open_double_the_engine_holds_to(
    game: tuple[Rules, int, int, int],
) -> None:
    """`RoundState.answer_first()`, at every decision of random games of every preset and
    house rule, agrees with the engine: when it names a train, that is the oldest open
    double's under ``open_doubles_block``, every legal play goes there, and every tile of
    the hand played on any other train is refused with ``open_double_first`` naming it;
    when it names none, no play of a tile of the hand anywhere is refused so."""
    rules, players = game[:2]
    trains = (*range(players), MEXICAN)
    for state in _walk(game):
        first = state.answer_first()
        if state.is_over:
            assert first is None
            break
        plays = [a for a in state.legal_actions() if a.kind == "play"]
        if first is not None:
            assert rules.open_doubles_block
            assert first == state.open_doubles[0]
            assert all(a.train == first for a in plays), plays
        for tile in state.hand(state.seat):
            for train in trains:
                action = Action.play(tile, train)
                if action in plays:
                    continue
                with pytest.raises(IllegalActionError) as info:
                    state.copy().apply(action)
                said_first = info.value.code == "open_double_first"
                if first is not None and train != first:
                    assert said_first, info.value
                    assert info.value.params["train"] == first
                else:
                    assert not said_first, (first, info.value)


@settings(max_examples=30)
@given(games(), st.integers(1, 120))
def test_going_back_to_a_seats_latest_decision_gives_it_that_decision_again(
    game: tuple[Rules, int, int, int], stop: int
) -> None:
    """`RoundState.latest_decision`, where undo takes a round back to: replaying the
    history before it puts that seat to move, with a choice to make if it ever had one in
    the round, and after it the seat made no other choice (only forced actions)."""
    rules, players, round_index, seed = game
    rng = random.Random(seed)
    state = RoundState.new(rules, players, round_index, rng)
    choices: dict[int, list[int]] = {}  # by seat, where it had more than one legal action
    for _ in range(stop):
        if state.is_over:
            break
        legal = state.legal_actions()
        if len(legal) > 1:
            choices.setdefault(state.current_seat, []).append(len(state.history))
        state.apply(rng.choice(legal))
    for seat in range(players):
        at = state.latest_decision(seat)
        moved = [i for i, (mover, _) in enumerate(state.history) if mover == seat]
        if not moved:
            assert at is None
            continue
        assert at is not None
        back = state.as_dealt()
        for mover, action in state.history[:at]:
            back.apply(action, mover)
        assert back.current_seat == seat
        assert state.history[at][0] == seat
        if choices.get(seat):
            assert at == choices[seat][-1]
            assert len(back.legal_actions()) > 1
        else:
            assert at == moved[-1]


@settings(max_examples=25)
@given(games(), st.integers(0, 80))
def test_the_position_before_an_action_is_the_round_as_it_stood_then(
    game: tuple[Rules, int, int, int], stop: int
) -> None:
    """`RoundState.position_before`: the round before its n-th action is the one that
    stood when it was played (with n the whole history: the round as it is)."""
    rules, players, round_index, seed = game
    rng = random.Random(seed)
    state = RoundState.new(rules, players, round_index, rng)
    seen = [state.fingerprint()]
    while not state.is_over and len(seen) <= stop:
        state.apply(rng.choice(state.legal_actions()))
        seen.append(state.fingerprint())
    for n, fingerprint in enumerate(seen):
        assert state.position_before(n).fingerprint() == fingerprint
