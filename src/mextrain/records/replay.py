"""Replaying a record through the engine, stopping at the first rule it breaks.

Every deal goes through `Match.deal_next_round` and every action through
`RoundState.apply`: the engine alone says what is legal, and its messages are the reasons
given. This module only checks what the record claims against what the engine computes
(the engine, the starter, the result) and the record's own order of rounds.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from mextrain.rules import (
    DealError,
    IllegalActionError,
    Match,
    RoundEnd,
    RoundState,
    Tile,
    tile_set,
)

from .errors import IllegalRecordError, shorten_numbers
from .record import GameRecord, RoundRecord, load_record, show_number

__all__ = ["ReplayResult", "RoundOutcome", "replay_record"]


@dataclass(frozen=True, slots=True)
class RoundOutcome:
    """How a replayed round stands: ``ended`` and ``scores`` are None while it is in play."""

    engine: int
    ended: RoundEnd | None
    scores: list[int] | None

    def to_json_dict(self) -> dict[str, Any]:
        return {"engine": self.engine, "ended": self.ended, "scores": self.scores}


@dataclass(frozen=True)
class ReplayResult:
    """A legal record, replayed: the `Match` as it stands and its scores."""

    record: GameRecord
    match: Match
    rounds: list[RoundOutcome]
    #: points per seat over the finished rounds
    totals: list[int]
    #: the lowest totals: the winners when complete, the leaders before, [] before any
    #: round has finished
    winners: list[int]
    #: every round of the rules has been played to its end
    complete: bool

    @property
    def players(self) -> tuple[str, ...]:
        return self.record.players

    def to_json_dict(self) -> dict[str, Any]:
        """``mextrain replay --json``'s object for a legal record (docs/RECORDS.md)."""
        return {
            "valid": True,
            "complete": self.complete,
            "rounds": [r.to_json_dict() for r in self.rounds],
            "totals": list(self.totals),
            "winners": list(self.winners),
        }


def replay_record(record: GameRecord | str | bytes | Mapping[str, Any]) -> ReplayResult:
    """Replay ``record`` under its rules; raise `IllegalRecordError` at the first problem.

    JSON text or a parsed object is read with `load_record` first (`RecordFormatError`).
    """
    if not isinstance(record, GameRecord):
        record = load_record(record)
    rules = record.rules
    players = len(record.players)
    if not rules.allows_players(players):
        lo, hi = rules.players
        allowed = f"{lo} players" if lo == hi else f"{lo} to {hi} players"  # (not "2 to 2")
        raise IllegalRecordError(
            None,
            None,
            None,
            f"these rules are for {allowed}, and the record has {players}",
        )
    match = Match(rules, players)
    for k, rnd in enumerate(record.rounds):
        if k > 0 and not match.current.is_over:
            raise IllegalRecordError(
                k - 1,
                None,
                None,
                f"round {k - 1} is not finished, yet the record goes on to round {k}: "
                "every round but the last must be played to its end",
            )
        state = _deal(match, k, rnd)
        _play(state, k, rnd, record.players)
    _check_result(record, match)
    return ReplayResult(
        record=record,
        match=match,
        rounds=[_outcome(state) for state in match.rounds],
        totals=match.totals,
        winners=match.winners,
        complete=match.is_complete,
    )


def _outcome(state: RoundState) -> RoundOutcome:
    scores = state.scores()
    return RoundOutcome(state.engine, state.ended, scores)


