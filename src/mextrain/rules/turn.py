"""Where a round stands within its turns: public facts that the table alone does not show.

Two positions with the same table, hands and boneyard can still differ in what happens
next: whether the seat to move has played on its own train this turn (so passing now
leaves its marker down), whether it is on its first-turn run, whether every seat has had
its first turn (`mexican_after_first_round_of_turns`). The engine keeps these as it goes
(`RoundState.turn_state`); a seat reads the same from the public history
(`SeatView.turn_state`), and a test checks that the two always agree.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

from .actions import Action
from .options import Rules

if TYPE_CHECKING:
    from .round import RoundEnd

__all__ = ["TurnState", "turn_state_of"]


class TurnState(NamedTuple):
    """The round's progress through its turns, as the engine keeps it.

    ``turns`` and ``first_turn_done`` count turns already ended; the rest is about the
    turn in progress, of the seat to move. (The engine also notes a turn that opened the
    Mexican train in the round's first turn, which keeps the marker down; no seat ever
    decides with that note set, since the engine is the only double that could open it and
    the note lasts one play.) Once a round is over they stay as its last turn
    left them: a round that ends blocked ends that turn first; when a seat goes out the
    engine stops at once, its turn not ended and its run flag as it was before the tile.
    """

    #: turns ended this round (every seat's turn counts, the starter's first included)
    turns: int
    #: by seat: it has ended its first turn of the round
    first_turn_done: tuple[bool, ...]
    #: tiles the seat to move has played this turn
    plays: int
    #: the seat to move has played on its own train this turn (its marker stays down
    #: when it passes, except under ``marker_rule: forced_pass``)
    own_played: bool
    #: the seat to move is on its first-turn run (``first_turn: run``): after its first
    #: tile, further tiles go on its own train only, and it may stop by passing
    run: bool


def turn_state_of(
    rules: Rules,
    players: int,
    starter: int,
    history: Sequence[tuple[int, Action]],
    current_seat: int,
    ended: RoundEnd | None,
) -> TurnState:
    """The `TurnState` that ``history`` (a round's public history, from its starter's
    first action) leads to, with ``current_seat`` to move and the round ``ended`` or not.

    A turn never passes without an action, and no seat has two turns in a row, so a turn
    ends where the acting seat changes, or after the last action when the seat to move is
    another one.
    """
    run_rule = rules.first_turn == "run"
    seat = starter
    turns = 0
    done = 0
    plays = 0
    own = False
    run = run_rule

    last = len(history) - 1
    for i, (s, action) in enumerate(history):
        if s != seat:
            turns += 1
            done |= 1 << seat
            seat = s
            plays = 0
            own = False
            run = run_rule and not done >> s & 1
        if action.kind != "play":
            continue
        plays += 1
        if action.train == s:
            own = True
        elif not (i == last and ended == "out"):  # going out stops the engine first
            run = False
    if ended == "blocked" or (ended is None and current_seat != seat):
        # the last action ended its turn (a blocked round ends the turn, then stops)
        turns += 1
        done |= 1 << seat
        if ended is None:
            plays = 0
            own = False
            run = run_rule and not done >> current_seat & 1
    return TurnState(
        turns=turns,
        first_turn_done=tuple(bool(done >> i & 1) for i in range(players)),
        plays=plays,
        own_played=own,
        run=run,
    )
