"""``mextrain serve`` whose database will not read a table back while a file is there:
``python refusing_server.py FLAG serve --port ...``. The file there, looking a table up
raises "database is locked" (another program held the database past SQLite's wait), as
`tests/test_web.py`'s ``unreadable`` makes it in the server's own process; the file
gone, the table is read back as ever."""

from __future__ import annotations

import sqlite3
import sys
from pathlib import Path
from typing import Any

from mextrain.cli import main
from mextrain.store.events import Store

FLAG = Path(sys.argv.pop(1))
_read = Store.table


def table(self: Store, code: str) -> Any:
    if FLAG.exists():
        raise sqlite3.OperationalError("database is locked")
    return _read(self, code)


Store.table = table  # type: ignore[method-assign]

if __name__ == "__main__":
    main()
