"""The game both environments drive: a match under the rules, dealt from a seeded RNG, with
the rewards of each round as it ends."""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from mextrain.rules import Action, Match, Rules, SeatView

from .encoding import ActionCodec, ObservationCodec

__all__ = [
    "RENDER_MODES",
    "REWARDS",
    "Game",
    "action_index",
    "check_illegal_reward",
    "check_modes",
    "check_opponents",
    "episode_rules",
    "whole_number",
]

#: ``points``: at each round's end every seat gets minus the points it scored in it (the
#: game is to score few); ``win``: at the episode's end each winner (the lowest total;
#: a tie shares) gets 1 / the number of winners, the others 0
REWARDS: Final = ("points", "win")


def whole_number(value: Any) -> Any:
    """A NumPy integer as Python's own (a setting read from an array); anything else as
    it is, for the setting's own check."""
    if isinstance(value, np.integer):
        return int(value)
    return value


def episode_rules(rules: str | Rules | dict[str, Any], rounds: int | None) -> Rules:
    """The rules of one episode: a preset name, a rules spec or `Rules`, cut to its first
    ``rounds`` rounds (None: the whole match)."""
    base = rules if isinstance(rules, Rules) else Rules.from_spec(rules)
    rounds = whole_number(rounds)
    if rounds is None:
        return base
    if not isinstance(rounds, int) or isinstance(rounds, bool) or rounds < 1:
        raise ValueError(f"rounds must be a whole number of at least 1, not {rounds!r}")
    if rounds > base.round_count:
        raise ValueError(f"these rules have {base.round_count} rounds, not {rounds}")
    return base.with_options(rounds=list(base.rounds[:rounds]))


class Game:
    """A match in play, and the rewards it has paid since `take_rewards` was last called."""

    def __init__(self, rules: Rules, players: int, reward: str) -> None:
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
        players = whole_number(players)
        if not isinstance(players, int) or isinstance(players, bool):
            raise ValueError(f"players must be a whole number, not {players!r}")
        self.rules = rules
        self.players = players
        self.reward = reward
        self.actions = ActionCodec(rules, players)
        self.observations = ObservationCodec(rules, players)
        self.rng = random.Random(0)
        self.match = Match(rules, players)
        self._pending = [0.0] * players

    def reset(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.match = Match.new(self.rules, self.players, self.rng)
        self._pending = [0.0] * self.players

    @property
    def over(self) -> bool:
        return self.match.is_complete

    @property
    def to_move(self) -> int:
        return self.match.current.current_seat

    def view(self, seat: int) -> SeatView:
        return self.match.view(seat)

    def apply(self, seat: int, action: Action) -> None:
        """Take ``action`` for ``seat`` (raises `IllegalActionError`, changing nothing, if it
        is not legal); a round that ends is scored and the next one dealt."""
        state = self.match.current
        state.apply(action, seat)
        if not state.is_over:
            return
        scores = state.scores()
        assert scores is not None
        if self.reward == "points":
            for s, points in enumerate(scores):
                self._pending[s] -= points
        if self.match.is_complete:
            if self.reward == "win":
                winners = self.match.winners
                for s in winners:
                    self._pending[s] += 1.0 / len(winners)
        else:
            self.match.next_round(self.rng)

    def take_rewards(self) -> list[float]:
        out, self._pending = self._pending, [0.0] * self.players
        return out

    def totals_before_round(self) -> list[int]:
        """The match totals of the rounds before the one in play (or the last one)."""
        totals = self.match.totals
        last = self.match.current.scores()  # None while the round is in play
        return totals if last is None else [t - p for t, p in zip(totals, last, strict=True)]

    def observe(self, seat: int) -> dict[str, Any]:
        state = self.match.current
        return {
            "observation": self.observations.encode_state(state, seat, self.totals_before_round()),
            "action_mask": self.actions.mask_of_state(state, seat),
        }

    def mask(self, seat: int) -> npt.NDArray[np.int8]:
        return self.actions.mask_of_state(self.match.current, seat)

    def describe(self, seat: int | None = None) -> str:
        """The position as text (the seat's hand if one is given), for ``render``."""
        state = self.match.current
        view = state.view(seat if seat is not None else state.current_seat)
        lines = [
            f"round {view.round_index + 1}/{self.rules.round_count}, engine "
            f"{view.engine}-{view.engine}, boneyard {view.boneyard_size}, "
            + ("round over" if view.ended else f"seat {view.current_seat} to move")
        ]
        for train in view.trains:
            name = "Mexican" if train.is_mexican else f"seat {train.owner}"
            flags = (" marker" if train.marker_up else "") + (
                " open double" if train.open_double else ""
            )
            lines.append(f"  {name}: {' '.join(train.oriented(view.engine)) or '-'}{flags}")
        lines.append("  hand sizes: " + " ".join(str(n) for n in view.hand_sizes))
        if seat is not None:
            lines.append(f"  seat {seat}'s hand: " + " ".join(str(t) for t in view.hand))
        lines.append("  totals: " + " ".join(str(t) for t in self.match.totals))
        return "\n".join(lines)


#: what ``render()`` can return: the table as text
RENDER_MODES: Final = ("ansi",)


def action_index(value: object) -> int:
    """An action as the index it is: a whole number (a Python or NumPy integer, or a 0-d
    integer array, as learners hand them over), never a float that would be cut down
    (``3.9`` is no action 3) nor a bool."""
    if isinstance(value, np.ndarray) and value.shape == () and value.dtype.kind in "iu":
        value = value.item()
    if isinstance(value, bool | np.bool_) or not isinstance(value, int | np.integer):
        raise ValueError(
            f"an action is a whole number, an index into the action space, not {value!r}"
        )
    return int(value)


def check_modes(illegal: str, render_mode: str | None) -> None:
    """The settings both environments share, checked with a clear error."""
    if illegal not in ("penalty", "raise"):
        raise ValueError(f"illegal must be 'penalty' or 'raise', not {illegal!r}")
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ValueError(f"render_mode must be 'ansi' or None, not {render_mode!r}")


def check_illegal_reward(value: object) -> float:
    """``illegal_reward`` as the float it pays: a real number (a NumPy one too), never a
    bool, text or ``nan``/``inf``, which would poison every return it is added to."""
    if isinstance(value, np.ndarray) and value.shape == () and value.dtype.kind in "iuf":
        value = value.item()
    if (
        isinstance(value, bool | np.bool_)
        or not isinstance(value, int | float | np.integer | np.floating)
        or not math.isfinite(value)
    ):
        raise ValueError(f"illegal_reward must be a finite number, not {value!r}")
    return float(value)


def check_opponents(specs: str | Sequence[str], count: int) -> list[str]:
    """``count`` bot specs: one given for all (a list of one, or the spec itself), or
    exactly one per other seat."""
    # (the types say so already; a caller without a type checker is told, not shown
    # "'NoneType' object is not iterable" or "'int' object has no attribute 'strip'")
    given = specs
    if isinstance(specs, str):
        specs = [specs]
    elif isinstance(specs, Iterable) and not isinstance(specs, bytes | Mapping):
        specs = list(specs)
    if not isinstance(specs, list) or not all(isinstance(spec, str) for spec in specs):
        raise ValueError(
            f"opponents must be a bot spec such as 'planner', or a list of them, not {given!r}"
        )
    if len(specs) == 1:
        specs *= count
    if len(specs) != count:
        raise ValueError(f"give one opponent bot for all seats or {count}, not {len(specs)}")
    return specs
