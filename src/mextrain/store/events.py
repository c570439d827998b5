"""The SQLite store: tables, their event logs, finished games and results."""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .people import person_key, shown_person

__all__ = [
    "ChatLine",
    "Event",
    "GameSummary",
    "PlayerStats",
    "Store",
    "StoredGame",
    "StoredTable",
]

#: the largest row id SQLite stores (a signed 64-bit integer)
_MAX_ID = 2**63 - 1

#: the SQL function that is `person_key` on a store's connection
_PERSON_SQL = "mextrain_person"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id       INTEGER PRIMARY KEY,
    code     TEXT    NOT NULL UNIQUE,
    created  REAL    NOT NULL,
    config   TEXT    NOT NULL,
    seed     TEXT    NOT NULL,
    finished REAL
);
CREATE TABLE IF NOT EXISTS events (
    table_id INTEGER NOT NULL REFERENCES tables(id),
    seq      INTEGER NOT NULL,
    kind     TEXT    NOT NULL,
    data     TEXT    NOT NULL,
    at       REAL    NOT NULL,
    PRIMARY KEY (table_id, seq)
);
CREATE TABLE IF NOT EXISTS games (
    id       INTEGER PRIMARY KEY,
    table_id INTEGER NOT NULL UNIQUE REFERENCES tables(id),
    finished REAL    NOT NULL,
    players  TEXT    NOT NULL,
    record   TEXT    NOT NULL,
    taken_back INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS results (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seat    INTEGER NOT NULL,
    name    TEXT    NOT NULL,
    human   INTEGER NOT NULL,
    total   INTEGER NOT NULL,
    won     INTEGER NOT NULL,
    left_game INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX IF NOT EXISTS results_by_name ON results(name);
CREATE TABLE IF NOT EXISTS chat (
    table_id INTEGER NOT NULL REFERENCES tables(id),
    id       INTEGER NOT NULL,
    seat     INTEGER NOT NULL,
    name     TEXT    NOT NULL,
    text     TEXT,
    phrase   TEXT,
    at       REAL    NOT NULL,
    PRIMARY KEY (table_id, id)
);
CREATE TABLE IF NOT EXISTS analyses (
    game_id INTEGER NOT NULL REFERENCES games(id),
    round   INTEGER NOT NULL,
    step    INTEGER NOT NULL,
    budget  TEXT    NOT NULL,
    answer  TEXT    NOT NULL,
    PRIMARY KEY (game_id, round, step, budget)
);
"""


@dataclass(frozen=True, slots=True)
class StoredTable:
    id: int
    code: str
    created: float
    config: dict[str, Any]
    seed: str
    finished: float | None


@dataclass(frozen=True, slots=True)
class Event:
    seq: int
    kind: str
    data: dict[str, Any]
    at: float


@dataclass(frozen=True, slots=True)
class ChatLine:
    """One thing said at a table: free ``text`` or a stock ``phrase`` (one of them), by
    the person at ``seat`` under ``name`` then; ``id`` counts from 0 per table."""

    id: int
    seat: int
    name: str
    text: str | None
    phrase: str | None
    at: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "seat": self.seat,
            "name": self.name,
            "text": self.text,
            "phrase": self.phrase,
            "at": self.at,
        }


@dataclass(frozen=True, slots=True)
class StoredGame:
    id: int
    table_id: int
    finished: float
    players: tuple[str, ...]
    record: str


@dataclass(frozen=True, slots=True)
class GameSummary:
    id: int
    finished: float
    players: tuple[str, ...]
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    #: per seat: a person (True) or a bot at the game's end
    humans: tuple[bool, ...] = ()
    #: per seat: a person played it but left before its end, a bot making its last move
    #: for them (not in their statistics: `Store.save_game`)
    left: tuple[bool, ...] = ()
    #: how many times a move was taken back (alone against bots): such a game is
    #: nobody's rating (`mextrain.web.ratings`)
    taken_back: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "finished": self.finished,
            "players": list(self.players),
            "totals": list(self.totals),
            "winners": list(self.winners),
            "humans": list(self.humans),
            "left": list(self.left),
            "taken_back": self.taken_back,
        }


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """One person's finished games: ``games`` counted (they made their seat's last move),
    their ``wins`` and ``average`` total (None when ``games`` is 0: no game of theirs to
    average); ``left``: the games they left before the end, a bot making their seat's last
    move, which count in none of the others."""

    name: str
    games: int
    wins: int
    average: float | None
    left: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "games": self.games,
            "wins": self.wins,
            "average": None if self.average is None else round(self.average, 2),
            "left": self.left,
        }


class Store:
    """One SQLite database, safe to share between threads. Every write goes through one
    connection under one lock, a short transaction committed before the call returns, so
    writes never interleave and keep the order they were made in. Reads go through a
    connection of the reading thread's own (WAL mode: a read sees every write committed
    before it and neither waits for a write nor holds one up), so that a long read on a
    worker thread -- the statistics, a list of games -- never stops the server's event
    loop at the write lock (an in-memory database, which a second connection would not
    see, is read through the one connection, under the lock)."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        #: each thread's reading connection (`_reader`), and all of them, to close (under a
        #: lock of their own: a thread's first read does not wait for a write)
        self._local = threading.local()
        self._readers: list[sqlite3.Connection] = []
        self._readers_lock = threading.Lock()
        self._closed = False
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.executescript(_SCHEMA)
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(results)")}
        if "left_game" not in columns:
            # a database kept before games left were told apart: its games count as they
            # did (who made a seat's last move was not kept), and an older server still
            # writes and reads it (the column has a default, and is named where it is read)
            self._db.execute("ALTER TABLE results ADD COLUMN left_game INTEGER NOT NULL DEFAULT 0")
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(games)")}
        if "taken_back" not in columns:
            # a database kept before moves could be taken back: none of its games had any
            self._db.execute("ALTER TABLE games ADD COLUMN taken_back INTEGER NOT NULL DEFAULT 0")
        # who a result is of, for the statistics: worked out as they are read, from the
        # names kept as played (only this connection knows the function: nothing stored
        # depends on it, so the file stays readable by any SQLite and by older versions)
        self._db.create_function(_PERSON_SQL, 1, person_key, deterministic=True)

    def close(self) -> None:
        with self._lock, self._readers_lock:
            self._closed = True
            for reader in self._readers:
                reader.close()
            self._readers.clear()
            self._db.close()

    def _write(self, sql: str, params: Sequence[Any]) -> sqlite3.Cursor:
        with self._lock:
            return self._db.execute(sql, params)

    def _read(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        reader = self._reader()
        if reader is None:
            with self._lock:
                return list(self._db.execute(sql, params).fetchall())
        return list(reader.execute(sql, params).fetchall())

    def _reader(self) -> sqlite3.Connection | None:
        """The calling thread's reading connection, opened on its first read (None for an
        in-memory database)."""
        if self.path == ":memory:":
            return None
        reader: sqlite3.Connection | None = getattr(self._local, "reader", None)
        if reader is None:
            # (closed by `close`, from whichever thread: hence check_same_thread off)
            reader = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            reader.execute("PRAGMA query_only=ON")
            reader.create_function(_PERSON_SQL, 1, person_key, deterministic=True)
            with self._readers_lock:
                if self._closed:
                    reader.close()
                    raise sqlite3.ProgrammingError("Cannot operate on a closed database.")
                self._readers.append(reader)
            self._local.reader = reader
        return reader

    # -- tables and their logs ---------------------------------------------------------

    def create_table(self, code: str, config: dict[str, Any], seed: str) -> int:
        cur = self._write(
            "INSERT INTO tables (code, created, config, seed) VALUES (?, ?, ?, ?)",
            (code, time.time(), json.dumps(config, sort_keys=True), seed),
        )
        assert cur.lastrowid is not None
        return cur.lastrowid

    def code_taken(self, code: str) -> bool:
        return bool(self._read("SELECT 1 FROM tables WHERE code = ?", (code,)))

    def append(self, table_id: int, seq: int, kind: str, data: dict[str, Any]) -> None:
        """Add event ``seq`` (0, 1, 2, … per table) to a table's log. A duplicate ``seq``
        raises `sqlite3.IntegrityError`: two writers can never fork one table's log."""
        self._write(
            "INSERT INTO events (table_id, seq, kind, data, at) VALUES (?, ?, ?, ?, ?)",
            (table_id, seq, kind, json.dumps(data, sort_keys=True), time.time()),
        )

    def table(self, code: str) -> StoredTable | None:
        rows = self._read(
            "SELECT id, code, created, config, seed, finished FROM tables WHERE code = ?", (code,)
        )
        return _table(rows[0]) if rows else None

    def tables(self, *, unfinished: bool = False, started: bool = False) -> list[StoredTable]:
        """The tables, oldest first; ``unfinished``: only those whose game was not kept as
        finished; ``started``: only those whose log has the game's start."""
        sql = "SELECT id, code, created, config, seed, finished FROM tables"
        where = []
        if unfinished:
            where.append("finished IS NULL")
        if started:
            where.append(
                "EXISTS (SELECT 1 FROM events e WHERE e.table_id = tables.id AND e.kind = 'start')"
            )
        if where:
            sql += " WHERE " + " AND ".join(where)
        return [_table(row) for row in self._read(sql + " ORDER BY id")]

    def events(self, table_id: int) -> list[Event]:
        rows = self._read(
            "SELECT seq, kind, data, at FROM events WHERE table_id = ? ORDER BY seq", (table_id,)
        )
        return [Event(seq, kind, json.loads(data), at) for seq, kind, data, at in rows]

    # -- table talk ----------------------------------------------------------------------

    def add_chat(
        self,
        table_id: int,
        line_id: int,
        seat: int,
        name: str,
        text: str | None,
        phrase: str | None,
    ) -> ChatLine:
        """Keep one line of a table's talk. A duplicate ``line_id`` raises
        `sqlite3.IntegrityError`, as a duplicate event does."""
        line = ChatLine(line_id, seat, name, text, phrase, time.time())
        self._write(
            "INSERT INTO chat (table_id, id, seat, name, text, phrase, at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            (table_id, line.id, seat, name, text, phrase, line.at),
        )
        return line

    def chat(self, table_id: int, limit: int) -> list[ChatLine]:
        """The latest ``limit`` lines of a table's talk, oldest first."""
        rows = self._read(
            "SELECT id, seat, name, text, phrase, at FROM chat WHERE table_id = ? "
            "ORDER BY id DESC LIMIT ?",
            (table_id, limit),
        )
        return [ChatLine(*row) for row in reversed(rows)]

    # -- finished games ------------------------------------------------------------------

    def save_game(
        self,
        table_id: int,
        record_json: str,
        players: Sequence[str],
        humans: Sequence[bool],
        totals: Sequence[int],
        winners: Sequence[int],
        left: Sequence[bool] = (),
        taken_back: int = 0,
    ) -> int:
        """Keep a finished game's record and results, and mark its table finished, in one
        transaction. Per seat, ``humans``: a person played it (made a move of the game);
        ``left``: that person did not finish it, a bot making the seat's last move for them
        (they were away: their page gone, or their time out turn after turn) -- the game
        is theirs to see, not counted in their statistics. ``taken_back``: how many times
        its person, alone against bots, took a move back."""
        gone = list(left) or [False] * len(players)
        now = time.time()
        with self._lock:
            db = self._db
            db.execute("BEGIN")
            try:
                cur = db.execute(
                    "INSERT INTO games (table_id, finished, players, record, taken_back) "
                    "VALUES (?, ?, ?, ?, ?)",
                    (table_id, now, json.dumps(list(players)), record_json, taken_back),
                )
                game_id = cur.lastrowid
                assert game_id is not None
                db.executemany(
                    "INSERT INTO results (game_id, seat, name, human, total, won, left_game) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?)",
                    [
                        (
                            game_id,
                            seat,
                            name,
                            int(humans[seat]),
                            totals[seat],
                            int(seat in winners),
                            int(humans[seat] and gone[seat]),
                        )
                        for seat, name in enumerate(players)
                    ],
                )
                db.execute("UPDATE tables SET finished = ? WHERE id = ?", (now, table_id))
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise
        return game_id

    def game(self, game_id: int) -> StoredGame | None:
        if not 0 < game_id <= _MAX_ID:  # SQLite's integers are 64-bit: no such game
            return None
        rows = self._read(
            "SELECT id, table_id, finished, players, record FROM games WHERE id = ?", (game_id,)
        )
        return _game(rows[0]) if rows else None

    def game_of_table(self, table_id: int) -> StoredGame | None:
        rows = self._read(
            "SELECT id, table_id, finished, players, record FROM games WHERE table_id = ?",
            (table_id,),
        )
        return _game(rows[0]) if rows else None

    def recent_games(self, limit: int = 20, name: str | None = None) -> list[GameSummary]:
        if name is None:
            ids = self._read(
                "SELECT id FROM games ORDER BY finished DESC, id DESC LIMIT ?", (limit,)
            )
        else:
            ids = self._read(
                "SELECT DISTINCT g.id FROM games g JOIN results r ON r.game_id = g.id "
                f"WHERE {_PERSON_SQL}(r.name) = ? AND r.human = 1 "
                "ORDER BY g.finished DESC, g.id DESC LIMIT ?",
                (person_key(name), limit),
            )
        out = []
        for (game_id,) in ids:
            rows = self._read(
                f"SELECT {_RESULT_COLUMNS} FROM results r JOIN games g ON g.id = r.game_id "
                "WHERE r.game_id = ? ORDER BY r.seat",
                (game_id,),
            )
            out += _summaries(rows)
        return out

    def games_mark(self) -> tuple[int, int]:
        """How many finished games are kept, and the newest one's number: what changes
        whenever a game is kept (games are kept whole, once, and never changed), for a
        reader of them all to know its reading is still good."""
        count, newest = self._read("SELECT COUNT(*), COALESCE(MAX(id), 0) FROM games")[0]
        return int(count), int(newest)

    def all_results(self) -> list[GameSummary]:
        """Every finished game's results, in the order the games finished (a rating reads
        them all, in that order)."""
        return _summaries(
            self._read(
                f"SELECT {_RESULT_COLUMNS} FROM results r JOIN games g ON g.id = r.game_id "
                "ORDER BY g.finished, g.id, r.seat"
            )
        )

    def humans_of(self, game_id: int) -> tuple[bool, ...]:
        """Per seat of a finished game: a person (True) or a bot at its end."""
        if not 0 < game_id <= _MAX_ID:
            return ()
        rows = self._read("SELECT human FROM results WHERE game_id = ? ORDER BY seat", (game_id,))
        return tuple(bool(r[0]) for r in rows)

    def left_of(self, game_id: int) -> tuple[bool, ...]:
        """Per seat of a finished game: its person left before the end, a bot making the
        seat's last move for them (`save_game`)."""
        if not 0 < game_id <= _MAX_ID:
            return ()
        rows = self._read(
            "SELECT left_game FROM results WHERE game_id = ? ORDER BY seat", (game_id,)
        )
        return tuple(bool(r[0]) for r in rows)

    def player_stats(self, name: str | None = None) -> list[PlayerStats]:
        """Games, wins and average total per person (bots are not counted), or of the one
        person ``name`` is. A person is a name read as `person_key` reads it ("Ana", "ana"
        and " Ana " are one), shown as they spelt it in their latest game; the most games
        first. A game a person left before its end (a bot made their seat's last move) is
        no game, win or points of theirs: it counts in their ``left`` alone; a person with
        no game but those is listed all the same, last, with 0 games and no average."""
        sql = (
            "SELECT r.name, r.won, r.total, r.left_game FROM results r "
            "JOIN games g ON g.id = r.game_id WHERE r.human = 1"
            + (f" AND {_PERSON_SQL}(r.name) = ?" if name is not None else "")
            + " ORDER BY g.finished, g.id"
        )
        rows = self._read(sql, (person_key(name),) if name is not None else ())
        people: dict[str, list[Any]] = {}  # key: [shown, games, wins, points, left]
        for who, won, total, gone in rows:
            person = people.setdefault(person_key(who), ["", 0, 0, 0, 0])
            person[0] = shown_person(who)  # (the latest game's spelling stays)
            if gone:
                person[4] += 1
                continue
            person[1] += 1
            person[2] += won
            person[3] += total
        return [
            PlayerStats(shown, games, wins, points / games if games else None, left)
            for shown, games, wins, points, left in sorted(
                people.values(), key=lambda p: (-p[1], p[0])
            )
        ]

    # -- analyses of finished games' positions --------------------------------------------

    def analysis(self, game_id: int, round: int, step: int, budget: str) -> dict[str, Any] | None:
        """The analysis kept of kept game ``game_id``'s position (``round``, after ``step``
        of its actions) at ``budget`` (the analyses' think budget, as the server words it),
        if there is one."""
        if not all(0 <= n <= _MAX_ID for n in (game_id, round, step)):
            return None  # (SQLite's integers are 64-bit: none kept there)
        rows = self._read(
            "SELECT answer FROM analyses WHERE game_id = ? AND round = ? AND step = ? "
            "AND budget = ?",
            (game_id, round, step, budget),
        )
        return dict(json.loads(rows[0][0])) if rows else None

    def keep_analysis(
        self, game_id: int, round: int, step: int, budget: str, answer: dict[str, Any]
    ) -> dict[str, Any]:
        """Keep ``answer`` as that position's analysis at ``budget``, unless one was kept
        first (two asked at once): the one kept is returned, so everyone gets the same."""
        self._write(
            "INSERT OR IGNORE INTO analyses (game_id, round, step, budget, answer) "
            "VALUES (?, ?, ?, ?, ?)",
            (game_id, round, step, budget, json.dumps(answer, sort_keys=True)),
        )
        kept = self.analysis(game_id, round, step, budget)
        assert kept is not None
        return kept


#: a game's results as `_summaries` reads them, a row per seat
_RESULT_COLUMNS = (
    "r.game_id, r.seat, r.name, r.total, r.won, g.finished, r.human, r.left_game, g.taken_back"
)


def _summaries(rows: Sequence[tuple[Any, ...]]) -> list[GameSummary]:
    """Games' results (rows of `_RESULT_COLUMNS`, each game's seats in order), a summary
    per game in the order of the rows."""
    games: dict[int, list[tuple[Any, ...]]] = {}
    for row in rows:
        games.setdefault(row[0], []).append(row)
    return [
        GameSummary(
            id=game_id,
            finished=seats[0][5],
            players=tuple(r[2] for r in seats),
            totals=tuple(r[3] for r in seats),
            winners=tuple(r[1] for r in seats if r[4]),
            humans=tuple(bool(r[6]) for r in seats),
            left=tuple(bool(r[7]) for r in seats),
            taken_back=int(seats[0][8]),
        )
        for game_id, seats in games.items()
    ]


def _table(row: tuple[Any, ...]) -> StoredTable:
    id_, code, created, config, seed, finished = row
    return StoredTable(id_, code, created, json.loads(config), seed, finished)


def _game(row: tuple[Any, ...]) -> StoredGame:
    id_, table_id, finished, players, record = row
    return StoredGame(id_, table_id, finished, tuple(json.loads(players)), record)
