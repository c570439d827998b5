"""The terminal game's list of saved games (`mextrain.tui.games`, Ctrl+G on the start
screen): every saved file listed newest first with how it stands; Enter goes on with an
unfinished game or watches a finished one, and says why where neither can be."""

from __future__ import annotations

import asyncio
import json
import random
from datetime import datetime
from pathlib import Path

import pytest

pytest.importorskip("textual")

from rich.cells import cell_len
from textual.pilot import Pilot
from textual.widgets import Button, OptionList, Static

from mextrain.bots import make_bot
from mextrain.i18n import LANGUAGES, Translator
from mextrain.records import load_record
from mextrain.rules import Rules
from mextrain.tui import GameSession, PlayApp, SeatSpec, TableScreen, WatchApp
from mextrain.tui.games import (
    GamesScreen,
    SavedGame,
    began_at,
    game_lines,
    saved_games,
    when_text,
)
from mextrain.tui.screens import StartScreen
from mextrain.tui.session import games_dir
from mextrain.tui.watch import WatchScreen
from test_tui import plain

SMALL = Rules.preset("classic", max_pip=6, rounds=[6, 5, 4], hand_size={2: 7, 3: 6})
SIZE = (80, 24)


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("MEXTRAIN_DATA_DIR", str(tmp_path))
    return tmp_path


def saved(stamp: str, seats: list[SeatSpec], seed: int, actions: int | None = None) -> Path:
    """A game saved as ``mextrain play`` saves it, under the start time ``stamp``, every
    seat moved by a greedy bot: to its end, or for ``actions`` actions."""
    session = GameSession.new(SMALL, seats, seed=seed)
    bot, rng = make_bot("greedy"), random.Random(seed)
    while not session.match.is_complete and actions != 0:
        state = session.match.current
        if state.is_over:
            session.next_round()
        else:
            state.apply(bot.act(state.view(state.current_seat), rng), state.current_seat)
            actions = None if actions is None else actions - 1
        session.save()
    assert session.path is not None
    return session.path.rename(games_dir() / f"{stamp}.json")


ANA = [SeatSpec("human", "Ana"), SeatSpec("medium", "Medium 2"), SeatSpec("greedy", "Cy")]


def three_games() -> tuple[Path, Path, Path]:
    """A finished game (the oldest), a damaged file, an unfinished game (the newest)."""
    finished = saved("20261101-090000-000000", ANA, 3)
    broken = games_dir() / "20261115-120000-000000.json"
    broken.write_text('{"format": "mextrain-record", "version": 1, "rul')
    unfinished = saved("20261201-183000-000000", ANA, 4, actions=9)
    return finished, broken, unfinished


def test_the_saved_games_are_read_newest_first_with_how_each_stands() -> None:
    finished, broken, unfinished = three_games()
    games = list(saved_games())
    assert [g.path for g in games] == [unfinished, broken, finished]
    newest, damaged, oldest = games
    assert newest.game is not None
    assert not newest.game.complete
    assert newest.resumable
    assert (newest.game.rounds_dealt, newest.game.round_count) == (1, 3)
    assert damaged.game is None
    assert damaged.error is not None
    assert not damaged.resumable
    assert oldest.game is not None
    assert oldest.game.complete
    assert not oldest.resumable
    assert oldest.game.rounds_dealt == 3
    # the start time is the file's name, in UTC, shown in local time
    assert newest.began == datetime.fromisoformat("2026-12-01T18:30:00+00:00")
    assert newest.began.tzinfo is not None


def test_a_record_named_otherwise_is_listed_by_when_it_was_written() -> None:
    """The list is by when each game began, from its file's name; a record from elsewhere
    put among the saved games ("mine.json") by when it was written, not first of all
    because "m" comes after the digits."""
    import os

    finished, _, unfinished = three_games()
    mine = games_dir() / "mine.json"
    mine.write_bytes(finished.read_bytes())
    between = datetime.fromisoformat("2026-11-20T12:00:00+00:00").timestamp()
    os.utime(mine, (between, between))
    assert [g.path.name for g in saved_games()] == [
        unfinished.name,
        "mine.json",
        "20261115-120000-000000.json",
        finished.name,
    ]


def test_a_game_open_in_another_terminal_is_listed_as_such() -> None:
    _, _, unfinished = three_games()
    elsewhere = GameSession.load(unfinished)
    elsewhere.claim()  # (a lock of its own, as another process would take)
    try:
        newest = next(saved_games())
        assert newest.in_use
        lines = game_lines(newest, Translator("en"))
        assert lines.endswith("Round 1 of 3, open in another terminal"), lines
    finally:
        elsewhere.release()
    assert not next(saved_games()).in_use


