"""A game at the terminal table, without the screen: seats, bots, saving, resuming, undo.

The session owns a `Match` and applies every action through the engine; it never decides
what is legal. Every action is saved at once as a game record (docs/RECORDS.md) with one extra
field, ``"play"``, that says which seats are people and which are bots and holds the
game's seed, so that ``mextrain play --resume`` can carry on where the game stopped.

Chance comes from the seed alone: round ``k`` is dealt from a generator seeded with
``(seed, "deal", k)``, and a bot's decision from one seeded with ``(seed, "bot", seat,
round, actions so far)``. So a game is the same whether it is played in one sitting,
saved and resumed, or undone and replayed: the same moves meet the same deals and the
same bot replies.
"""

from __future__ import annotations

import contextlib
import os
import random
import secrets
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final

from mextrain.bots import Bot, BotSpecError, make_bot, split_bot_list
from mextrain.i18n import LANGUAGES, is_visible_text, terminal_safe
from mextrain.records import (
    RECORD_SHAPE,
    GameRecord,
    RecordError,
    dumps_pretty,
    load_record,
    parse_json,
    replay_record,
)
from mextrain.records.files import sync_directory, write_synced
from mextrain.rules import Action, Match, RoundState, Rules, SeatView
from mextrain.search import ISMCTSBot, cap_think_time
from mextrain.sim.games import derive_seed
from mextrain.store import DATA_DIR_ENV, data_dir

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX
    fcntl = None  # type: ignore[assignment]

__all__ = [
    "DATA_DIR_ENV",
    "HUMAN",
    "GameInUse",
    "GameSession",
    "SeatSpec",
    "StartChoices",
    "asks_more_time",
    "data_dir",
    "delete_game",
    "game_in_use",
    "games_dir",
    "keep_start_choices",
    "latest_unfinished",
    "parse_seats",
    "passed_worth_saying",
    "read_start_choices",
    "saved_language",
    "taken_back_of",
]

#: the seat kind of a person at the keyboard
HUMAN: Final = "human"
_HUMAN_WORDS: Final = frozenset({"human", "you", "me", "person"})
_EXTRA_FIELD: Final = "play"
#: a game saved by `mextrain play`: a record, with its own field (a key given twice there,
#: as in the record's fields, makes it unreadable; in any other field it is ignored)
SAVED_SHAPE: Final = {**RECORD_SHAPE, _EXTRA_FIELD: None}
#: the most a bot's move thinks (`cap_think_time`): the levels' iteration budgets are quick
#: on the usual hands, but took 7 s on a 2-seat move against a hand of 21 tiles, 45 s
#: under draw_until_playable, while the player watched nothing happen
BOT_TIME_MS: Final = 3000


def asks_more_time(kind: str) -> bool:
    """Whether a seat's bot asks to think longer a move (its ``time_ms``, as in
    ``ismcts:time_ms=5000``) than the terminal lets it (`BOT_TIME_MS`): the player is told
    it stops sooner. A person, a bot without a time of its own or with one within the cap,
    a bot the cap does not stop, or a spec that names no bot: False."""
    if kind == HUMAN or "time_ms" not in kind:
        return False
    try:
        bot = make_bot(kind)
    except (BotSpecError, ValueError):
        return False
    if not isinstance(bot, ISMCTSBot):  # (`cap_think_time` stops the search bots alone)
        return False
    own = bot.config.time_ms
    return own is not None and own > BOT_TIME_MS


@dataclass(frozen=True, slots=True)
class SeatSpec:
    """One seat: ``kind`` is `HUMAN` or a bot spec (``"planner"``, ``"greedy:x=1"``)."""

    kind: str
    name: str

    @property
    def is_human(self) -> bool:
        return self.kind == HUMAN


