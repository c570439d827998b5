"""The SQLite store: event logs, finished games, statistics, and tables rebuilt exactly
from their logs."""

from __future__ import annotations

import asyncio
import logging
import random
import sqlite3
import threading
import unicodedata
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mextrain.records import load_record, replay_record
from mextrain.store import DatabaseInUse, ServerLock, Store, person_key, shown_person
from mextrain.web.tables import Client, Settings, TableManager


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store(tmp_path / "store.sqlite3")


def test_events_come_back_in_order_and_a_sequence_number_is_never_reused(store: Store) -> None:
    table = store.create_table("ABC234", {"rules": "classic", "seats": ["open"]}, "seed")
    for seq in range(5):
        store.append(table, seq, "action", {"n": seq})
    assert [e.seq for e in store.events(table)] == [0, 1, 2, 3, 4]
    assert [e.data["n"] for e in store.events(table)] == [0, 1, 2, 3, 4]
    with pytest.raises(sqlite3.IntegrityError):
        store.append(table, 3, "action", {"n": 99})
    assert store.events(table)[3].data == {"n": 3}
    other = store.create_table("XYZ234", {"rules": "classic", "seats": []}, "seed2")
    assert store.events(other) == []
    assert store.code_taken("ABC234")
    assert not store.code_taken("NOPE22")
    with pytest.raises(sqlite3.IntegrityError):
        store.create_table("ABC234", {}, "again")


def test_the_log_survives_reopening(tmp_path: Path) -> None:
    path = tmp_path / "again.sqlite3"
    first = Store(path)
    table = first.create_table("QWE234", {"rules": "relaxed", "seats": ["open"]}, "s")
    first.append(table, 0, "join", {"seat": 0})
    first.close()
    second = Store(path)
    stored = second.table("QWE234")
    assert stored is not None
    assert stored.config == {"rules": "relaxed", "seats": ["open"]}
    assert stored.seed == "s"
    assert [e.kind for e in second.events(stored.id)] == ["join"]


def test_finished_games_give_statistics_for_people_not_bots(store: Store) -> None:
    t1 = store.create_table("AAA234", {}, "s1")
    t2 = store.create_table("BBB234", {}, "s2")
    store.create_table("CCC234", {}, "s3")
    g1 = store.save_game(t1, "{}", ["Ana", "Bot", "Ben"], [True, False, True], [10, 5, 30], [1])
    g2 = store.save_game(t2, "{}", ["Ben", "Ana"], [True, True], [12, 12], [0, 1])
    assert [t.code for t in store.tables(unfinished=True)] == ["CCC234"]
    stats = {p.name: p for p in store.player_stats()}
    assert set(stats) == {"Ana", "Ben"}
    assert (stats["Ana"].games, stats["Ana"].wins, stats["Ana"].average) == (2, 1, 11.0)
    assert (stats["Ben"].games, stats["Ben"].wins, stats["Ben"].average) == (2, 1, 21.0)
    assert [p.name for p in store.player_stats("Ana")] == ["Ana"]
    assert [g.id for g in store.recent_games()] == [g2, g1]
    assert store.recent_games(name="Bot") == []
    recent = store.recent_games(1)[0]
    assert recent.players == ("Ben", "Ana")
    assert recent.winners == (0, 1)
    assert store.recent_games()[1].humans == (True, False, True)
    assert store.humans_of(g1) == (True, False, True)
    game = store.game(g1)
    assert game is not None
    assert game.players == ("Ana", "Bot", "Ben")
    with pytest.raises(sqlite3.IntegrityError):  # one game per table
        store.save_game(t1, "{}", ["Ana"], [True], [0], [0])
    assert store.game_of_table(t1) == game


def test_a_name_in_other_case_spacing_or_unicode_form_is_one_person(store: Store) -> None:
    """A person is their name read without case, spaces around it or doubled inside it,
    and however its accents are encoded (a decomposed "é"): one row, shown as spelt in
    their latest game, and found by any of those spellings. "Zoe" is someone else."""
    games = [
        (["Zoé Ana", "Ben"], [10, 20], [0]),
        (["zoe\u0301  ana", "Ben"], [30, 5], [1]),
        (["Ben", " ZOÉ ANA "], [7, 7], [0, 1]),
        (["Zoe Ana", "Ben"], [1, 2], [0]),
    ]
    ids = []
    for n, (players, totals, winners) in enumerate(games):
        table = store.create_table(f"AAA23{n}", {}, "s")
        ids.append(store.save_game(table, "{}", players, [True, True], totals, winners))
    stats = [(p.name, p.games, p.wins, p.average) for p in store.player_stats()]
    assert stats == [("Ben", 4, 2, 8.5), ("ZOÉ ANA", 3, 2, 47 / 3), ("Zoe Ana", 1, 1, 1.0)]
    for asked in ("zoé ana", "ZOE\u0301 ANA", "Zoé  Ana"):
        assert [(p.name, p.games) for p in store.player_stats(asked)] == [("ZOÉ ANA", 3)]
        assert [g.id for g in store.recent_games(name=asked)] == ids[2::-1]
    # the names are kept as they were played: the games' own lists are untouched
    assert store.recent_games(name="zoe ana")[0].players == ("Zoe Ana", "Ben")
    assert store.recent_games(name="ZOÉ ANA")[1].players == ("zoe\u0301  ana", "Ben")


