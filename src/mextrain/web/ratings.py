"""The statistics' ratings: a skill estimate per person from every finished game, that
counts whom they played (openskill's Plackett-Luce model, as the simulator's ratings).

Each game ranks its seats by total, the lowest first (equal totals share a rank); a
person is one entity in every game (their name as `person_key` reads it), and so is each
bot level (all the "expert" bots are one opponent, whatever their seat), so that a win
against strong bots counts for more than one against beginners. A seat its person left
before the end (a bot finished it for them) is left out of that game, as the statistics
leave it out of their figures, and so is a seat no person and no bot level stands for
(one a bot played throughout for a person kept out of the game). A game with fewer than
two seats left rates nobody.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from openskill.models import PlackettLuce

from mextrain.store import GameSummary, person_key

__all__ = ["Entity", "Rating", "person_ratings"]

#: who a rating is of: ``("person", person_key(name))`` or ``("bot", level)``
Entity = tuple[str, str]


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


def person_ratings(
    games: Iterable[GameSummary], bot_level: Callable[[str, int], str | None]
) -> dict[Entity, Rating]:
    """Every person's and bot level's rating after ``games``, in the order given (the
    order they finished). ``bot_level``: the level of the bot a seat's name names, or
    None."""
    model = PlackettLuce()
    ratings: dict[Entity, tuple[float, float, int]] = {}
    for game in games:
        seats: list[tuple[Entity, int]] = []
        for seat, (name, total) in enumerate(zip(game.players, game.totals, strict=True)):
            if seat < len(game.left) and game.left[seat]:
                continue
            human = game.humans[seat] if seat < len(game.humans) else False
            level = None if human else bot_level(name, seat)
            key = ("person", person_key(name)) if human else ("bot", level) if level else None
            if key is None or any(key == k for k, _ in seats):
                continue  # (nobody to rate, or one entity twice: two bots of one level)
            seats.append((key, total))
        if len(seats) < 2:
            continue
        teams = []
        for key, _ in seats:
            mu, sigma, _ = ratings.get(key, (model.mu, model.sigma, 0))
            teams.append([model.rating(mu=mu, sigma=sigma)])
        totals = [total for _, total in seats]
        ranks = [1.0 + sum(other < total for other in totals) for total in totals]
        for (key, _), team in zip(seats, model.rate(teams, ranks=ranks), strict=True):
            before = ratings.get(key, (0.0, 0.0, 0))[2]
            ratings[key] = (team[0].mu, team[0].sigma, before + 1)
    return {key: Rating(mu, sigma, n) for key, (mu, sigma, n) in ratings.items()}
