"""Writing a record's file so that it survives a crash or a power cut.

A rename makes a save whole or absent, but the new name can reach the disk before the
file's contents do: after a power cut the save is then an empty file. So the contents are
flushed to the disk before the rename, and the directory after it.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path


def write_synced(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` (UTF-8) and wait until it is on the disk."""
    with path.open("w", encoding="utf-8") as out:
        out.write(text)
        out.flush()
        os.fsync(out.fileno())


def sync_directory(directory: Path) -> None:
    """Wait until ``directory``'s entries (a file renamed or linked into it) are on the
    disk; where a directory cannot be opened for that (Windows), nothing to do."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        with contextlib.suppress(OSError):  # a file system that does not sync directories
            os.fsync(fd)
    finally:
        os.close(fd)
