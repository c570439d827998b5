"""``mextrain replay FILE --watch``: step through a recorded game with every hand shown."""

from __future__ import annotations

import asyncio
import random
from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Static

from mextrain.i18n import Translator, detect_language, terminal_safe
from mextrain.records import GameRecord, replay_record
from mextrain.rules import Action, Match, RoundState, SeatView

from .hints import Hint, hints_for
from .palette import PaletteInWords
from .render import (
    HINT_SEPARATOR,
    SHOWN_TILES,
    describe_action,
    engine_start_words,
    escape,
    hint_words,
    laid_tiles,
    round_result_markup,
    score_sheet_markup,
    seat_tiles_lines,
    status_markup,
    tiles_that_fit,
    trains_markup,
)
from .screens import FittedText, KeyLine, names_in_language

__all__ = ["WatchApp", "WatchScreen", "watch_record"]

WATCH_CSS = """
#w-status { height: auto; max-height: 2; background: $primary; color: $text; text-style: bold; }
#w-body { height: 1fr; }
#w-last { height: auto; max-height: 3; text-style: bold; }
#w-analysis { height: auto; max-height: 4; }
#w-keys { height: auto; background: $boost; }
"""


class WatchScreen(Screen[None]):
    """A finished (or unfinished) record, one action at a time, all hands revealed: the
    whole of ``mextrain replay --watch`` (`WatchApp`), and a saved game watched from the
    terminal game's list of saved games, where q goes back to the list."""

    DEFAULT_CSS = WATCH_CSS
    # (priority: the body scrolls when it has the focus, and would take these keys)
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right", "step(1)", show=False, priority=True),
        Binding("n", "step(1)", show=False),
        Binding("left", "step(-1)", show=False, priority=True),
        Binding("b", "step(-1)", show=False),
        Binding("pagedown", "round(1)", show=False, priority=True),
        Binding("pageup", "round(-1)", show=False, priority=True),
        Binding("home", "start", show=False, priority=True),
        Binding("end", "finish", show=False, priority=True),
        Binding("space", "toggle_play", show=False),
        Binding("a", "analyse", show=False),
        Binding("q", "close", show=False),
        Binding("escape", "close", show=False),
    ]

    def __init__(
        self, record: GameRecord, lang: str = "en", delay: float = 0.8, from_list: bool = False
    ) -> None:
        super().__init__()
        #: opened from the list of saved games, where q goes back to (its key line says so)
        self.from_list = from_list
        self.record = record
        self.t = Translator(lang)
        self.delay = delay
        # (default names in the language it is watched in: "Joueur 1" is "Pelaaja 1")
        self.names = names_in_language(
            [
                terminal_safe(name).strip() or self.t("game.seat", number=s + 1)
                for s, name in enumerate(record.players)
            ],
            self.t,
        )
        # a simulator's record names each seat after its bot: a name more than one seat
        # has gets the seat's number, as a default name does ("planner 2")
        self.names = [
            self.t("tui.name.bot", level=name, number=s + 1) if self.names.count(name) > 1 else name
            for s, name in enumerate(self.names)
        ]
        # replaying checks the record first: an illegal one raises before the screen opens
        self.final = replay_record(record).match
        self.round_index = 0
        self.step = 0
        self.playing = False
        self._states: dict[int, list[RoundState]] = {}
        #: the position (round, step) the analysis shown is of, if any
        self.analysed: tuple[int, int] | None = None

    # -- positions -----------------------------------------------------------------------

    def states(self, k: int) -> list[RoundState]:
        """Round ``k`` after 0, 1, 2, ... of its actions (built on first use)."""
        if k not in self._states:
            rnd = self.record.rounds[k]
            # the replay has checked the deal and worked out each round's starter
            state = RoundState.from_deal(
                self.record.rules,
                len(self.record.players),
                k,
                rnd.hands,
                rnd.boneyard,
                self.final.rounds[k].starter,
            )
            snaps = [state.copy()]
            for recorded in rnd.actions:
                state.apply(recorded.action, recorded.seat)
                snaps.append(state.copy())
            self._states[k] = snaps
        return self._states[k]

    @property
    def state(self) -> RoundState:
        return self.states(self.round_index)[self.step]

    def match_so_far(self) -> Match:
        """The match up to the round on screen (for the status line's round count)."""
        match = Match(self.record.rules, len(self.record.players))
        match.rounds = [*self.final.rounds[: self.round_index], self.state]
        return match

    # -- screen --------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(id="w-status")
        with VerticalScroll(id="w-body"):
            yield FittedText(id="w-trains")
            yield FittedText(id="w-hands")
        yield Static(id="w-last")
        yield Static(id="w-analysis")
        keys = "tui.watch.keys_list" if self.from_list else "tui.watch.keys"
        yield KeyLine(self.t(keys), id="w-keys")

    def on_mount(self) -> None:
        self.show()

    def show(self) -> None:
        t = self.t
        state = self.state
        view = state.view(state.current_seat)
        total = len(self.states(self.round_index)) - 1
        # ("move 1,325/1,326": grouped as the language groups the points)
        step = t("tui.watch.step", step=t.whole(self.step), total=t.whole(total))
        status = status_markup(
            self.match_so_far(), view, t, self.names, self.app.size.width, after=[step]
        )
        self.query_one("#w-status", Static).update(status)
        # (made again at the panel's width, as the table does at the screen's: a wider
        # one shows more of each train's last tiles)
        self.query_one("#w-trains", FittedText).show(
            lambda width: trains_markup(
                view,
                t,
                self.names,
                shown=SHOWN_TILES if width is None else tiles_that_fit(width),
                clickable=False,
            )
        )
        # (made again at the panel's width: a seat's tiles too many for a line go on
        # under its first tile)
        self.query_one("#w-hands", FittedText).show(lambda width: "\n" + self.hands(width))
        if self.step:
            seat, action = state.history[-1]
            last = describe_action(seat, action, t, self.names, laid_tiles(view))
        else:
            # a cardinal round: who held the engine, or the draws that looked for it (the
            # hands shown are bigger by them)
            last = engine_start_words(state, t, self.names) or t("tui.watch.dealt")
        if self.at_end() and not state.is_over:
            # a game saved before its end: →, Space and End have nothing more to show,
            # and the status line still says whose turn it is
            last += "\n" + t("tui.watch.record_ends")
        self.query_one("#w-last", Static).update(escape(last))
        if self.analysed != (self.round_index, self.step):  # (of another position)
            self.analysed = None
            self.query_one("#w-analysis", Static).update("")

    def hands(self, width: int | None) -> str:
        """Every seat's hand; at a round's end, its result, then the match so far: the
        score sheet, and at the end of a whole match its winners."""
        t = self.t
        state = self.state
        if not state.is_over:
            lines = [f"[b]{t('tui.watch.hands')}[/b]"]
            for seat, name in enumerate(self.names):
                hand = sorted(state.hand(seat))
                lines.extend(seat_tiles_lines(f"{name} ({len(hand)}): ", hand, width))
            return "\n".join(lines)
        match = self.match_so_far()
        hands = round_result_markup(state, t, self.names, state.hand, width)
        if match.is_complete:
            winners = [escape(self.names[s]) for s in match.winners]
            key = "tui.match_end.winner" if len(winners) == 1 else "tui.match_end.winners"
            hands += f"\n\n[b]{t(key, names=', '.join(winners))}[/b]"
        return hands + "\n\n" + score_sheet_markup(match, t, self.names)

    # -- keys ----------------------------------------------------------------------------

    def action_close(self) -> None:
        """Back to the list of saved games it was opened from; ``mextrain replay --watch``
        (the app's only screen) ends."""
        self.playing = False
        if self.from_list:
            self.dismiss(None)
        else:
            self.app.exit()

    def action_step(self, delta: int) -> None:
        last = len(self.states(self.round_index)) - 1
        target = self.step + delta
        if target > last and self.round_index + 1 < len(self.record.rounds):
            self.round_index += 1
            self.step = 0
        elif target < 0 and self.round_index > 0:
            self.round_index -= 1
            self.step = len(self.states(self.round_index)) - 1
        else:
            self.step = max(0, min(target, last))
        self.show()

    def action_round(self, delta: int) -> None:
        """The next (``delta`` 1) or previous (-1) round, from its start; with no round
        that way, the end of the last one (PgDn went back to its start, losing the place
        read to) or the start of the first."""
        target = self.round_index + delta
        if 0 <= target < len(self.record.rounds):
            self.round_index = target
            self.step = 0
        else:
            self.step = len(self.states(self.round_index)) - 1 if delta > 0 else 0
        self.show()

    def action_start(self) -> None:
        self.step = 0
        self.show()

    def action_finish(self) -> None:
        self.step = len(self.states(self.round_index)) - 1
        self.show()

    def at_end(self) -> bool:
        last_round = self.round_index == len(self.record.rounds) - 1
        return last_round and self.step == len(self.states(self.round_index)) - 1

    def action_analyse(self) -> None:
        """The search bot's analysis of the position shown, from the view of the seat to
        move (its own hand only, as the game's hint): its best moves with their chances
        to win the round, and how the move the record made next fares among them."""
        state = self.state
        t = self.t
        shown = self.query_one("#w-analysis", Static)
        if state.is_over:
            shown.update(escape(t("tui.watch.analysis_over")))
            return
        seat = state.current_seat
        self.analysed = (self.round_index, self.step)
        shown.update(escape(t("tui.watch.analysing", name=self.names[seat])))
        view = state.view(seat)
        self.run_worker(self._analyse(view, self.analysed), exclusive=True, group="analysis")

    async def _analyse(self, view: SeatView, where: tuple[int, int]) -> None:
        # (the same position, the same analysis: seeded by where it is in the record)
        rng = random.Random(f"analysis:{where[0]}:{where[1]}")
        hints = await asyncio.to_thread(hints_for, view, rng)
        if self.analysed != where or not self.is_attached:  # (moved on meanwhile)
            return
        self.query_one("#w-analysis", Static).update(escape(self.analysis_text(view, hints)))

    def analysis_text(self, view: SeatView, hints: list[Hint]) -> str:
        """The analysis in words: up to three moves, the best first, each with its chance
        to win the round; then the move the record made here, with its chance where the
        analysis tried it ("Played: draw (12%)"); a forced move said as such."""
        t = self.t
        seat = view.seat
        name = self.names[seat]

        def words(action: Action) -> str:
            return hint_words(action, seat, t, self.names, view, yours=False)

        actions = self.record.rounds[self.round_index].actions
        played = actions[self.step].action if self.step < len(actions) else None
        if len(hints) == 1 and hints[0].source == "forced":
            return t("tui.watch.analysis_forced", name=name, move=words(hints[0].action))
        top = [
            t("tui.hint.chance_short", move=words(h.action), chance=t.percent(h.score))
            if h.score is not None
            else words(h.action)
            for h in hints[:3]
        ]
        text = t("tui.watch.analysis", name=name, moves=HINT_SEPARATOR.join(top))
        if played is not None:
            score = next((h.score for h in hints if h.action == played), None)
            move = words(played)
            said = (
                move
                if score is None
                else t("tui.hint.chance_short", move=move, chance=t.percent(score))
            )
            text += "\n" + t("tui.watch.analysis_played", move=said)
        return text

    def action_toggle_play(self) -> None:
        self.playing = not self.playing
        if self.playing:
            self.run_worker(self.autoplay(), exclusive=True, group="autoplay")

    async def autoplay(self) -> None:
        """The moves one every ``delay`` seconds, up to the next round's end: its result
        and the score sheet stay to be read (Space goes on), as a table waits for Enter
        there, rather than going by in one step."""
        while self.playing and not self.at_end():
            await asyncio.sleep(self.delay)
            if self.playing:
                self.action_step(1)
                if self.state.is_over:
                    break
        self.playing = False


