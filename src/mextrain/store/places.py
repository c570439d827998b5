"""Where mextrain keeps its files on this machine: the terminal's saved games and the web
server's database both live under one data directory."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Final

__all__ = ["DATA_DIR_ENV", "data_dir"]

#: environment variable that overrides the data directory (tests, portable installs)
DATA_DIR_ENV: Final = "MEXTRAIN_DATA_DIR"


def data_dir() -> Path:
    """``$MEXTRAIN_DATA_DIR``, else the user's data directory for mextrain
    (``~/.local/share/mextrain`` on Linux; `platformdirs` elsewhere)."""
    override = os.environ.get(DATA_DIR_ENV)
    if override:
        return Path(override)
    import platformdirs  # the tui and web extras bring it

    return Path(platformdirs.user_data_dir("mextrain", appauthor=False))
