"""The screens around the table: start, pass the keyboard, round end, match end, score
sheet, all trains, and help."""

from __future__ import annotations

import contextlib
import copy
import json
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from rich.cells import cell_len
from rich.table import Table
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.css.query import NoMatches
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Checkbox, Input, Label, Select, Static

from mextrain.bots import BotSpecError, bot_names, make_bot, registered_by
from mextrain.i18n import (
    LANGUAGE_NAMES,
    LANGUAGES,
    Translator,
    bot_error_text,
    error_text,
    is_visible_text,
    name_keys,
    os_error_text,
    rules_error_text,
    rules_in_short,
    terminal_safe,
)
from mextrain.records import IllegalRecordError, RecordFormatError, shorten_numbers
from mextrain.rules import (
    PRESET_NAMES,
    Match,
    RoundState,
    Rules,
    RulesError,
    SeatView,
    show_text,
)
from mextrain.search import LEVELS

from .history import level_name, read_history, stats_text, summarize
from .render import (
    BOT_LEVELS,
    MAX_NAME,
    SHEET_WIDTH,
    Unit,
    escape,
    open_doubles_markup,
    round_result_markup,
    score_sheet_markup,
    totals_text,
    train_columns,
    wrap_units,
)
from .session import (
    BOT_TIME_MS,
    HUMAN,
    GameInUse,
    GameSession,
    NoRoundError,
    StartChoices,
    asks_more_time,
    find_resumable,
    keep_start_choices,
    latest_if_finished,
    passed_worth_saying,
)
from .typography import unbroken

__all__ = [
    "BOT_LEVELS",
    "HOUSE_FLAGS",
    "KEY_SETTLE",
    "FittedText",
    "GameSetup",
    "HelpScreen",
    "MatchEndScreen",
    "PassScreen",
    "RoundEndScreen",
    "ScoreSheetScreen",
    "StartScreen",
    "StatsScreen",
    "TrainsScreen",
    "cannot_resume_line",
    "check_names",
    "hold_keys",
    "keys_held",
    "quitting",
    "resume_detail",
    "seat_names",
    "stop_acting",
    "trouble_with_save",
    "why_not_resumed",
]

#: house rules offered as check boxes (all off in every preset)
HOUSE_FLAGS = (
    "mexican_after_own_train",
    "mexican_after_first_round_of_turns",
    "no_going_out_on_double",
    "draw_until_playable",
)
#: the lengths of game offered (rounds); the full game is the rules' own count
SHORT_GAMES = (1, 4, 7)


@dataclass(frozen=True, slots=True)
class GameSetup:
    """What the start screen (or the command line) chose."""

    rules: Rules
    seats: tuple[str, ...]
    lang: str
    #: the names people gave themselves, by seat ("" or missing: "Player N")
    names: tuple[str, ...] = ()


def default_name(kind: str, seat: int, t: Translator) -> str:
    """The name a seat gets when nobody chose one: "Player 1" for a person at seat 1,
    "Expert 3" for a bot at seat 3."""
    if kind == HUMAN:
        return t("tui.name.player", number=seat + 1)
    level = kind.split(":", 1)[0]
    key = f"tui.level.{level}"
    shown = t(key) if t.has(key) else level.capitalize()
    return t("tui.name.bot", level=shown, number=seat + 1)


def seat_names(kinds: Sequence[str], t: Translator, chosen: Sequence[str] = ()) -> list[str]:
    """Names for the seats: the name a person chose (``chosen[seat]``), else its
    `default_name` (names read well in every message: "Player 1 must play")."""
    names = []
    for seat, kind in enumerate(kinds):
        own = chosen[seat].strip() if kind == HUMAN and seat < len(chosen) else ""
        names.append(own or default_name(kind, seat, t))
    return names


def names_in_language(names: Sequence[str], t: Translator) -> list[str]:
    """A record's seat names with its default ones given in ``t``'s language ("Joueur 1"
    saved in French is "Pelaaja 1" in Finnish, "Difficile 3" "Vaikea 3"), names people
    chose as they are; all as they are if a new name would clash with a chosen one."""
    kinds = [HUMAN, *bot_names()]
    languages = [Translator(lang) for lang in LANGUAGES]
    out = []
    for seat, name in enumerate(names):
        kind = next(
            (k for k in kinds for other in languages if default_name(k, seat, other) == name),
            None,
        )
        out.append(name if kind is None else default_name(kind, seat, t))
    try:
        check_names(out, t)
    except ValueError:
        return list(names)
    return out


def rename_default_names(session: GameSession, t: Translator) -> None:
    """Give a resumed game's default names again in ``t``'s language, for what each seat
    is now ("Player 1" started in English is "Pelaaja 1" in Finnish; "Medium 2" turned
    expert is "Expert 2"); a name someone chose stays. Nothing changes if the new names
    would clash with a chosen one."""
    then = [seat_names(session.named_kinds, Translator(lang)) for lang in LANGUAGES]
    now = seat_names([spec.kind for spec in session.seats], t)
    names = [
        # (a record from elsewhere may leave a seat without a name: it gets its default)
        now[seat]
        if not spec.name.strip() or any(given[seat] == spec.name for given in then)
        else spec.name
        for seat, spec in enumerate(session.seats)
    ]
    try:
        check_names(names, t)
    except ValueError:
        return
    session.seats = [
        replace(spec, name=name) for spec, name in zip(session.seats, names, strict=True)
    ]
    session.named_kinds = [spec.kind for spec in session.seats]


