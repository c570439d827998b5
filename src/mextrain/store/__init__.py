"""Persistence for the web server: an append-only SQLite event log per table, finished
games as records, and statistics per person (`person_key`: their name, whatever its
case or spacing).

Standard library only (`sqlite3` in WAL mode). The log holds everything needed to rebuild
a table exactly — its configuration, the seed its deals come from, who joined which seat
and every action in order (and whether a bot made it) — so a restarted server replays it
and carries on mid-round. A finished game's results say per seat whether a person played
it and whether they left it before its end (a bot made its last move): such a game is
theirs to see, not in their games, wins or average (their statistics count it apart).
The seed and the seat tokens' hashes never leave this package's callers' server side.
"""

from .events import ChatLine, Event, GameSummary, PlayerStats, Store, StoredGame, StoredTable
from .lock import DatabaseInUse, ServerLock
from .people import person_key, shown_person
from .places import DATA_DIR_ENV, data_dir

__all__ = [
    "DATA_DIR_ENV",
    "ChatLine",
    "DatabaseInUse",
    "Event",
    "GameSummary",
    "PlayerStats",
    "ServerLock",
    "Store",
    "StoredGame",
    "StoredTable",
    "data_dir",
    "person_key",
    "shown_person",
]