def parse_seats(text: str | Sequence[str], players: int | None = None) -> list[str]:
    """``"you,expert,hard"`` → ``["human", "expert", "hard"]``; a shorter list is filled with
    the last bot (or ``greedy``) up to ``players``. Bot names are checked by `make_bot`."""
    parts = split_bot_list(text) if isinstance(text, str) else [p.strip() for p in text]
    kinds = [HUMAN if word.lower() in _HUMAN_WORDS else word for word in parts if word]
    if players is not None:
        if len(kinds) > players:
            raise BotSpecError(
                f"{len(kinds)} seats given for {players} players",
                code="too_many_seats",
                given=len(kinds),
                players=players,
            )
        bots = [k for k in kinds if k != HUMAN]
        filler = bots[-1] if bots else "greedy"
        kinds.extend([filler] * (players - len(kinds)))
    for kind in kinds:
        if kind != HUMAN:
            make_bot(kind)  # raises BotSpecError for an unknown bot
    return kinds


def games_dir() -> Path:
    return data_dir() / "games"


@dataclass(frozen=True, slots=True)
class StartChoices:
    """What the start screen last began a game with, kept for the next time it opens:
    the seats' kinds, the names people gave there, and the bot level last chosen for a
    seat (the one a seat added next gets)."""

    seats: tuple[str, ...]
    names: tuple[str, ...]
    level: str


def start_choices_path() -> Path:
    """Where the start screen keeps its last choices (beside the saved games)."""
    return data_dir() / "start.json"


def read_start_choices() -> StartChoices | None:
    """The start screen's last choices, None where none were kept (or the file is not
    what `keep_start_choices` writes); a bot no longer known (one a module of yours
    registered, not imported this time) is the level last chosen, or Medium."""
    try:
        raw = parse_json(start_choices_path().read_bytes())
    except (ValueError, OSError):
        return None
    if not isinstance(raw, dict):
        return None
    seats, names, level = raw.get("seats"), raw.get("names", []), raw.get("level")
    if not (isinstance(seats, list) and seats and all(isinstance(k, str) for k in seats)):
        return None
    if not (isinstance(names, list) and all(isinstance(n, str) for n in names)):
        names = []

    def known(kind: object) -> bool:
        if kind == HUMAN:
            return True
        try:
            make_bot(str(kind))
        except (BotSpecError, ValueError):
            return False
        return True

    level = level if isinstance(level, str) and level != HUMAN and known(level) else "medium"
    kinds = tuple(kind if known(kind) else level for kind in seats)
    # (a name as the start screen takes one: visible text of 24 characters at most)
    people = tuple(
        name if kinds[seat] == HUMAN and is_visible_text(name) and len(name) <= 24 else ""
        for seat, name in enumerate(names[: len(kinds)])
    )
    return StartChoices(kinds, people, level)


def keep_start_choices(choices: StartChoices) -> None:
    """Keep the start screen's choices for the next time (best effort: a folder that
    refuses them costs the player nothing but the memory)."""
    path = start_choices_path()
    doc = {"seats": list(choices.seats), "names": list(choices.names), "level": choices.level}
    # (a name of this process's own: two games started at once write no half-file in place)
    tmp = path.with_name(f".start-{secrets.token_hex(4)}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_synced(tmp, dumps_pretty(doc) + "\n")
        tmp.replace(path)
        sync_directory(path.parent)
    except OSError:
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)


class GameInUse(OSError):
    """The saved game is being played in another terminal (`GameSession.claim`)."""

    @classmethod
    def of(cls, path: Path) -> GameInUse:
        """The refusal of the game saved at ``path``, in its words."""
        return cls(f"{path.name} is being played in another terminal")


def _save_tmp(path: Path) -> Path:
    """Where a new save of the game at ``path`` is written before it takes the save's
    place: hidden beside it (no ``*.json``: never taken for a saved game) under a name of
    this save's own, so that no other writer -- a second terminal on the same game where
    the system has no file locks (Windows) -- writes into it, and a game saved as
    ``NAME.tmp`` is not its own temporary file."""
    return path.with_name(f".{path.name}-{secrets.token_hex(4)}.tmp")


