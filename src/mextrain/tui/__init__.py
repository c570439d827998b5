"""The terminal interface: ``mextrain play`` (a full-screen game against bots or friends at
the same keyboard) and ``mextrain replay FILE --watch`` (a recorded game, step by step).

Built on Textual; needs the ``tui`` extra (``pip install -e '.[tui]'`` in a clone).
"""

from .app import (
    DEFAULT_DELAY,
    KEY_ENTRIES,
    KEYS_DROPPED_FIRST,
    WATCHING_KEY_ENTRIES,
    WATCHING_PAUSED_KEY_ENTRIES,
    PlayApp,
    TableScreen,
)
from .screens import GameSetup, check_names, rename_default_names, seat_names
from .session import (
    DATA_DIR_ENV,
    HUMAN,
    GameSession,
    SeatSpec,
    latest_unfinished,
    parse_seats,
)
from .typography import keep_no_break_spaces
from .watch import WatchApp

# lines wrap at breaking spaces only, before anything is drawn: "Bravo !" never wraps
# before its "!", nor "3 000" after its "3"
keep_no_break_spaces()

__all__ = [
    "DATA_DIR_ENV",
    "DEFAULT_DELAY",
    "HUMAN",
    "KEYS_DROPPED_FIRST",
    "KEY_ENTRIES",
    "WATCHING_KEY_ENTRIES",
    "WATCHING_PAUSED_KEY_ENTRIES",
    "GameSession",
    "GameSetup",
    "PlayApp",
    "SeatSpec",
    "TableScreen",
    "WatchApp",
    "check_names",
    "latest_unfinished",
    "parse_seats",
    "rename_default_names",
    "seat_names",
]
