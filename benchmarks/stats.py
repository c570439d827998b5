"""How long the web server's statistics take to read, with their ratings, as games pile up.

    python benchmarks/stats.py [--games 10000] [--people 40]

Fills a fresh store with ``--games`` finished 4-seat games (two people drawn from
``--people`` and two bots each) and times ``/api/stats``' reading of it three ways, in the
same run: without the ratings (the figures alone, the peer to compare with), with the
ratings worked out afresh (the first request after a game is kept), and with the ratings
kept (every other request). Compare the ratios, not raw figures: machines are noisy.
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from pathlib import Path

from mextrain.store import Store
from mextrain.web.app import _stats
from mextrain.web.ratings import Entity, Rating, RatingsKept
from mextrain.web.tables import bot_level_of


class NoRatings(RatingsKept):
    """The peer: the statistics' figures, no rating worked out."""

    def of(self, store: Store) -> dict[Entity, Rating]:
        return {}


def fill(store: Store, games: int, people: int, seed: int = 1) -> None:
    rng = random.Random(seed)
    names = [f"Person {i}" for i in range(people)]
    for g in range(games):
        players = [*rng.sample(names, 2), "Bot 3 (medium)", "Bot 4 (expert)"]
        totals = [rng.randint(0, 80) for _ in players]
        table = store.create_table(f"B{g:07d}", {}, "s")
        store.save_game(
            table, "{}", players, [True, True, False, False], totals, [totals.index(min(totals))]
        )


def timed(store: Store, kept: RatingsKept, repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        _stats(store, None, kept)
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--people", type=int, default=40)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        store = Store(Path(folder) / "stats.sqlite3")
        try:
            fill(store, args.games, args.people)
            alone = timed(store, NoRatings(bot_level_of))

            class Afresh(RatingsKept):
                def of(self, store: Store) -> dict[Entity, Rating]:
                    return RatingsKept(bot_level_of).of(store)

            afresh = timed(store, Afresh(bot_level_of))
            kept = RatingsKept(bot_level_of)
            kept.of(store)
            again = timed(store, kept)
        finally:
            store.close()
    print(f"{args.games:,} games, {args.people} people, best of 3")
    print(f"  figures alone (the peer)   {alone * 1000:8.1f} ms   1.00x")
    print(f"  ratings worked out afresh  {afresh * 1000:8.1f} ms   {afresh / alone:5.2f}x")
    print(f"  ratings kept               {again * 1000:8.1f} ms   {again / alone:5.2f}x")


if __name__ == "__main__":
    main()