def _lock_path(path: Path) -> Path:
    """The file whose lock says a saved game is being played: hidden beside it (no
    ``*.json``: never taken for a saved game)."""
    return path.with_name(f".{path.stem}.lock")


def _lock(path: Path) -> int | None:
    """Hold the lock of the game saved at ``path``: its descriptor; None where this
    system has no file locks. Raises `GameInUse` when another process holds it, and
    `OSError` when the lock cannot be made (a folder that refuses it). The operating
    system drops the lock when the process ends, even killed."""
    if fcntl is None:  # pragma: no cover - not POSIX
        return None  # type: ignore[unreachable]
    lock = _lock_path(path)
    while True:
        fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise GameInUse.of(path) from None
        except OSError:
            os.close(fd)
            raise
        try:  # (the holder before may have removed it as it let go: lock the file there now)
            if os.fstat(fd).st_ino == os.stat(lock).st_ino:
                return fd
        except OSError:
            pass
        os.close(fd)


def _unlock(path: Path, fd: int) -> None:
    """Let go of a lock `_lock` took, removing its file (while still holding it: whoever
    opened it meanwhile finds it gone once they hold it, and tries again)."""
    with contextlib.suppress(OSError):
        _lock_path(path).unlink()
    os.close(fd)


def game_in_use(path: Path) -> bool:
    """Whether the game saved at ``path`` is being played in another terminal now."""
    try:
        fd = _lock(path)
    except GameInUse:
        return True
    except OSError:  # (no lock can be made there: nobody else holds one either)
        return False
    if fd is not None:
        _unlock(path, fd)
    return False


def delete_game(path: Path) -> None:
    """Delete the game saved at ``path``: raises `GameInUse` while another terminal plays
    it (its moves would be saved again), `OSError` where the system refuses. Its lock is
    held while the file goes, so that no terminal opens it meanwhile."""
    fd = _lock(path)
    try:
        path.unlink()
    finally:
        if fd is not None:
            _unlock(path, fd)


def _new_path() -> Path:
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S-%f")
    return games_dir() / f"{stamp}.json"


def _saved_files(
    directory: Path | None = None, limit: int | None = None
) -> Iterator[tuple[Path, bool | None, RecordError | OSError | None]]:
    """The saved files, newest first (the newest ``limit``; None: all): each with whether
    its game is complete, or why it is no legal record (damaged, hand-edited, unreadable)."""
    folder = games_dir() if directory is None else directory
    if not folder.is_dir():
        return
    for path in sorted(folder.glob("*.json"), reverse=True)[:limit]:
        try:
            result = replay_record(load_record(path.read_bytes()))
        except (RecordError, OSError) as err:
            yield path, None, err
            continue
        yield path, result.complete, None


def _saved_games(
    directory: Path | None = None, limit: int | None = None
) -> Iterator[tuple[Path, bool]]:
    """The saved games that are legal records, newest first, each with whether it is
    complete (among the newest ``limit`` files; None: all)."""
    for path, complete, _ in _saved_files(directory, limit):
        if complete is not None:
            yield path, complete


def unfinished_games(directory: Path | None = None, limit: int | None = None) -> Iterator[Path]:
    """The saved games that are legal records and not yet complete, newest first (among
    the newest ``limit`` files; None: all)."""
    return (path for path, complete in _saved_games(directory, limit) if not complete)


def latest_if_finished(directory: Path | None = None) -> Path | None:
    """The newest saved game that is a legal record, if that game is over (what a
    ``--resume`` that finds nothing to carry on with can point to instead)."""
    path, complete = next(_saved_games(directory), (None, False))
    return path if complete else None


def latest_unfinished(directory: Path | None = None) -> Path | None:
    """The newest saved game that is a legal record and not yet complete."""
    return next(unfinished_games(directory), None)


