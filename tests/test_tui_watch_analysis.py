"""The replay viewer's analysis (``a``): the search bot's view of the position shown, from
the seat to move's own tiles only, and how the move the record made next fares."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("textual")

from textual.widgets import Static

from mextrain.i18n import LANGUAGES, Translator
from mextrain.records import load_record
from mextrain.rules import SeatView
from mextrain.tui import WatchApp
from mextrain.tui import watch as watch_module
from mextrain.tui.render import hint_words
from test_tui import plain

RECORD = load_record((Path(__file__).parent / "records" / "double6_complete.json").read_bytes())
SIZE = (80, 24)


async def analysed(pilot: Any, app: WatchApp) -> str:
    """The analysis once it has come (not the line that says it is being worked out)."""
    shown = app.viewer.query_one("#w-analysis", Static)
    for _ in range(400):
        await pilot.pause(0.02)
        text = plain(shown)
        if text and "…" not in text:
            return text
    raise AssertionError(f"no analysis came: {plain(shown)!r}")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_analyses_the_position_for_the_seat_to_move_and_rates_the_move_played(
    lang: str,
) -> None:
    """Watching a game told what was played, never whether it was good: a shows the
    search's best moves for the seat to move with their chances to win the round, then
    the move the record made, with its chance where the search tried it. Moving on clears
    it (it is of one position)."""
    t = Translator(lang)

    async def scenario() -> None:
        app = WatchApp(RECORD, lang, delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await pilot.press("right", "right")
            state = app.state
            seat = state.current_seat
            name = app.names[seat]
            await pilot.press("a")
            first, played = (await analysed(pilot, app)).split("\n")
            assert first.startswith(t("tui.watch.analysis", name=name, moves=""))
            assert t.percent(0.5)[-1] in first  # (chances, as the language writes them)
            move = RECORD.rounds[0].actions[2].action
            words = hint_words(move, seat, t, app.names, state.view(seat), yours=False)
            assert played.startswith(t("tui.watch.analysis_played", move=words))
            await pilot.press("right")
            assert plain(app.viewer.query_one("#w-analysis", Static)) == ""

    asyncio.run(scenario())


def test_the_analysis_sees_the_seat_to_moves_own_tiles_only(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every hand is face up in the viewer; the analysis is of what the seat to move could
    know, as its hint would have been."""
    seen: list[SeatView] = []

    def spy(view: SeatView, rng: Any) -> list[Any]:
        seen.append(view)
        return []

    monkeypatch.setattr(watch_module, "hints_for", spy)

    async def scenario() -> None:
        app = WatchApp(RECORD, "en", delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await pilot.press("right", "a")
            await analysed(pilot, app)
            state = app.state
            (view,) = seen
            assert view.seat == state.current_seat
            assert sorted(view.hand) == sorted(state.hand(state.current_seat))
            assert view == state.view(state.current_seat)

    asyncio.run(scenario())


def test_a_forced_move_and_a_rounds_end_are_said_as_such() -> None:
    t = Translator("en")

    async def scenario() -> None:
        app = WatchApp(RECORD, "en", delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await pilot.press("right", "right", "right", "a")  # (a double to follow up)
            state = app.state
            (only,) = state.legal_actions()
            words = hint_words(only, state.current_seat, t, app.names, state.view(0), False)
            said = await analysed(pilot, app)
            assert said == t(
                "tui.watch.analysis_forced", name=app.names[state.current_seat], move=words
            )
            await pilot.press("end", "a")
            assert app.state.is_over
            assert plain(app.viewer.query_one("#w-analysis", Static)) == t(
                "tui.watch.analysis_over"
            )

    asyncio.run(scenario())


def test_an_analysis_that_comes_after_the_viewer_moved_on_is_not_shown(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """It thinks for up to two seconds: by then the reader may be at another position,
    which it is not about."""
    release = threading.Event()
    real = watch_module.hints_for

    def slow(view: SeatView, rng: Any) -> list[Any]:
        release.wait(10)
        return real(view, rng)

    monkeypatch.setattr(watch_module, "hints_for", slow)

    async def scenario() -> None:
        app = WatchApp(RECORD, "en", delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await pilot.press("right", "a")
            shown = app.viewer.query_one("#w-analysis", Static)
            assert plain(shown).endswith("…")
            await pilot.press("right")
            release.set()
            for _ in range(50):
                await pilot.pause(0.02)
            assert plain(shown) == ""

    asyncio.run(scenario())
