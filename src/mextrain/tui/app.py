"""`mextrain play`: the game at the terminal table.

The table screen shows one seat's view and asks the engine for everything: playable tiles
and target trains come from ``legal_actions``, choices go through `RoundState.apply`, and
a refused choice is explained with the engine's own reason in the player's language. Bots
think in a worker, one move at a time at a readable pace, so the screen stays live.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Any, ClassVar

from rich.cells import cell_len
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.command import CommandPalette
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import RichLog, Static

from mextrain.i18n import Translator, error_text, os_error_text, terminal_safe, whole_percent
from mextrain.records import shorten_numbers
from mextrain.rules import DRAW, MEXICAN, PASS, Action, IllegalActionError, Rules, SeatView, Tile

from .hints import PLAN_TIME_S, Hint, PlanTimeout, hints_for, planned_train
from .palette import PaletteInWords
from .render import (
    HINT_SEPARATOR,
    TILES_MARK,
    TRAIN_KEYS,
    capitalised,
    describe_action,
    engine_start_words,
    escape,
    hand_markup,
    hint_words,
    laid_tiles,
    playable_tiles,
    sentence_with_tiles,
    status_markup,
    tiles_that_fit,
    train_key,
    trains_markup,
)
from .screens import (
    Closable,
    FittedText,
    GameSetup,
    HelpScreen,
    MatchEndScreen,
    PassScreen,
    RoundEndScreen,
    ScoreSheetScreen,
    StartScreen,
    TrainsScreen,
    keys_held,
    quitting,
    seat_names,
    stop_acting,
)
from .session import BOT_TIME_MS, GameInUse, GameSession, SeatSpec, asks_more_time

__all__ = [
    "DEFAULT_DELAY",
    "KEYS_DROPPED_FIRST",
    "KEY_ENTRIES",
    "WATCHING_KEY_ENTRIES",
    "WATCHING_PAUSED_KEY_ENTRIES",
    "PlayApp",
    "TableScreen",
]

#: seconds between two bots' moves: slow enough to follow, fast enough not to bore
DEFAULT_DELAY = 0.8

#: the table's key bar, in the order shown (each ``tui.keys.<entry>``: a key and a word)
KEY_ENTRIES = ("draw", "pass", "hint", "plan", "undo", "train", "trains", "score", "help", "quit")
#: the bar of a table of bots only, watched: the keys that do something there
WATCHING_KEY_ENTRIES = ("pause", "trains", "score", "help", "quit")
#: the same, the bots paused: p lets them play on, n plays one move
WATCHING_PAUSED_KEY_ENTRIES = ("resume", "next", "trains", "score", "help", "quit")
#: the entries left out first where the bar does not fit, in that order
KEYS_DROPPED_FIRST = ("trains", "plan", "score", "hint", "undo")
#: between two entries: a key and its word read as one, two entries as two
KEY_GAP = "  "
#: the lines a message is laid out to fit (`sentence_with_tiles`); on a screen too narrow
#: for that (a long planned train under 40 columns) it takes the lines it needs, the log
#: below giving way, rather than be cut off
MESSAGE_LINES = 3

CSS = """
#status { height: 1; background: $primary; color: $text; text-style: bold; }
#trains-pane { height: auto; max-height: 60%; min-height: 3; }
#hand-title { height: 1; text-style: bold; margin-top: 1; }
#hand { height: auto; max-height: 8; }
/* tiles and trains are clickable, but only a playable tile is underlined */
#hand, #trains { link-style: none; link-style-hover: reverse; }
#message { height: auto; min-height: 1; text-style: bold; }
#log { height: 1fr; min-height: 3; border-top: solid $secondary; }
#keys { height: 1; background: $boost; }
.dialog { width: 100%; height: 100%; padding: 0 1; background: $surface; }
.dialog > Static { margin-bottom: 1; }
.dialog-keys { dock: bottom; height: auto; padding: 0 1; background: $boost; }
/* the trains window: a long train's tiles wrap in their own column */
#all-trains { height: auto; margin-bottom: 1; }
.train-row { height: auto; }
.train-lead { width: auto; }
.train-tiles { width: 1fr; padding: 0 0 0 1; }
#pass { align: center middle; width: 100%; height: 100%; }
#pass-text { width: 100%; content-align: center middle; text-align: center; }
#start { padding: 0 1; }
#start .row { height: auto; }
#start .field { width: 12; padding: 0 1 0 0; }
#start Checkbox { border: none; padding: 0; height: 1; }
#start-keys { dock: bottom; height: auto; background: $boost; }
#start Select { width: 1fr; }
/* the field with the focus stands out (a compact list's own mark is faint) */
#start Select:focus > SelectCurrent { background: $primary; color: $text; text-style: bold; }
#start Input.name { width: 22; margin-left: 1; }
#start-error { text-style: bold; }
.section { margin-top: 1; text-style: bold; }
"""


class GameLog(RichLog):
    """The game's log, kept on its newest line: when the screen above it grows (a hint
    on two lines, a wrapped hand) or a line is written, the oldest lines go out of sight,
    not the newest -- unless the player has scrolled back to read, until they scroll to
    the end again. The anchor does the following: a `RichLog` scrolling to its end on
    every line written would undo the player's scrolling back at each move."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(auto_scroll=False, **kwargs)

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_y(old_value, new_value)
        # Back at the end, the log follows again (a scroll view leaves this out); said with
        # Textual's public calls: anchoring at the end scrolls nowhere and undoes a release.
        # Not from here at once: a scroll by the keys is animated, and this runs inside the
        # animator's step, whose animation anchoring would stop under it (a KeyError).
        if self.is_anchored and self.scroll_y >= self.max_scroll_y:
            self.call_later(self._follow_again)

    def _follow_again(self) -> None:
        if self.is_anchored and self.scroll_y >= self.max_scroll_y:
            self.anchor()


