"""``mextrain analyze RECORD --round R --action A [--json]``: every legal action of a
recorded position with its estimated win probability and expected round score.

The position is the one just before action ``A`` of round ``R`` (both counted from 0, as
in the record; ``A`` may be the round's action count for a round still in play), seen by
the seat to move: the search uses that seat's knowledge only, never the record's hidden
tiles. The table names seats as a player sees them, from 1 (``--json``: as the record
does, from 0). Exit status: 0 on success, 1 for a record that breaks a rule, 2 for input that is
not a record or a position that is not in it.

The table and the refusals are in the language of ``--lang``, else of the locale (as
``solve``, ``stats`` and ``play`` say theirs); ``--json`` is the same whatever the
language, its refusals in English (the record checker's object, as ``replay --json``
prints it).
"""

from __future__ import annotations

import random
import shutil
import sys
import unicodedata
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NoReturn

import click

from mextrain.i18n import (
    LANGUAGES,
    Translator,
    detect_language,
    normalise_language,
    os_error_text,
)
from mextrain.records import (
    IllegalRecordError,
    RecordError,
    RecordFormatError,
    shorten_numbers,
)
from mextrain.rules import MEXICAN, Action, SeatView, show_text

from ._common import (
    PATH_SHOWN,
    AnyPath,
    Choice,
    FiniteFloat,
    HelpInLanguage,
    JsonCommand,
    LanguageCommand,
    WholeNumber,
    error_json,
    speak,
    terminal_safe,
)

if TYPE_CHECKING:
    from mextrain.search import ActionAnalysis

# the search's budgets (mextrain.search.ismcts, checked by a test; not imported here, so
# that the command line starts without loading the search)
MAX_ITERATIONS = 1_000_000
MAX_TIME_MS = 3_600_000

__all__ = ["analyze"]


def _asks_for_json(args: list[str]) -> bool:
    """Whether the command line gives ``--json`` (before a ``--``, which ends the options),
    as ``replay`` reads it."""
    return "--json" in (args[: args.index("--")] if "--" in args else args)