def test_statistics_of_a_database_kept_before_people_were_read_without_case(
    tmp_path: Path,
) -> None:
    """A database written with the names as they were (no column added, nothing moved):
    read as it is, its results grouped per person when asked, and still readable by a
    connection that knows nothing of how people are told apart."""
    path = tmp_path / "old.sqlite3"
    first = Store(path)
    for n, who in enumerate(["Ana", "ana", "Ana"]):
        table = first.create_table(f"OLD23{n}", {}, "s")
        first.save_game(table, "{}", [who, "Bot"], [True, False], [n, 9], [0])
    first.close()
    plain = sqlite3.connect(path)
    assert plain.execute(
        "SELECT name FROM results WHERE human = 1 ORDER BY game_id"
    ).fetchall() == [
        ("Ana",),
        ("ana",),
        ("Ana",),
    ]
    plain.execute("PRAGMA integrity_check")
    plain.close()
    again = Store(path)
    assert [(p.name, p.games, p.wins) for p in again.player_stats()] == [("Ana", 3, 3)]
    again.close()


def test_a_game_a_person_left_before_its_end_is_not_in_their_statistics(store: Store) -> None:
    """A seat a bot finished for a person (its last move the bot's) counted as that
    person's win or loss. It is a game they left: listed among their games, counted in
    ``left`` alone; a person with no other game has a row of their own, last, with 0
    games and no average (their games left are still theirs to see counted)."""
    t1, t2, t3 = (store.create_table(f"LFT23{n}", {}, "s") for n in range(3))
    store.save_game(t1, "{}", ["Ana", "Ben"], [True, True], [0, 40], [0], left=[True, False])
    store.save_game(t2, "{}", ["Ana", "Ben"], [True, True], [30, 10], [1])
    g3 = store.save_game(t3, "{}", ["Cy", "Ben"], [True, True], [0, 9], [0], left=[True, False])
    everyone = store.player_stats()
    assert [p.name for p in everyone] == ["Ben", "Ana", "Cy"]  # (Cy's one game, he left)
    ben, ana, cy = everyone
    assert (ana.games, ana.wins, ana.average, ana.left) == (1, 0, 30.0, 1)
    assert (ben.games, ben.wins, ben.average, ben.left) == (3, 1, 59 / 3, 0)
    assert (cy.games, cy.wins, cy.average, cy.left) == (0, 0, None, 1)
    assert ana.to_dict()["left"] == 1
    assert cy.to_dict() == {"name": "Cy", "games": 0, "wins": 0, "average": None, "left": 1}
    assert store.player_stats("Cy") == [cy]
    assert [g.id for g in store.recent_games(name="Cy")] == [g3]  # still theirs to see
    assert store.recent_games(name="Cy")[0].left == (True, False)
    assert store.recent_games()[1].left == (False, False)


def test_a_finished_games_seats_say_who_left_it(store: Store) -> None:
    """The replay reads, seat by seat, whose person left the game before its end (as the
    list of games has it): a game before any was left, and a number of no game, say none."""
    t1, t2 = (store.create_table(f"LFTOF{n}", {}, "s") for n in range(2))
    g1 = store.save_game(
        t1,
        "{}",
        ["Ana", "Bot", "Cy"],
        [True, False, True],
        [0, 4, 9],
        [0],
        left=[False, False, True],
    )
    g2 = store.save_game(t2, "{}", ["Ana", "Ben"], [True, True], [3, 1], [1])
    assert store.left_of(g1) == (False, False, True)
    assert store.left_of(g2) == (False, False)
    assert store.left_of(g2 + 1) == ()
    assert store.left_of(0) == store.left_of(2**70) == ()


