"""One server per database: tables live in the server's memory, so a second server on the
same file would fork games. `ServerLock` holds an exclusive lock on ``DB.lock`` beside the
database for as long as the server runs; the operating system drops it when the process
ends, even killed. Where file locks are not available (not POSIX) it does nothing."""

from __future__ import annotations

import os
from pathlib import Path
from types import TracebackType

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX
    fcntl = None  # type: ignore[assignment]

__all__ = ["DatabaseInUse", "ServerLock"]


class DatabaseInUse(RuntimeError):
    """Another server holds the database."""


class ServerLock:
    """``with ServerLock(db):`` -- raises `DatabaseInUse` if another process holds ``db``."""

    def __init__(self, db: str | Path) -> None:
        self.db = str(db)
        self.path = None if self.db == ":memory:" else Path(self.db + ".lock")
        self._fd: int | None = None

    def acquire(self) -> None:
        if self.path is None or fcntl is None:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            raise DatabaseInUse(
                f"another mextrain server is using {self.db} (it holds {self.path}): "
                "run one server per database"
            ) from None
        self._fd = fd

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing the descriptor drops the lock
            self._fd = None

    def __enter__(self) -> ServerLock:
        self.acquire()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.release()
