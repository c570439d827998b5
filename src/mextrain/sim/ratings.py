"""Ratings over games played one after another: a skill estimate per player that counts
whom each game was against (openskill's Plackett-Luce model, as the tournaments' ratings
in `report`). The statistics of the web server and of `mextrain play` rank their people,
and the bot levels they met, with it.

Each game ranks its seats by total, the lowest first (equal totals share a rank), each
seat a player of its own; one entity at several seats (three "medium" bots against one
person) moves by the sum of its seats' moves, as over games played one after the other,
and is as sure as its surest seat after the game. A game of fewer than two seats rates
nobody.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from openskill.models import PlackettLuce

__all__ = ["Rating", "rate_games"]

Who = TypeVar("Who", bound=Hashable)


@dataclass(frozen=True)
class Rating:
    """A skill estimate: ``mu`` its mean, ``sigma`` its uncertainty, ``games`` the games
    rated. ``shown``, what the statistics show: ``mu - 3 sigma``, an estimate the skill
    is very likely above (0 for someone new, rising as games tell more)."""

    mu: float
    sigma: float
    games: int

    @property
    def shown(self) -> float:
        return self.mu - 3 * self.sigma


def rate_games(games: Iterable[Sequence[tuple[Who, int]]]) -> dict[Who, Rating]:
    """Every player's rating after ``games`` in the order given, each game its seats'
    ``(player, total)``."""
    model = PlackettLuce()
    ratings: dict[Who, tuple[float, float, int]] = {}
    for seats in games:
        if len(seats) < 2:
            continue
        teams = []
        for who, _ in seats:
            mu, sigma, _ = ratings.get(who, (model.mu, model.sigma, 0))
            teams.append([model.rating(mu=mu, sigma=sigma)])
        totals = [total for _, total in seats]
        ranks = [1.0 + sum(other < total for other in totals) for total in totals]
        moved: dict[Who, tuple[float, float]] = {}
        after = model.rate(teams, ranks=ranks)
        for (who, _), before, team in zip(seats, teams, after, strict=True):
            step, sigma = moved.get(who, (0.0, team[0].sigma))
            moved[who] = (step + team[0].mu - before[0].mu, min(sigma, team[0].sigma))
        for who, (step, sigma) in moved.items():
            mu, _, played = ratings.get(who, (model.mu, model.sigma, 0))
            ratings[who] = (mu + step, sigma, played + 1)
    return {who: Rating(mu, sigma, n) for who, (mu, sigma, n) in ratings.items()}