def saved_game_line(session: GameSession, t: Translator) -> str:
    """ "A game is saved: round 4 of 13, Ana, Medium 2 and Medium 3." (the start screen's
    offer to go on with it; "round 4 of 13" and each seat's name kept whole on a line)."""
    shown = copy.copy(session)  # (its default names as the game will give them in ``t``)
    rename_default_names(shown, t)
    # each name kept whole on its line: "Mestari" and its "4." never part (no-break spaces)
    names = [unbroken(name) for name in shown.names]
    # (Italian writes "ed" before a word that starts with an e: "Medio 2 ed Esperto 3")
    joined = "tui.start.saved_and_e" if names[-1][:1] in ("e", "E") else "tui.start.saved_and"
    seats = t(joined, first=", ".join(names[:-1]), last=names[-1])
    # and where it stands too: "round" never at a line's end and its "4 of 13" on the next
    where = t(
        "tui.start.saved_round",
        round=session.match.round_index + 1,
        total=session.rules.round_count,
    )
    return t("tui.start.saved", where=unbroken(where), seats=seats)


def trouble_with_save(err: Exception) -> str:
    """What kind of failure kept a saved game from going on, as the reader and the
    session tell them apart: ``damaged`` (not JSON, cut short, a field missing or
    mistyped), ``not_a_game`` (JSON, but no game record), ``other_version`` (a record
    of another version of the format), ``illegal`` (a record that breaks the rules),
    ``no_round`` (nothing dealt yet), ``bot`` (a seat's bot cannot be made here),
    ``in_use`` (being played in another terminal) or ``unreadable`` (the system refused
    the file)."""
    if isinstance(err, GameInUse):
        return "in_use"
    if isinstance(err, BotSpecError):
        return "bot"
    if isinstance(err, NoRoundError):
        return "no_round"
    if isinstance(err, IllegalRecordError):
        return "illegal"
    if isinstance(err, RecordFormatError):
        if err.field == "format":
            return "not_a_game"
        return "other_version" if err.field == "version" else "damaged"
    if isinstance(err, OSError):
        return "unreadable"
    return "damaged"


def why_not_resumed(err: Exception, t: Translator) -> str:
    """Why a saved game cannot go on, in a few words of the player's language ("the file
    is damaged"), short enough for the start screen's line at 80 columns
    (``mextrain play --resume`` says the same, and gives `resume_detail` apart)."""
    return t(f"tui.cli.why.{trouble_with_save(err)}")


def resume_detail(err: Exception, t: Translator) -> str | None:
    """The detail behind `why_not_resumed`, for whoever wants to look into the file: the
    reader's own words (in English, as ``mextrain replay`` gives them), the bot registry's
    or the system's (in ``t``'s language where it has them), where a record breaks the
    rules and which (`record_fault_text`); None where the few words say it all. A
    record's text -- an option's name -- may hold escape sequences: they are shown
    escaped."""
    if isinstance(err, NoRoundError | GameInUse):
        return None
    if isinstance(err, BotSpecError):
        return terminal_safe(bot_error_text(err, t.lang))
    if isinstance(err, RecordFormatError):
        return terminal_safe(err.reason.removeprefix("not a record: "))
    if isinstance(err, OSError):
        return terminal_safe(os_error_text(err, t.lang))
    if isinstance(err, IllegalRecordError):
        return terminal_safe(record_fault_text(err, t))
    return terminal_safe(str(err))


def record_fault_text(err: IllegalRecordError, t: Translator) -> str:
    """Where a record breaks the rules, counted as a reader counts ("round 1, move 2
    (1:draw)": the checker's indices start at 0), and the rule: in ``t``'s language where
    the engine refused the move (the seats by the record's names), else -- scores that do
    not add up, a round past the game's end -- in the checker's English."""
    if err.cause is not None:
        # (a seat the record leaves nameless by the default name: "Player 4")
        names = {seat: name for seat, name in enumerate(err.players) if name.strip()} or None
        detail = shorten_numbers(error_text(err.cause, t.lang, names), t.count_words)
    else:
        detail = err.reason
    if err.round is None:
        return detail
    if err.action is None:
        return t("tui.cli.fault_round", round=t.whole(err.round + 1), detail=detail)
    return t(
        "tui.cli.fault_at",
        round=t.whole(err.round + 1),
        move=t.whole(err.action + 1),
        text=shorten_numbers(err.text or "", t.count_words),
        detail=detail,
    )


def cannot_resume_line(path: Path, err: Exception, t: Translator) -> str:
    """ "Cannot resume 20261130-132043-634078.json: the file is damaged" -- the save named
    by its file name (the time its game began, as the saved games are kept), never its
    whole path, so that the line fits 80 columns in every language."""
    return t(
        "tui.cli.cannot_resume",
        path=terminal_safe(path.name),
        reason=why_not_resumed(err, t),
    )


def check_names(names: Sequence[str], t: Translator) -> None:
    """Refuse (ValueError, in the player's words) a name that is too long, holds control
    characters, or that two seats share: every message names seats, so each must be told
    apart."""
    seen: set[str] = set()
    for name in names:
        if name and not is_visible_text(name):
            raise ValueError(t("tui.start.name_unprintable", name=show_text(name)))
        if len(name) > MAX_NAME:
            shown = show_text(name, str)
            raise ValueError(t("tui.start.name_too_long", name=shown, count=MAX_NAME))
        keys = name_keys(name)  # (two names are one when they share a key)
        if keys & seen:
            raise ValueError(t("tui.start.same_name", name=name))
        seen |= keys


#: between two keys of a window's key line
KEY_SEPARATOR = " · "


def pack_keys(text: str, width: int, separator: str = KEY_SEPARATOR) -> str:
    """A line of keys ("Enter: deal the next round · t: the trains · q: save and quit")
    broken between two keys (apart by ``separator``) into lines of ``width`` at most,
    never inside one (a key too long for a line by itself wraps as words do)."""
    lines: list[str] = []
    for part in text.split(separator):
        if lines and cell_len(lines[-1] + separator + part) <= width:
            lines[-1] += separator + part
        else:
            lines.append(part)
    return "\n".join(lines)