def find_resumable(
    directory: Path | None = None,
    limit: int | None = None,
    seats: Sequence[str] | None = None,
    seed: int | None = None,
) -> tuple[GameSession | None, list[tuple[Path, ValueError | OSError]]]:
    """The newest unfinished saved game that can go on, loaded (`GameSession.load` with
    ``seats`` and ``seed``), and the newer files passed over -- a bot since renamed, a
    hand-edited seat, a damaged file, one that breaks the rules, or a game being played
    in another terminal (`GameInUse`) -- each with why; None
    when no game among the newest ``limit`` saved files (None: all of them) can go on."""
    passed: list[tuple[Path, ValueError | OSError]] = []
    for path, complete, broken in _saved_files(directory, limit):
        if broken is not None:  # (not a game that can be told finished or not: said so)
            passed.append((path, broken))
            continue
        if complete:
            continue
        if game_in_use(path):  # (played on there: going on here would fork it)
            passed.append((path, GameInUse.of(path)))
            continue
        try:
            return GameSession.load(path, seats, seed), passed
        except BotSpecError as err:
            if err.code == "too_many_seats":  # (the seats given are wrong, not the save)
                raise
            passed.append((path, err))
        except (ValueError, OSError) as err:
            passed.append((path, err))
    return None, passed


def passed_worth_saying(
    passed: Sequence[tuple[Path, Exception]], over: Path | None
) -> list[tuple[Path, Exception]]:
    """With no game to go on with, the saves passed over (`find_resumable`) worth naming:
    those newer than ``over``, the newest finished game (`latest_if_finished`) -- one quit
    on its last round's end had its result seen, and is what there is."""
    return [item for item in passed if over is None or item[0].name > over.name]


def saved_language(path: Path) -> str | None:
    """The language the game saved at ``path`` was played in, where the file still says
    it (a save that breaks the rules does; one cut short, or from elsewhere, does not)."""
    try:
        raw = parse_json(path.read_bytes(), SAVED_SHAPE)
    except (ValueError, OSError):
        return None
    extra = raw.get(_EXTRA_FIELD) if isinstance(raw, dict) else None
    lang = extra.get("lang") if isinstance(extra, dict) else None
    return lang if isinstance(lang, str) and lang in LANGUAGES else None


def taken_back_of(extra: object) -> int:
    """How many times a move was taken back in a saved game, as its own field (``extra``,
    the record's ``"play"``) says: 0 for a record from elsewhere, or a count that is no
    count (not a whole number of 0 or more)."""
    n = extra.get("taken_back") if isinstance(extra, dict) else None
    return n if isinstance(n, int) and not isinstance(n, bool) and n > 0 else 0


class NoRoundError(ValueError):
    """A legal record with no round dealt: no game to go on with."""


