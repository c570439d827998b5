"""A match: one round per engine of the rules (13 for double-12), scores added up."""

from __future__ import annotations

import random
from collections.abc import Sequence

from .errors import DealError
from .options import Rules, check_rules
from .round import RoundState
from .tiles import Tile
from .view import SeatView

__all__ = ["Match", "winners_of"]


def winners_of(totals: Sequence[int]) -> list[int]:
    """The seats with the lowest total (ties share the win); empty for no totals."""
    if not totals:
        return []
    best = min(totals)
    return [seat for seat, total in enumerate(totals) if total == best]


class Match:
    """The rounds of a game in order; only the last may still be in play."""

    __slots__ = ("_before", "first_starter", "players", "rounds", "rules")

    def __init__(self, rules: Rules, players: int) -> None:
        check_rules(rules)
        rules.check_players(players)
        self.rules = rules
        self.players = players
        self.rounds: list[RoundState] = []
        #: under ``rotate``: the seat that started round 0 (later rounds move one seat on)
        self.first_starter: int | None = None
        #: the totals before the round in play (`view`)
        self._before: tuple[int, ...] = (0,) * players

    @classmethod
    def new(cls, rules: Rules, players: int, rng: random.Random) -> Match:
        """A match with its first round dealt from ``rng``."""
        match = cls(rules, players)
        match.next_round(rng)
        return match

    # -- progress -----------------------------------------------------------------------

    @property
    def current(self) -> RoundState:
        if not self.rounds:
            raise ValueError("no round has been dealt yet")
        return self.rounds[-1]

    @property
    def round_index(self) -> int:
        """The index of the round being played (or next to deal)."""
        return len(self.rounds) - 1

    @property
    def is_complete(self) -> bool:
        return len(self.rounds) == self.rules.round_count and self.rounds[-1].is_over

    def starter_for(self, round_index: int) -> int | None:
        """The seat the rules make start ``round_index`` under ``rotate`` (None otherwise,
        or before round 0's starter is known)."""
        if self.rules.first_player != "rotate" or self.first_starter is None:
            return None
        return (self.first_starter + round_index) % self.players

    def _check_next(self) -> int:
        k = len(self.rounds)
        if self.rounds and not self.rounds[-1].is_over:  # (rounds count from 0: round k - 1)
            raise ValueError(f"round {k - 1} is still in play")
        if k >= self.rules.round_count:
            raise ValueError(f"the match is over: it has {self.rules.round_count} rounds")
        return k

    def next_round(self, rng: random.Random) -> RoundState:
        """Deal the next round from ``rng``."""
        k = self._check_next()
        state = RoundState.new(self.rules, self.players, k, rng, self.starter_for(k))
        return self._add(state)

    def deal_next_round(
        self,
        hands: Sequence[Sequence[Tile]],
        boneyard: Sequence[Tile],
        starter: int | None = None,
    ) -> RoundState:
        """Start the next round from an explicit deal (a record's). Under ``rotate`` the
        starter of round 0 must be given; later rounds follow the rotation."""
        k = self._check_next()
        if self.rules.first_player == "rotate":
            expected = self.starter_for(k)
            if expected is None:
                if starter is None:
                    raise DealError("the first round needs its starting seat")
                expected = starter
            elif starter is not None and starter != expected:
                raise DealError(
                    f"seat {expected} starts round {k} (one seat on each round), not seat {starter}"
                )
            starter = expected
        state = RoundState.from_deal(self.rules, self.players, k, hands, boneyard, starter)
        return self._add(state)

    def _add(self, state: RoundState) -> RoundState:
        if not self.rounds and self.rules.first_player == "rotate":
            self.first_starter = state.starter
        self._before = tuple(self.totals)  # every earlier round is over by now
        self.rounds.append(state)
        return state

    def view(self, seat: int) -> SeatView:
        """What ``seat`` knows of the round in play, with the match totals before it (the
        score sheet everyone sees), as a bot at this table is shown it."""
        return self.current.view(seat)._replace(totals_before=self._before)

    # -- scores -------------------------------------------------------------------------

    @property
    def finished_rounds(self) -> list[RoundState]:
        return [r for r in self.rounds if r.is_over]

    def round_scores(self) -> list[list[int]]:
        """The scores of every finished round."""
        out = []
        for state in self.rounds:
            scores = state.scores()
            if scores is not None:
                out.append(scores)
        return out

    @property
    def totals(self) -> list[int]:
        totals = [0] * self.players
        for scores in self.round_scores():
            for seat, points in enumerate(scores):
                totals[seat] += points
        return totals

    @property
    def winners(self) -> list[int]:
        """The winners once complete; the leaders before; empty before any round ends."""
        if not self.round_scores():
            return []
        return winners_of(self.totals)

    def copy(self) -> Match:
        match = Match(self.rules, self.players)
        match.rounds = [r.copy() for r in self.rounds]
        match.first_starter = self.first_starter
        match._before = self._before
        return match
