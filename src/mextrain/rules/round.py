"""One round of Mexican Train: the deal, the table, the turn, legal actions and `apply`.

The state is mutable for speed (bots and simulations apply millions of actions) but never
changes on a rejected action, and `RoundState.copy` is cheap: hands are integer bitmasks,
trains are tuples shared between copies, the boneyard is a shared tuple with a cursor.

Train ids: a personal train is numbered by its owner's seat; the Mexican train is
`MEXICAN` (-1), which is also its index in the per-train lists (the last element).
"""

from __future__ import annotations

import functools
import operator
import random
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

from .actions import DRAW, MEXICAN, PASS, Action, parse_action, train_name
from .errors import DealError, IllegalActionError
from .options import Rules, check_rules
from .tiles import Tile, TileSet, parse_tile, tile_set
from .turn import TurnState

if TYPE_CHECKING:
    from .view import SeatView

__all__ = ["Deal", "RoundEnd", "RoundState", "ScoreParts", "deal_round"]

RoundEnd = Literal["out", "blocked"]

# A legal-move summary: ((train, tile mask), ...), may draw, may pass.
_Legal = tuple[tuple[tuple[int, int], ...], bool, bool]


class _ActionTable:
    """Shared play actions for one set size and player count, and the lists of actions
    for each (train, tile mask) pair met so far (legal moves repeat a lot)."""

    __slots__ = ("by_mask", "by_tile", "entries")

    _LIMIT = 400_000  # cached lists kept at most (about 60 MB), then the cache starts over

    def __init__(self, max_pip: int, players: int) -> None:
        ts = tile_set(max_pip)
        #: ``by_tile[tile_id][train + 1]`` (column 0 is the Mexican train)
        self.by_tile: tuple[tuple[Action, ...], ...] = tuple(
            tuple(Action.interned(tile, train, tid, max_pip) for train in range(-1, players))
            for tid, tile in enumerate(ts.tiles)
        )
        self.by_mask: tuple[dict[int, list[Action]], ...] = tuple({} for _ in range(players + 1))
        self.entries = 0

    def actions_for(self, train: int, mask: int) -> list[Action]:
        col = train + 1
        by_tile = self.by_tile
        acts = []
        m = mask
        while m:
            low = m & -m
            acts.append(by_tile[low.bit_length() - 1][col])
            m ^= low
        if self.entries >= self._LIMIT:
            for d in self.by_mask:
                d.clear()
            self.entries = 0
        self.by_mask[col][mask] = acts
        self.entries += 1
        return acts


@functools.cache
def _action_table(max_pip: int, players: int) -> _ActionTable:
    return _ActionTable(max_pip, players)


class Deal:
    """Hands and boneyard as dealt, before any automatic event. Tiles as ids."""

    __slots__ = ("boneyard", "hands")

    def __init__(self, hands: tuple[int, ...], boneyard: tuple[int, ...]) -> None:
        self.hands = hands  # bitmask per seat
        self.boneyard = boneyard  # ids, first drawn first


def _deal_ids(
    rules: Rules, players: int, round_index: int, rng: random.Random
) -> tuple[list[int], tuple[int, ...]]:
    """Shuffle and deal with ``rng``: a bitmask per hand and the boneyard's tile ids.

    The shuffle sorts the tiles by independent uniform keys: a uniform permutation, several
    times faster than `random.shuffle` (deals are a real share of a simulation's time).
    """
    ts = tile_set(rules.max_pip)
    ids = list(range(ts.size))
    if rules.engine_setup == "set_aside":
        ids.remove(ts.double_id[rules.rounds[round_index]])
    rand = rng.random
    ids.sort(key=lambda _tile: rand())
    size = rules.hand_size_for(players)
    hands = []
    for seat in range(players):
        mask = 0
        for tid in ids[seat * size : (seat + 1) * size]:
            mask |= 1 << tid
        hands.append(mask)
    return hands, tuple(ids[players * size :])


def deal_round(
    rules: Rules, players: int, round_index: int, rng: random.Random
) -> tuple[list[list[Tile]], list[Tile]]:
    """Shuffle and deal a round with ``rng``: ``(hands, boneyard)``, the boneyard top first.

    ``RoundState.from_deal(rules, n, k, *deal_round(rules, n, k, rng), starter)`` starts the
    same round as ``RoundState.new(rules, n, k, rng, starter)`` with an RNG in the same state.
    """
    rules.check_players(players)
    ts = tile_set(rules.max_pip)
    hands, boneyard = _deal_ids(rules, players, round_index, rng)
    return [ts.tiles_of(h) for h in hands], [ts.tiles[i] for i in boneyard]


class ScoreParts(NamedTuple):
    """A seat's points for a round, part by part (see `RoundState.score_parts`)."""

    pips: int  # the pips of the tiles left in its hand
    double_blank: int  # double_blank_points, if the 0-0 is among them
    penalty: int  # unsatisfied_double_penalty, once per double it left unsatisfied
    open_doubles: int = 0  # the doubles it played that stand unsatisfied, charged for

    @property
    def total(self) -> int:
        return self.pips + self.double_blank + self.penalty