class TableScreen(Screen[None]):
    """The table: trains, your hand, the prompt line and the log."""

    # (priority: the hand's keys, even when Tab has put the focus on the log or trains)
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "cursor(-1)", show=False, priority=True),
        Binding("right", "cursor(1)", show=False, priority=True),
        Binding("home", "cursor_home", show=False, priority=True),
        Binding("end", "cursor_end", show=False, priority=True),
        Binding("enter", "choose", show=False),
        Binding("space", "choose", show=False),
        Binding("escape", "cancel", show=False),
        Binding("m", "train('M')", show=False),
        Binding("o", "own_train", show=False),
        Binding("d", "draw", show=False),
        Binding("p", "pass_turn", show=False),  # (watching bots: pause them, or play on)
        Binding("n", "next_move", show=False),
        Binding("h", "hint", show=False),
        Binding("u", "undo", show=False),
        Binding("v", "plan", show=False),
        Binding("t", "trains", show=False),
        Binding("s", "sheet", show=False),
        Binding("f1", "help", show=False),
        Binding("question_mark", "help", show=False),
        Binding("q", "quit_game", show=False),
        *(Binding(key, f"train({seat})", show=False) for seat, key in enumerate(TRAIN_KEYS)),
    ]

    def __init__(self, session: GameSession, lang: str, delay: float) -> None:
        super().__init__()
        self.session = session
        self.t = Translator(lang)
        self.lang = lang
        self.delay = delay
        self.cursor = 0
        self.chosen: Tile | None = None
        humans = session.humans
        #: whose hand is on screen (None: nobody's, between hot-seat turns or all bots)
        self.viewer: int | None = humans[0] if len(humans) == 1 else None
        self.message = ""
        #: a message that lists tiles (the plan), laid out at the line's width: the text
        #: and its markup for a width, while that text is the message
        self._laid_out: tuple[str, Callable[[int | None], str]] | None = None
        self._token = 0
        self._ended_shown = -1
        #: the saves are failing, and the player has been told (`say_if_unsaved`)
        self._unsaved_said = False
        #: watching bots: they wait for the watcher (p again, or n for one move)
        self.paused = False
        #: paused, the one move n asked for is being thought
        self._stepping = False

    # -- layout --------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with VerticalScroll(id="trains-pane"):
            yield Static(id="trains")
        yield Static(id="hand-title")
        yield Static(id="hand")
        yield FittedText(id="message")
        yield GameLog(id="log", max_lines=500, wrap=True, min_width=20)
        yield Static(escape(self.key_bar(self.app.size.width)), id="keys")

    def show_keys(self) -> None:
        self.query_one("#keys", Static).update(escape(self.key_bar(self.app.size.width)))

    @property
    def watching(self) -> bool:
        """Only bots play: the person at the keyboard watches, with no hand of their own."""
        return not self.session.humans

    @property
    def undo_works(self) -> bool:
        """Undo is for one person against bots: the key bar and the help offer it there."""
        return len(self.session.humans) == 1

    def key_bar(self, width: int) -> str:
        """The keys on one line, two spaces between them: every one that fits ``width``;
        where not all do, the least needed go first (`KEYS_DROPPED_FIRST`: the help lists
        every key that works at the table). Undo is left out where it is refused (more than
        one person at the table); watching bots, only the keys that do something there are
        shown (paused, the key that plays one move too)."""
        if self.watching:
            shown = list(WATCHING_PAUSED_KEY_ENTRIES if self.paused else WATCHING_KEY_ENTRIES)
        else:
            shown = [entry for entry in KEY_ENTRIES if entry != "undo" or self.undo_works]
        for dropped in (None, *KEYS_DROPPED_FIRST):
            shown = [entry for entry in shown if entry != dropped]
            text = KEY_GAP.join(self.t(f"tui.keys.{entry}") for entry in shown)
            if cell_len(text) <= width:
                break
        return text

    def on_resize(self, event: events.Resize) -> None:
        self.show_keys()
        self.refresh_table()  # (a wider screen shows more of each train)

    def on_mount(self) -> None:
        self.query_one("#log", GameLog).anchor()
        # a bot given a longer time a move than the terminal lets it (``--seats
        # you,ismcts:time_ms=5000``, or on the start screen, which said it too)
        if any(asks_more_time(spec.kind) for spec in self.session.seats):
            self.log_line(self.t("tui.log.time_capped", seconds=BOT_TIME_MS // 1000))
        self.log_round_start()
        # a resumed round: what was played before the game was put away, so that the
        # player sees what the bots did last (the log started empty)
        laid = laid_tiles(self.shown_view())
        for seat, action in self.session.state.history:
            self.log_line(describe_action(seat, action, self.t, self.names, laid))
        self.advance()

    # -- what is on screen ---------------------------------------------------------------

    @property
    def names(self) -> list[str]:
        return self.session.names

    def shown_view(self) -> SeatView:
        """The view on screen: the viewer's, or (trains only) the seat to move's."""
        state = self.session.state
        seat = self.viewer if self.viewer is not None else state.current_seat
        return state.view(seat)

    def hand_visible(self) -> bool:
        if self.viewer is None:
            return False
        if self.session.hot_seat:
            state = self.session.state
            return not state.is_over and state.current_seat == self.viewer
        return True

    def my_view(self) -> SeatView | None:
        """The viewer's view when it is the viewer's turn (the only time input counts)."""
        if self.viewer is None or not self.hand_visible():
            return None
        view = self.session.state.view(self.viewer)
        return view if view.is_my_turn else None

    def hand(self) -> list[Tile]:
        if self.viewer is None:
            return []
        return sorted(self.session.state.hand(self.viewer))

    def refresh_table(self) -> None:
        t = self.t
        view = self.shown_view()
        mine = self.my_view()
        playable = playable_tiles(mine) if mine is not None else {}
        targets = playable.get(self.chosen, []) if self.chosen is not None else []
        self.query_one("#status", Static).update(
            status_markup(self.session.match, view, t, self.names, self.app.size.width)
        )
        self.query_one("#trains", Static).update(
            trains_markup(
                view,
                t,
                self.names,
                targets,
                shown=tiles_that_fit(self.app.size.width),
                you=self.viewer,
            )
        )
        hand_title = self.query_one("#hand-title", Static)
        hand = self.query_one("#hand", Static)
        if self.hand_visible() and self.viewer is not None:
            tiles = self.hand()
            self.cursor = min(self.cursor, max(len(tiles) - 1, 0))
            # how many tiles are playable, on the seat's own turn only ("0 playable (*)" was
            # said on a bot's turn, and when nothing fits)
            if mine is None:
                title = "tui.hand.title_waiting"
            elif not playable:
                title = "tui.hand.title_none"
            else:
                title = "tui.hand.title"
            hand_title.update(
                t(
                    title,
                    name=escape(self.names[self.viewer]),
                    tiles=t.plural("tui.hand.tiles", len(tiles)),
                    playable=t.plural("tui.hand.playable", len(playable)),
                )
            )
            hand.update(
                hand_markup(tiles, t, playable, self.cursor, self.chosen, width=self.app.size.width)
            )
        elif self.watching and self.paused:  # (said where the watcher's eyes are)
            hand_title.update(t("tui.hand.paused_title"))
            hand.update(t("tui.hand.paused"))
        elif self.watching:  # (no hand of anyone's is for this keyboard)
            hand_title.update(t("tui.hand.watching_title"))
            hand.update(f"[dim]{t('tui.hand.watching')}[/dim]")
        else:
            hand_title.update(t("tui.hand.hidden_title"))
            hand.update(f"[dim]{t('tui.hand.hidden')}[/dim]")
        self.query_one("#message", FittedText).show(self.message_markup)
        # the trains window, if it is open over the table, follows the moves made meanwhile
        for screen in self.app.screen_stack:
            if isinstance(screen, TrainsScreen) and screen.from_table:
                screen.follow(view)

    def prompt(self) -> str:
        """What the seat to move can do now, read off the legal actions."""
        t = self.t
        state = self.session.state
        if state.is_over:
            return t("tui.prompt.round_over")
        mine = self.my_view()
        if mine is None:
            if self.session.is_human(state.current_seat):
                return t("tui.prompt.waiting_human", name=self.names[state.current_seat])
            if self.paused and not self._stepping:  # (nobody thinks: the bots wait)
                return t("tui.prompt.paused", name=self.names[state.current_seat])
            return t("tui.prompt.bot_thinking", name=self.names[state.current_seat])
        legal = mine.legal_actions
        # the tile the seat just drew, said to it alone (its hand is the one on screen)
        drew = (
            t("tui.prompt.drew", tile=str(state.ts.tiles[state.drawn])) + " "
            if state.drawn >= 0
            else ""
        )
        if self.chosen is not None:
            trains = playable_tiles(mine).get(self.chosen, [])
            keys = ", ".join(train_key(tr) for tr in sorted(trains, key=lambda tr: (tr < 0, tr)))
            # "o = your own" only where the tile may go on the seat's own train; Enter
            # plays it only where it goes on one train
            ask = "tui.prompt.choose_train" if len(trains) == 1 else "tui.prompt.choose_train_many"
            if mine.seat not in trains:
                ask += "_elsewhere"
            return t(ask, tile=str(self.chosen), keys=keys)
        # what the turn asks, as the browser's prompt says it: a double owed its
        # follow-up, the first-turn run, the oldest open double to answer first
        plays = [a for a in legal if a.kind == "play"]
        extra = " " + t("tui.prompt.or_pass") if plays and PASS in legal else ""
        if mine.owes_follow_up:
            if plays:
                return drew + t("tui.prompt.follow_up") + extra
            if DRAW in legal:
                return drew + t("tui.prompt.follow_up_draw")
        elif state.turn_state().run and plays and PASS in legal:
            return drew + t("tui.prompt.run_more") + extra
        elif state.turn_state().run and any(a.train == mine.seat for a in plays):
            return drew + t("tui.prompt.run_start") + extra
        elif (first := state.answer_first()) is not None:
            train = (
                t("tui.table.your_train_the")
                if first == mine.seat
                else t.train_label(first, -2, dict(enumerate(self.names)))
            )
            if plays:
                return drew + t("tui.prompt.answer_first", train=train)
            if DRAW in legal:
                return drew + t("tui.prompt.answer_first_draw", train=train)
            if not drew:
                return t("tui.prompt.answer_first_pass", train=train)
        if plays:
            return drew + t("tui.prompt.choose_tile") + extra
        if DRAW in legal:  # (again, under draw_until_playable: the tile drawn said too)
            return drew + t("tui.prompt.must_draw")
        if drew:  # (not "you can't draw": the seat has drawn this turn)
            return drew + t("tui.prompt.drew_must_pass")
        return t("tui.prompt.must_pass")

    def message_markup(self, width: int | None) -> str:
        """The message line for ``width`` cells: the message, or what the seat to move can
        do; one that lists tiles goes on between two of them (`say_tiles`)."""
        text = self.message or self.prompt()
        laid = self._laid_out
        if laid is not None and laid[0] == text:
            return laid[1](width)
        return escape(text)

    def say(self, text: str) -> None:
        self.message = text
        self.refresh_table()

    def say_tiles(self, key: str, tiles: list[str], **params: object) -> None:
        """Say the catalog's ``key`` with ``tiles`` for its ``{tiles}``: too long for the
        line, they go on under the first tile, broken between two tiles, as a hand does."""
        sentence = self.t(key, tiles=TILES_MARK, **params)
        self._laid_out = (
            sentence.replace(TILES_MARK, " ".join(tiles)),
            lambda width: sentence_with_tiles(sentence, tiles, width, MESSAGE_LINES),
        )
        self.say(self._laid_out[0])

    def log_line(self, text: str) -> None:
        self.query_one("#log", RichLog).write(text)

    def log_round_start(self) -> None:
        """The round's number; where the engine's holder starts (cardinal), who held it,
        or the draws that looked for it (a seat's hand grew by them)."""
        state = self.session.state
        self.log_line(self.t("tui.log.round", number=state.round_index + 1))
        if state.history:
            return
        said = engine_start_words(state, self.t, self.names)
        if said is not None:
            self.log_line(said)

    # -- the flow of the game ------------------------------------------------------------

    def say_if_unsaved(self) -> None:
        """Say when the game stops being saved (a full disk, a folder gone: the game goes
        on, each move tries again), in the log once and on the message line while it
        lasts (unless something else is said there); and when it is saved again."""
        err = self.session.unsaved
        if err is None:
            if self._unsaved_said:
                self._unsaved_said = False
                self.log_line(self.t("tui.log.saved_again"))
            return
        said = self.t("tui.log.not_saved", reason=terminal_safe(os_error_text(err, self.lang)))
        if not self._unsaved_said:
            self._unsaved_said = True
            self.log_line(said)
        if not self.message:
            self.message = said

    def advance(self) -> None:
        """After any change: show the table, then let the next seat move."""
        session = self.session
        state = session.state
        self.say_if_unsaved()
        self.refresh_table()
        if state.is_over:
            if self._ended_shown != state.round_index:
                self._ended_shown = state.round_index
                self.log_round_end()
                self.close_windows()
                self.app.push_screen(
                    RoundEndScreen(
                        session.match, state, self.names, self.t, self.shown_view().seat
                    ),
                    self.after_round_end,
                )
            return
        seat = state.current_seat
        if session.is_human(seat):
            if session.hot_seat and self.viewer != seat:
                self.viewer = None
                self.chosen = None
                self.refresh_table()
                self.close_windows()  # (the next person did not open them)
                self.app.push_screen(PassScreen(self.names[seat], self.t), self._ready(seat))
            return
        if self.paused:  # (the watcher plays the bots' moves one by one, with n)
            return
        self._token += 1
        self.run_worker(self.bot_turn(self._token, seat), group="bots")

    def close_windows(self) -> None:
        """Close what was left open over the table while the bots played (help, trains,
        score sheet, the command palette): a round's end or the next person's turn comes
        first, with the table under it. (A palette left under the round's result came back
        once the result was closed.)"""
        while isinstance(self.app.screen, Closable | CommandPalette):
            self.app.pop_screen()

    def _ready(self, seat: int) -> Callable[[None], None]:
        def ready(_: None) -> None:
            self.viewer = seat
            self.cursor = 0
            self.message = ""
            self.refresh_table()

        return ready

    async def bot_turn(self, token: int, seat: int, wait: bool = True) -> None:
        """The bot at ``seat`` moves, after the table's delay (``wait``), unless the table
        moved on meanwhile (``token`` is no longer the latest: undone, paused)."""
        if wait and self.delay > 0:
            await asyncio.sleep(self.delay)
        view = self.session.view(seat)
        try:
            action = await asyncio.to_thread(self.session.bot_action, seat, view)
        except Exception as err:  # a bot's own fault (a plugin's too): the game goes on
            if token != self._token or self.session.state.current_seat != seat:
                return
            instead = view.legal_actions[0]
            self.log_line(
                self.t(
                    "tui.log.bot_failed",
                    who=self.names[seat],
                    error=terminal_safe(type(err).__name__),
                    instead=instead.notation(seat),
                )
            )
            self.perform(instead)
            return
        if token != self._token or self.session.state.current_seat != seat:
            return  # undone or superseded meanwhile
        if action not in view.legal_actions:
            # a faulty bot must not stall the table: say so and take the engine's first move
            instead = view.legal_actions[0]
            self.log_line(
                self.t(
                    "tui.log.bot_illegal",
                    who=self.names[seat],
                    move=action.notation(seat),
                    instead=instead.notation(seat),
                )
            )
            action = instead
        self.perform(action)

    def perform(self, action: Action) -> bool:
        """Apply ``action`` for the seat to move; explain a refusal. True if applied."""
        state = self.session.state
        seat = state.current_seat
        try:
            self.session.apply(action)
        except IllegalActionError as err:
            # (said to the person at the keyboard: "You have a tile that fits...")
            self.say(self.refusal(err, self.viewer))
            return False
        # (the tile as it now lies on its train)
        laid = laid_tiles(self.shown_view())
        self.log_line(describe_action(seat, action, self.t, self.names, laid))
        self.chosen = None
        self.message = ""
        if action.kind == "draw" and seat == self.viewer and state.drawn >= 0:
            # the cursor goes to the tile drawn, the one it may play (shown to its owner
            # only, not in the log)
            self.cursor = self.hand().index(state.ts.tiles[state.drawn])
        self.advance()
        return True

    def again(self, again: bool | None) -> None:
        """After the match: a new game with the same rules, seats and names (fresh deals)."""
        if not again:
            return
        session = self.session
        setup = GameSetup(
            session.rules,
            tuple(s.kind for s in session.seats),
            self.lang,
            tuple(s.name if s.is_human else "" for s in session.seats),
        )
        app = self.app
        assert isinstance(app, PlayApp)
        app.pop_screen()  # this table
        app.seed = None
        app.begin(setup)

    def log_round_end(self) -> None:
        state = self.session.state
        if state.ended == "out" and state.out_seat is not None:
            # (a name as its owner wrote it: "ana went out" stays)
            self.log_line(self.t("game.ended.out", who=self.names[state.out_seat]))
        else:
            # (a line of its own, as the others)
            self.log_line(capitalised(self.t("game.ended.blocked")))

    def after_round_end(self, _: None = None) -> None:
        session = self.session
        if session.match_over:
            self.app.push_screen(MatchEndScreen(session.match, self.names, self.t), self.again)
            return
        session.next_round()
        if session.hot_seat:
            self.viewer = None
        self.chosen = None
        self.cursor = 0
        self.message = ""
        self.log_round_start()
        self.advance()

    # -- keys and clicks -----------------------------------------------------------------

    def action_cursor(self, step: int) -> None:
        tiles = self.hand()
        if tiles and self.hand_visible():
            self.cursor = (self.cursor + step) % len(tiles)
            self.refresh_table()

    def action_cursor_home(self) -> None:
        self.cursor = 0
        self.refresh_table()

    def action_cursor_end(self) -> None:
        self.cursor = max(len(self.hand()) - 1, 0)
        self.refresh_table()

    def action_pick(self, index: int) -> None:
        """A click on a tile of the hand: put the cursor there and choose it."""
        if self.hand_visible() and 0 <= index < len(self.hand()):
            self.cursor = index
            self.chosen = None
            self.action_choose()

    def said_watching(self) -> bool:
        """Watching bots: a key for playing a hand says there is none here (True), rather
        than nothing, or "a hint is for your own turn" (the watcher has none)."""
        if not self.watching:
            return False
        self.say(self.t("tui.watching.no_hand"))
        return True

    def said_not_yours(self) -> bool:
        """No move is this keyboard's now (True). On another seat's turn (a bot's, or
        another person's being waited for) a key for making a move says whose turn it
        is, as h does, rather than nothing; a round over says nothing (its result comes)."""
        state = self.session.state
        if self.my_view() is not None:
            return False
        if not state.is_over:
            self.say(self.t("tui.prompt.not_your_turn", name=self.names[state.current_seat]))
        return True

    def action_choose(self) -> None:
        # (an Enter meant for the round's end, just closed, is not said to be refused)
        if keys_held(self.app) or self.said_watching():
            return
        # (asked first: with the hand hidden, at one keyboard between two people's turns,
        # Enter says whose turn it is as d and p do; it said nothing)
        if self.said_not_yours():
            return
        tiles = self.hand()
        mine = self.my_view()
        if not tiles or mine is None:
            return
        tile = tiles[self.cursor]
        trains = playable_tiles(mine).get(tile, [])
        if self.chosen == tile and len(trains) == 1:
            self.perform(Action.play(tile, trains[0]))
            return
        if not trains:
            self.chosen = None
            self.say(self.why_not(mine, tile))
            return
        self.chosen = tile
        self.message = ""
        self.refresh_table()

    def why_not(self, view: SeatView, tile: Tile) -> str:
        """The engine's reason ``tile`` cannot be played now (`RoundState.why_not`: the rule
        that keeps it off a train it matches, its own train's open end where none says
        more)."""
        err = self.session.state.why_not(tile)
        if err is None:
            return self.t("tui.prompt.choose_tile")  # (it fits somewhere: nothing to explain)
        return self.refusal(err, view.seat)

    def refusal(self, err: IllegalActionError, reader: int | None) -> str:
        """The engine's refusal in the player's language, said to ``reader``, a number of
        more than 40 digits in it shortened as replay shortens one (the engine writes
        its numbers in full), their count in the player's words too."""
        said = error_text(err, self.lang, dict(enumerate(self.names)), reader)
        return shorten_numbers(said, self.t.count_words)

    def action_cancel(self) -> None:
        self.chosen = None
        self.message = ""
        self.refresh_table()

    def action_train(self, which: int | str) -> None:
        """Play the chosen tile on a train: a seat number, or ``"M"`` for the Mexican."""
        if self.said_watching() or self.said_not_yours():
            return
        train = MEXICAN if which == "M" else int(which)
        if train != -1 and train >= self.session.players:
            # said by seat, as the key means it: 0 is seat 10's train, not a "train 0"
            players = self.session.players
            self.say(self.t("tui.error.no_train", seat=train + 1, last=TRAIN_KEYS[players - 1]))
            return
        if self.chosen is None:
            self.say(self.t("tui.error.tile_first"))
            return
        self.perform(Action.play(self.chosen, train))

    def action_own_train(self) -> None:
        if self.said_watching():
            return
        if self.viewer is not None:
            self.action_train(self.viewer)

    def action_draw(self) -> None:
        if self.said_watching() or self.said_not_yours():
            return
        self.perform(DRAW)

    def action_pass_turn(self) -> None:
        if self.watching:  # (no turn to pass: p pauses the bots, or lets them play on)
            self.action_pause()
            return
        if not self.said_not_yours():
            self.perform(PASS)

    def action_pause(self) -> None:
        """Watching bots: stop them where they are (a move being thought is dropped, to
        be thought again), or let them play on."""
        if not self.watching:
            return
        self.paused = not self.paused
        self._stepping = False
        self._token += 1
        self.workers.cancel_group(self, "bots")
        self.message = ""
        self.show_keys()
        self.advance()

    def action_next_move(self) -> None:
        """Watching bots, paused: the seat to move plays one move, at once."""
        if not self.watching:
            return
        if not self.paused:
            self.say(self.t("tui.watching.not_paused"))
            return
        state = self.session.state
        if self._stepping or state.is_over:
            return  # (one move at a time: the one asked for is still being thought)
        self._stepping = True
        self._token += 1
        self.message = ""
        self.refresh_table()
        self.run_worker(self.step_turn(self._token, state.current_seat), group="bots")

    async def step_turn(self, token: int, seat: int) -> None:
        try:
            await self.bot_turn(token, seat, wait=False)
        finally:
            if token == self._token:
                self._stepping = False
                self.refresh_table()

    def action_hint(self) -> None:
        if self.said_watching():
            return
        mine = self.my_view()
        if mine is None:  # a bot's or another person's turn: say why nothing comes
            self.say(self.t("tui.hint.own_turn"))
            return
        self.say(self.t("tui.hint.thinking"))
        self.run_worker(self.hint_worker(mine), exclusive=True, group="hint")

    async def hint_worker(self, view: SeatView) -> None:
        # the same position gets the same hint (seeded by the game and the position)
        rng = self.session.rng("hint", view.seat, view.round_index, len(view.history))
        hints = await asyncio.to_thread(hints_for, view, rng)
        mine = self.my_view()
        if mine is None or mine.history != view.history:
            return
        self.say(self.hint_text(hints, view.seat, view))

    def hint_text(self, hints: list[Hint], seat: int, view: SeatView | None = None) -> str:
        """Up to three hints on the message line: the search's best move first (the one
        it tried most, weighing the points too) with its chance to win the round, then
        the others by their chance; "a close call" when one of them shows as high a
        chance as the best (within the search's noise). With ``view``, the position the
        hints are for, each tile is written as it would lie on the train named (as the
        log writes it once played)."""
        t = self.t
        top = hints[:3]
        if not all(h.source == "search" and h.score is not None for h in top):
            words = [hint_words(h.action, seat, t, self.names, view) for h in top]
            return t("tui.hint.text", hints=HINT_SEPARATOR.join(words))

        def chance(h: Hint) -> str:
            return t.percent(h.score or 0.0)

        def shown(h: Hint) -> int:  # (the chance as the hint writes it)
            return whole_percent(h.score or 0.0)

        best, rest = top[0], sorted(top[1:], key=lambda h: -(h.score or 0.0))
        words = [t("tui.hint.chance", move=self._hint_move(best, seat, view), chance=chance(best))]
        words += [
            t("tui.hint.chance_short", move=self._hint_move(h, seat, view), chance=chance(h))
            for h in rest
        ]
        text = t("tui.hint.text", hints=HINT_SEPARATOR.join(words))
        if any(shown(h) >= shown(best) for h in rest):
            text += " " + t("tui.hint.close")
        return text

    def _hint_move(self, hint: Hint, seat: int, view: SeatView | None = None) -> str:
        return hint_words(hint.action, seat, self.t, self.names, view)

    def action_plan(self) -> None:
        if self.said_watching():
            return
        if self.viewer is None or not self.hand_visible():
            # (at one keyboard, between two people's turns, no hand is on screen to plan:
            # v says whose turn it is, as the keys for a move do; it said nothing)
            self.said_not_yours()
            return
        view = self.session.state.view(self.viewer)
        self.run_worker(self.plan_worker(view), exclusive=True, group="plan")

    async def plan_worker(self, view: SeatView) -> None:
        # the exact search can take a moment on a big hand: keep the screen live; if the
        # table moves on meanwhile (bots keep playing), plan again from where it is now
        while True:
            try:
                train: list[Tile] | None = await asyncio.to_thread(planned_train, view)
            except PlanTimeout:
                train = None  # (said below, once it is still this position)
            if self.viewer != view.seat or not self.hand_visible():
                # the screen went to another person, or the turn to the bots between two
                # people's turns (hot seat): no hand, nor a plan of one, is on screen then
                return
            state = self.session.state
            if state.round_index == view.round_index and state.history == list(view.history):
                break
            view = state.view(view.seat)
        start = view.trains[view.seat].open_end
        if train is None:
            self.say(self.t("tui.plan.too_big", seconds=self.t.number(PLAN_TIME_S)))
            return
        if not train:
            self.say(self.t("tui.plan.none", end=start))
            return
        laid = []
        pip = start
        for tile in train:
            laid.append(tile.oriented(pip))
            pip = tile.other_end(pip)
        count = self.t.plural("tui.plan.count", len(train))
        self.say_tiles("tui.plan.text", laid, end=start, count=count)

    def action_undo(self) -> None:
        session = self.session
        if self.watching:  # (bots only: nobody here has a move to take back)
            self.say(self.t("tui.undo.no_player"))
            return
        if not self.undo_works:
            self.say(self.t("tui.undo.only_bots"))
            return
        if not session.can_undo():
            self.say(self.t("tui.undo.nothing"))
            return
        self._token += 1
        self.workers.cancel_group(self, "bots")
        # how many of the player's own moves went (forced ones are taken back with the
        # choice before them): said, as the board may go back further than one move
        own = session.undo()
        self.chosen = None
        said = self.t("tui.undo.done_several", count=own) if own > 1 else self.t("tui.undo.done")
        self.log_line(said)
        self.message = said
        self.advance()

    def action_trains(self) -> None:
        self.app.push_screen(TrainsScreen(self.shown_view(), self.names, self.t, from_table=True))

    def action_sheet(self) -> None:
        self.app.push_screen(ScoreSheetScreen(self.session.match, self.names, self.t))

    def action_help(self) -> None:
        self.app.push_screen(
            HelpScreen(self.t, self.session.rules, watching=self.watching, undo=self.undo_works)
        )

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Once q has saved the game, nothing more is done to it: keys typed right after q
        (the rest of a word, a paste), there before the terminal is let go, would play,
        draw or undo after the save (an undo saved at once, the game kept as it was not)."""
        return not quitting(self.app)

    def action_quit_game(self) -> None:
        if quitting(self.app):
            return
        stop_acting(self.app)
        self._token += 1
        self.session.save()
        self.app.exit()


class PlayApp(PaletteInWords):
    """The terminal game: a start screen unless a game is given, then the table."""

    CSS = CSS
    TITLE = "mextrain"
    # Ctrl+C quits as q does (the game is saved), where Textual would only say, in
    # English, to press Ctrl+Q
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+c", "save_and_quit", show=False, priority=True),
    ]

    def action_save_and_quit(self) -> None:
        table = self.table
        if table is not None:
            table.action_quit_game()
        else:
            stop_acting(self)
            self.exit()

    async def action_quit(self) -> None:
        """q on a round's end, the final screen or "pass the keyboard" (the game is saved
        after every move): the keys typed after it do nothing more (`stop_acting`)."""
        stop_acting(self)
        await super().action_quit()

    def quit_command(self) -> None:
        self.action_save_and_quit()

    def __init__(
        self,
        setup: GameSetup | None = None,
        session: GameSession | None = None,
        lang: str = "en",
        delay: float = DEFAULT_DELAY,
        seed: int | None = None,
        show_start: bool = True,
        save: bool = True,
        light: bool = False,
        level: str | None = None,
    ) -> None:
        super().__init__()
        if light:  # for light terminals; Ctrl+P offers every other theme too
            self.theme = "textual-light"
        self.setup = setup or GameSetup(Rules.preset("classic"), ("human", "greedy"), lang)
        self.session = session
        self.lang = lang
        self.delay = delay
        self.seed = seed
        self.show_start = show_start and session is None
        self.save = save
        #: the level a seat added on the start screen gets (None: Medium)
        self.level = level

    def compose(self) -> ComposeResult:
        yield Static("")

    def on_unmount(self) -> None:
        if self.session is not None:  # another terminal may go on with it now
            self.session.release()

    def on_mount(self) -> None:
        if self.session is not None:
            self.open_table(self.session)
        elif self.show_start:
            start = StartScreen(
                self.setup, look_for_saved=self.save, level=self.level, remember=self.save
            )
            self.push_screen(start, self.begin)
        else:
            self.begin(self.setup)

    def begin(self, setup: GameSetup | GameSession | None) -> None:
        if setup is None:
            self.exit()
            return
        if isinstance(setup, GameSession):  # the saved game, to go on with
            self.open_table(setup)
            return
        self.lang = setup.lang
        t = Translator(setup.lang)
        names = seat_names(setup.seats, t, setup.names)
        seats = [SeatSpec(kind, name) for kind, name in zip(setup.seats, names, strict=True)]
        session = GameSession.new(setup.rules, seats, seed=self.seed, save=self.save)
        self.open_table(session)

    def open_table(self, session: GameSession) -> None:
        if self.session is not None and self.session is not session:
            self.session.release()  # (a game over: the next one is played here)
        # held while it is played here, so that no other terminal goes on with it (those
        # that resume it claimed it already: a new game's file is nobody else's)
        with contextlib.suppress(GameInUse):
            session.claim()
        self.session = session
        if session.lang != self.lang:
            session.lang = self.lang
            session.save()  # (a game quit before its first move keeps its language too)
        self.push_screen(TableScreen(session, self.lang, self.delay))

    @property
    def table(self) -> TableScreen | None:
        for screen in self.screen_stack:
            if isinstance(screen, TableScreen):
                return screen
        return None
