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
game with fewer than two seats left rates nobody, and nor does a game where a move was
taken back (alone against bots): its result says little of a skill, and taking moves back
until a game is won would buy a rating. (`mextrain.sim.ratings` rates them.)
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable

from mextrain.sim.ratings import Rating, rate_games
from mextrain.store import GameSummary, Store, person_key

__all__ = ["Entity", "Rating", "RatingsKept", "person_ratings"]

#: who a rating is of: ``("person", person_key(name))`` or ``("bot", level)``
Entity = tuple[str, str]


def person_ratings(
    games: Iterable[GameSummary], bot_level: Callable[[str, int], str | None]
) -> dict[Entity, Rating]:
    """Every person's and bot level's rating after ``games``, in the order given (the
    order they finished). ``bot_level``: the level of the bot a seat's name names, or
    None."""

    def seats(game: GameSummary) -> list[tuple[Entity, int]]:
        rated: list[tuple[Entity, int]] = []
        if game.taken_back:
            return rated
        for seat, (name, total) in enumerate(zip(game.players, game.totals, strict=True)):
            if seat < len(game.left) and game.left[seat]:
                continue
            human = game.humans[seat] if seat < len(game.humans) else False
            level = None if human else bot_level(name, seat)
            key = ("person", person_key(name)) if human else ("bot", level) if level else None
            if key is not None:  # (no person, no bot level: nobody to rate)
                rated.append((key, total))
        return rated

    return rate_games(seats(game) for game in games)


class RatingsKept:
    """The ratings of every game a store keeps, worked out again only once another game
    is kept (`Store.games_mark`): with thousands of games, rating them all took a second
    of every request for the statistics. Safe to share between threads."""

    def __init__(self, bot_level: Callable[[str, int], str | None]) -> None:
        self._bot_level = bot_level
        self._lock = threading.Lock()
        self._mark: tuple[int, int] | None = None
        self._ratings: dict[Entity, Rating] = {}

    def of(self, store: Store) -> dict[Entity, Rating]:
        mark = store.games_mark()
        with self._lock:
            if mark == self._mark:
                return self._ratings
        ratings = person_ratings(store.all_results(), self._bot_level)
        with self._lock:  # (two requests at once may both work it out: the same ratings)
            self._mark, self._ratings = mark, ratings
        return ratings
