"""Taking a move back in the browser (``undo``), alone against bots: the round goes back
to before the person's latest decision, the bots' replies with it, kept in the log as
every change is; refused, and said why, wherever it would wrong someone."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from mextrain.web import create_app
from test_web import Conn, create, errors_of, eventually, is_state, my_turn, play_out, settings


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "undo.sqlite3"


@pytest.fixture
def client(db: Path) -> Iterator[TestClient]:
    with TestClient(create_app(db, settings())) as c:
        yield c


def newer(version: int) -> Any:
    return lambda m: is_state(m) and m["version"] > version


def played_a_tile(conn: Conn, state: dict[str, Any]) -> dict[str, Any]:
    """Ana plays a tile (a draw if none fits), then the bots reply up to her next turn:
    that state."""
    legal = state["round"]["legal_moves"]
    move = next((m for m in legal if "@" in m), legal[0])
    conn.send({"type": "action", "move": move, "version": state["version"]})
    return conn.until(lambda m: my_turn(0)(m) and m["version"] > state["version"])


def test_alone_against_bots_a_move_is_taken_back_with_the_bots_replies(
    client: TestClient,
) -> None:
    made = create(client, ["bot:greedy", "bot:random"])
    ana = Conn(client, made["code"], made["token"])
    try:
        first = ana.until(my_turn(0))
        # nothing of hers to take back yet: the button is there, and cannot be used
        assert first["can_undo"] is False
        after = played_a_tile(ana, first)
        assert after["can_undo"] is True
        assert len(after["round"]["history"]) > len(first["round"]["history"])
        ana.send({"type": "undo", "version": after["version"]})
        back = ana.until(newer(after["version"]))
        # the round as it was before her move: her hand, the trains, her turn, her choices
        for key in ("history", "hand", "trains", "current_seat", "legal_moves", "hand_sizes"):
            assert back["round"][key] == first["round"][key], key
        assert back["can_undo"] is False  # (her move of this round is gone)
        # and play goes on from there, the bots replying again
        again = played_a_tile(ana, back)
        assert again["can_undo"] is True
    finally:
        ana.close()


def test_a_move_taken_back_stays_taken_back_after_a_restart(db: Path) -> None:
    with TestClient(create_app(db, settings())) as tc:
        made = create(tc, ["bot:greedy"])
        ana = Conn(tc, made["code"], made["token"])
        try:
            first = ana.until(my_turn(0))
            after = played_a_tile(ana, first)
            ana.send({"type": "undo", "version": after["version"]})
            back = ana.until(newer(after["version"]))
        finally:
            ana.close()
    with TestClient(create_app(db, settings())) as tc:
        ana = Conn(tc, made["code"], made["token"])
        try:
            restored = ana.until(my_turn(0))
            assert restored["version"] == back["version"]
            for key in ("history", "hand", "trains", "legal_moves"):
                assert restored["round"][key] == back["round"][key] == first["round"][key], key
        finally:
            ana.close()


def test_at_a_table_of_people_no_move_is_taken_back(client: TestClient) -> None:
    """Another person at the table (or a seat kept for one, which a bot keeps warm): a
    move taken back would undo what they saw and answered. The page has no button
    (``can_undo`` null), and the message is refused."""
    made = create(client, ["bot:greedy", "open"])
    code = made["code"]
    joined = client.post(f"/api/tables/{code}/join", json={"name": "Ben"}).json()
    ana = Conn(client, code, made["token"])
    ben = Conn(client, code, joined["token"])
    try:
        # (whoever is to move: the refusal is for the table, not the turn)
        state = ana.until(lambda m: is_state(m) and m["round"] is not None)
        assert state["can_undo"] is None
        ana.send({"type": "undo", "version": state["version"]})
        assert errors_of(ana)["code"] == "undo_people"
        assert ben.until(is_state)["can_undo"] is None
    finally:
        ana.close()
        ben.close()


def test_an_open_seat_a_bot_filled_is_no_table_of_bots(client: TestClient) -> None:
    """A seat left open and given to a bot at the start may still be taken by someone
    arriving late: no move is taken back there either."""
    made = create(client, ["open"])
    ana = Conn(client, made["code"], made["token"])
    try:
        ana.until(is_state)
        ana.send({"type": "start"})
        state = ana.until(my_turn(0))
        assert state["can_undo"] is None
        ana.send({"type": "undo", "version": state["version"]})
        assert errors_of(ana)["code"] == "undo_people"
    finally:
        ana.close()


def test_nothing_to_take_back_a_stale_version_and_a_spectator_are_refused(
    client: TestClient,
) -> None:
    made = create(client, ["bot:greedy"])
    ana = Conn(client, made["code"], made["token"])
    watcher = Conn(client, made["code"], None)
    try:
        first = ana.until(my_turn(0))
        ana.send({"type": "undo", "version": first["version"]})
        assert errors_of(ana)["code"] == "undo_none"
        after = played_a_tile(ana, first)
        ana.send({"type": "undo", "version": after["version"] - 1})
        assert errors_of(ana)["code"] == "stale"
        seen = watcher.until(lambda m: is_state(m) and m["version"] >= after["version"])
        assert seen["can_undo"] is None
        watcher.send({"type": "undo", "version": after["version"]})
        assert errors_of(watcher)["code"] == "spectator"
        # none of that changed anything: the move is still there to take back
        ana.send({"type": "undo", "version": after["version"]})
        assert ana.until(newer(after["version"]))["round"]["history"] == first["round"]["history"]
    finally:
        ana.close()
        watcher.close()


def test_a_game_with_a_move_taken_back_is_kept_and_rated_for_nobody(db: Path) -> None:
    """Taking moves back until a game is won would buy a rating, and a game won that way
    says little of a skill: a game where a move was taken back is kept and counted as
    played, marked so in the recent games, and rates nobody (the bot level neither). The
    count is read back from the log, so a restart between the undo and the end keeps it.
    A game played through is rated as before."""
    with TestClient(create_app(db, settings())) as tc:
        made = create(tc, ["bot:greedy"], rounds=1)
        ana = Conn(tc, made["code"], made["token"])
        try:
            first = ana.until(my_turn(0))
            after = played_a_tile(ana, first)
            ana.send({"type": "undo", "version": after["version"]})
            ana.until(newer(after["version"]))
        finally:
            ana.close()
    with TestClient(create_app(db, settings())) as tc:
        ana = Conn(tc, made["code"], made["token"])
        try:
            play_out({0: ana}, random.Random(5))
        finally:
            ana.close()
        eventually(lambda: bool(tc.get("/api/stats").json()["recent"]))
        stats = tc.get("/api/stats").json()
        assert [g["taken_back"] for g in stats["recent"]] == [1]
        (row,) = stats["players"]
        assert (row["name"], row["games"]) == ("Ana", 1)
        assert (row["rating"], row["rated_games"]) == (None, 0)
        assert stats["bots"] == []
        # a game played through: rated, the one before still not
        again = create(tc, ["bot:greedy"], rounds=1)
        ana = Conn(tc, again["code"], again["token"])
        try:
            play_out({0: ana}, random.Random(6))
        finally:
            ana.close()
        eventually(lambda: len(tc.get("/api/stats").json()["recent"]) == 2)
        stats = tc.get("/api/stats").json()
        assert [g["taken_back"] for g in stats["recent"]] == [0, 1]
        assert [g["taken_back"] for g in tc.get("/api/games").json()] == [0, 1]
        (row,) = stats["players"]
        assert (row["games"], row["rated_games"]) == (2, 1)
        assert row["rating"] is not None
        assert [(b["level"], b["games"]) for b in stats["bots"]] == [("greedy", 1)]