def old_server_game(path: Path, code: str, name: str, finished: float = 0) -> None:
    """A game kept as an older server keeps it, naming only the columns it knew: its
    table, the game, and its first seat's result (``name`` won, with 5 points)."""
    db = sqlite3.connect(path)
    table = db.execute(
        "INSERT INTO tables (code, created, config, seed) VALUES (?, 0, '{}', 's')", (code,)
    ).lastrowid
    game = db.execute(
        "INSERT INTO games (table_id, finished, players, record) VALUES (?, ?, '[]', '{}')",
        (table, finished),
    ).lastrowid
    db.execute(
        "INSERT INTO results (game_id, seat, name, human, total, won) VALUES (?, 0, ?, 1, 5, 1)",
        (game, name),
    )
    db.commit()
    db.close()


def test_a_database_kept_before_games_left_were_told_apart_counts_them_as_before(
    tmp_path: Path,
) -> None:
    """A results table without the column of games left: the column is added, its games
    count as they did, and a connection that knows nothing of it still writes results."""
    path = tmp_path / "before.sqlite3"
    Store(path).close()
    plain = sqlite3.connect(path)
    plain.execute("ALTER TABLE results DROP COLUMN left_game")
    plain.close()
    old_server_game(path, "OLD234", "Ana")
    again = Store(path)
    assert [(p.name, p.games, p.wins, p.left) for p in again.player_stats()] == [("Ana", 1, 1, 0)]
    again.close()
    older = sqlite3.connect(path)  # (an older server's insert, naming its own columns)
    older.execute(
        "INSERT INTO results (game_id, seat, name, human, total, won) VALUES (1, 1, 'Ben', 1, 9, 0)"
    )
    older.commit()
    older.close()
    last = Store(path)
    assert [p.name for p in last.player_stats()] == ["Ana", "Ben"]
    last.close()


def test_a_database_kept_before_moves_could_be_taken_back_reads_and_writes(
    tmp_path: Path,
) -> None:
    """A games table without the count of moves taken back: the column is added, its
    games had none (and are rated as before), and an older server's insert, naming its own
    columns, still works; a game kept with moves taken back reads back with its count."""
    path = tmp_path / "before.sqlite3"
    Store(path).close()
    plain = sqlite3.connect(path)
    plain.execute("ALTER TABLE games DROP COLUMN taken_back")
    plain.close()
    old_server_game(path, "OLD234", "Ana")
    again = Store(path)
    assert [g.taken_back for g in again.all_results()] == [0]
    table = again.create_table("NEW234", {}, "s")
    again.save_game(table, "{}", ["Ana", "Bot"], [True, False], [3, 9], [0], taken_back=2)
    assert [g.taken_back for g in again.recent_games()] == [2, 0]
    assert again.recent_games()[0].to_dict()["taken_back"] == 2
    again.close()
    old_server_game(path, "OLD236", "Ben", finished=5)
    last = Store(path)
    assert [(g.players, g.taken_back) for g in last.all_results()] == [
        (("Ana",), 0),
        (("Ben",), 0),
        (("Ana", "Bot"), 2),
    ]
    last.close()


def test_a_positions_analysis_is_kept_once_per_budget_and_read_after_reopening(
    tmp_path: Path,
) -> None:
    """The first analysis kept of a position at a budget stays (two worked out at once
    both get the first), another budget's is its own, and a database kept before
    analyses were kept gets their table as it opens."""
    path = tmp_path / "analyses.sqlite3"
    Store(path).close()
    plain = sqlite3.connect(path)
    plain.execute("DROP TABLE analyses")
    plain.close()
    store = Store(path)
    table = store.create_table("ANA234", {}, "s")
    game = store.save_game(table, "{}", ["Ana", "Bot"], [True, False], [3, 9], [0])
    assert store.analysis(game, 0, 2, "b1") is None
    first = {"moves": [{"move": "draw", "win_probability": 0.25}], "seat": 1}
    assert store.keep_analysis(game, 0, 2, "b1", first) == first
    assert store.keep_analysis(game, 0, 2, "b1", {"moves": [], "seat": 0}) == first
    assert store.keep_analysis(game, 0, 2, "b2", {"moves": [], "seat": 0})["seat"] == 0
    assert store.analysis(game, 0, 3, "b1") is None
    assert store.analysis(game, 0, 2**64, "b1") is None  # (no 64-bit integer: none kept)
    store.close()
    again = Store(path)
    assert again.analysis(game, 0, 2, "b1") == first
    again.close()