class PackedLine(Static):
    """Entries joined by " · " on one line (keys, a round's totals): too long for the
    screen, it goes on more lines between two entries, never inside one ("Mestari 9" /
    "0★" read as two seats). ``bold``: the whole line in bold."""

    def __init__(
        self,
        text: str,
        *,
        bold: bool = False,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        self.bold = bold
        super().__init__(self._markup(text), id=id, classes=classes)
        self.keys_text = text

    #: what sets two entries apart
    separator = KEY_SEPARATOR

    def _markup(self, text: str) -> str:
        return f"[b]{escape(text)}[/b]" if self.bold else escape(text)

    def on_resize(self, event: events.Resize) -> None:
        width = self.content_size.width
        if width > 0:
            self.update(self._markup(pack_keys(self.keys_text, width, self.separator)))

    def say(self, text: str) -> None:
        """Show ``text`` instead, packed as the line is."""
        self.keys_text = text
        width = self.content_size.width
        self.update(self._markup(pack_keys(text, width, self.separator) if width > 0 else text))


class TrainTiles(Static):
    """A train's tiles and open end, broken between two tiles into lines as wide as the
    widget; the last tile and the open end after it go on one line together."""

    def __init__(self, parts: Sequence[str], end: str, *, classes: str | None = None) -> None:
        self.units = [*parts[:-1], f"{parts[-1]} {end}"]
        super().__init__(" ".join(self.units), classes=classes)

    def on_resize(self, event: events.Resize) -> None:
        width = self.content_size.width
        if width <= 0:
            return
        units = [Unit(unit, Content.from_markup(unit).plain, " ") for unit in self.units]
        self.update("\n".join(wrap_units(units, width)))


class FittedText(Static):
    """Markup made for the widget's width, and made again when the width changes: lists
    of tiles broken between two tiles, each hanging under its first (`render.wrap_units`;
    the screen's own wrapping ran them back to column 0, under a seat's name). ``make``
    takes the width (None before the widget has one)."""

    def __init__(
        self,
        make: Callable[[int | None], str] = lambda width: "",
        *,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        self.make = make
        #: the width the markup shown was made for
        self.made_for: int | None = None
        super().__init__(make(None), id=id, classes=classes)

    def show(self, make: Callable[[int | None], str]) -> None:
        """Show ``make``'s markup at the widget's width, now and whenever it changes."""
        self.make = make
        width = self.content_size.width
        self.made_for = width if width > 0 else None
        self.update(make(self.made_for))

    def on_resize(self, event: events.Resize) -> None:
        # (only a new width lays it out anew: its height follows from what it shows)
        width = self.content_size.width
        if (width if width > 0 else None) != self.made_for:
            self.show(self.make)


class KeyLine(PackedLine):
    """A window's keys at its foot: too long for the screen, they go on two lines
    between two keys ("q: save and" / "quit" read as two keys)."""


class StartKeys(PackedLine):
    """The start screen's keys ("Tab move  Enter choose  Ctrl+S start"), two spaces
    apart: on one line where it holds them, else on two, between two keys."""

    separator = "  "


class TickBox(Checkbox):
    """A check box whose mark itself says whether it is on (``✓``) or off (blank): the
    stock one draws ``X`` both ways and tells them apart by colour only, which reads as
    "on" in monochrome and to colour-blind players."""

    @property
    def _button(self) -> Content:
        self.BUTTON_INNER = "✓" if self.value else " "
        return super()._button


#: the seconds a bot's move may think in the terminal, as the player is told them
BOT_TIME_S = BOT_TIME_MS // 1000

#: the bot a seat added on the start screen gets until someone chooses
DEFAULT_BOT = "medium"


def _bot_choices() -> list[str]:
    """The levels, weakest first, then any bot a program of yours registered or an
    installed package offers (the search bot's raw name, ``ismcts``, is what the levels
    offer already)."""
    known = bot_names()
    mine = [
        b
        for b in known
        if b not in BOT_LEVELS and (registered_by(b) or "mextrain").partition(".")[0] != "mextrain"
    ]
    return [b for b in BOT_LEVELS if b in known] + mine


#: the newest saved games the start screen reads for one to go on with (each is replayed)
SAVED_LOOKED_AT = 30


class StartScreen(Screen[GameSetup | GameSession]):
    """Choose the rules, house options, seats and language -- or go on with the saved game
    (``saved``: the newest unfinished one that can go on), which it then returns. Newer
    saves that cannot go on (``passed``: cut short, breaking the rules, naming an unknown
    bot) are named, with why, as ``mextrain play --resume`` names them."""

    BINDINGS = [  # noqa: RUF012 - Textual reads this class attribute
        Binding("ctrl+s", "start", "Start", show=False),
        Binding("ctrl+r", "resume", "Resume", show=False),
        Binding("ctrl+t", "stats", "Statistics", show=False),
        Binding("ctrl+g", "games", "Saved games", show=False),
        Binding("escape", "app.quit", "Quit", show=False),
    ]

    def __init__(
        self,
        setup: GameSetup,
        look_for_saved: bool = False,
        level: str | None = None,
        remember: bool = False,
    ) -> None:
        super().__init__()
        #: the level a seat added next gets: the one last chosen for a seat (here, or
        #: when a game last began on this screen); until one is, the level of the last
        #: seat the screen opens with that has one (a first game's Expert: a seat added
        #: beside it was Medium), Medium if none has (a greedy or random bot is no level
        #: a player expects a seat added to get)
        levels = [kind for kind in setup.seats if kind in LEVELS]
        self.level = level or (levels[-1] if levels else DEFAULT_BOT)
        #: keep the seats and that level for the next time the screen opens
        self.remember = remember
        self.saved: GameSession | None = None
        #: the newer saves passed over, each with why (said under the offer, if any)
        self.passed: list[tuple[Path, Exception]] = []
        #: look for a saved game to offer (in the background: it reads the saved games)
        self.look_for_saved = look_for_saved
        self.lang = setup.lang
        self.preset = setup.rules.preset_name
        self.players = len(setup.seats)
        self.seats = list(setup.seats)
        self.names = list(setup.names)
        overrides = dict(setup.rules.overrides)
        self.flags = {flag: bool(overrides.get(flag, False)) for flag in HOUSE_FLAGS}
        self.rounds = setup.rules.round_count
        #: the options given (``--option``, a rules object) that the screen has no field
        #: for, such as ``double_blank_points``: kept as given, whatever is chosen here
        self.kept = {k: v for k, v in overrides.items() if k not in HOUSE_FLAGS and k != "rounds"}
        #: the engines given, played while the length chosen is theirs (``[0, 1, 2]``)
        self.given_rounds = setup.rules.rounds
        self.error = ""

    @property
    def t(self) -> Translator:
        return Translator(self.lang)

    def _base(self) -> Rules:
        """The preset chosen with the options kept (a double-6 set and its hand sizes):
        its seats and engines are the ones the lists offer. The preset alone where they
        do not go with it (Start then says why)."""
        try:
            return Rules.preset(self.preset, **self.kept)
        except RulesError:
            return Rules.preset(self.preset)

    def compose(self) -> ComposeResult:
        t = self.t
        base = self._base()
        lo, hi = base.players
        self.players = min(max(self.players, lo), hi)
        bots = _bot_choices()
        with VerticalScroll(id="start"):
            yield Static(f"[b]{t('game.name')}[/b] — {t('tui.start.title')}", id="start-title")
            saved = Static(
                "" if self.saved is None else escape(saved_game_line(self.saved, t)),
                id="start-saved",
            )
            saved.display = self.saved is not None
            yield saved
            passed = Static(escape(self.passed_text()), id="start-passed")
            passed.display = bool(self.passed)
            yield passed
            with Horizontal(classes="row"):
                yield Label(t("tui.start.language"), classes="field")
                yield Select(
                    [(LANGUAGE_NAMES[code], code) for code in LANGUAGES],
                    value=self.lang,
                    allow_blank=False,
                    compact=True,
                    id="lang",
                )
            with Horizontal(classes="row"):
                yield Label(t("tui.start.rules"), classes="field")
                yield Select(
                    [(t(f"tui.preset.{name}"), name) for name in PRESET_NAMES],
                    value=self.preset,
                    allow_blank=False,
                    compact=True,
                    id="preset",
                )
            with Horizontal(classes="row"):
                yield Label(t("tui.start.players"), classes="field")
                yield Select(
                    [(str(n), n) for n in range(lo, hi + 1)],
                    value=self.players,
                    allow_blank=False,
                    compact=True,
                    id="players",
                )
            with Horizontal(classes="row"):
                yield Label(t("tui.start.length"), classes="field")
                # (and the length given, whatever it is: the one that is played)
                # (a short game no longer than the set has engines: a double-6 set has 7)
                engines = base.max_pip + 1
                short = {n for n in SHORT_GAMES if n <= engines}
                lengths = sorted({*short, base.round_count, self.rounds})
                yield Select(
                    [(t.plural("tui.start.rounds", n), n) for n in lengths],
                    value=self.rounds if self.rounds in lengths else base.round_count,
                    allow_blank=False,
                    compact=True,
                    id="rounds",
                )
            for seat in range(self.players):
                kind = self.seats[seat] if seat < len(self.seats) else self.level
                options = [(t("tui.start.human"), HUMAN)]
                options += [(level_name(b, t), b) for b in bots]
                if kind not in {value for _, value in options}:
                    options.append((kind, kind))
                with Horizontal(classes="row"):
                    yield Label(t("tui.start.seat", number=seat + 1), classes="field")
                    yield Select(
                        options, value=kind, allow_blank=False, compact=True, id=f"seat-{seat}"
                    )
                    name = Input(
                        self.names[seat] if seat < len(self.names) else "",
                        placeholder=t("tui.name.player", number=seat + 1),
                        max_length=MAX_NAME,
                        compact=True,
                        id=f"name-{seat}",
                        classes="name",
                    )
                    name.tooltip = t("tui.start.name")
                    name.display = kind == HUMAN  # a name box for people only
                    yield name
            # a bot asking to think longer a move than the terminal lets it is told so
            time = Static(t("tui.start.time_capped", seconds=BOT_TIME_S), id="start-time")
            time.display = self._asks_more_time()
            yield time
            yield Static(t("tui.start.house"), classes="section")
            for flag in HOUSE_FLAGS:
                yield TickBox(t(f"tui.house.{flag}"), self.flags[flag], id=f"flag-{flag}")
            yield Static(escape(self.error), id="start-error")
            with Horizontal(classes="row"):
                yield Button(t("tui.start.go"), variant="primary", id="go")
                yield Button(t("tui.start.stats"), id="stats")
                yield Button(t("tui.start.games"), id="games")
                # last: appearing once the saved game is found, it moves no other button
                resume = Button(t("tui.start.resume"), variant="success", id="resume")
                resume.display = self.saved is not None
                yield resume
        keys = "tui.start.keys" if self.saved is None else "tui.start.keys_saved"
        yield StartKeys(t(keys), id="start-keys")

    def on_input_blurred(self, event: Input.Blurred) -> None:
        """A name longer than its box reads from its start once the box is left (it showed
        its end, where typing had left it)."""
        event.input.cursor_position = 0
        event.input.scroll_to(x=0, animate=False)

    def on_select_changed(self, event: Select.Changed) -> None:
        sid = event.select.id or ""
        value = event.value
        if value is Select.NULL:
            return
        if sid.startswith("seat-"):
            found = self.query(f"#name-{sid.removeprefix('seat-')}")
            if found:
                found.first(Input).display = value == HUMAN
            # a level chosen is the one the next seat added gets (a box says its first
            # value too, when it appears: not a choice)
            seat = int(sid.removeprefix("seat-"))
            was = self.seats[seat] if seat < len(self.seats) else self.level
            if value not in (was, HUMAN):
                self.level = str(value)
            if seat < len(self.seats):
                self.seats[seat] = str(value)
            with contextlib.suppress(NoMatches):
                self.query_one("#start-time", Static).display = self._asks_more_time()
            return
        self._collect_safely()
        if sid == "lang":
            if value == self.lang:
                return
            self.lang = str(value)
            self.app.lang = self.lang  # type: ignore[attr-defined]
        elif sid == "preset":
            if value == self.preset:
                return
            self.preset = str(value)
            self.rounds = self._base().round_count
        elif sid == "players":
            if value == self.players:
                return
            self.players = int(str(value))
        elif sid == "rounds":
            self.rounds = int(str(value))
            return
        # a refusal was about the setup as it was (and in its language): Start says anew
        self.error = ""
        self.refresh(recompose=True)
        # the screen is built anew: the list just changed keeps the focus
        self.call_after_refresh(self._focus_field, sid)

    def _asks_more_time(self) -> bool:
        """Whether a seat chosen is a bot asking to think longer a move than the terminal
        lets it (``ismcts:time_ms=5000``, from the seats given or kept)."""
        kinds = [
            self.seats[seat] if seat < len(self.seats) else self.level
            for seat in range(self.players)
        ]
        return any(asks_more_time(kind) for kind in kinds)

    def _focus_field(self, field: str) -> None:
        found = self.query(f"#{field}")
        if found:
            found.first().focus()

    def on_mount(self) -> None:
        self._focus_field("lang")  # the form's first field, so the keys work at once
        if self.look_for_saved:
            self.run_worker(self._find_saved, thread=True, group="saved", exit_on_error=False)

    def _find_saved(self) -> None:
        try:
            saved, found = find_resumable(limit=SAVED_LOOKED_AT)
            passed: list[tuple[Path, Exception]] = list(found)
            if saved is None and passed:  # (nothing to go on with: as ``--resume``)
                passed = passed_worth_saying(passed, latest_if_finished())
        except Exception:
            return
        if saved is not None or passed:
            with contextlib.suppress(RuntimeError):  # (the app has closed meanwhile)
                self.app.call_from_thread(self.offer, saved, passed)

    def passed_text(self) -> str:
        """The saves passed over, one line each, in the screen's language."""
        return "\n".join(cannot_resume_line(path, err, self.t) for path, err in self.passed)

    def offer(
        self, saved: GameSession | None, passed: Sequence[tuple[Path, Exception]] = ()
    ) -> None:
        """Offer to go on with ``saved``: a line saying where it stands, a button, Ctrl+R;
        and say which newer saves could not be opened, and why (play goes on)."""
        if not self.is_attached:  # (a game has begun meanwhile)
            return
        self.passed = list(passed)
        if self.passed:
            with contextlib.suppress(NoMatches):  # (being rebuilt: it shows `passed`)
                line = self.query_one("#start-passed", Static)
                line.update(escape(self.passed_text()))
                line.display = True
        if saved is None:
            return
        self.saved = saved
        try:
            line = self.query_one("#start-saved", Static)
            line.update(escape(saved_game_line(saved, self.t)))
            line.display = True
            self.query_one("#resume", Button).display = True
            self.query_one("#start-keys", StartKeys).say(self.t("tui.start.keys_saved"))
        except NoMatches:  # the screen is being rebuilt (a language change): it shows `saved`
            pass

    def _cannot_resume(self, path: Path, err: Exception) -> None:
        """The game offered cannot go on after all: no longer offered, and said why among
        the saves passed over."""
        self.saved = None
        self.passed = [*self.passed, (path, err)]
        with contextlib.suppress(NoMatches):
            self.query_one("#start-saved", Static).display = False
            self.query_one("#resume", Button).display = False
            self.query_one("#start-keys", StartKeys).say(self.t("tui.start.keys"))
            line = self.query_one("#start-passed", Static)
            line.update(escape(self.passed_text()))
            line.display = True

    def _collect_safely(self) -> None:
        """Read the seat choices on screen; seats not on screen keep or get a default."""
        seats = []
        for seat in range(self.players):
            found = self.query(f"#seat-{seat}")
            value = found.first(Select).value if found else Select.NULL
            if value is Select.NULL:
                value = self.seats[seat] if seat < len(self.seats) else self.level
            seats.append(str(value))
        self.seats = seats
        names = []
        for seat in range(max(self.players, len(self.names))):
            found = self.query(f"#name-{seat}")
            if found:
                names.append(found.first(Input).value.strip())
            else:
                names.append(self.names[seat] if seat < len(self.names) else "")
        self.names = names

    def on_checkbox_changed(self, event: Checkbox.Changed) -> None:
        cid = event.checkbox.id or ""
        if cid.startswith("flag-"):
            self.flags[cid.removeprefix("flag-")] = event.value

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "go":
            self.action_start()
        elif event.button.id == "resume":
            self.action_resume()
        elif event.button.id == "stats":
            self.action_stats()
        elif event.button.id == "games":
            self.action_games()

    def action_resume(self) -> None:
        """Go on with the saved game, its default names in the language chosen here."""
        if self.saved is None:
            return
        path = self.saved.path
        if path is not None:  # as the file is now (another sitting may have played)
            with contextlib.suppress(ValueError, OSError):
                self.saved = GameSession.load(path)
            try:
                self.saved.claim()
            except GameInUse as err:  # another terminal has begun playing it meanwhile
                self._cannot_resume(path, err)
                return
        rename_default_names(self.saved, self.t)
        self.app.lang = self.lang  # type: ignore[attr-defined]
        self.dismiss(self.saved)

    def action_stats(self) -> None:
        self.app.push_screen(StatsScreen(self.t))

    def action_games(self) -> None:
        """The saved games: one chosen to go on with is the game this screen gives."""
        from .games import GamesScreen  # (it shows games with the viewer, built on these)

        delay = float(getattr(self.app, "delay", 0.8))
        self.app.push_screen(GamesScreen(self.t, delay), self._go_on_with)

    def _go_on_with(self, session: GameSession | None) -> None:
        """Back from the saved games: on with the game chosen there, if one was; else the
        screen says no more of the games deleted there (the one offered, those passed
        over)."""
        if session is None:
            offered = self.saved.path if self.saved is not None else None
            if offered is not None and not offered.exists():  # (deleted from the list)
                self.saved = None
                with contextlib.suppress(NoMatches):
                    self.query_one("#start-saved", Static).display = False
                    self.query_one("#resume", Button).display = False
                    self.query_one("#start-keys", StartKeys).say(self.t("tui.start.keys"))
            kept = [(path, err) for path, err in self.passed if path.exists()]
            if kept != self.passed:
                self.passed = kept
                with contextlib.suppress(NoMatches):
                    line = self.query_one("#start-passed", Static)
                    line.update(escape(self.passed_text()))
                    line.display = bool(kept)
            return
        self.app.lang = self.lang  # type: ignore[attr-defined]
        self.dismiss(session)

    def action_start(self) -> None:
        self._collect_safely()
        seats = tuple(self.seats[: self.players])
        overrides: dict[str, object] = dict(self.kept)
        overrides.update({k: True for k, v in self.flags.items() if v})
        base = self._base()
        if self.rounds == len(self.given_rounds):
            overrides["rounds"] = list(self.given_rounds)
        elif self.rounds != base.round_count:
            overrides["rounds"] = list(base.rounds[: self.rounds])  # (the set's first engines)
        names = tuple(
            name if kind == HUMAN else ""
            for kind, name in zip(seats, self.names[: self.players], strict=True)
        )
        try:
            rules = Rules.preset(self.preset, **overrides)
            rules.check_players(len(seats))
            check_names(seat_names(seats, self.t, names), self.t)
            for kind in dict.fromkeys(k for k in seats if k != HUMAN):
                make_bot(kind)  # (an installed package's bot may fail to load)
        except RulesError as err:
            self.error = rules_error_text(err, self.lang)
            self.query_one("#start-error", Static).update(escape(self.error))
            return
        except BotSpecError as err:
            self.error = bot_error_text(err, self.lang)
            self.query_one("#start-error", Static).update(escape(self.error))
            return
        except ValueError as err:
            self.error = str(err)
            self.query_one("#start-error", Static).update(escape(self.error))
            return
        if self.remember:
            keep_start_choices(StartChoices(seats, names, self.level))
        self.dismiss(GameSetup(rules, seats, self.lang, names))


#: seconds in which Enter and Space are not taken after a screen that they answer comes or
#: goes (a round's end, "pass the keyboard"): a quick second press, or a key's repeat,
#: meant for the old screen must not act on the new one (pick a tile of a hand not yet
#: seen, show the next person their hand, close a round's result unread)
KEY_SETTLE = 0.4


def hold_keys(app: App[object]) -> None:
    """Enter and Space wait `KEY_SETTLE` seconds from now (`keys_held`)."""
    app.keys_held_until = time.monotonic() + KEY_SETTLE  # type: ignore[attr-defined]


def keys_held(app: App[object]) -> bool:
    """Whether an Enter or Space now came too soon after a screen changed to count."""
    until: float = getattr(app, "keys_held_until", 0.0)
    return time.monotonic() < until


def quitting(app: App[Any]) -> bool:
    """Whether the game has been saved and the terminal is being let go (`stop_acting`)."""
    return bool(getattr(app, "quitting", False))


def stop_acting(app: App[Any]) -> None:
    """From now on the game's screens do nothing more: keys typed right after q (the rest
    of a word, a paste, an Enter), there before the terminal is let go, would deal the
    next round, start a new game or play after the game was saved."""
    app.quitting = True  # type: ignore[attr-defined]


class PassScreen(Screen[None]):
    """Hides the table between two people's turns at the same keyboard."""

    BINDINGS = [  # noqa: RUF012
        Binding("enter", "ready", "Ready"),
        Binding("space", "ready", "Ready", show=False),
        Binding("q", "app.quit", "Quit", show=False),
    ]

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return not quitting(self.app)  # (keys typed after q: see `stop_acting`)

    def __init__(self, name: str, t: Translator) -> None:
        super().__init__()
        self.seat_name = name
        self.t = t

    def compose(self) -> ComposeResult:
        t = self.t
        name = escape(self.seat_name)
        title = t("tui.pass.title", name=name)
        with Vertical(id="pass"):
            yield Static(
                f"[b]{title}[/b]\n\n{t('tui.pass.body', name=name)}",
                id="pass-text",
            )
        # (q works here too, as on a round's end, where the keys are said)
        yield KeyLine(t("tui.pass.keys"), classes="dialog-keys")

    def on_mount(self) -> None:
        hold_keys(self.app)  # the last player's Enter does not show the next one's hand

    def action_ready(self) -> None:
        if keys_held(self.app):
            return
        hold_keys(self.app)
        self.dismiss(None)


class Closable(ModalScreen[None]):
    """A window over the table (help, trains, score sheet, statistics) that any key of
    the usual three closes, and the key that opened it (each window binds its own)."""

    BINDINGS = [  # noqa: RUF012
        Binding("escape", "close", "Close"),
        Binding("q", "close", "Close", show=False),
        Binding("enter", "close", "Close", show=False),
    ]

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return not quitting(self.app)  # (keys typed after q: see `stop_acting`)

    def action_close(self) -> None:
        self.dismiss(None)


class RoundEndScreen(ModalScreen[None]):
    """Each seat's tiles left and points; Enter goes on to the next round, t shows the
    trains as the round ended (the last moves that ended it, the double nobody could
    answer), q saves and quits (a resumed game opens on this screen again)."""

    BINDINGS = [  # noqa: RUF012
        Binding("enter", "next", "Next"),
        Binding("space", "next", "Next", show=False),
        Binding("t", "trains", "Trains", show=False),
        Binding("q", "app.quit", "Quit", show=False),
    ]

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return not quitting(self.app)  # (keys typed after q: see `stop_acting`)

    def __init__(
        self,
        match: Match,
        state: RoundState,
        names: Sequence[str],
        t: Translator,
        seat: int = 0,
    ) -> None:
        super().__init__()
        self.match = match
        self.state = state
        self.names = list(names)
        self.t = t
        #: whose trains are "yours" when they are shown
        self.seat = seat

    def action_trains(self) -> None:
        # The Enter that closes the trains does not close the result too, its echo unread
        self.app.push_screen(
            TrainsScreen(self.state.view(self.seat), self.names, self.t),
            lambda _: hold_keys(self.app),
        )

    def compose(self) -> ComposeResult:
        t = self.t
        k = self.state.round_index
        with VerticalScroll(classes="dialog"):
            yield Static(f"[b]{t('tui.round_end.title', number=k + 1)}[/b]")
            yield FittedText(
                lambda width: round_result_markup(
                    self.state, t, self.names, self.state.hand, width
                ),
                id="round-result",
            )
            yield PackedLine(totals_text(self.match, t, self.names), bold=True, id="round-totals")
            yield Static(score_sheet_markup(self.match, t, self.names), id="round-sheet")
            key = "tui.round_end.finish" if self.match.is_complete else "tui.round_end.next"
        yield KeyLine(t(key), classes="dialog-keys")

    def on_mount(self) -> None:
        hold_keys(self.app)  # an Enter that ended the round does not close its result

    def action_next(self) -> None:
        if keys_held(self.app):
            return
        hold_keys(self.app)  # nor does a second one pick a tile of the next round
        self.dismiss(None)


class MatchEndScreen(Screen[bool]):
    """The totals and the winners, and the whole score sheet; ``n`` plays again (the
    screen is dismissed with True: a new game, same rules, seats and names)."""

    BINDINGS = [  # noqa: RUF012
        Binding("n", "again", "Play again"),
        Binding("q", "app.quit", "Quit"),
        Binding("escape", "app.quit", "Quit"),
    ]

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return not quitting(self.app)  # (keys typed after q: see `stop_acting`)

    def __init__(self, match: Match, names: Sequence[str], t: Translator) -> None:
        super().__init__()
        self.match = match
        self.names = list(names)
        self.t = t

    def compose(self) -> ComposeResult:
        t = self.t
        winners = [escape(self.names[s]) for s in self.match.winners]
        key = "tui.match_end.winner" if len(winners) == 1 else "tui.match_end.winners"
        with VerticalScroll(classes="dialog"):
            yield Static(f"[b]{t('tui.match_end.title')}[/b]")
            yield Static(t(key, names=", ".join(winners)), id="winners")
            yield Static(score_sheet_markup(self.match, t, self.names), id="final-sheet")
        yield KeyLine(t("tui.match_end.keys"), classes="dialog-keys")

    def action_again(self) -> None:
        self.dismiss(True)


class ScoreSheetScreen(Closable):
    BINDINGS = [Binding("s", "close", "Close", show=False)]  # noqa: RUF012 - (s again)

    def __init__(self, match: Match, names: Sequence[str], t: Translator) -> None:
        super().__init__()
        self.match = match
        self.names = list(names)
        self.t = t

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="dialog"):
            yield Static(f"[b]{self.t('tui.sheet.title')}[/b]")
            yield Static(score_sheet_markup(self.match, self.t, self.names), id="sheet")
        yield KeyLine(self.t("tui.close"), classes="dialog-keys")


class StatsScreen(Closable):
    """How the people who play here are doing: every saved game, summed up per person."""

    BINDINGS = [Binding("ctrl+t", "close", "Close", show=False)]  # noqa: RUF012 - (again)

    def __init__(self, t: Translator) -> None:
        super().__init__()
        self.t = t

    def compose(self) -> ComposeResult:
        history = read_history()
        with VerticalScroll(classes="dialog"):
            yield Static(f"[b]{self.t('tui.stats.title')}[/b]")
            people = summarize(history.games, t=self.t)
            text = stats_text(history, people, self.t, width=SHEET_WIDTH)  # (in the window)
            yield Static(escape(text), id="stats")
        yield KeyLine(self.t("tui.close"), classes="dialog-keys")


class TrainsScreen(Closable):
    """Every train with every tile, scrollable."""

    BINDINGS = [Binding("t", "close", "Close", show=False)]  # noqa: RUF012 - (t again)

    def __init__(
        self, view: SeatView, names: Sequence[str], t: Translator, from_table: bool = False
    ) -> None:
        super().__init__()
        self.view = view
        self.names = list(names)
        self.t = t
        #: opened from the table, whose moves it follows (`follow`); else the trains as a
        #: round ended, which stay
        self.from_table = from_table

    def compose(self) -> ComposeResult:
        t = self.t
        with VerticalScroll(classes="dialog"):
            yield Static(f"[b]{t('tui.trains.title')}[/b]")
            with Vertical(id="all-trains"):
                yield from self._rows()
        yield KeyLine(t("tui.close"), classes="dialog-keys")

    def _rows(self) -> list[Static | Horizontal]:
        """A row a train: a long train wraps under its first tile, and its open end stays
        beside its last tile (it could wrap onto a line of its own); then the open
        doubles, if any."""
        t, view = self.t, self.view
        rows: list[Static | Horizontal] = []
        for train in view.trains:
            lead, parts, end = train_columns(view, train, t, self.names, shown=None)
            rows.append(
                Horizontal(
                    Static(lead, classes="train-lead"),
                    TrainTiles(parts, end, classes="train-tiles"),
                    classes="train-row",
                )
            )
        doubles = open_doubles_markup(view, t, self.names)
        if doubles is not None:
            rows.append(Static(doubles, classes="train-doubles"))
        return rows

    def follow(self, view: SeatView) -> None:
        """The trains as they are now: the bots move on while the window is open (it
        showed the trains of the moment it opened). Where it was scrolled to stays."""
        if view == self.view:
            return
        self.view = view
        with contextlib.suppress(NoMatches):  # (not composed yet: it will show `view`)
            box = self.query_one("#all-trains", Vertical)
            box.remove_children()
            box.mount_all(self._rows())


#: the options a house may change that the help describes in words, in its order
DESCRIBED_OPTIONS = (
    "first_turn_run",
    "draw_until_playable",
    "no_going_out_on_double",
    "mexican_after_own_train",
    "mexican_after_first_round_of_turns",
)


def table_rules_text(rules: Rules, t: Translator) -> str:
    """What this table plays beyond the rules in short: its rule set in words, the house
    rules it turns on, and any other option it changes (as the record writes it); its
    length is in the rules in short (`rules_in_short`)."""
    preset = rules.preset_name
    lines = [
        t("tui.help.preset", preset=t(f"tui.preset.{preset}")),
        t(f"game.help.preset.{preset}"),
    ]
    base = Rules.preset(preset)
    spec = rules.to_spec()
    changed = {k: v for k, v in spec.items() if k != "preset"} if isinstance(spec, dict) else {}
    turned_on = [flag for flag in DESCRIBED_OPTIONS if _on(rules, flag) and not _on(base, flag)]
    house = ["• " + _capital(t(f"game.help.house.{flag}")) for flag in turned_on]
    described = {"first_turn" if flag == "first_turn_run" else flag for flag in turned_on}
    # the scoring house rules and the set, in words (the record's names otherwise)
    if rules.double_blank_points != base.double_blank_points:
        points = rules.double_blank_points
        house.append("• " + _capital(t.plural("game.help.house.double_blank_points", points)))
        described.add("double_blank_points")
    if rules.unsatisfied_double_penalty != base.unsatisfied_double_penalty:
        penalty = rules.unsatisfied_double_penalty
        key = "game.help.house.unsatisfied_double_penalty"
        house.append("• " + _capital(t.plural(key, penalty)))
        described.add("unsatisfied_double_penalty")
    if rules.max_pip != base.max_pip:
        house.append("• " + _capital(t("game.help.house.max_pip", max=rules.max_pip)))
        described.add("max_pip")
    other = [
        f"{key}={json.dumps(value, ensure_ascii=False)}"
        for key, value in changed.items()
        if key != "rounds" and key not in described
    ]
    if house or other:
        lines.append(t("tui.help.house"))
        lines.extend(house)
        if other:
            lines.append("• " + ", ".join(other))
    return "\n".join(lines)


def _on(rules: Rules, flag: str) -> bool:
    """Whether a house rule the help describes is on (``first_turn_run``: a first-turn
    run, the ``first_turn`` option's ``run``)."""
    return rules.first_turn == "run" if flag == "first_turn_run" else bool(getattr(rules, flag))


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


#: a key and what it does, two spaces or more apart ("d      draw from the boneyard")
_KEY_ROW = re.compile(r"^(\S.*?\S|\S)\s{2,}(\S.*)$")


#: the help's keys that work while watching bots (the first word of their rows: the same
#: in every language), with no hand at this keyboard; the watcher's own (p pauses, n
#: steps) come first, from ``tui.help.watching_keys``
WATCHING_KEYS = ("t", "s", "?", "q", "Ctrl+P")


def key_rows(
    text: str, keep: Callable[[str], bool] | None = None, first_rows: str = ""
) -> tuple[list[str], Table, list[str]]:
    """The help's list of keys as a table: the lines before its first key row, the rows
    (a description too long for its line goes on under itself, not under the keys), and
    the lines after them. With ``keep``, only the rows whose keys it keeps (a line that is
    not a row goes as the row before it); ``first_rows``, rows of the same kind put before
    them all, every one kept."""
    lines = text.split("\n")
    rows = [i for i, line in enumerate(lines) if _KEY_ROW.match(line)]
    first, last = (rows[0], rows[-1] + 1) if rows else (len(lines), len(lines))
    table = Table(box=None, show_header=False, padding=(0, 2, 0, 0), expand=False)
    table.add_column(no_wrap=True)
    table.add_column(overflow="fold")
    for line in first_rows.split("\n") if first_rows else ():
        found = _KEY_ROW.match(line)
        key, what = (found.group(1), found.group(2)) if found else ("", line)
        table.add_row(Text(key), Text(what))
    shown = True
    for line in lines[first:last]:
        found = _KEY_ROW.match(line)
        key, what = (found.group(1), found.group(2)) if found else ("", line)
        if found and keep is not None:
            shown = keep(key)
        if shown:
            table.add_row(Text(key), Text(what))  # (as written: no markup)
    return lines[:first], table, lines[last:]


class HelpScreen(Closable):
    """The keys, then the rules in the player's language: the keys that work at the table
    shown (watching bots, those that do not play a hand and those that pause and step the
    bots; undo only where it works)."""

    BINDINGS = [  # noqa: RUF012 - (the key that opened it, again)
        Binding("question_mark", "close", "Close", show=False),
        Binding("f1", "close", "Close", show=False),
    ]

    def __init__(
        self,
        t: Translator,
        rules: Rules | None = None,
        *,
        watching: bool = False,
        undo: bool = True,
    ) -> None:
        super().__init__()
        self.t = t
        self.rules = rules
        self.watching = watching
        self.undo = undo

    def keeps(self, key: str) -> bool:
        """Whether the help lists the row of ``key`` (as the help writes it: "u", "? or F1")."""
        word = key.split()[0]
        if self.watching:
            return word in WATCHING_KEYS
        return self.undo or word != "u"

    def compose(self) -> ComposeResult:
        t = self.t
        with VerticalScroll(classes="dialog"):
            yield Static(f"[b]{t('tui.help.title')}[/b]")
            watcher = t("tui.help.watching_keys") if self.watching else ""
            head, keys, tail = key_rows(t("tui.help.keys"), self.keeps, watcher)
            if self.watching:  # (no tile to click: the mouse's line goes, the marks stay last)
                tail = [t("tui.help.watching"), *tail[-1:]]
            yield Static(escape("\n".join(head)), id="help-keys-title")
            yield Static(keys, id="help-keys")
            yield Static(escape("\n".join(tail)), id="help-marks")
            yield Static(f"[b]{t('game.rules_short_title')}[/b]")
            yield Static(escape(rules_in_short(self.rules, t)), id="help-rules")
            if self.rules is not None:
                yield Static(escape(table_rules_text(self.rules, t)), id="help-table")
        yield KeyLine(t("tui.close"), classes="dialog-keys")