class _AnalyzeCommand(LanguageCommand, JsonCommand):
    """`analyze`: with ``--lang`` what it refuses is said in that language, its frame too
    ("Erreur : …", not Click's English "Error: …"), the command line's refusals included;
    ``--json`` is a contract for scripts, the same whatever the language: its refusals,
    the command line's too, are the English objects they always were."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if _asks_for_json(args):  # (--help in the language all the same)
            return HelpInLanguage.parse_args(self, ctx, args)
        return super().parse_args(ctx, args)

    def _as_said(
        self,
        err: click.ClickException,
        args: list[str],
        info_name: str | None,
        parent: click.Context | None,
    ) -> click.ClickException:
        if _asks_for_json(args):
            return err
        return super()._as_said(err, args, info_name, parent)


@click.command(cls=_AnalyzeCommand)
@click.argument("record", type=AnyPath(allow_dash=True))
@click.option("--round", "round_index", type=WholeNumber(), required=True, help="Round, from 0.")
@click.option(
    "--action",
    "action_index",
    type=WholeNumber(),
    required=True,
    help="Analyse the position before this action of the round (from 0).",
)
@click.option(
    "--iterations",
    type=WholeNumber(1, MAX_ITERATIONS),
    default=None,
    help="Search iterations (default 1000 unless --time-ms is given).",
)
@click.option(
    "--time-ms",
    type=FiniteFloat(min=0, min_open=True, max=MAX_TIME_MS),
    default=None,
    help="Think time in milliseconds instead of (or as well as) an iteration budget.",
)
@click.option(
    "--seed", type=WholeNumber(), default=0, show_default=True, help="Same seed, same figures."
)
@click.option(
    "--policy",
    type=Choice(["plan", "greedy", "random", "planner"]),
    default="planner",
    show_default=True,
    help="How the search plays rounds out.",
)
@click.option(
    "--lang",
    default=None,
    type=Choice(LANGUAGES),
    help="Language of the table and the refusals (default: from the locale); --json is "
    "the same in every language.",
)
@click.option("--json", "as_json", is_flag=True, help="Print exactly one JSON object.")
def analyze(
    record: str,
    round_index: int,
    action_index: int,
    iterations: int | None,
    time_ms: float | None,
    seed: int,
    policy: str,
    lang: str | None,
    as_json: bool,
) -> None:
    """Rank every legal action of a recorded position by its chances.

    Example: mextrain analyze game.json --round 0 --action 12 --json
    """
    from mextrain.records import load_record, replay_record
    from mextrain.search import analyze as run

    from .replay import _print_json

    # --json: English, whatever the language (a script reads the same words anywhere)
    t = Translator("en" if as_json else normalise_language(lang) or detect_language())
    if not as_json:
        speak(t)  # (its refusals are said in it)

    def refuse(option: str, key: str, count: int | None = None, **params: object) -> NoReturn:
        """A position that is not in the record (``count``: the number the words are
        plural for): with --json still one object (its reason as `error_json` gives one,
        a long number shortened)."""
        reason = t(key, **params) if count is None else t.plural(key, count, **params)
        if as_json:
            _print_json(error_json(click.BadParameter(reason, param_hint=option)))
            sys.exit(2)
        raise click.BadParameter(reason, param_hint=option)

    try:
        replayed = replay_record(load_record(_read_record(record, t)))
    except RecordError as err:
        if as_json:
            _print_json(err.to_json_dict())
        else:
            click.echo(_record_refusal(err, t), err=True)
        sys.exit(err.exit_code)
    rounds = replayed.match.rounds
    if not rounds:
        refuse("--round", "tui.analyze.no_rounds")
    if not 0 <= round_index < len(rounds):
        refuse("--round", "tui.analyze.bad_round", last=len(rounds) - 1, round=round_index)
    played = rounds[round_index]
    actions = played.history
    if not 0 <= action_index <= len(actions):
        if not actions:  # (not "the positions before them are 0 to -1")
            refuse("--action", "tui.analyze.no_actions", round=round_index, action=action_index)
        refuse(
            "--action",
            "tui.analyze.bad_action",
            len(actions),
            round=round_index,
            last=len(actions) - 1,
            action=action_index,
        )
    state = played.position_before(action_index)
    if state.is_over:
        refuse("--action", "tui.analyze.over", action_index, round=round_index)
    seat = state.current_seat
    view = state.view(seat)
    ranked = run(view, random.Random(seed), iterations=iterations, time_ms=time_ms, policy=policy)
    taken = actions[action_index][1] if action_index < len(actions) else None
    rank = next((i for i, a in enumerate(ranked) if a.action == taken), None)
    out: dict[str, Any] = {
        "round": round_index,
        "action": action_index,
        "seat": seat,
        "seed": seed,
        "iterations": sum(a.visits for a in ranked),
        "policy": policy,
        "position": view.to_dict(),
        "actions": [a.to_dict(seat) for a in ranked],
        "best": ranked[0].action.notation(seat),
        "played": None if taken is None else taken.notation(seat),
        "played_rank": rank,
    }
    if as_json:
        _print_json(out)
        return
    names = _names_in_language([terminal_safe(name) for name in replayed.players], t)
    name = names[seat]
    # seats counted from 1, as the terminal game and the web page count them ("Medium 3
    # (seat 3)", a nameless one "seat 3", not "seat 3 (seat 3)"); --json keeps the
    # record's seat numbers, from 0
    who = (
        t("tui.analyze.named_seat", name=name, number=seat + 1)
        if name
        else t("tui.analyze.seat", number=seat + 1)
    )
    hand = " ".join(str(tile) for tile in view.hand)
    width = _width()
    position = t("tui.analyze.position", round=round_index, action=action_index, who=who, hand=hand)
    click.echo(_wrap(position, width))
    done = out["iterations"]
    playouts = t(f"tui.analyze.policy.{policy}")
    said = t.plural("tui.analyze.search", done, count=t.whole(done), seed=seed, policy=playouts)
    click.echo(_wrap(said, width))
    click.echo()
    click.echo(_table(ranked, taken, view, names, t, width))


def _width() -> int:
    """The columns the text is laid out in: the terminal's, or 80 when the output goes
    elsewhere (a file, a pipe: the same text on every machine)."""
    columns = shutil.get_terminal_size((80, 24)).columns if sys.stdout.isatty() else 80
    return max(columns, 40)


def _wrap(text: str, width: int) -> str:
    """``text`` in lines of at most ``width`` columns, broken at spaces only: a terminal
    breaks a long line wherever its edge falls, a tile too ("10-" at one line's end, "11"
    at the next's); a word longer than the line keeps a line of its own."""
    return "\n".join(_broken(text, width))


def _broken(text: str, width: int, indent: str = "") -> list[str]:
    """``text``'s lines of at most ``width`` columns, broken at spaces only, the lines
    after the first starting with ``indent``; a word wider than its line keeps a line of
    its own."""
    lines: list[str] = []
    line = ""
    for word in text.split(" "):
        if line.strip() and _cells(line) + 1 + _cells(word) > width:
            lines.append(line)
            line = f"{indent}{word}"
        else:
            line = f"{line} {word}" if line.strip() else f"{line}{word}"
    lines.append(line)
    return lines


def _halves(head: str) -> tuple[str, str] | None:
    """A column heading in two lines, broken at the space that leaves the narrower
    column ("intervalle" over "à 95 %"); None for a heading of one word."""
    words = head.split(" ")
    if len(words) < 2:
        return None
    splits = [(" ".join(words[:i]), " ".join(words[i:])) for i in range(1, len(words))]
    return min(splits, key=lambda pair: max(_cells(pair[0]), _cells(pair[1])))


#: the fewest columns an action is broken to (a tile and a short word, "10-7 sur"), what
#: the other columns leave being fewer
_NARROWEST = 10


def _table(
    ranked: Sequence[ActionAnalysis],
    taken: Action | None,
    view: SeatView,
    names: Sequence[str],
    t: Translator,
    width: int = 80,
) -> str:
    """The actions, best first, one a line: in words, with the chance to win the round,
    its 95% interval, the pips expected at the round's end and the search's visits, in
    the language's numbers ("84 %", "71-92 %", "0,8", "1 000" in French). An action never
    tried has no estimates ("-"), and says so where its interval would be. Where the
    table would be wider than ``width`` columns, the headings wider than their figures
    go on two lines, the one that narrows the table most first ("intervalle à 95 %" and
    "points attendus" took a French table to 89 columns). A table still wider (an action
    naming a long train: "0-10 sur le train de la place 3" took a French one to 81
    columns, a long name further) breaks its actions at spaces, the rest of the row on
    its first line and the action's next lines indented under it (`_hang`), the column
    never narrower than its heading or `_NARROWEST` (in 40 columns the other columns of
    a French table are too wide already: its actions are not broken word by word)."""
    heads: list[list[str]] = [
        [t(f"tui.analyze.head.{key}")] for key in ("action", "win", "interval", "pips", "visits")
    ]
    rows: list[list[str]] = []
    notes: list[str] = []
    for a in ranked:
        row = [_action_words(a.action, view, names, t)]
        if a.visits and a.win_probability is not None and a.expected_score is not None:
            low, high = a.win_interval
            row += [t.percent(a.win_probability), t.percent_range(low, high)]
            row.append(t.decimal(a.expected_score))
        else:  # never tried: no estimate (not a sure loss)
            row += ["-", t("tui.analyze.not_searched"), "-"]
        row.append(t.whole(a.visits))
        rows.append(row)
        notes.append(f"  {t('tui.analyze.played')}" if a.action == taken else "")
    figures = [max((_cells(row[i]) for row in rows), default=0) for i in range(len(heads))]
    noted = max(_cells(note) for note in notes) if notes else 0

    def column(i: int, parts: list[str]) -> int:
        return max(figures[i], *(_cells(part) for part in parts))

    while sum(column(i, h) for i, h in enumerate(heads)) + 2 * len(heads) - 2 + noted > width:
        narrower: list[tuple[int, int, list[str]]] = []  # (columns saved, -column, head)
        for i, parts in enumerate(heads):
            split = _halves(parts[0]) if len(parts) == 1 else None
            if split is not None and column(i, list(split)) < column(i, parts):
                narrower.append((column(i, parts) - column(i, list(split)), -i, list(split)))
        if not narrower:
            break
        _, at, split_head = max(narrower)  # (the most saved; the leftmost of equals)
        heads[-at] = split_head
    others = sum(column(i, h) for i, h in enumerate(heads) if i) + 2 * len(heads) - 2 + noted
    actions = [[row[0]] for row in rows]
    if column(0, heads[0]) + others > width:  # (the action column gets what is left)
        left = max(width - others, _NARROWEST, *(_cells(part) for part in heads[0]))
        actions = [_hang(row[0], left) for row in rows]
    # (an action's next lines have nothing beside them: its first lines make the column)
    widths = [max(_cells(part) for part in [*heads[0], *(action[0] for action in actions)])]
    widths += [column(i, h) for i, h in enumerate(heads) if i]

    def line(cells: list[str]) -> str:
        first = cells[0] + " " * (widths[0] - _cells(cells[0]))
        rest = [" " * (w - _cells(c)) + c for c, w in zip(cells[1:], widths[1:], strict=True)]
        return "  ".join([first, *rest])

    tall = max(len(parts) for parts in heads)
    footed = [[""] * (tall - len(parts)) + parts for parts in heads]  # (at the foot)
    lines = [line([parts[k] for parts in footed]).rstrip() for k in range(tall)]
    for row, note, action in zip(rows, notes, actions, strict=True):
        lines.append(line([action[0], *row[1:]]) + note)
        lines += action[1:]  # (the action's next lines: nothing beside them)
    return "\n".join(lines)


def _hang(text: str, width: int) -> list[str]:
    """``text`` in lines of at most ``width`` columns, broken at spaces only, the lines
    after the first indented by two (so that they read as the same row's, not as rows of
    their own: "0-10 sur le train de la" over "  place 3")."""
    return _broken(text, width, "  ")


def _cells(text: str) -> int:
    """How many columns ``text`` takes in a terminal: a wide character (CJK, in a name)
    two, a combining mark none."""
    width = 0
    for ch in text:
        if unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Me", "Cf"):
            continue
        width += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return width


def _names_in_language(names: list[str], t: Translator) -> list[str]:
    """The record's seat names with its default ones in ``t``'s language, as ``replay
    --watch`` and ``play --resume`` give them ("Player 1" saved in English is "Joueur 1"
    in French, "Planner 2" "Stratège 2"; a name someone chose as it is): the table said
    "à Player 1 (place 0) de jouer" and "12-5 sur le train de Planner 2". Without the
    terminal game installed, the names as saved."""
    try:
        from mextrain.tui.screens import names_in_language
    except ImportError:  # pragma: no cover - depends on the installed extras
        return names
    return names_in_language(names, t)


def _action_words(action: Action, view: SeatView, names: Sequence[str], t: Translator) -> str:
    """An action of the seat to move in words, as the terminal's hint says one ("12-9 on
    Ben's train", "draw"), the tile written as it would lie on that train; the seat's own
    train is "their own train" (the table is read by anyone, not only that seat), and a
    train whose owner has no name of their own (none, or one another seat has too) is
    named by its seat, counted from 1 as the header and the terminal game count them."""
    if action.kind == "draw":
        return t("game.hint.draw")
    if action.kind == "pass":
        return t("game.hint.pass")
    assert action.tile is not None
    assert action.train is not None
    train = action.train
    if train == MEXICAN:
        where = t("tui.to_train.mexican")
    elif train == view.seat:
        where = t("tui.to_train.theirs")
    elif 0 <= train < len(names) and names[train] and names.count(names[train]) == 1:
        where = t("tui.to_train.of", name=names[train])
    else:
        where = t("tui.analyze.to_seat", number=train + 1)
    tile = str(action.tile)
    end = view.train(train).open_end
    if action.tile.has(end):
        tile = action.tile.oriented(end)
    return t("tui.hint.play", tile=tile, train=where)


def _read_record(file: str, t: Translator) -> bytes:
    """The bytes of a record file (``-``: standard input), as ``replay`` reads them: what
    keeps it from being read (no such file, a folder, the system's refusal, too big) is a
    `RecordFormatError`, said in ``t``'s language."""
    from .replay import MAX_RECORD_BYTES, _read_bytes

    shown = show_text(file, str, PATH_SHOWN)
    if not file.strip():
        raise RecordFormatError(None, t("tui.analyze.no_file_named"))
    try:
        return _read_bytes(file)
    except FileNotFoundError:
        raise RecordFormatError(None, t("tui.analyze.no_such_file", path=shown)) from None
    except IsADirectoryError:
        raise RecordFormatError(None, t("tui.analyze.is_a_folder", path=shown)) from None
    except OSError as err:  # (a long path shortened: "File name too long")
        reason = err.strerror if t.lang == "en" else os_error_text(err, t.lang)
        said = t("tui.analyze.unreadable", path=shown, reason=reason)
        raise RecordFormatError(None, said) from None
    except RecordFormatError:  # (over the size of any record)
        where = t("tui.analyze.stdin") if file == "-" else file
        mib = MAX_RECORD_BYTES // (1024 * 1024)
        raise RecordFormatError(None, t("tui.analyze.too_big", where=where, mib=mib)) from None


def _record_refusal(err: RecordError, t: Translator) -> str:
    """Why a record cannot be analysed, in ``t``'s language (in English as ``replay``
    reports it): the record checker's own words within, in English as the report gives
    them (RECORD.md), escaped for the terminal."""
    if isinstance(err, IllegalRecordError):
        reason = terminal_safe(err.reason)
        if err.round is not None and err.action is not None:
            text = terminal_safe(shorten_numbers(err.text or ""))
            detail = t(
                "tui.analyze.at_action",
                round=err.round,
                action=err.action,
                text=text,
                reason=reason,
            )
        elif err.round is not None and err.action is None:
            detail = t("tui.analyze.at_round", round=err.round, reason=reason)
        else:  # (no round, or an action with no round: as the checker says it)
            detail = terminal_safe(err.describe())
        return f"{t('tui.analyze.illegal', detail=detail)}\n{t('tui.analyze.counted_from_0')}"
    # (the reason may say "not a record: not JSON ...": said once is enough)
    detail = terminal_safe(err.reason.removeprefix("not a record: "))
    return t("tui.analyze.not_a_record", detail=detail)