class GameSession:
    """The match, its seats and bots, and the file it is saved to."""

    def __init__(
        self,
        rules: Rules,
        seats: Sequence[SeatSpec],
        match: Match,
        seed: int,
        path: Path | None,
    ) -> None:
        self.rules = rules
        self.seats = list(seats)
        self.match = match
        #: where every deal and every bot's random choice comes from (saved with the game)
        self.seed = seed
        self.path = path
        #: the lock on the save this session plays (`claim`), or None
        self._held: tuple[Path, int] | None = None
        #: why the latest save failed (`save`), None once one has worked
        self.unsaved: OSError | None = None
        self.bots: dict[int, Bot] = {
            seat: cap_think_time(make_bot(spec.kind), BOT_TIME_MS)
            for seat, spec in enumerate(self.seats)
            if not spec.is_human
        }
        #: the seats' kinds when their names were given (a resumed game's seats may since
        #: have changed: ``mextrain play --resume --seats ...``)
        self.named_kinds = [spec.kind for spec in self.seats]
        #: the language the game is played in (saved with it: ``--resume`` goes on in it)
        self.lang: str | None = None
        #: how many times a move was taken back (`undo`; saved with the game): such a game
        #: is nobody's rating (`history.ranking`)
        self.taken_back = 0

    def rng(self, *purpose: int | str) -> random.Random:
        """A generator for one ``purpose`` of this game (``"deal", 3``), the same for the
        same seed whenever it is asked for (seeded as the simulator seeds its games)."""
        return random.Random(derive_seed(self.seed, *purpose))

    # -- building ------------------------------------------------------------------------

    @classmethod
    def new(
        cls,
        rules: Rules,
        seats: Sequence[SeatSpec],
        seed: int | None = None,
        save: bool = True,
    ) -> GameSession:
        if seed is None:
            seed = secrets.randbits(63)
        match = Match(rules, len(seats))
        session = cls(rules, seats, match, seed, _new_path() if save else None)
        match.next_round(session.rng("deal", 0))
        session.save()
        return session

    @classmethod
    def load(
        cls, path: Path, seats: Sequence[str] | None = None, seed: int | None = None
    ) -> GameSession:
        """Resume the saved game at ``path``; ``seats`` (kinds) overrides the first saved
        seats (the others stay as saved), ``seed`` the saved seed (a game
        saved without one gets a new one). A game saved by `mextrain play` goes on in its
        own file; a record from elsewhere is left as it is, and the game goes on in a new
        file among the saved games."""
        raw = parse_json(path.read_bytes(), SAVED_SHAPE)
        record = load_record(raw)
        if not record.rounds:
            raise NoRoundError("the record has no round dealt yet: there is no game to go on with")
        match = replay_record(record).match
        # a record from elsewhere may name its seats with anything JSON can spell: escape
        # sequences and line breaks are shown as escapes, never sent to the terminal
        names = tuple(terminal_safe(name) for name in record.players)
        extra = raw.get(_EXTRA_FIELD) if isinstance(raw, dict) else None
        ours = isinstance(extra, dict)
        extra = extra if isinstance(extra, dict) else {}
        saved = extra.get("seats")
        kept = [str(k) for k in saved] if isinstance(saved, list) else None
        if kept is not None and len(kept) != len(names):
            kept = None
        if seats is not None:
            # the seats given, in order; the others keep what they were saved as (a record
            # from elsewhere: filled up with the last bot given, as for a new game); more
            # seats than the game has are refused
            given = parse_seats(seats)
            if kept and len(given) <= len(kept):
                kinds = given + kept[len(given) :]
            else:
                kinds = parse_seats(given, len(names))
        elif kept is not None:
            kinds = kept
        else:  # a record from elsewhere: the first seat plays, the others are bots
            kinds = [HUMAN] + ["greedy"] * (len(names) - 1)
        specs = [SeatSpec(kind, name) for kind, name in zip(kinds, names, strict=True)]
        if seed is None:
            saved_seed = extra.get("seed")
            if isinstance(saved_seed, int) and not isinstance(saved_seed, bool):
                seed = saved_seed
            else:
                seed = secrets.randbits(63)
        session = cls(record.rules, specs, match, seed, path if ours else _new_path())
        if kept is not None:
            session.named_kinds = kept
        saved_lang = extra.get("lang")
        session.lang = saved_lang if saved_lang in LANGUAGES else None
        session.taken_back = taken_back_of(extra)
        return session

    # -- reading -------------------------------------------------------------------------

    @property
    def state(self) -> RoundState:
        return self.match.current

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.seats]

    @property
    def players(self) -> int:
        return len(self.seats)

    def is_human(self, seat: int) -> bool:
        return self.seats[seat].is_human

    @property
    def humans(self) -> list[int]:
        return [seat for seat, spec in enumerate(self.seats) if spec.is_human]

    @property
    def hot_seat(self) -> bool:
        """Several people share the keyboard: hands are hidden between their turns."""
        return len(self.humans) > 1

    def view(self, seat: int) -> SeatView:
        """``seat``'s view, with the match totals so far (as bots are shown it)."""
        return self.match.view(seat)

    @property
    def round_over(self) -> bool:
        return self.state.is_over

    @property
    def match_over(self) -> bool:
        return self.match.is_complete

    # -- acting --------------------------------------------------------------------------

    def apply(self, action: Action) -> None:
        """Apply ``action`` for the seat to move (`IllegalActionError`: nothing changes)."""
        self.state.apply(action)
        self.save()

    def bot_action(self, seat: int, view: SeatView) -> Action:
        """The bot's choice for ``view`` (safe to call off the UI thread: views are frozen)."""
        rng = self.rng("bot", seat, view.round_index, len(view.history))
        return self.bots[seat].act(view, rng)

    def next_round(self) -> RoundState:
        state = self.match.next_round(self.rng("deal", len(self.match.rounds)))
        self.save()
        return state

    # -- undo ----------------------------------------------------------------------------

    def undo_point(self) -> int | None:
        """How many actions of the current round stay after an undo: the actions before
        the human's latest decision. None when undo is not allowed (other people at the
        table, or no decision of the human in this round yet)."""
        if len(self.humans) != 1:
            return None
        # a decision that is still "in progress" (the human to move right now) does not
        # count: undo goes back to the one before the latest completed human action --
        # one that was a choice: a forced move (a pass after a draw found nothing, the one
        # legal action) is undone with the choice before it, not left to be made again
        return self.state.latest_decision(self.humans[0])

    def can_undo(self) -> bool:
        return self.undo_point() is not None and not self.match_over

    def undo(self) -> int:
        """Rebuild the match from its record without the actions from the human's latest
        decision on; the human is to move again. How many of the human's own actions were
        taken back (more than one where forced ones followed the choice); 0 when nothing
        can be undone."""
        keep = self.undo_point()
        if keep is None or self.match_over:
            return 0
        human = self.humans[0]
        own = sum(1 for seat, _ in self.state.history[keep:] if seat == human)
        record = GameRecord.from_match(self.match, self.names)
        last = record.rounds[-1]
        rounds = (*record.rounds[:-1], replace(last, actions=last.actions[:keep]))
        rebuilt = replay_record(replace(record, rounds=rounds, result=None)).match
        self.match = rebuilt
        self.taken_back += 1
        self.save()
        return own

    # -- saving --------------------------------------------------------------------------

    def record(self) -> GameRecord:
        return GameRecord.from_match(self.match, self.names)

    def record_document(self) -> dict[str, Any]:
        doc = self.record().to_dict()
        doc[_EXTRA_FIELD] = {"seats": [s.kind for s in self.seats], "seed": self.seed}
        if self.lang is not None:
            doc[_EXTRA_FIELD]["lang"] = self.lang
        if self.taken_back:
            doc[_EXTRA_FIELD]["taken_back"] = self.taken_back
        return doc

    def claim(self) -> None:
        """Take the lock that says this game is being played here, so that no other
        terminal goes on with it meanwhile (two sittings of one game would each save over
        the other's moves); held until `release`, or the process ends. Raises `GameInUse`
        when another terminal plays it. Where no lock can be made (a system without file
        locks, a folder that refuses it) the game goes on unlocked."""
        if self.path is None or self._held is not None:
            return
        try:
            fd = _lock(self.path)
        except GameInUse:
            raise
        except OSError:
            return
        if fd is not None:
            self._held = (self.path, fd)

    def release(self) -> None:
        """Let go of the lock `claim` took (nothing to do without one)."""
        if self._held is not None:
            path, fd = self._held
            self._held = None
            _unlock(path, fd)

    def save(self) -> None:
        """Write the whole game to its file. A save that fails (a full disk, a folder
        gone) raises nothing: the game goes on, the file keeps the last save that
        worked, and `unsaved` says why until a later save (each writes the whole game
        again) works."""
        if self.path is None:
            return
        tmp = _save_tmp(self.path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            write_synced(tmp, dumps_pretty(self.record_document()) + "\n")
            tmp.replace(self.path)
            sync_directory(self.path.parent)
        except OSError as err:
            with contextlib.suppress(OSError):  # (no half-file left beside the save)
                tmp.unlink(missing_ok=True)
            self.unsaved = err
            return
        self.unsaved = None