#: what `WatchApp` reads of its viewer
_VIEWER_ATTRIBUTES = frozenset(
    {"record", "names", "final", "round_index", "step", "playing", "state", "states", "at_end"}
)


class WatchApp(PaletteInWords):
    """``mextrain replay FILE --watch``: the viewer (`WatchScreen`) alone; q quits."""

    TITLE = "mextrain replay"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+c", "quit", show=False, priority=True),  # not Textual's "press ctrl+q"
    ]

    def __init__(self, record: GameRecord, lang: str = "en", delay: float = 0.8) -> None:
        super().__init__()
        self.lang = lang
        #: the viewer (made here: an illegal record raises before the screen opens)
        self.viewer = WatchScreen(record, lang, delay)

    def __getattr__(self, name: str) -> Any:
        """The viewer's place and what it shows (``step``, ``state``, ``names``...), read
        through the app as before the viewer was a screen of its own."""
        if name not in _VIEWER_ATTRIBUTES:
            raise AttributeError(name)
        return getattr(self.viewer, name)

    def words(self) -> Translator:
        return self.viewer.t

    def get_default_screen(self) -> Screen[Any]:
        return self.viewer


def watch_record(record: GameRecord, lang: str | None = None, delay: float = 0.8) -> None:
    """Open the viewer on ``record`` (in the locale's language unless ``lang`` is given)."""
    WatchApp(record, lang or detect_language(), delay).run()
