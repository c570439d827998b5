"""The saved games, listed on the terminal game's start screen (Ctrl+G): each with when
it began, its rules, who played, their totals and how it stands. Enter goes on with an
unfinished game, or watches a finished one move by move (`WatchScreen`, every hand
shown); a game not played to its end is not shown with its hands, which would spoil it.

The list is read in the background, newest first, a few games at a time: a folder of
thousands of games opens at once and fills in as they are replayed. d, then d again,
deletes the game chosen (`session.delete_game`).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.css.query import NoMatches
from textual.screen import Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from mextrain.i18n import Translator, os_error_text, terminal_safe
from mextrain.records import RecordError, load_record, parse_json

from .history import PlayedGame, read_game
from .render import escape
from .screens import (
    KeyLine,
    names_in_language,
    quitting,
    rename_default_names,
    why_not_resumed,
)
from .session import (
    SAVED_SHAPE,
    GameInUse,
    GameSession,
    NoRoundError,
    delete_game,
    game_in_use,
    games_dir,
)
from .watch import WatchScreen

__all__ = ["GamesScreen", "SavedGame", "saved_games"]

#: games read between two updates of the list
BATCH = 20

GAMES_CSS = """
GamesScreen { layout: vertical; }
#games-title { height: auto; padding: 0 1; text-style: bold; }
#games-said { height: auto; padding: 0 1; }
#games-list { height: 1fr; }
#games-keys { dock: bottom; height: auto; padding: 0 1; background: $boost; }
"""


@dataclass(frozen=True, slots=True)
class SavedGame:
    """One saved file: its game (None if it cannot be read, and why) and when it began."""

    path: Path
    began: datetime
    game: PlayedGame | None
    error: Exception | None = None
    #: being played in another terminal now
    in_use: bool = False

    @property
    def resumable(self) -> bool:
        return self.game is not None and not self.game.complete


def began_at(path: Path) -> datetime:
    """When the game saved at ``path`` began, in local time: its file is named after that
    moment (UTC, ``20261130-132043-634078.json``); a file named otherwise, when it was
    last written."""
    try:
        moment = datetime.strptime(path.stem, "%Y%m%d-%H%M%S-%f").replace(tzinfo=UTC)
    except ValueError:
        try:
            moment = datetime.fromtimestamp(path.stat().st_mtime, UTC)
        except OSError:
            moment = datetime.fromtimestamp(0, UTC)
    return moment.astimezone()


def saved_games(folder: Path | None = None) -> Iterator[SavedGame]:
    """Every ``*.json`` file where ``mextrain play`` saves (or ``folder``), newest first,
    replayed: a game, or why it cannot be read."""
    where = games_dir() if folder is None else folder
    if not where.is_dir():
        return
    # (by when each began: a record from elsewhere, named otherwise, by when it was written)
    found = sorted(((began_at(path), path) for path in where.glob("*.json")), reverse=True)
    for began, path in found:
        if not path.is_file():  # (a pipe named *.json would wait for ever to be read)
            yield SavedGame(path, began, None, IsADirectoryError(str(path)))
            continue
        try:
            game = read_game(path, seats_needed=False)  # (a record from elsewhere goes on too)
        except (RecordError, OSError) as err:
            yield SavedGame(path, began, None, err)
            continue
        in_use = not game.complete and game_in_use(path)
        yield SavedGame(path, began, game, in_use=in_use)


#: the languages that write a day, a month and an hour without a leading zero
#: ("6.12.2026 klo 7.35", where English writes "2026-12-06 07:35")
UNPADDED = frozenset({"fi"})


def when_text(moment: datetime, t: Translator) -> str:
    """ "2026-11-30 13:20" as the language writes a date and a time ("30/11/2026 13:20",
    "30.11.2026 klo 13.20", "6.12.2026 klo 7.35")."""
    pad = "" if t.lang in UNPADDED else "02"
    return t(
        "tui.games.when",
        year=f"{moment.year:04d}",
        month=f"{moment.month:{pad}d}",
        day=f"{moment.day:{pad}d}",
        hour=f"{moment.hour:{pad}d}",
        minute=f"{moment.minute:02d}",
    )


def game_lines(saved: SavedGame, t: Translator) -> str:
    """The list's entry for a saved game, as markup: when it began and its rules, then
    who played with their totals, then how it stands."""
    when = when_text(saved.began, t)
    game = saved.game
    name = escape(terminal_safe(saved.path.name))
    if game is None:
        reason = why_not_resumed(saved.error or OSError(), t)
        return f"[b]{escape(when)}[/b]  {name}\n{escape(t('tui.games.unreadable', reason=reason))}"
    if not game.rounds_dealt:  # (nothing to go on with, nothing to watch)
        reason = t("tui.cli.why.no_round")
        return f"[b]{escape(when)}[/b]  {name}\n{escape(t('tui.games.unreadable', reason=reason))}"
    rules = f"{t(f'tui.preset.{game.preset}')} · {t.plural('tui.start.rounds', game.round_count)}"
    head = f"[b]{escape(when)}[/b]  {escape(rules)}"
    names = names_in_language(
        [
            terminal_safe(name).strip() or t("game.seat", number=seat + 1)
            for seat, name in enumerate(game.players)
        ],
        t,
    )
    seats = " · ".join(
        escape(t("tui.games.seat", name=name, total=t.whole(total)))
        for name, total in zip(names, game.totals, strict=True)
    )
    if game.complete:
        winners = ", ".join(names[s] for s in game.winners)
        key = "tui.games.won" if len(game.winners) == 1 else "tui.games.shared"
        state = t(key, names=winners)
    elif saved.in_use:
        state = t("tui.games.in_use", round=game.rounds_dealt, total=game.round_count)
    else:
        state = t("tui.games.unfinished", round=game.rounds_dealt, total=game.round_count)
    if game.taken_back:  # (not in the ranking: said where it would be looked for)
        state = f"{state} · {t('tui.games.taken_back')}"
    return f"{head}\n{seats}\n{escape(state)}"


class GamesScreen(Screen[GameSession | None]):
    """The saved games, newest first; Enter goes on with an unfinished one (the screen is
    dismissed with it, claimed) or watches a finished one; Esc goes back."""

    DEFAULT_CSS = GAMES_CSS
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", show=False),
        Binding("ctrl+g", "back", show=False),  # (the key that opened it)
        Binding("d", "delete", show=False),
        Binding("delete", "delete", show=False),
    ]

    def __init__(self, t: Translator, delay: float = 0.8, folder: Path | None = None) -> None:
        super().__init__()
        self.t = t
        self.delay = delay
        self.folder = folder
        #: the entries listed so far, in the list's order
        self.games: list[SavedGame] = []
        self.done = False
        #: the game asked to be deleted, until the key that deletes it comes again
        self.deleting: SavedGame | None = None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return not quitting(self.app)

    def compose(self) -> ComposeResult:
        t = self.t
        yield Static(t("tui.games.title"), id="games-title")
        yield Static(escape(t("tui.games.reading")), id="games-said")
        yield OptionList(id="games-list")
        yield KeyLine(t("tui.games.keys"), id="games-keys")

    def on_mount(self) -> None:
        self.query_one("#games-list", OptionList).focus()
        self.run_worker(self._read, thread=True, group="games", exit_on_error=False)

    def _read(self) -> None:
        batch: list[SavedGame] = []
        for saved in saved_games(self.folder):
            batch.append(saved)
            if len(batch) == BATCH:
                if not self._show_from_thread(batch):
                    return
                batch = []
        self._show_from_thread(batch, done=True)

    def _show_from_thread(self, batch: list[SavedGame], done: bool = False) -> bool:
        """Hand ``batch`` to the screen; False once the app has closed."""
        try:
            self.app.call_from_thread(self.show_games, list(batch), done)
        except RuntimeError:  # (the app has closed meanwhile)
            return False
        return True

    def show_games(self, batch: list[SavedGame], done: bool = False) -> None:
        """Add ``batch`` to the list (``done``: the folder is read to its end)."""
        if not self.is_attached:
            return
        listed = self.query_one("#games-list", OptionList)
        start = len(self.games)
        self.games.extend(batch)
        listed.add_options(self._entries(batch, start))
        if start == 0 and batch:
            listed.highlighted = 0
        if done:
            self.done = True
            self.say_count()

    def _entries(self, games: list[SavedGame], start: int) -> list[Option | None]:
        """The list's options for ``games``, the first of them the ``start``-th listed."""
        entries: list[Option | None] = []
        for i, saved in enumerate(games, start):
            if i:
                entries.append(None)  # (a line between two games)
            entries.append(Option(game_lines(saved, self.t), id=str(i)))
        return entries

    def say_count(self) -> None:
        if not self.games:
            self.say(self.t("tui.games.none", folder=terminal_safe(str(self.where))))
        else:
            self.say(self.t.plural("tui.games.count", len(self.games)))

    @property
    def where(self) -> Path:
        return games_dir() if self.folder is None else self.folder

    def say(self, text: str) -> None:
        with contextlib.suppress(NoMatches):
            self.query_one("#games-said", Static).update(escape(text))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        index = int(event.option.id or 0)
        if 0 <= index < len(self.games):
            self.open(self.games[index])

    def open(self, saved: SavedGame) -> None:
        """Go on with an unfinished game, watch a finished one; say why neither can be."""
        t = self.t
        name = terminal_safe(saved.path.name)  # (its name, never its path: 80 columns)
        game = saved.game
        if game is None or not game.rounds_dealt:
            err = saved.error or NoRoundError("no round dealt yet")
            self.say(t("tui.games.cannot_open", path=name, reason=why_not_resumed(err, t)))
            return
        if game.complete:
            try:
                record = load_record(parse_json(saved.path.read_bytes(), SAVED_SHAPE))
                viewer = WatchScreen(record, t.lang, self.delay, from_list=True)
            except (RecordError, OSError) as err:  # (changed since it was read)
                self.say(t("tui.games.cannot_open", path=name, reason=why_not_resumed(err, t)))
                return
            self.app.push_screen(viewer)
            return
        try:
            session = GameSession.load(saved.path)
            session.claim()
        except (ValueError, OSError) as err:  # (GameInUse, a bot gone, a file changed)
            self.say(t("tui.games.cannot_open", path=name, reason=why_not_resumed(err, t)))
            return
        rename_default_names(session, t)
        self.dismiss(session)

    def highlighted(self) -> SavedGame | None:
        listed = self.query_one("#games-list", OptionList)
        if listed.highlighted is None:
            return None
        index = int(listed.get_option_at_index(listed.highlighted).id or 0)
        return self.games[index] if 0 <= index < len(self.games) else None

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        """Another game chosen: a deletion asked of the one before is off."""
        if self.deleting is not None and self.highlighted() is not self.deleting:
            self.deleting = None
            self.say_count()

    def action_delete(self) -> None:
        """d asks, d again deletes the game chosen: its file, with its moves and its part
        of the statistics (a game another terminal plays is not deleted, nor one being
        read back)."""
        saved = self.highlighted()
        if saved is None:
            return
        t = self.t
        when = when_text(saved.began, t)
        if self.deleting is not saved:
            self.deleting = saved
            self.say(t("tui.games.delete_ask", when=when))
            return
        self.deleting = None
        name = terminal_safe(saved.path.name)
        try:
            delete_game(saved.path)
        except GameInUse:
            self.say(t("tui.games.cannot_delete", path=name, reason=t("tui.cli.why.in_use")))
            return
        except FileNotFoundError:
            pass  # (deleted meanwhile: it goes from the list all the same)
        except OSError as err:
            reason = terminal_safe(os_error_text(err, t.lang))
            self.say(t("tui.games.cannot_delete", path=name, reason=reason))
            return
        listed = self.query_one("#games-list", OptionList)
        at = self.games.index(saved)
        self.games.remove(saved)
        listed.clear_options()
        listed.add_options(self._entries(self.games, 0))
        if self.games:
            listed.highlighted = min(at, len(self.games) - 1)
        self.say(t("tui.games.deleted", when=when))

    def action_back(self) -> None:
        if self.deleting is not None:  # (Esc answers the question first: kept)
            self.deleting = None
            self.say_count()
            return
        self.dismiss(None)
