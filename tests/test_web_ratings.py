"""The statistics' ratings (`mextrain.web.ratings`): a skill estimate per person that
counts whom they played, bots by level, from every finished game in the order played."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from mextrain.store import GameSummary, Store
from mextrain.web import Settings, create_app
from mextrain.web.ratings import person_ratings
from mextrain.web.tables import bot_level_of


def game(
    players: Sequence[str],
    totals: Sequence[int],
    humans: Sequence[bool] | None = None,
    left: Sequence[bool] = (),
) -> GameSummary:
    low = min(totals)
    return GameSummary(
        id=0,
        finished=0.0,
        players=tuple(players),
        totals=tuple(totals),
        winners=tuple(s for s, t in enumerate(totals) if t == low),
        humans=tuple(humans if humans is not None else [not p.startswith("Bot ") for p in players]),
        left=tuple(left),
    )


def shown(games: Sequence[GameSummary]) -> dict[str, float]:
    """Each person's shown rating (bots as "bot:LEVEL")."""
    return {
        (key if kind == "person" else f"bot:{key}"): rating.shown
        for (kind, key), rating in person_ratings(games, bot_level_of).items()
    }


def test_a_win_rates_above_a_loss_and_equal_totals_rate_alike() -> None:
    after = shown([game(["Ana", "Ben"], [0, 30])])
    assert after["ana"] > 0 > after["ben"]  # (both started at 0: mu 25, sigma 25/3)
    tied = shown([game(["Ana", "Ben"], [12, 12])])
    assert tied["ana"] == pytest.approx(tied["ben"])
    # three seats: the lowest total first, the highest last
    three = shown([game(["Ana", "Ben", "Cy"], [40, 0, 15])])
    assert three["ben"] > three["cy"] > three["ana"]


def test_a_win_against_a_strong_bot_counts_for_more_than_one_against_a_weak_one() -> None:
    """The point of a rating over a win rate: whom the wins came against. Bots are one
    opponent per level, whatever their seat."""
    history = [game(["Cy", "Bot 2 (expert)"], [20, 0]) for _ in range(6)]
    history += [game(["Cy", "Bot 2 (beginner)"], [0, 20]) for _ in range(6)]
    before = shown(history)
    assert before["bot:expert"] > before["cy"] > before["bot:greedy"]
    # Ana beats the expert once (from seat 3), Ben the beginner once
    after = shown([*history, game(["Ana", "Cy", "Bot 3 (expert)"], [0, 10, 30])])
    other = shown([*history, game(["Ben", "Cy", "Bot 3 (beginner)"], [0, 10, 30])])
    assert after["ana"] > other["ben"]
    assert after["bot:expert"] < before["bot:expert"]


def test_every_seat_counts_where_bots_of_one_level_sit_at_several() -> None:
    """One person against three bots of one level (the usual table): the person's place
    among all four counts, not against the first of the bots alone (which rated second
    place, behind a bot, as a win when that first bot came last)."""
    bots = ["Bot 2 (medium)", "Bot 3 (medium)", "Bot 4 (medium)"]
    first = shown([game(["Ana", *bots], [0, 40, 20, 30])])
    second = shown([game(["Ana", *bots], [10, 40, 0, 30])])
    last = shown([game(["Ana", *bots], [50, 40, 0, 30])])
    assert first["ana"] > second["ana"] > last["ana"]
    assert first["bot:medium"] < second["bot:medium"] < last["bot:medium"]
    # the level is rated once for the game, however many seats it had
    rated = person_ratings([game(["Ana", *bots], [10, 40, 0, 30])], bot_level_of)
    assert rated[("bot", "medium")].games == 1


def test_a_seat_left_before_the_end_or_played_for_nobody_is_not_rated() -> None:
    # Ana left (a bot finished her seat): the game is Ben's against the bot alone
    after = shown([game(["Ana", "Ben", "Bot 3 (beginner)"], [50, 0, 10], left=[True])])
    assert "ana" not in after
    assert after["ben"] > after["bot:greedy"]
    # a seat a bot played throughout for a person kept out of the game: no one to rate
    kept = shown([game(["Ana", "Ben"], [0, 9], humans=[True, False])])
    assert kept == {}  # (and a game with one seat left to rate rates nobody)


