"""An independent reference model of the rules of one round, for the differential test.

`ReferenceRound` plays one round of Mexican Train by the letter of RULES.md. It was written
from the text of the rules, not from the engine (`mextrain.rules.RoundState`), and it is
deliberately simple and slow: hands are sets of `Tile`, trains are lists of tiles, the
boneyard is a list, and every question a rule asks ("what may this seat play now?", "can
anyone still play?", "where does this train end?") is answered from scratch each time it is
asked. It shares nothing with the engine but the public value types (`Tile`, `Rules`,
`Action`, with the `DRAW`, `PASS` and `MEXICAN` constants): no bitmasks, no tile ids, no
cached legal moves.

It exists only to cross-check the engine: `test_rules_differential.py` deals the same round
to both, applies the same actions to both, and compares them after every action. Nothing
outside the tests uses it, and it is not meant to be fast.

Where RULES.md leaves a detail open, the reference follows the project's documentation
(docs/RULES.md, "The fine print") and says so where it does it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from mextrain.rules import DRAW, MEXICAN, PASS, Action, Rules, Tile

__all__ = ["Play", "ReferenceRound"]

#: A play: a tile and the train it goes on (a seat number, or `MEXICAN`).
Play = tuple[Tile, int]

DOUBLE_BLANK = Tile(0, 0)


class ReferenceRound:
    """One round by the letter of RULES.md, recomputing everything it is asked.

    ``hands`` and ``boneyard`` are the deal as dealt (the boneyard top first). ``starter``
    is the starting seat under ``engine_setup: set_aside``; under ``holder_starts`` it is
    ignored and the reference finds the engine's holder itself, after draw cycles if needed.
    """

    def __init__(
        self,
        rules: Rules,
        players: int,
        round_index: int,
        hands: Sequence[Sequence[Tile]],
        boneyard: Sequence[Tile],
        starter: int | None = None,
    ) -> None:
        if len(hands) != players:
            raise ValueError(f"{len(hands)} hands for {players} players")
        self.rules = rules
        self.players = players
        self.engine_pip = rules.rounds[round_index]
        self.hands: list[set[Tile]] = [set(hand) for hand in hands]
        self.boneyard: list[Tile] = list(boneyard)  # what is left to draw, top first
        self.trains: dict[int, list[Tile]] = {train: [] for train in (*range(players), MEXICAN)}
        self.markers: set[int] = set()
        #: (train, seat that played the double) for each open double, oldest first
        self.open_doubles: list[tuple[int, int]] = []
        self.turns_completed = 0
        self.had_first_turn: set[int] = set()
        self.ended: Literal["out", "blocked"] | None = None
        self.out_seat: int | None = None
        if rules.engine_setup == "holder_starts":
            starter = self._holder_places_engine()
        elif starter is None or not 0 <= starter < players:
            raise ValueError(f"set_aside needs a starting seat, not {starter!r}")
        self.starter: int = starter
        self._start_turn(starter)

    # -- the start of the round and of each turn ------------------------------------------

    def _holder_places_engine(self) -> int:
        """``holder_starts``: the engine's holder places it in the centre (it is never
        scored) and starts; while nobody holds it, every seat in order 0, 1, 2, … draws a
        tile (a cycle is completed while tiles remain), cycle after cycle."""
        engine = Tile(self.engine_pip, self.engine_pip)
        while True:
            for seat, hand in enumerate(self.hands):
                if engine in hand:
                    hand.remove(engine)
                    return seat
            if not self.boneyard:
                raise ValueError("nobody holds the engine and the boneyard is empty")
            for seat in range(self.players):
                if self.boneyard:
                    self.hands[seat].add(self.boneyard.pop(0))

    def _start_turn(self, seat: int) -> None:
        self.seat = seat
        self.drew = False  # the seat drew at least once this turn
        self.drawn: Tile | None = None  # the tile drawn since the seat last played, if any
        self.owes_follow_up = False  # the seat's last play was a double
        self.tiles_played = 0  # tiles the seat played this turn
        self.played_on_own_train = False
        self.opened_mexican = False  # the round's first turn started the Mexican train
        #: the first-turn run: on its first turn of the round, a seat may lay tile after
        #: tile on its own train (until it passes, or plays elsewhere, or nothing fits)
        self.on_run = self.rules.first_turn == "run" and seat not in self.had_first_turn

    # -- reading the table ----------------------------------------------------------------

    @property
    def boneyard_size(self) -> int:
        return len(self.boneyard)

    def open_end(self, train: int) -> int:
        """The pip a tile must match to extend ``train``: walk it out from the engine."""
        end = self.engine_pip
        for tile in self.trains[train]:
            end = tile.other_end(end)
        return end

    def fitting(self, tiles: set[Tile], train: int) -> set[Play]:
        """The plays of ``tiles`` that match the open end of ``train``."""
        end = self.open_end(train)
        return {(tile, train) for tile in tiles if tile.has(end)}

    # -- the rules: which tiles, which trains ---------------------------------------------

    def usable_tiles(self, seat: int, follow_up: bool) -> set[Tile]:
        """The seat's tiles that may be played at all, on whatever train."""
        tiles = set(self.hands[seat])
        if follow_up and self.rules.double_follow_up == "no_double":
            # relaxed: a double is followed up by "any legal tile that is not a double"
            tiles = {tile for tile in tiles if not tile.is_double}
        if self.rules.no_going_out_on_double and len(self.hands[seat]) == 1:
            # a double may not be the seat's last tile
            tiles = {tile for tile in tiles if not tile.is_double}
        return tiles

    def mexican_open_to(self, seat: int, turn: int) -> bool:
        """Whether the Mexican train takes tiles from ``seat`` on the turn that comes after
        ``turn`` completed turns (house rules may keep it closed for a while)."""
        if self.rules.mexican_after_own_train and not self.trains[seat]:
            return False
        # "opens once every seat has had a turn"
        return not (self.rules.mexican_after_first_round_of_turns and turn < self.players)

    def reachable_plays(
        self, seat: int, tiles: set[Tile], turn: int, first_play_of_round: bool
    ) -> set[Play]:
        """Plays of ``tiles`` on the trains the seat may reach: its own train always, the
        Mexican train (when open to it), the other seats' trains whose marker is up.

        Under ``own_train_first`` the Mexican train and marked trains only when nothing of
        ``tiles`` fits the seat's own train, except that the round's very first play may open
        the Mexican train instead of the starter's own train.
        """
        own = self.fitting(tiles, seat)
        mexican = self.fitting(tiles, MEXICAN) if self.mexican_open_to(seat, turn) else set()
        if self.rules.own_train_first and own:
            if first_play_of_round and not self.trains[MEXICAN]:
                return own | mexican
            return own
        marked: set[Play] = set()
        for owner in self.markers - {seat}:
            marked |= self.fitting(tiles, owner)
        return own | mexican | marked

    def turn_plays(
        self, seat: int, tiles: set[Tile], turn: int, first_play_of_round: bool = False
    ) -> set[Play]:
        """Plays of ``tiles`` that begin a turn's play (no double owed, no run going on).

        Under ``open_doubles_block``, while a double stands open, the only legal play is on
        the oldest open double, wherever it stands, marked or not.
        """
        if self.rules.open_doubles_block and self.open_doubles:
            oldest_train = self.open_doubles[0][0]
            return self.fitting(tiles, oldest_train)
        return self.reachable_plays(seat, tiles, turn, first_play_of_round)

    def plays(self) -> set[Play]:
        """Every play open to the seat to move, right now."""
        seat = self.seat
        tiles = self.usable_tiles(seat, follow_up=self.owes_follow_up)
        if self.drawn is not None:
            # after a draw only the drawn tile may be played: it is the only candidate, so
            # own_train_first asks whether *it* fits the seat's own train
            tiles &= {self.drawn}
        if self.owes_follow_up:
            # a double's follow-up goes anywhere the normal rules allow, even under
            # open_doubles_block (inside the turn that played the double)
            return self.reachable_plays(seat, tiles, self.turns_completed, False)
        if self.on_run and self.tiles_played:
            # every tile of a run goes on the seat's own train
            return self.fitting(tiles, seat)
        first_play_of_round = self.turns_completed == 0 and self.tiles_played == 0
        return self.turn_plays(seat, tiles, self.turns_completed, first_play_of_round)

    def could_play_on_next_turn(self, seat: int) -> bool:
        """Whether ``seat`` would have a play if a turn of its began now, with the table
        as it stands (for the blocked check at the end of a turn): RULES.md's "no seat has
        a legal play in the position as it stands", the turns played so far included, so
        a Mexican train still closed by the Mexican-after-a-round rule counts as closed."""
        tiles = self.usable_tiles(seat, follow_up=False)
        return bool(self.turn_plays(seat, tiles, self.turns_completed))

    def legal_actions(self) -> set[Action]:
        """Every action the seat to move may take (none once the round is over)."""
        if self.ended is not None:
            return set()
        plays = self.plays()
        if plays:
            # must play; the only pass allowed with a play in hand ends a first-turn run
            actions = {Action.play(tile, train) for tile, train in plays}
            if self.on_run and self.tiles_played and not self.owes_follow_up:
                actions.add(PASS)
            return actions
        if self.boneyard and (not self.drew or self.rules.draw_until_playable):
            return {DRAW}
        return {PASS}

    # -- actions --------------------------------------------------------------------------

    def apply(self, action: Action) -> None:
        """Take ``action`` for the seat to move; raise `ValueError` if it is not legal."""
        if action not in self.legal_actions():
            raise ValueError(f"{action} is not legal for seat {self.seat} in the reference")
        if action.kind == "draw":
            tile = self.boneyard.pop(0)
            self.hands[self.seat].add(tile)
            self.drew = True
            self.drawn = tile
        elif action.kind == "pass":
            # forced: the seat has no legal play (and cannot draw, or it would have to)
            self._end_turn(forced=not self.plays())
        else:
            assert action.tile is not None
            assert action.train is not None
            self._play(action.tile, action.train)

    def _play(self, tile: Tile, train: int) -> None:
        seat = self.seat
        self.hands[seat].remove(tile)
        self.trains[train].append(tile)
        # a tile on a train covers the open double at its end, if there was one
        self.open_doubles = [(t, by) for t, by in self.open_doubles if t != train]
        if tile.is_double:
            self.open_doubles.append((train, seat))
        self.tiles_played += 1
        self.drawn = None
        if train == seat:
            self.played_on_own_train = True
            self.markers.discard(seat)  # only the owner's play takes its marker down
        elif train == MEXICAN and self.turns_completed == 0 and len(self.trains[MEXICAN]) == 1:
            self.opened_mexican = True
        if not self.hands[seat]:
            self.ended = "out"  # going out ends the round at once, on a double too
            self.out_seat = seat
            return
        if tile.is_double:
            self.owes_follow_up = True  # the turn goes on
            if train != seat:
                self.on_run = False
            return
        self.owes_follow_up = False
        if self.on_run and train == seat:
            if not self.plays():
                self._end_turn(forced=False)  # nothing more fits: the run ends the turn
        else:
            self.on_run = False
            self._end_turn(forced=False)

    def _end_turn(self, forced: bool) -> None:
        seat = self.seat
        if self.rules.marker_rule == "forced_pass":
            if forced:
                self.markers.add(seat)
        elif not self.played_on_own_train and not self.opened_mexican:
            self.markers.add(seat)
        self.turns_completed += 1
        self.had_first_turn.add(seat)
        if not self.boneyard and not any(
            self.could_play_on_next_turn(other) for other in range(self.players)
        ):
            self.ended = "blocked"
            return
        self._start_turn((seat + 1) % self.players)

    # -- the end --------------------------------------------------------------------------

    def scores(self) -> list[int] | None:
        """Each seat's points once the round is over: the pips left in its hand, the
        double blank counting ``double_blank_points``; plus, for every double still open,
        ``unsatisfied_double_penalty`` for the seat that played it (RULES.md says only
        "points at round end"; docs/RULES.md names that seat), unless it went out: a seat
        that went out scores 0."""
        if self.ended is None:
            return None
        points = []
        for hand in self.hands:
            total = sum(tile.low + tile.high for tile in hand)
            if DOUBLE_BLANK in hand:
                total += self.rules.double_blank_points
            points.append(total)
        for _train, by in self.open_doubles:
            if by != self.out_seat:
                points[by] += self.rules.unsatisfied_double_penalty
        return points