@pytest.mark.parametrize(
    ("lang", "when", "medium", "won"),
    [
        ("en", "2026-11-01 09:05", "Medium 2", "Won by {names}"),
        ("fr", "01/11/2026 09:05", "Moyen 2", "Gagnée par {names}"),
        ("it", "01/11/2026 09:05", "Medio 2", "Vinta da {names}"),
        ("fi", "1.11.2026 klo 9.05", "Keskitaso 2", "Voittaja: {names}"),
    ],
)
def test_a_saved_games_entry_reads_in_the_language_chosen(
    lang: str, when: str, medium: str, won: str
) -> None:
    """The date as the language writes it, the rules and the length, each seat's total (a
    bot's default name in the language, as the game would give it), and the winner."""
    t = Translator(lang)
    moment = datetime.fromisoformat("2026-11-01T09:05:00")
    assert when_text(moment, t) == when
    saved("20261101-090500-000000", ANA, 3)
    game = next(saved_games()).game
    assert game is not None
    assert game.complete
    first, second, third = game_lines(SavedGame(game.path, moment, game), t).split("\n")
    assert first == f"[b]{when}[/b]  {t('tui.preset.classic')} · {t.plural('tui.start.rounds', 3)}"
    names = ["Ana", medium, "Cy"]
    assert second == " · ".join(
        t("tui.games.seat", name=name, total=t.whole(total))
        for name, total in zip(names, game.totals, strict=True)
    )
    assert len(game.winners) == 1  # (seed 3: one winner)
    assert third == won.format(names=names[game.winners[0]])


def test_a_record_from_elsewhere_is_listed_and_one_with_no_round_says_so() -> None:
    """A record put among the saved games by hand (no seats of ``mextrain play``) is a
    game like another; one with no round dealt cannot be opened, and says why."""
    source = json.loads((Path(__file__).parent / "records" / "double6_complete.json").read_text())
    folder = games_dir()
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "20261102-100000-000000.json").write_text(json.dumps(source))
    empty = {key: value for key, value in source.items() if key != "result"}
    empty["rounds"] = []
    (folder / "20261103-100000-000000.json").write_text(json.dumps(empty))
    none_dealt, elsewhere = list(saved_games())
    assert elsewhere.game is not None
    assert elsewhere.game.complete
    assert none_dealt.game is not None
    assert none_dealt.game.rounds_dealt == 0
    t = Translator("en")
    assert game_lines(none_dealt, t).endswith("Cannot be opened: no round dealt yet")
    assert game_lines(elsewhere, t).split("\n")[2].startswith(("Won by", "Shared win"))


async def games_listed(pilot: Pilot[object], app: PlayApp, count: int) -> GamesScreen:
    """The start screen's Ctrl+G, once the list has read the folder."""
    for _ in range(100):
        await pilot.pause()
        if isinstance(app.screen, StartScreen):
            break
    await pilot.press("ctrl+g")
    for _ in range(200):
        await pilot.pause(0.01)
        screen = app.screen
        if isinstance(screen, GamesScreen) and screen.done:
            break
    screen = app.screen
    assert isinstance(screen, GamesScreen)
    assert screen.done
    assert len(screen.games) == count
    assert screen.query_one("#games-list", OptionList).option_count == count
    return screen


async def start_screen_offering(pilot: Pilot[object], app: PlayApp) -> StartScreen:
    """The start screen, once it offers the saved game it found to go on with."""
    for _ in range(100):
        await pilot.pause()
        screen = app.screen
        if isinstance(screen, StartScreen) and screen.saved is not None:
            break
    await pilot.pause()
    screen = app.screen
    assert isinstance(screen, StartScreen)
    assert screen.saved is not None
    return screen


def entries(screen: GamesScreen) -> list[str]:
    listed = screen.query_one("#games-list", OptionList)
    return [str(listed.get_option_at_index(i).prompt) for i in range(listed.option_count)]


def test_enter_watches_a_finished_game_and_q_goes_back_to_the_list() -> None:
    finished, _, _unfinished = three_games()
    record = load_record(finished.read_bytes())

    async def scenario() -> None:
        app = PlayApp(lang="en", delay=0)
        async with app.run_test(size=SIZE) as pilot:
            screen = await games_listed(pilot, app, 3)
            said = plain(screen.query_one("#games-said", Static))
            assert said == "3 saved games, the newest first."
            shown = entries(screen)
            assert "Unfinished: round 1 of 3" in shown[0]
            assert "Cannot be opened: the file is damaged" in shown[1]
            assert "Won by" in shown[2]
            await pilot.press("down", "down", "enter")
            viewer = app.screen
            assert isinstance(viewer, WatchScreen)
            assert viewer.record == record
            keys = plain(viewer.query_one("#w-keys", Static))
            assert keys.endswith("q the saved games")
            await pilot.press("end")
            assert viewer.state.is_over
            await pilot.press("q")
            assert app.screen is screen
            listed = screen.query_one("#games-list", OptionList)
            assert listed.highlighted is not None
            assert listed.get_option_at_index(listed.highlighted).id == "2"
            await pilot.press("escape")
            assert isinstance(app.screen, StartScreen)

    asyncio.run(scenario())