def test_a_read_neither_waits_for_a_write_nor_holds_one_up(tmp_path: Path) -> None:
    """Every call went through one connection under one lock: a long read on a worker
    thread (the statistics) held up the event loop's next write, and a long write every
    read. Reads have a connection per thread now (WAL: each sees what was committed
    before it): one goes on while a write holds the lock, and a write made meanwhile is
    seen by the next read."""
    store = Store(tmp_path / "threads.sqlite3")
    table = store.create_table("THR234", {}, "s")
    store.save_game(table, "{}", ["Ana", "Bot"], [True, False], [3, 9], [0])
    found: list[list[str]] = []

    def read() -> None:
        found.append([p.name for p in store.player_stats()])

    with store._lock:  # a write under way (a game being kept, waiting on the disk)
        reader = threading.Thread(target=read)
        reader.start()
        reader.join(5)
        assert found == [["Ana"]], "the read waited for the write"
    other = store.create_table("THR235", {}, "s")
    store.save_game(other, "{}", ["Ben"], [True], [1], [0])
    reader = threading.Thread(target=read)  # (a thread of its own: its own connection)
    reader.start()
    reader.join(5)
    assert found[-1] == ["Ana", "Ben"]
    read()
    assert found[-1] == ["Ana", "Ben"]
    store.close()
    with pytest.raises(sqlite3.ProgrammingError):  # (its connections are all closed)
        store.player_stats()


# -- tables rebuilt from their logs -------------------------------------------------------


async def _play_and_restore(path: Path, seed: int, moves: int) -> None:
    quiet = Settings(bot_delay=0, takeover_after=3600, round_pause=3600)
    rng = random.Random(seed)
    store = Store(path)
    manager = TableManager(store, quiet)
    rules = {
        "preset": rng.choice(["classic", "relaxed"]),
        "max_pip": 6,
        "rounds": 2,
        "hand_size": {2: 7, 3: 7, 4: 6},
    }
    table, token = await manager.create(rules, ["open", "open"], "Ana")
    table.join("Ben")
    table.join("Cy")  # the last seat taken: the game starts
    clients = [Client(seat, "en") for seat in range(3)]
    assert table.match is not None
    for _ in range(moves):
        state = table.match.current
        if state.is_over:
            if table.match.is_complete:
                break
            table._deal()  # the round pause, without waiting for it
            continue
        seat = state.current_seat
        move = rng.choice(table.message_for(seat)["round"]["legal_moves"])
        table.act(clients[seat], move, table.version)
    await manager.close()
    store.close()

    again = Store(path)
    restored = TableManager(again, quiet)
    await restored.restore()
    copy = restored.get(table.code)
    assert copy is not None
    assert copy.version == table.version
    assert copy.seat_of_token(token) == 0
    assert copy.match is not None
    assert len(copy.match.rounds) == len(table.match.rounds)
    for mine, theirs in zip(copy.match.rounds, table.match.rounds, strict=True):
        assert mine.history == theirs.history
        assert mine.hands == theirs.hands
        assert mine.record_actions() == theirs.record_actions()
    for seat in (None, 0, 1, 2):
        assert copy.message_for(seat) == table.message_for(seat)
    if table.match.is_complete:
        assert table.game_id is not None
        stored = again.game(table.game_id)
        assert stored is not None
        assert replay_record(load_record(stored.record)).complete
    else:
        assert [t.code for t in again.tables(unfinished=True)] == [table.code]
    await restored.close()
    again.close()


@settings(max_examples=15)
@given(seed=st.integers(0, 2**32), moves=st.integers(0, 200))
def test_a_table_is_rebuilt_exactly_from_its_log(
    tmp_path_factory: pytest.TempPathFactory, seed: int, moves: int
) -> None:
    path = tmp_path_factory.mktemp("restore") / "t.sqlite3"
    asyncio.run(_play_and_restore(path, seed, moves))


