"""The statistics' ratings: a skill estimate per person from every finished game, that
counts whom they played (openskill's Plackett-Luce model, as the simulator's ratings).

Each game ranks its seats by total, the lowest first (equal totals share a rank); a
person is one entity in every game (their name as `person_key` reads it), and so is each
bot level (all the "expert" bots are one opponent, whatever their seat), so that a win
against strong bots counts for more than one against beginners. Each seat is ranked as
a player of its own (a person second of four, among three bots of one level, beat two
and lost to one); a level at several seats moves by the sum of its seats' moves. A seat
its person left before the end (a bot finished it for them) is left out of that game,
as the statistics leave it out of their figures, and so is a seat no person and no bot
level stands for (one a bot played throughout for a person kept out of the game). A
game with fewer than two seats left rates nobody.
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
            if key is not None:  # (no person, no bot level: nobody to rate)
                seats.append((key, total))
        if len(seats) < 2:
            continue
        teams = []
        for key, _ in seats:
            mu, sigma, _ = ratings.get(key, (model.mu, model.sigma, 0))
            teams.append([model.rating(mu=mu, sigma=sigma)])
        totals = [total for _, total in seats]
        ranks = [1.0 + sum(other < total for other in totals) for total in totals]
        # each seat is rated as a player of its own; an entity at several seats (three
        # "medium" bots against one person) moves by the sum of its seats' moves, as over
        # games one after the other, and is as sure as its surest seat
        moved: dict[Entity, tuple[float, float]] = {}
        for (key, _), before, team in zip(
            seats, teams, model.rate(teams, ranks=ranks), strict=True
        ):
            step, sigma = moved.get(key, (0.0, before[0].sigma))
            moved[key] = (step + team[0].mu - before[0].mu, min(sigma, team[0].sigma))
        for key, (step, sigma) in moved.items():
            mu, _, played = ratings.get(key, (model.mu, model.sigma, 0))
            ratings[key] = (mu + step, sigma, played + 1)
    return {key: Rating(mu, sigma, n) for key, (mu, sigma, n) in ratings.items()}
