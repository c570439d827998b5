"""One game server for all the browser tests, and a fresh desktop browser per test."""

from __future__ import annotations

import contextlib
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from browser_kit import ARGS, CHROMIUM, free_port, need_browser


@contextlib.contextmanager
def running_server(
    db: Path, round_pause: float, program: Sequence[str] = ("-m", "mextrain")
) -> Iterator[str]:
    """A game server on a free port over ``db``, bots quick, rounds ``round_pause`` apart
    (``program``: what Python runs, given ``serve`` and its options)."""
    port = free_port()
    cmd = [
        sys.executable,
        *program,
        "serve",
        "--port",
        str(port),
        "--db",
        str(db),
        "--bot-delay",
        "0.05",
        "--round-pause",
        str(round_pause),
        "--tables-per-minute",  # (every test's browser makes tables from one address)
        "10000",
        "--joins-per-minute",  # (and joins them)
        "10000",
        "--lookups-per-minute",  # (and asks about them)
        "10000",
        "--log-level",
        "warning",
    ]
    proc = subprocess.Popen(cmd)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(200):
            try:
                urllib.request.urlopen(base + "/api/options", timeout=1).close()
                break
            except OSError:
                if proc.poll() is not None:
                    raise RuntimeError("the server exited at start") from None
                time.sleep(0.1)
        else:
            raise RuntimeError("the server did not start")
        yield base
    finally:
        proc.terminate()
        proc.wait(10)


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(tmp_path_factory.mktemp("web") / "e2e.sqlite3", 1) as base:
        yield base


@pytest.fixture(scope="session")
def paused_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server that waits half a minute between rounds (a round's end stays on the
    table long enough to come back to it)."""
    with running_server(tmp_path_factory.mktemp("web") / "paused.sqlite3", 30) as base:
        yield base


@pytest.fixture
def page(tmp_path: Path) -> Iterator[Any]:
    need_browser()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        context = pw.chromium.launch_persistent_context(
            str(tmp_path / "profile"),
            executable_path=CHROMIUM,
            args=ARGS,
            headless=True,
            viewport={"width": 1280, "height": 860},
            locale="en-GB",
        )
        try:
            yield context.pages[0] if context.pages else context.new_page()
        finally:
            context.close()