def test_a_log_with_a_gap_is_left_out_and_logged(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "gap.sqlite3"
    store = Store(path)
    config = {"rules": "classic", "seats": ["open", "open"]}
    table = store.create_table("GAP234", config, "seed")
    store.append(table, 0, "join", {"seat": 0, "name": "Ana", "token": "x"})
    store.append(table, 2, "join", {"seat": 1, "name": "Ben", "token": "y"})
    manager = TableManager(store, Settings())
    with caplog.at_level(logging.ERROR, logger="mextrain.web.tables"):
        asyncio.run(manager.restore())
        # (a table waiting for its players is read when asked for, not at start)
        assert manager.get("GAP234") is None
    assert "GAP234" in caplog.text
    assert "out of order" in caplog.text
    assert manager.broken == {"GAP234"}
    assert manager.get("GAP234") is None
    assert store.tables()[0].config == config


def test_one_server_per_database(tmp_path: Path) -> None:
    db = tmp_path / "one.sqlite3"
    with ServerLock(db):
        with pytest.raises(DatabaseInUse, match="run one server per database"):
            ServerLock(db).acquire()
        with ServerLock(tmp_path / "other.sqlite3"):  # another database is free
            pass
    with ServerLock(db):  # released: the next server may start
        pass
    with ServerLock(":memory:"), ServerLock(":memory:"):  # nothing to share
        pass


def test_a_second_server_on_the_same_database_does_not_start(tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from mextrain.web import create_app

    db = tmp_path / "web.sqlite3"
    with TestClient(create_app(db)) as first:
        assert first.get("/api/options").status_code == 200
        with pytest.raises(DatabaseInUse), TestClient(create_app(db)):
            pass
    with TestClient(create_app(db)) as again:  # the first has stopped: the file is free
        assert again.get("/api/options").status_code == 200


def test_the_data_directory_is_shared_and_can_be_moved(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from mextrain.cli.serve import default_db
    from mextrain.store import DATA_DIR_ENV, data_dir

    monkeypatch.setenv(DATA_DIR_ENV, str(tmp_path))
    assert data_dir() == tmp_path
    assert default_db() == tmp_path / "mextrain.sqlite3"  # the server's too, not only play's
    monkeypatch.delenv(DATA_DIR_ENV)
    assert data_dir().name == "mextrain"


@given(st.text(max_size=12))
def test_a_persons_key_reads_every_spelling_of_a_name_as_one(name: str) -> None:
    """`person_key` is the name as shown, case folded: reading a key, or the name shown,
    gives the same key, as do its case, its spaces and its Unicode forms."""
    key = person_key(name)
    assert person_key(key) == key
    assert person_key(shown_person(name)) == key
    assert person_key(f"  {name.upper()} ") == person_key(name.upper())
    assert person_key(unicodedata.normalize("NFD", name)) == key
    assert key == key.strip()
    assert "  " not in key


async def _bots_play_through_a_store_that_fails(path: Path, kinds: set[str]) -> list[str]:
    """Ana against a bot, one round, on a store whose writes of ``kinds`` fail once each
    ("database is locked": another program held it past the wait); Ana plays her first
    legal move whenever it is hers. The kinds of event that failed, in order."""
    store = Store(path)
    quiet = Settings(bot_delay=0, takeover_after=3600, round_pause=0.01)
    manager = TableManager(store, quiet)
    rules = {"preset": "classic", "max_pip": 6, "rounds": 2, "hand_size": {2: 7}}
    table, _ = await manager.create(rules, ["bot:greedy"], "Ana")
    ana = Client(0, "en")
    table.connect(ana)
    failed: list[str] = []
    real = store.append

    def append(table_id: int, seq: int, kind: str, data: dict[str, object]) -> None:
        what = "bot" if kind == "action" and data.get("bot") else kind
        if what in kinds and what not in failed:
            failed.append(what)
            raise sqlite3.OperationalError("database is locked")
        real(table_id, seq, kind, data)

    store.append = append  # type: ignore[method-assign]
    assert table.match is not None
    for _ in range(1000):  # (5 s at most: a retry comes after a second)
        await asyncio.sleep(0.005)
        if table.match.is_complete:
            break
        state = table.match.current
        if not state.is_over and state.current_seat == 0:
            table.act(ana, table.message_for(0)["round"]["legal_moves"][0], table.version)
    assert table.match.is_complete, f"stalled at version {table.version} after {failed}"
    for _ in range(200):  # (the game is kept on a worker thread, at once)
        if table.game_id is not None:
            break
        await asyncio.sleep(0.005)
    assert table.game_id is not None
    log = [e.kind for e in store.events(table.id)]
    assert log.count("deal") == 1  # (round 2's: the first is dealt at the start)
    await manager.close()
    store.close()
    return failed


def test_a_write_the_database_refuses_once_does_not_stall_a_table(tmp_path: Path) -> None:
    """A bot's move, or the next round's deal, that the database cannot keep (another
    program holding it past the wait, a full disk) was lost in a task nobody awaited: the
    bot never moved again, the round never came, the table waited for ever. The table
    tries again a moment later, and the game goes on to its end."""
    failed = asyncio.run(_bots_play_through_a_store_that_fails(tmp_path / "t.sqlite3", {"bot"}))
    assert failed == ["bot"]
    failed = asyncio.run(_bots_play_through_a_store_that_fails(tmp_path / "d.sqlite3", {"deal"}))
    assert failed == ["deal"]