def test_enter_goes_on_with_an_unfinished_game_and_says_why_where_it_cannot() -> None:
    _finished, broken, unfinished = three_games()
    before = unfinished.read_bytes()
    played = list(GameSession.load(unfinished).match.current.history)
    assert len(played) == 9

    async def scenario() -> None:
        app = PlayApp(lang="en", delay=0)
        async with app.run_test(size=SIZE) as pilot:
            screen = await games_listed(pilot, app, 3)
            await pilot.press("down", "enter")  # the damaged file
            assert app.screen is screen
            said = plain(screen.query_one("#games-said", Static))
            assert said == f"Cannot open {broken.name}: the file is damaged"
            elsewhere = GameSession.load(unfinished)
            elsewhere.claim()  # played in another terminal meanwhile
            try:
                await pilot.press("up", "enter")
                assert app.screen is screen
                said = plain(screen.query_one("#games-said", Static))
                assert said == f"Cannot open {unfinished.name}: it is open in another terminal"
            finally:
                elsewhere.release()
            assert unfinished.read_bytes() == before  # nothing written by the refusals
            await pilot.press("enter")
            for _ in range(50):
                await pilot.pause()
                if isinstance(app.screen, TableScreen):
                    break
            assert isinstance(app.screen, TableScreen)
            assert app.session is not None
            assert app.session.path == unfinished
            # (where it stopped; the bots after it have played on to Ana's turn)
            assert app.session.match.current.history[:9] == played

    asyncio.run(scenario())


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_start_screen_offers_the_saved_games_with_a_button_and_a_key(lang: str) -> None:
    t = Translator(lang)

    async def scenario() -> None:
        app = PlayApp(lang=lang, delay=0)
        async with app.run_test(size=SIZE) as pilot:
            screen = await games_listed(pilot, app, 0)
            said = plain(screen.query_one("#games-said", Static))
            assert said == t("tui.games.none", folder=str(games_dir()))
            await pilot.press("ctrl+g")  # (again: back)
            start = app.screen
            assert isinstance(start, StartScreen)
            button = start.query_one("#games", Button)
            assert str(button.label) == t("tui.start.games")
            assert "Ctrl+G" in t("tui.start.keys")
            assert "Ctrl+G" in t("tui.start.keys_saved")
            button.press()
            await pilot.pause()
            assert isinstance(app.screen, GamesScreen)

    asyncio.run(scenario())


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_button_of_the_start_screen_is_whole_at_80_columns(lang: str) -> None:
    """A fourth button (the saved games) pushed "Reprendre la partie" past the screen's
    edge in French, where a saved game offers it: all four are whole, side by side."""
    seats = [SeatSpec("human", "Ana"), SeatSpec("greedy", "Ben")]
    GameSession.new(Rules.preset("classic", rounds=2), seats, seed=5).release()

    async def scenario() -> None:
        app = PlayApp(lang=lang, delay=0)
        async with app.run_test(size=SIZE) as pilot:
            screen = await start_screen_offering(pilot, app)
            buttons = list(screen.query(Button))
            assert [b.id for b in buttons] == ["go", "stats", "games", "resume"]
            for button in buttons:
                assert button.display
                assert button.region.width > cell_len(str(button.label)), button.id
                assert button.region.right <= SIZE[0], (button.id, button.region)

    asyncio.run(scenario())


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_lists_key_lines_keep_each_key_whole_at_80_columns(lang: str) -> None:
    t = Translator(lang)
    for key in ("tui.games.keys", "tui.watch.keys_list"):
        for entry in t(key).split(" · "):
            assert cell_len(entry) <= 80, entry
    assert t("tui.watch.keys_list").split(" · ")[:-1] == t("tui.watch.keys").split(" · ")[:-1]