def _round_index(rules: Rules, round_index: int) -> int:
    """``round_index`` as a plain int, if the rules play that round: from 0 (a `DealError`
    otherwise; -1 dealt the last round, and one past the end failed deep inside as an
    IndexError). Any integer type will do (a NumPy one too), not a float or a bool."""
    try:
        if isinstance(round_index, bool):
            raise TypeError
        index = operator.index(round_index)
    except TypeError:
        raise DealError(f"a round index is a whole number, not {round_index!r}") from None
    if not 0 <= index < rules.round_count:
        last = rules.round_count - 1
        raise DealError(
            f"these rules have {rules.round_count} rounds, indexed 0 to {last}: "
            f"there is no round index {index}"
        )
    return index


class RoundState:
    """The whole state of a round, hidden tiles included. Seats see it through `view`."""

    __slots__ = (
        "_acts",
        "_double_mask",
        "_legal",
        "_marker_forced",
        "_max_pip",
        "_pip_sum",
        "_pm",
        "_run_rule",
        "_simple",
        "_train_tiles",
        "bone_pos",
        "boneyard",
        "double_by",
        "drawn",
        "drew",
        "ended",
        "ends",
        "engine",
        "first_done",
        "hands",
        "history",
        "initial",
        "markers",
        "n",
        "open_doubles",
        "opened_mexican",
        "out_seat",
        "owe",
        "own_played",
        "plays",
        "round_index",
        "rules",
        "run",
        "seat",
        "starter",
        "trains",
        "ts",
        "turns",
    )

    rules: Rules
    ts: TileSet
    n: int
    round_index: int
    engine: int
    starter: int
    hands: list[int]
    boneyard: tuple[int, ...]
    bone_pos: int
    ends: list[int]
    trains: list[tuple[int, ...]]
    markers: int
    open_doubles: tuple[int, ...]
    double_by: tuple[int, ...]
    seat: int
    drew: bool
    drawn: int  # the tile drawn since the seat's last play (-1: none): only it may be played
    owe: bool
    run: bool
    plays: int
    own_played: bool
    opened_mexican: bool
    turns: int
    first_done: int
    ended: RoundEnd | None
    out_seat: int | None
    history: list[tuple[int, Action]]
    initial: Deal
    _acts: _ActionTable
    _legal: _Legal | None
    _pm: tuple[int, ...]
    _simple: bool
    _marker_forced: bool
    _max_pip: int
    _pip_sum: tuple[int, ...]
    _double_mask: int
    _run_rule: bool
    _train_tiles: list[tuple[Tile, ...]]  # `Tile` tuples per train, extended lazily

    # -- construction -------------------------------------------------------------------

    @classmethod
    def new(
        cls,
        rules: Rules,
        players: int,
        round_index: int,
        rng: random.Random,
        starter: int | None = None,
    ) -> RoundState:
        """Deal a round with ``rng``. Under ``rotate`` a missing ``starter`` is drawn by lot."""
        check_rules(rules)
        rules.check_players(players)
        if not isinstance(rng, random.Random):
            raise TypeError(f"rng is a random.Random, e.g. random.Random(2026), not {rng!r}")
        round_index = _round_index(rules, round_index)
        if rules.first_player == "rotate" and starter is None:
            starter = rng.randrange(players)
        hands, boneyard = _deal_ids(rules, players, round_index, rng)
        return cls._start(rules, players, round_index, hands, boneyard, starter)

    @classmethod
    def from_deal(
        cls,
        rules: Rules,
        players: int,
        round_index: int,
        hands: Sequence[Sequence[Tile]],
        boneyard: Sequence[Tile],
        starter: int | None = None,
    ) -> RoundState:
        """Start a round from an explicit deal; raise `DealError` if it is not a legal deal.

        ``starter`` is required under ``rotate`` and ignored under ``engine_holder`` (the
        holder of the engine starts, after the draw cycles if nobody holds it).
        """
        check_rules(rules)
        rules.check_players(players)
        round_index = _round_index(rules, round_index)
        ts = tile_set(rules.max_pip)
        engine = rules.rounds[round_index]
        engine_id = ts.double_id[engine]
        size = rules.hand_size_for(players)
        if len(hands) != players:
            dealt = f"{len(hands)} hand" + ("" if len(hands) == 1 else "s")
            raise DealError(f"the deal has {dealt} for {players} players")
        seen = 0
        masks: list[int] = []

        def take(tile: Tile, where: str) -> int:
            nonlocal seen
            if tile not in ts.ids:
                raise DealError(f"{tile} in {where} is not in the double-{ts.max_pip} set")
            bit = 1 << ts.ids[tile]
            if seen & bit:
                raise DealError(f"{tile} is dealt twice (again in {where})")
            seen |= bit
            return bit

        for seat, hand in enumerate(hands):
            if len(hand) != size:
                raise DealError(
                    f"seat {seat} was dealt {len(hand)} tiles; {players} players get {size} each"
                )
            mask = 0
            for tile in hand:
                mask |= take(tile, f"seat {seat}'s hand")
            masks.append(mask)
        bone_ids: list[int] = []
        for tile in boneyard:
            take(tile, "the boneyard")
            bone_ids.append(ts.ids[tile])
        set_aside = rules.engine_setup == "set_aside"
        if set_aside and seen >> engine_id & 1:
            raise DealError(f"the engine {engine}-{engine} is set aside and cannot be dealt")
        expected = ts.all_mask & ~(1 << engine_id) if set_aside else ts.all_mask
        missing = expected & ~seen
        if missing:
            count = missing.bit_count()
            some = ", ".join(str(t) for t in ts.tiles_of(missing)[:5])
            more = ", …" if count > 5 else ""  # (the first five named)
            tiles = "1 tile" if count == 1 else f"{count} tiles"
            raise DealError(f"the deal leaves out {tiles}: {some}{more}")
        return cls._start(rules, players, round_index, masks, tuple(bone_ids), starter)

    @classmethod
    def _start(
        cls,
        rules: Rules,
        players: int,
        round_index: int,
        masks: list[int],
        bone_ids: tuple[int, ...],
        starter: int | None,
    ) -> RoundState:
        ts = tile_set(rules.max_pip)
        engine = rules.rounds[round_index]
        st = cls.__new__(cls)
        st.rules = rules
        st.ts = ts
        st.n = players
        st.round_index = round_index
        st.engine = engine
        st.initial = Deal(tuple(masks), bone_ids)
        st.hands = masks
        st.boneyard = bone_ids
        st.bone_pos = 0
        st.ends = [engine] * (players + 1)
        st.trains = [()] * (players + 1)
        st.markers = 0
        st.open_doubles = ()
        st.double_by = ()
        st.turns = 0
        st.first_done = 0
        st.ended = None
        st.out_seat = None
        st.history = []
        st._acts = _action_table(ts.max_pip, players)
        st._legal = None
        st._pm = ts.pip_mask
        st._max_pip = ts.max_pip
        st._pip_sum = ts.pip_sum
        st._double_mask = ts.double_mask
        st._train_tiles = [()] * (players + 1)
        st._marker_forced = rules.marker_rule == "forced_pass"
        st._run_rule = rules.first_turn == "run"
        # no option that changes which trains a seat reaches at the start of a turn
        st._simple = not (
            rules.own_train_first
            or rules.no_going_out_on_double
            or rules.mexican_after_own_train
            or rules.mexican_after_first_round_of_turns
        )
        if rules.engine_setup == "set_aside":
            if starter is None or not 0 <= starter < players:
                raise DealError(f"the starting seat must be a seat from 0 to {players - 1}")
            st.starter = starter
        else:
            st.starter = st._place_engine(ts.double_id[engine])
        st._begin_turn(st.starter)
        return st

    def _place_engine(self, engine_id: int) -> int:
        """``holder_starts``: the engine's holder places it; draw cycles until someone has it."""
        bit = 1 << engine_id
        while True:
            for seat, hand in enumerate(self.hands):
                if hand & bit:
                    self.hands[seat] = hand ^ bit
                    return seat
            if self.bone_pos >= len(self.boneyard):  # pragma: no cover - the deal is complete
                raise DealError("nobody holds the engine and the boneyard is empty")
            for seat in range(self.n):  # one draw cycle, completed while tiles remain
                if self.bone_pos < len(self.boneyard):
                    self.hands[seat] |= 1 << self.boneyard[self.bone_pos]
                    self.bone_pos += 1

    def position_before(self, action: int) -> RoundState:
        """The round as it stood before its ``action``-th action (from 0): as dealt, with
        the first ``action`` actions of ``history`` played again (all of them: as it is)."""
        state = self.as_dealt()
        for mover, done in self.history[:action]:
            state.apply(done, mover)
        return state

    def latest_decision(self, seat: int) -> int | None:
        """Where in ``history`` ``seat``'s latest decision of the round is: its latest
        action that was a choice (it had more than one legal action then), or, if it never
        had one, its latest action; None before its first. Taking the round back to there
        (the actions before it) gives the seat that decision again: a forced action after
        it (the pass after a draw that found nothing) is taken back with it."""
        replay = self.as_dealt()
        latest = chosen = None
        for at, (mover, action) in enumerate(self.history):
            if mover == seat:
                latest = at
                if len(replay.legal_actions()) > 1:
                    chosen = at
            replay.apply(action, mover)
        return chosen if chosen is not None else latest

    def as_dealt(self) -> RoundState:
        """The round as it was dealt, before any action: the same deal and starter (apply
        ``history`` to it, seat by seat, to replay the round)."""
        deal = self.initial
        return RoundState._start(
            self.rules, self.n, self.round_index, list(deal.hands), deal.boneyard, self.starter
        )

    def copy(self) -> RoundState:
        """An independent copy (cheap: tuples and the boneyard are shared)."""
        c = RoundState.__new__(RoundState)
        c.rules = self.rules
        c.ts = self.ts
        c.n = self.n
        c.round_index = self.round_index
        c.engine = self.engine
        c.starter = self.starter
        c.initial = self.initial
        c.hands = self.hands[:]
        c.boneyard = self.boneyard
        c.bone_pos = self.bone_pos
        c.ends = self.ends[:]
        c.trains = self.trains[:]
        c.markers = self.markers
        c.open_doubles = self.open_doubles
        c.double_by = self.double_by
        c.seat = self.seat
        c.drew = self.drew
        c.drawn = self.drawn
        c.owe = self.owe
        c.run = self.run
        c.plays = self.plays
        c.own_played = self.own_played
        c.opened_mexican = self.opened_mexican
        c.turns = self.turns
        c.first_done = self.first_done
        c.ended = self.ended
        c.out_seat = self.out_seat
        c.history = self.history[:]
        c._acts = self._acts
        c._legal = self._legal
        c._pm = self._pm
        c._max_pip = self._max_pip
        c._pip_sum = self._pip_sum
        c._double_mask = self._double_mask
        c._train_tiles = self._train_tiles[:]
        c._marker_forced = self._marker_forced
        c._run_rule = self._run_rule
        c._simple = self._simple
        return c

    __copy__ = copy

    def with_hidden(
        self, hands: Sequence[int], boneyard: Sequence[int], keep_sizes: bool = True
    ) -> RoundState:
        """A copy with every hand (bitmasks) and the boneyard still to draw (tile ids, top
        first) replaced: a *determinization* for search bots that deal the unseen tiles again.

        The table stays as it is. Raises `DealError` unless the hands, the boneyard, the
        trains and the engine hold every tile of the set exactly once, and (``keep_sizes``)
        unless every hand and the boneyard keep their sizes. The copy's ``initial`` deal and
        ``history`` are the original ones: it is a position to play on, not a record.
        """
        if len(hands) != self.n:
            raise DealError(f"{len(hands)} hands given for {self.n} seats")
        ts = self.ts
        seen = 1 << ts.double_id[self.engine]
        for train in self.trains:
            for tid in train:
                seen |= 1 << tid
        for seat, mask in enumerate(hands):
            if mask & seen:
                some = ", ".join(str(t) for t in ts.tiles_of(mask & seen)[:5])
                raise DealError(f"seat {seat}'s hand repeats tiles already placed: {some}")
            if keep_sizes and mask.bit_count() != self.hands[seat].bit_count():
                raise DealError(
                    f"seat {seat} holds {self.hands[seat].bit_count()} tiles, "
                    f"not {mask.bit_count()}"
                )
            seen |= mask
        if keep_sizes and len(boneyard) != self.boneyard_size:
            raise DealError(f"the boneyard holds {self.boneyard_size} tiles, not {len(boneyard)}")
        for tid in boneyard:
            if not 0 <= tid < ts.size or seen >> tid & 1:
                raise DealError(f"boneyard tile id {tid} is not in the set or is placed twice")
            seen |= 1 << tid
        if seen != ts.all_mask:
            some = ", ".join(str(t) for t in ts.tiles_of(ts.all_mask & ~seen)[:5])
            raise DealError(f"the hidden tiles leave out {some}")
        c = self.copy()
        c.hands = list(hands)
        c.boneyard = tuple(boneyard)
        c.bone_pos = 0
        c._legal = None
        return c

    # -- reading the state --------------------------------------------------------------

    @property
    def current_seat(self) -> int:
        return self.seat

    @property
    def is_over(self) -> bool:
        return self.ended is not None

    @property
    def boneyard_size(self) -> int:
        return len(self.boneyard) - self.bone_pos

    def boneyard_tiles(self) -> list[Tile]:
        """What is left to draw, top first (hidden from every seat)."""
        tiles = self.ts.tiles
        return [tiles[i] for i in self.boneyard[self.bone_pos :]]

    def hand(self, seat: int) -> list[Tile]:
        return self.ts.tiles_of(self.hands[seat])

    @property
    def hand_sizes(self) -> list[int]:
        return [h.bit_count() for h in self.hands]

    def turn_state(self) -> TurnState:
        """Where the round stands within its turns (public: `SeatView.turn_state` reads the
        same from the history)."""
        return TurnState(
            turns=self.turns,
            first_turn_done=tuple(bool(self.first_done >> i & 1) for i in range(self.n)),
            plays=self.plays,
            own_played=self.own_played,
            run=self.run,
        )

    def train(self, train: int) -> list[Tile]:
        return list(self.train_tiles(train))

    def train_tiles(self, train: int) -> tuple[Tile, ...]:
        """The tiles of a train in the order laid (shared: trains only ever grow, so the
        tuple is extended from where it was last read)."""
        ids = self.trains[train]
        cached = self._train_tiles[train]
        if len(cached) != len(ids):
            tiles = self.ts.tiles
            cached = cached + tuple(tiles[i] for i in ids[len(cached) :])
            self._train_tiles[train] = cached
        return cached

    def open_end(self, train: int) -> int:
        return self.ends[train]

    def marker_up(self, seat: int) -> bool:
        return bool(self.markers >> seat & 1)

    def is_started(self, train: int) -> bool:
        return bool(self.trains[train])

    @property
    def oldest_open_double(self) -> int | None:
        """The train whose open double was played first, if any stands open."""
        return self.open_doubles[0] if self.open_doubles else None

    def answer_first(self) -> int | None:
        """The train (a seat, or `MEXICAN`) whose open double the seat to move must answer
        before any other play now, or None when none must be.

        Under ``open_doubles_block`` it is the oldest open double, wherever it stands --
        except within the turn that played a double, while the seat owes its follow-up
        (the follow-ups go anywhere the other rules allow), and on a first-turn run once
        its first tile is down (the run's tiles go on the seat's own train); after a draw
        it is still that double (only the drawn tile may go there). Without
        ``open_doubles_block`` open doubles never come first, and once the round is over
        nothing is to be answered. The engine asks it too: the legal plays are the tiles
        that fit that train, and a tile played elsewhere is refused with
        ``open_double_first`` naming it, so the interfaces never work it out themselves.
        """
        if self.ended is not None or self.owe or (self.run and self.plays):
            return None
        return self._double_first()

    def _double_first(self) -> int | None:
        """The train whose open double any seat must answer first at the start of its
        turn, with the table as it stands (`answer_first` is this within the turn)."""
        if self.open_doubles and self.rules.open_doubles_block:
            return self.open_doubles[0]
        return None

    def score_parts(self) -> list[ScoreParts] | None:
        """Each seat's points for the round once it has ended, part by part: the pips left
        in its hand, the extra points of a 0-0 left (``double_blank_points``) and the
        penalties for its doubles left unsatisfied (``unsatisfied_double_penalty``, one
        per double). Their totals are `scores`."""
        if self.ended is None:
            return None
        ts = self.ts
        blank = self.rules.double_blank_points
        blank_id = ts.double_id[0]
        penalty = self.rules.unsatisfied_double_penalty
        owed = [0] * self.n
        if penalty:
            for seat in self.double_by:
                if seat != self.out_seat:  # a seat that went out scores 0
                    owed[seat] += 1
        return [
            ScoreParts(
                pips=ts.pips_of(hand),
                double_blank=blank if blank and hand >> blank_id & 1 else 0,
                penalty=penalty * owed[seat],
                open_doubles=owed[seat],
            )
            for seat, hand in enumerate(self.hands)
        ]

    def scores(self) -> list[int] | None:
        """Each seat's points for the round once it has ended (lower is better): the
        totals of `score_parts`."""
        parts = self.score_parts()
        return None if parts is None else [part.total for part in parts]

    # -- legal actions ------------------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        """Every action the seat to move may take; empty only once the round has ended."""
        if self.ended is not None:
            return []
        legal = self._legal or self._compute_legal()
        plays = legal[0]
        if not plays:
            return [DRAW] if legal[1] else [PASS]
        out: list[Action] = []
        cache = self._acts.by_mask
        for train, mask in plays:
            col = cache[train + 1]
            acts = col.get(mask)
            if acts is None:
                acts = self._acts.actions_for(train, mask)
            out += acts
        if legal[2]:
            out.append(PASS)
        return out

    def legal_plays(self) -> tuple[tuple[int, int], ...]:
        """The legal plays as ``(train, tile bitmask)`` pairs (for fast bots)."""
        if self.ended is not None:
            return ()
        return (self._legal or self._compute_legal())[0]

    def plays_if_holding(self, hand: int) -> tuple[tuple[int, int], ...]:
        """The legal plays the seat to move would have if it held ``hand`` (a tile bitmask)
        instead of its own hand, as ``(train, tile bitmask)`` pairs; the state is unchanged.

        For search bots reasoning about a hidden hand ("had it held these tiles, what could
        it have played here?"); ``hand`` need not be consistent with the other hands.
        """
        if self.ended is not None:
            return ()
        seat = self.seat
        saved_hand, saved_legal = self.hands[seat], self._legal
        self.hands[seat] = hand
        try:
            return self._compute_legal()[0]
        finally:
            self.hands[seat] = saved_hand
            self._legal = saved_legal

    def is_legal(self, action: Action) -> bool:
        return self._check(action) is None

    def has_legal_play(self, seat: int) -> bool:
        """Whether ``seat`` could play a tile if its turn started now, with the table as it
        stands: its trains, the markers and the turns played so far (RULES.md's blocked
        check: a Mexican train that `mexican_after_first_round_of_turns` keeps closed now
        is closed, though it would open before some seat's next turn)."""
        return bool(self._start_plays(seat, self.turns))

    def playable_tiles(self, seat: int) -> int:
        """The tiles (a bitmask) ``seat`` could play if its turn started now, on any train
        open to it, with the table as it stands (as `has_legal_play`)."""
        mask = 0
        for _, tiles in self._start_plays(seat, self.turns):
            mask |= tiles
        return mask

    def _compute_legal(self) -> _Legal:
        s = self.seat
        # after a draw only the drawn tile may be played; it is the only candidate from the
        # start, so that own-train-first asks whether *it* fits the seat's own train (a held
        # tile that the draw itself made playable, e.g. a last double under
        # no_going_out_on_double, is not a play)
        only = 1 << self.drawn if self.drawn >= 0 else -1
        if self.owe:
            plays = self._access_plays(s, self._avail(s, follow_up=True) & only, self.turns)
        elif self.run and self.plays:
            mask = self._avail(s, follow_up=False) & only & self._pm[self.ends[s]]
            plays = ((s, mask),) if mask else ()
        elif self._simple and not self.open_doubles:
            # the common case, inlined: own train, the Mexican train, marked trains
            hand = self.hands[s] & only
            pm = self._pm
            ends = self.ends
            found = []
            mask = hand & pm[ends[s]]
            if mask:
                found.append((s, mask))
            mask = hand & pm[ends[MEXICAN]]
            if mask:
                found.append((MEXICAN, mask))
            marked = self.markers & ~(1 << s)
            while marked:
                low = marked & -marked
                train = low.bit_length() - 1
                marked ^= low
                mask = hand & pm[ends[train]]
                if mask:
                    found.append((train, mask))
            plays = tuple(found)
        else:
            avail = self._avail(s, follow_up=False) & only
            plays = self._plays_within(s, avail, self.turns, self.answer_first())
        if plays:
            legal: _Legal = (plays, False, bool(self.run and self.plays and not self.owe))
        else:
            can_draw = self.bone_pos < len(self.boneyard) and (
                not self.drew or self.rules.draw_until_playable
            )
            legal = ((), can_draw, not can_draw)
        self._legal = legal
        return legal

    def _avail(self, seat: int, follow_up: bool) -> int:
        """The seat's tiles that may be played at all right now (before train matching)."""
        hand = self.hands[seat]
        rules = self.rules
        if (follow_up and rules.double_follow_up == "no_double") or (
            rules.no_going_out_on_double and hand.bit_count() == 1
        ):
            hand &= ~self.ts.double_mask
        return hand

    def _start_plays(self, seat: int, turns: int, only: int = -1) -> tuple[tuple[int, int], ...]:
        """Plays open to ``seat`` at the start of a turn (``turns`` turns completed before),
        with the tiles of ``only`` (a mask; all by default)."""
        avail = self._avail(seat, follow_up=False) & only
        return self._plays_within(seat, avail, turns, self._double_first())

    def _plays_within(
        self, seat: int, avail: int, turns: int, first: int | None
    ) -> tuple[tuple[int, int], ...]:
        """The plays of the tiles ``avail`` on the trains open to ``seat``: only on
        ``first`` when an open double there must be answered first."""
        if first is not None:
            mask = avail & self._pm[self.ends[first]]
            return ((first, mask),) if mask else ()
        return self._access_plays(seat, avail, turns)

    def _mexican_open(self, seat: int, turns: int) -> bool:
        rules = self.rules
        if rules.mexican_after_own_train and not self.trains[seat]:
            return False
        return not (rules.mexican_after_first_round_of_turns and turns < self.n)

    def _access_plays(self, seat: int, avail: int, turns: int) -> tuple[tuple[int, int], ...]:
        """Plays on the trains the seat may reach: its own, the Mexican, marked trains."""
        pip_mask = self.ts.pip_mask
        ends = self.ends
        own = avail & pip_mask[ends[seat]]
        mexican_open = self._mexican_open(seat, turns)
        if own and self.rules.own_train_first:
            if turns == 0 and self.plays == 0 and mexican_open and not self.trains[MEXICAN]:
                # the round's starting seat may open the Mexican train instead of its own
                mex = avail & pip_mask[ends[MEXICAN]]
                if mex:
                    return ((seat, own), (MEXICAN, mex))
            return ((seat, own),)
        plays: list[tuple[int, int]] = []
        if own:
            plays.append((seat, own))
        if mexican_open:
            mex = avail & pip_mask[ends[MEXICAN]]
            if mex:
                plays.append((MEXICAN, mex))
        marked = self.markers & ~(1 << seat)
        while marked:
            low = marked & -marked
            train = low.bit_length() - 1
            marked ^= low
            mask = avail & pip_mask[ends[train]]
            if mask:
                plays.append((train, mask))
        return tuple(plays)

    # -- applying actions ---------------------------------------------------------------

    def apply(self, action: Action, seat: int | None = None) -> None:
        """Take ``action`` for the seat to move (``seat``, if given, must be that seat).

        An illegal action raises `IllegalActionError` and leaves the state unchanged.
        """
        if self.ended is not None or (seat is not None and seat != self.seat):
            if seat is not None:
                raise self._explain_seat(seat)
            raise IllegalActionError("round_over", "the round is over: no more actions")
        try:
            kind = action.kind
        except AttributeError:
            raise TypeError(
                f"an action is an Action (one of legal_actions(), or parse_action('0:draw')[1]),"
                f" not {action!r}"
            ) from None
        plays, can_draw, can_pass = self._legal or self._compute_legal()
        if kind == "play":
            tid: int | None = action.tile_id
            if action.max_pip != self._max_pip:
                tid = self.ts.ids.get(action.tile)  # type: ignore[arg-type]
            train = action.train
            if tid is not None:
                for t, mask in plays:
                    if t == train:
                        if mask >> tid & 1:
                            self.history.append((self.seat, action))
                            self._play(tid, train)
                            return
                        break
            raise self._explain(action)
        if kind == "draw":
            if not can_draw:
                raise self._explain(action)
            self.history.append((self.seat, action))
            self._draw()
            return
        if not can_pass:
            raise self._explain(action)
        self.history.append((self.seat, action))
        self._end_turn(forced=not plays)

    def _play(self, tid: int, train: int) -> None:
        s = self.seat
        hands = self.hands
        hand = hands[s] ^ (1 << tid)
        hands[s] = hand
        ends = self.ends
        ends[train] = self._pip_sum[tid] - ends[train]
        self.trains[train] += (tid,)
        open_doubles = self.open_doubles
        if open_doubles and train in open_doubles:
            i = open_doubles.index(train)
            self.open_doubles = open_doubles[:i] + open_doubles[i + 1 :]
            self.double_by = self.double_by[:i] + self.double_by[i + 1 :]
        is_double = self._double_mask >> tid & 1
        if is_double:
            self.open_doubles = (*self.open_doubles, train)
            self.double_by = (*self.double_by, s)
        self.plays += 1
        self.drawn = -1
        self._legal = None
        if train == s:
            self.own_played = True
            self.markers &= ~(1 << s)
        elif train == MEXICAN and self.turns == 0 and self.plays == 1:
            self.opened_mexican = True
        if not hand:
            self.ended = "out"
            self.out_seat = s
            return
        if is_double:
            self.owe = True
            if train != s:
                self.run = False
            return
        self.owe = False
        if self.run and train == s:
            if self._compute_legal()[0]:
                return  # the run goes on
            self._end_turn(forced=False)  # nothing more fits the seat's own train
        else:
            self.run = False
            self._end_turn(forced=False)

    def _draw(self) -> None:
        s = self.seat
        tid = self.boneyard[self.bone_pos]
        self.hands[s] |= 1 << tid
        self.bone_pos += 1
        self.drew = True
        self.drawn = tid
        self._legal = None

    def _end_turn(self, forced: bool) -> None:
        s = self.seat
        bit = 1 << s
        if self._marker_forced:
            if forced:
                self.markers |= bit
        elif not self.own_played and not self.opened_mexican:
            self.markers |= bit
        self.turns += 1
        done = self.first_done | bit
        self.first_done = done
        self._legal = None
        if self.bone_pos >= len(self.boneyard) and not any(
            self.has_legal_play(seat) for seat in self._seats_from(s + 1)
        ):
            self.ended = "blocked"
            return
        # the next seat's turn begins (as `_begin_turn`, inlined: this is the hot path)
        seat = s + 1
        if seat == self.n:
            seat = 0
        self.seat = seat
        self.drew = False
        self.drawn = -1
        self.owe = False
        self.plays = 0
        self.own_played = False
        self.opened_mexican = False
        self.run = self._run_rule and not done >> seat & 1

    def _seats_from(self, first: int) -> list[int]:
        return [(first + i) % self.n for i in range(self.n)]

    def _begin_turn(self, seat: int) -> None:
        self.seat = seat
        self.drew = False
        self.drawn = -1
        self.owe = False
        self.plays = 0
        self.own_played = False
        self.opened_mexican = False
        self.run = self._run_rule and not self.first_done >> seat & 1
        self._legal = None

    # -- explaining a rejection ---------------------------------------------------------

    def why_not(self, tile: Tile) -> IllegalActionError | None:
        """Why the seat to move cannot play ``tile`` now on any train, or None if it can
        play it somewhere: the rule that keeps it off a train whose open end it matches --
        its own train first, then the Mexican train, then the others' in seat order -- in
        preference to its own train's mere "its open end is N" (a tile that matches only
        the Mexican train is told that its own train comes first, that a double may not
        follow a double, that a marker is down...). What a player picking a tile that
        fits nowhere needs to hear."""
        if self.ended is not None:
            return IllegalActionError("round_over", "the round is over: no more actions")
        s = self.seat
        tid = self.ts.ids.get(tile)
        if tid is not None and any(mask >> tid & 1 for _, mask in self.legal_plays()):
            return None
        others = [t for t in range(self.n) if t != s]
        first: IllegalActionError | None = None
        for train in (s, MEXICAN, *others):
            if train != s and not tile.has(self.ends[train]):
                continue  # (a train it does not match says nothing new)
            err = self._explain(Action.play(tile, train))
            if err.code != "wrong_end":
                return err
            first = first or err
        return first

    def _check(self, action: Action) -> str | None:
        """Why ``action`` is illegal now, or None if it is legal."""
        try:
            probe = self.copy()
            probe.apply(action)
        except IllegalActionError as err:
            return str(err)
        return None

    def _explain_seat(self, seat: int) -> IllegalActionError:
        if self.ended is not None:
            return IllegalActionError("round_over", "the round is over: no more actions")
        if not 0 <= seat < self.n:
            return IllegalActionError(
                "no_such_seat",
                f"there is no seat {seat}: seats are 0 to {self.n - 1}",
                seat=seat,
                last=self.n - 1,
            )
        return IllegalActionError(
            "not_your_turn",
            f"it is seat {self.seat}'s turn, not seat {seat}'s",
            seat=seat,
            current=self.seat,
        )

    def _train_label(self, train: int) -> str:
        if train == MEXICAN:
            return "the Mexican train"
        if train == self.seat:
            return "its own train"
        return f"seat {train}'s train"

    def _explain(self, action: Action) -> IllegalActionError:
        """The rule that ``action`` breaks, as an error with a code and its parameters."""
        s = self.seat
        who = f"seat {s}"
        plays, can_draw, _can_pass = self._legal or self._compute_legal()

        def err(code: str, message: str, **params: object) -> IllegalActionError:
            return IllegalActionError(code, message, seat=s, **params)

        if action.kind == "draw":
            if plays:
                return err("must_play", f"{who} can't draw: it has a legal play and must play")
            if self.bone_pos >= len(self.boneyard):
                return err("boneyard_empty", f"{who} can't draw: the boneyard is empty")
            return err("one_draw", f"{who} can't draw again: one draw per turn")
        if action.kind == "pass":
            if self.owe and plays:
                return err(
                    "must_follow_up",
                    f"{who} can't pass: it must follow up its double with a legal tile",
                )
            if not plays and can_draw:
                return err(
                    "must_draw", f"{who} can't pass: it has no legal play and must draw first"
                )
            if self.run and not self.plays:
                return err(
                    "run_pass_after_first",
                    f"{who} can pass on its first-turn run only after playing a tile; "
                    "it has a legal play and must play",
                )
            return err("must_play", f"{who} can't pass: it has a legal play and must play")
        tile, train = action.tile, action.train
        assert tile is not None
        assert train is not None
        ts = self.ts
        t = str(tile)
        if tile not in ts.ids:
            return err(
                "not_in_set",
                f"{t} is not in the double-{ts.max_pip} set",
                tile=t,
                max_pip=ts.max_pip,
            )
        if not (train == MEXICAN or 0 <= train < self.n):
            return err(
                "no_such_train",
                f"there is no train {train_name(train)}: seats are 0 to {self.n - 1}",
                train=train,
                last=self.n - 1,
            )
        tid = ts.ids[tile]
        where = self._train_label(train)
        if not self.hands[s] >> tid & 1:
            return err("not_held", f"{who} can't play {t}: it does not hold that tile", tile=t)
        # an open double that blocks is the first thing in the way, whether or not the
        # tile fits the train chosen (a player told only "its open end is 3" tries
        # another tile there, and is refused again)
        d = self.answer_first()
        if d is not None and train != d:
            pip = self.ends[d]
            return err(
                "open_double_first",
                f"{who} must play on the open double {pip}-{pip} on "
                f"{self._train_label(d)} before anything else",
                double=f"{pip}-{pip}",
                train=d,
            )
        end = self.ends[train]
        if not tile.has(end):
            return err(
                "wrong_end",
                f"{who} can't play {t} on {where}: its open end is {end}",
                tile=t,
                train=train,
                end=end,
            )
        if self.drawn >= 0 and tid != self.drawn:
            drawn = str(ts.tiles[self.drawn])
            if plays:  # the drawn tile fits (it is the only tile that may be played)
                return err(
                    "drawn_tile_only",
                    f"{who} drew {drawn}, which fits: only the drawn tile may be played now",
                    tile=t,
                    drawn=drawn,
                )
            return err(
                "drawn_tile_fits_nowhere",
                f"{who} drew {drawn}, which fits nowhere: after a draw only the drawn tile "
                "may be played, so pass",
                tile=t,
                drawn=drawn,
            )
        rules = self.rules
        if rules.no_going_out_on_double and tile.is_double and self.hands[s].bit_count() == 1:
            return err("no_going_out_on_double", f"{who} can't go out on a double", tile=t)
        if self.owe and rules.double_follow_up == "no_double" and tile.is_double:
            return err(
                "follow_up_no_double",
                f"{who} can't follow up a double with another double",
                tile=t,
            )
        if not self.owe and self.run and self.plays and train != s:
            return err(
                "run_own_train",
                f"{who} is on its first-turn run: those tiles go on its own train only",
                train=train,
            )
        if train == MEXICAN and not self._mexican_open(s, self.turns):
            if rules.mexican_after_own_train and not self.trains[s]:
                return err(
                    "mexican_after_own_train",
                    f"{who} can't play on the Mexican train before starting its own train",
                )
            return err(
                "mexican_after_first_round",
                f"{who} can't play on the Mexican train before everyone has had a turn",
            )
        if train not in (MEXICAN, s) and not self.markers >> train & 1:
            return err(
                "marker_down",
                f"{who} can't play on {where}: its marker is down",
                train=train,
            )
        if rules.own_train_first and train != s:
            return err(
                "own_train_first",
                f"{who} must play on its own train while a tile fits there",
                train=train,
            )
        return err("not_now", f"{who} can't play {t} on {where} now", tile=t, train=train)

    # -- views and records --------------------------------------------------------------

    def view(self, seat: int) -> SeatView:
        """What ``seat`` may see: its own hand, the table, hand sizes, the boneyard's size."""
        from .view import SeatView

        return SeatView.of(self, seat)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form: the rules, the deal as dealt and the actions so far."""
        ts = self.ts
        return {
            "rules": self.rules.to_spec(),
            "players": self.n,
            "round": self.round_index,
            "starter": self.starter,
            "hands": [[str(t) for t in ts.tiles_of(h)] for h in self.initial.hands],
            "boneyard": [str(ts.tiles[i]) for i in self.initial.boneyard],
            "actions": self.record_actions(),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RoundState:
        """Rebuild a state from `to_dict` by replaying its actions through the rules."""
        rules = Rules.from_spec(data["rules"])
        state = cls.from_deal(
            rules,
            data["players"],
            data["round"],
            [[parse_tile(t) for t in hand] for hand in data["hands"]],
            [parse_tile(t) for t in data["boneyard"]],
            data["starter"],
        )
        for text in data["actions"]:
            seat, action = parse_action(text)
            state.apply(action, seat)
        return state

    def fingerprint(self) -> tuple[object, ...]:
        """Everything that makes this state what it is (equal states, equal fingerprints)."""
        return (
            self.rules,
            self.n,
            self.round_index,
            self.starter,
            tuple(self.hands),
            self.boneyard,
            self.bone_pos,
            tuple(self.ends),
            tuple(self.trains),
            self.markers,
            self.open_doubles,
            self.double_by,
            self.seat,
            self.drew,
            self.drawn,
            self.owe,
            self.run,
            self.plays,
            self.own_played,
            self.opened_mexican,
            self.turns,
            self.first_done,
            self.ended,
            self.out_seat,
            tuple(self.history),
        )

    def record_actions(self) -> list[str]:
        """The round's actions in record notation."""
        return [action.notation(seat) for seat, action in self.history]

    def __repr__(self) -> str:
        state = self.ended or f"seat {self.seat} to move"
        return f"<RoundState round {self.round_index} engine {self.engine}: {state}>"