def test_games_are_rated_in_the_order_they_finished(tmp_path: Path) -> None:
    """The same results in another order rate differently: the store gives them in the
    order the games finished, its numbers apart."""
    store = Store(tmp_path / "order.sqlite3")
    try:
        results = [(["Ana", "Ben"], [0, 10]), (["Ben", "Ana"], [0, 10]), (["Ana", "Ben"], [0, 10])]
        for n, (players, totals) in enumerate(results):
            table = store.create_table(f"ORDER{n}", {}, "s")
            winners = [totals.index(0)]
            store.save_game(table, "{}", players, [True, True], totals, winners)
        games = store.all_results()
        assert [g.players for g in games] == [tuple(p) for p, _ in results]
        assert [g.totals for g in games] == [tuple(t) for _, t in results]
        assert [g.winners for g in games] == [(0,), (0,), (0,)]
        assert games == sorted(store.recent_games(10), key=lambda g: g.id)
        assert shown(games)["ana"] > shown(games)["ben"]  # (2 wins of 3)
    finally:
        store.close()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[TestClient]:
    db = tmp_path / "ratings.sqlite3"
    store = Store(db)
    try:
        for n, (players, humans, totals, left) in enumerate(
            [
                (["Ana", "Bot 2 (expert)"], [True, False], [0, 25], [False, False]),
                (["Ana", "Ben"], [True, True], [3, 20], [False, False]),
                (["Cy", "Ben"], [True, True], [40, 3], [True, False]),
                (["Ben", "Bot 2 (beginner)"], [True, False], [30, 2], [False, False]),
            ]
        ):
            table = store.create_table(f"RATE{n}A", {}, "s")
            winners = [totals.index(min(totals))]
            store.save_game(table, "{}", players, humans, totals, winners, left)
    finally:
        store.close()
    with TestClient(create_app(db, Settings())) as client:
        yield client


def test_the_statistics_give_each_person_and_bot_level_a_rating(server: TestClient) -> None:
    stats = server.get("/api/stats").json()
    rows = {p["name"]: p for p in stats["players"]}
    assert rows["Ana"]["rating"] > rows["Ben"]["rating"]  # (2 wins of 2; 1 of 3)
    assert rows["Cy"]["rating"] is None  # (his only game he left)
    expected = shown(
        [
            game(["Ana", "Bot 2 (expert)"], [0, 25]),
            game(["Ana", "Ben"], [3, 20]),
            game(["Cy", "Ben"], [40, 3], left=[True]),
            game(["Ben", "Bot 2 (beginner)"], [30, 2]),
        ]
    )
    assert rows["Ana"]["rating"] == round(expected["ana"], 2)
    assert rows["Ben"]["rating"] == round(expected["ben"], 2)
    # the games each was rated on: Ben's game against Cy, who left it, rated neither
    assert [rows[n]["rated_games"] for n in ("Ana", "Ben", "Cy")] == [2, 2, 0]
    assert [rows[n]["games"] for n in ("Ana", "Ben", "Cy")] == [2, 3, 0]
    # the bot levels met, as the lobby lists them, weakest first
    assert stats["bots"] == [
        {"level": "greedy", "rating": round(expected["bot:greedy"], 2), "games": 1},
        {"level": "expert", "rating": round(expected["bot:expert"], 2), "games": 1},
    ]
    # one person's row has the rating it has among everyone (it counts whom they played)
    assert server.get("/api/stats?name=ben").json()["players"] == [rows["Ben"]]


def test_the_ratings_are_worked_out_again_only_once_another_game_is_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Rating every game took a second of each request for the statistics on a server
    of 10,000 games: they are kept, and worked out again once another game is kept."""
    import mextrain.web.ratings as ratings_module

    worked: list[int] = []
    real = ratings_module.person_ratings

    def counted(games: Sequence[GameSummary], bot_level: object) -> object:
        worked.append(1)
        return real(games, bot_level_of)

    monkeypatch.setattr(ratings_module, "person_ratings", counted)
    kept = ratings_module.RatingsKept(bot_level_of)
    store = Store(tmp_path / "kept.sqlite3")
    try:
        assert kept.of(store) == {}
        table = store.create_table("KEPT1", {}, "s")
        store.save_game(table, "{}", ["Ana", "Ben"], [True, True], [0, 10], [0])
        first = kept.of(store)
        assert first[("person", "ana")].shown > first[("person", "ben")].shown
        assert kept.of(store) is first  # (nothing new: not worked out again)
        assert len(worked) == 2
        table = store.create_table("KEPT2", {}, "s")
        store.save_game(table, "{}", ["Ana", "Ben"], [True, True], [10, 0], [1])
        second = kept.of(store)
        assert len(worked) == 3
        assert second[("person", "ana")].games == 2
        assert store.games_mark() == (2, 2)
    finally:
        store.close()