def test_the_replay_command_still_quits_on_q() -> None:
    record = load_record((Path(__file__).parent / "records" / "double6_complete.json").read_bytes())

    async def scenario() -> None:
        app = WatchApp(record, "en", delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert plain(app.query_one("#w-keys", Static)).endswith("q quit")
            await pilot.press("q")
            await pilot.pause()
            assert not app.is_running

    asyncio.run(scenario())


def test_a_folder_of_many_games_fills_the_list_in_batches() -> None:
    """More games than a batch: the list shows them all, in order, with lines between."""
    folder = games_dir()
    one = saved("20261101-090000-000000", ANA, 3)
    text = one.read_text()
    for day in range(2, 30):
        (folder / f"202611{day:02d}-090000-000000.json").write_text(text)
    t = Translator("en")
    newest = [
        f"[b]{when_text(began_at(folder / f'202611{day}-090000-000000.json'), t)}"
        for day in (29, 28)
    ]

    async def scenario() -> None:
        app = PlayApp(lang="en", delay=0)
        async with app.run_test(size=SIZE) as pilot:
            screen = await games_listed(pilot, app, 29)
            shown = entries(screen)
            assert [line.split("[/b]")[0] for line in shown][:2] == newest
            assert len(screen.games) == 29
            assert all("Won by" in line or "Shared win" in line for line in shown)

    asyncio.run(scenario())


def test_d_asks_then_d_again_deletes_a_saved_game() -> None:
    """A folder of games played to test, or games nobody wants counted, could be pruned
    only outside the game: d asks (its moves and its part of the statistics go with it),
    d again deletes the file; any other key keeps it."""
    finished, broken, unfinished = three_games()
    t = Translator("en")

    async def scenario() -> None:
        app = PlayApp(lang="en", delay=0)
        async with app.run_test(size=SIZE) as pilot:
            screen = await games_listed(pilot, app, 3)
            said = screen.query_one("#games-said", Static)
            await pilot.press("down", "d")  # the damaged file
            when = when_text(began_at(broken), t)
            assert plain(said) == t("tui.games.delete_ask", when=when)
            await pilot.press("down")  # another one chosen: asked no more
            assert plain(said) == "3 saved games, the newest first."
            await pilot.press("up", "d", "escape")  # Esc answers first: kept
            assert isinstance(app.screen, GamesScreen)
            assert broken.exists()
            await pilot.press("d", "d")
            assert not broken.exists()
            assert plain(said) == t("tui.games.deleted", when=when)
            assert [g.path for g in screen.games] == [unfinished, finished]
            shown = entries(screen)
            assert len(shown) == 2
            assert "Won by" in shown[1]
            listed = screen.query_one("#games-list", OptionList)
            assert listed.highlighted is not None
            assert listed.get_option_at_index(listed.highlighted).id == "1"  # (the next one)
            # one another terminal plays is not deleted
            elsewhere = GameSession.load(unfinished)
            elsewhere.claim()
            try:
                await pilot.press("up", "d", "d")
                assert unfinished.exists()
                assert plain(said) == (
                    f"Cannot delete {unfinished.name}: it is open in another terminal"
                )
            finally:
                elsewhere.release()
            assert len(screen.games) == 2

    asyncio.run(scenario())
    # and the statistics no longer count a game deleted
    assert [g.path for g in saved_games()] == [unfinished, finished]


def test_the_start_screen_offers_no_game_deleted_from_the_list() -> None:
    """The start screen offered the newest unfinished game; deleted from the list, it is
    offered no more once the list is left."""
    _, _, unfinished = three_games()

    async def scenario() -> None:
        app = PlayApp(lang="en", delay=0)
        async with app.run_test(size=SIZE) as pilot:
            start = await start_screen_offering(pilot, app)
            assert start.saved is not None
            assert start.saved.path == unfinished
            await games_listed(pilot, app, 3)
            await pilot.press("d", "d", "escape")
            assert app.screen is start
            assert not unfinished.exists()
            assert start.saved is None
            assert not start.query_one("#resume", Button).display

    asyncio.run(scenario())


def test_a_save_passed_over_is_named_no_more_once_deleted_from_the_list() -> None:
    """The start screen names the newer saves it could not go on with ("Cannot resume
    ...: the file is damaged"); one deleted from the list is not named there any more."""
    _, broken, unfinished = three_games()
    newest_broken = games_dir() / "20261231-120000-000000.json"
    newest_broken.write_bytes(broken.read_bytes())

    async def scenario() -> None:
        app = PlayApp(lang="en", delay=0)
        async with app.run_test(size=SIZE) as pilot:
            start = await start_screen_offering(pilot, app)
            passed = start.query_one("#start-passed", Static)
            assert newest_broken.name in plain(passed)
            await games_listed(pilot, app, 4)
            await pilot.press("d", "d", "escape")  # (the newest: the damaged copy)
            assert app.screen is start
            assert not newest_broken.exists()
            assert start.passed == []
            assert not passed.display
            assert start.saved is not None
            assert start.saved.path == unfinished  # (still offered: it is there)

    asyncio.run(scenario())