def _deal(match: Match, k: int, rnd: RoundRecord) -> RoundState:
    """Check the round's engine, deal and starter; return the dealt round."""
    rules = match.rules
    players = match.players

    def illegal(reason: str) -> IllegalRecordError:
        return IllegalRecordError(k, None, None, reason)

    if k >= rules.round_count:
        count = rules.round_count
        played = f"{count} rounds (0 to {count - 1})" if count != 1 else "1 round (round 0)"
        raise illegal(f"these rules play {played}: there is no round {k}")
    engine = rules.engine_for(k)
    if rnd.engine != engine:
        raise illegal(
            f"round {k} is played with the engine {engine}-{engine}, not {_double(rnd.engine)}"
        )
    size = rules.hand_size_for(players)
    if len(rnd.hands) != players:
        dealt = f"{len(rnd.hands)} hand" + ("" if len(rnd.hands) == 1 else "s")
        raise illegal(f"the deal has {dealt} for {players} players")
    for seat, hand in enumerate(rnd.hands):
        if len(hand) != size:
            raise illegal(
                f"seat {seat} was dealt {len(hand)} tiles; with {players} players each seat "
                f"gets {size}"
            )
    _check_in_set(match, rnd)
    under_rotate = rules.first_player == "rotate"
    # The engine decides the starter except in round 0 under `rotate` (chosen at random,
    # so the record says it); a given starter must agree with the engine.
    given = rnd.starter if under_rotate and k == 0 else None
    no_seat = given is not None and not 0 <= given < players
    try:
        # (a starter that is no seat is refused after the deal's own checks, in the engine's
        # order, but with the value given, which the engine's words leave out: dealt with
        # seat 0 meanwhile)
        state = match.deal_next_round(rnd.hands, rnd.boneyard, 0 if no_seat else given)
    except DealError as err:
        raise illegal(str(err)) from None
    if no_seat and given is not None:
        raise illegal(
            f"the starting seat must be a seat from 0 to {players - 1}, not {show_number(given)}"
        )
    if rnd.starter is not None and rnd.starter != state.starter:
        if under_rotate:
            why = "the starting seat moves one seat on each round"
        elif state.boneyard_size < len(rnd.boneyard):
            why = f"it drew the engine {_double(engine)} in the draw cycles"
        else:
            why = f"it holds the engine {_double(engine)}"
        raise illegal(
            f"seat {state.starter} starts round {k} ({why}), not seat {show_number(rnd.starter)}"
        )
    return state


def _check_in_set(match: Match, rnd: RoundRecord) -> None:
    """A readable tile outside the rules' set is illegal (the engine names it)."""
    places: list[tuple[str, Sequence[Tile]]] = [
        (f"seat {seat}'s hand", hand) for seat, hand in enumerate(rnd.hands)
    ]
    places.append(("the boneyard", rnd.boneyard))
    max_pip = match.rules.max_pip
    ts = tile_set(max_pip)
    for where, tiles in places:
        for tile in tiles:
            if tile not in ts:
                raise IllegalRecordError(
                    len(match.rounds),
                    None,
                    None,
                    f"{_tile(tile)} in {where} is not in the double-{max_pip} set "
                    f"(pips go from 0 to {max_pip})",
                )


def _play(state: RoundState, k: int, rnd: RoundRecord, players: Sequence[str]) -> None:
    for i, recorded in enumerate(rnd.actions):
        if state.is_over:
            raise IllegalRecordError(
                k, i, recorded.text, f"the round is already over ({_how_ended(state)})"
            )
        try:
            state.apply(recorded.action, seat=recorded.seat)
        except IllegalActionError as err:
            raise IllegalRecordError(
                k, i, recorded.text, shorten_numbers(str(err)), cause=err, players=players
            ) from None


def _how_ended(state: RoundState) -> str:
    if state.ended == "out":
        return f"seat {state.out_seat} went out"
    return "it is blocked: nobody can play and the boneyard is empty"


def _check_result(record: GameRecord, match: Match) -> None:
    result = record.result
    if result is None:
        return
    computed = match.round_scores()
    claimed = [list(s) for s in result.scores]
    for k in range(max(len(computed), len(claimed))):
        if k >= len(claimed):
            raise IllegalRecordError(
                k,
                None,
                None,
                f"the result gives no scores for round {k}, which ended with scores "
                f"{_numbers(computed[k])}",
            )
        if k >= len(computed):
            state = "is still in play" if k < len(match.rounds) else "is not in the record"
            raise IllegalRecordError(
                k,
                None,
                None,
                f"the result gives scores {_numbers(claimed[k])} for round {k}, but that "
                f"round {state}",
            )
        if claimed[k] != computed[k]:
            raise IllegalRecordError(
                k,
                None,
                None,
                f"the result says round {k} scored {_numbers(claimed[k])}, but the tiles left "
                f"in the hands score {computed[k]}",
            )
    if list(result.totals) != match.totals:
        raise IllegalRecordError(
            None,
            None,
            None,
            f"the result's totals {_numbers(result.totals)} are wrong: the finished rounds "
            f"add up to {match.totals}",
        )


def _numbers(values: Sequence[int]) -> str:
    """A list of numbers as a message writes it: ``[0, 11]``, a long one shortened."""
    return f"[{', '.join(show_number(v) for v in values)}]"


def _double(pip: int) -> str:
    """``6-6``; a pip no tile has is shown as the number it is (``-1``, not ``-1--1``),
    a long one shortened (`show_number`)."""
    shown = show_number(pip)
    return f"{shown}-{shown}" if pip >= 0 else shown


def _tile(tile: Tile) -> str:
    """``5-12``, a pip too long to write out shortened (`show_number`)."""
    return f"{show_number(tile.low)}-{show_number(tile.high)}"
