"""``mextrain replay FILE [--json]``: check a game record against the rules.

Exit status 0 for a legal record, 1 for a record that breaks a rule, 2 for input that is
not a record. With ``--json`` exactly one JSON object goes to standard output.

The report of a legal record names seats as a player sees them, from 1 ("planner (seat
1)"); ``--json`` and the checker's messages keep the record's numbers, from 0.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import click

from mextrain.i18n import LANGUAGES, Translator, detect_language
from mextrain.records import (
    IllegalRecordError,
    RecordError,
    RecordFormatError,
    ReplayResult,
    load_record,
    replay_record,
)
from mextrain.rules import show_text

from ._common import (
    PATH_SHOWN,
    AnyPath,
    Choice,
    HelpInLanguage,
    JsonCommand,
    SpeaksRefusals,
    error_json,
    speak,
    terminal_safe,
)
from ._common import has_terminal as _has_terminal  # (tests put a terminal here)


class _ReplayCommand(HelpInLanguage, JsonCommand, SpeaksRefusals):
    """`replay`: with ``--json`` a command line it cannot read is printed as every exit
    status 2 of a record checker is (RECORD.md): ``{"valid": false, "error": {"round":
    null, "action": null, "text": null, "reason": ...}}``, the reason naming the option.
    The report and its refusals are in English (RECORD.md fixes their words); the viewer
    (``--watch``, not with ``--json``) says its refusals in its own language, the
    command line's too where ``--lang`` names one. ``--help`` is in the language of
    ``--lang`` or the locale, as the other commands with ``--lang`` give theirs."""

    def _as_said(
        self,
        err: click.ClickException,
        args: list[str],
        info_name: str | None,
        parent: click.Context | None,
    ) -> click.ClickException:
        options = args[: args.index("--")] if "--" in args else args
        if "--watch" in options and "--json" not in options:
            return self._in_given_language(err, args, info_name, parent)
        return err

    def error_json(self, err: click.ClickException) -> dict[str, Any]:
        plain = error_json(err)["error"]
        option = plain.get("option")
        reason = plain["reason"]
        if option and not reason.startswith(f"{option}: ") and option not in reason:
            reason = f"{option}: {reason}"
        return {
            "valid": False,
            "error": {"round": None, "action": None, "text": None, "reason": reason},
        }


@click.command(cls=_ReplayCommand)
@click.argument("file", type=AnyPath(allow_dash=True))
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of a report.")
@click.option(
    "--watch", is_flag=True, help="Step through the game in the terminal, all hands shown."
)
@click.option(
    "--lang",
    default=None,
    type=Choice(LANGUAGES),
    help="Language of --watch (default: from the locale); the report and --json are in English.",
)
def replay(file: str, as_json: bool, watch: bool, lang: str | None) -> None:
    """Replay a game record FILE (or - for standard input) and check it against its rules.

    Exit status: 0 a legal record, 1 a record that breaks a rule, 2 not a record.
    """
    if lang is not None and not watch:
        raise click.BadOptionUsage(  # (--json names the option: {"option": "--lang"})
            "--lang", "--lang sets the language of --watch; the report and --json are in English"
        )
    if watch:
        if as_json:
            raise click.BadOptionUsage(  # (--json names the option: {"option": "--watch"})
                "--watch", "--watch shows the game on screen; --json prints it: pick one"
            )
        _watch(file, Translator(lang or detect_language()))
        return
    try:
        result = replay_record(load_record(_read(file)))
    except RecordError as err:
        if as_json:
            _print_json(err.to_json_dict())
        else:
            click.echo(_describe_error(err), err=True)
        sys.exit(err.exit_code)
    if as_json:
        _print_json(result.to_json_dict())
    else:
        click.echo(describe_result(result))


class _CannotWatch(click.ClickException):
    """A record the viewer cannot show for breaking the rules: the checker's status, 1."""


class _NotARecordToWatch(_CannotWatch):
    """A file the viewer cannot show for being no record: the checker's status, 2."""

    exit_code = 2


def _watch(file: str, t: Translator) -> None:
    """``--watch``: step through the record in the terminal, in ``t``'s language, what it
    refuses too (the words around a refusal as well: "Virhe: …")."""
    speak(t)
    # the viewer reads its keys from the terminal: a record piped in, or no terminal,
    # would leave it running with no way to step or quit
    if file == "-":
        raise click.BadParameter(t("tui.cli.watch_needs_file"), param_hint="FILE")
    if not _has_terminal():
        raise click.UsageError(t("tui.cli.watch_needs_terminal"))
    try:
        from mextrain.tui.screens import resume_detail, why_not_resumed
        from mextrain.tui.watch import watch_record
    except ImportError as err:  # pragma: no cover - depends on the installed extras
        raise click.ClickException(
            f"--watch needs the 'tui' extra (in a clone: pip install -e '.[tui]'): {err}"
        ) from None
    shown = show_text(terminal_safe(file), str, PATH_SHOWN) if file.strip() else repr(file)
    try:
        result = replay_record(load_record(_read_bytes(file)))
    except FileNotFoundError:
        raise click.BadParameter(t("tui.cli.no_such_file", path=shown), param_hint="FILE") from None
    except IsADirectoryError:
        raise click.BadParameter(t("tui.cli.not_a_file", path=shown), param_hint="FILE") from None
    except (OSError, RecordError) as err:
        # why in a few words of the language, then, on a line of its own, the detail (the
        # checker's words in English, as the report gives them; the system's in the
        # language): as `play --resume` says a save it cannot open
        detail = resume_detail(err, t)
        said = t("tui.cli.cannot_watch", path=shown, reason=why_not_resumed(err, t))
        message = said + ("" if detail is None else f"\n  {detail}")
        if isinstance(err, RecordError) and err.exit_code == _NotARecordToWatch.exit_code:
            raise _NotARecordToWatch(message) from None
        raise _CannotWatch(message) from None
    if not result.record.rounds:  # (a legal record of a game not dealt yet)
        said = t("tui.cli.cannot_watch", path=shown, reason=t("tui.cli.why.no_round"))
        raise _NotARecordToWatch(said)
    watch_record(result.record, t.lang)


#: the largest record read: a full 13-round match of ten seats is a few hundred KiB
MAX_RECORD_BYTES = 64 * 1024 * 1024


def _read(file: str) -> bytes:
    """The bytes of a record file (``-``: standard input), at most `MAX_RECORD_BYTES`: more
    is no record (``/dev/zero`` would fill the memory)."""
    if not file.strip():
        raise RecordFormatError(
            None, "no file named: give the record's path, or - for standard input"
        )
    try:
        return _read_bytes(file)
    except FileNotFoundError:
        raise RecordFormatError(None, f"no such file: {show_text(file, str, PATH_SHOWN)}") from None
    except IsADirectoryError:
        raise RecordFormatError(
            None, f"{show_text(file, str, PATH_SHOWN)} is a directory, not a record file"
        ) from None
    except OSError as err:  # (a long path shortened: "File name too long")
        said = f"cannot read {show_text(file, str, PATH_SHOWN)}: {err.strerror}"
        raise RecordFormatError(None, said) from None


def _read_bytes(file: str) -> bytes:
    """`_read`, the system's refusals as they come (an `OSError`); too big, no record."""
    if file == "-":
        data = sys.stdin.buffer.read(MAX_RECORD_BYTES + 1)
    else:
        with open(file, "rb") as f:
            data = f.read(MAX_RECORD_BYTES + 1)
    if len(data) > MAX_RECORD_BYTES:
        where = "standard input" if file == "-" else file
        raise RecordFormatError(
            None, f"{where} is over {MAX_RECORD_BYTES // (1024 * 1024)} MiB: too big for a record"
        )
    return data


def _print_json(obj: dict[str, Any]) -> None:
    text = json.dumps(obj, ensure_ascii=False)
    # a lone surrogate read from a record (JSON can spell one, UTF-8 cannot) is written
    # back as the JSON escape it came as
    click.echo(text.encode("utf-8", "backslashreplace").decode("utf-8"))


def _describe_error(err: RecordError) -> str:
    # what a record says (an option's name, an action's text) may hold escape sequences:
    # shown escaped, never sent to the terminal
    if isinstance(err, IllegalRecordError):
        text = terminal_safe(err.describe())
        footer = "(Rounds, actions and seats are counted from 0, as in the record.)"
        return f"Illegal record: {text}.\n{footer}"
    # (the reason may say "not a record: not JSON ...": said once is enough)
    return f"Not a game record: {terminal_safe(err.reason.removeprefix('not a record: '))}."


def _names(players: tuple[str, ...]) -> list[str]:
    """The seats' names as the report says them: a nameless seat is "seat 2", and a name
    more than one seat has (a simulator's record names each seat after its bot) says
    whose it is, "planner (seat 2)". Seats are counted from 1, as the terminal game, the
    web page and ``analyze`` count them (the record and ``--json`` count from 0)."""
    names = [terminal_safe(name) or f"seat {seat + 1}" for seat, name in enumerate(players)]
    repeated = {name for name in names if names.count(name) > 1}
    return [
        f"{name} (seat {seat + 1})" if name in repeated else name for seat, name in enumerate(names)
    ]


def _scores_line(names: list[str], scores: list[int]) -> str:
    return ", ".join(f"{name} {points}" for name, points in zip(names, scores, strict=True))


def describe_result(result: ReplayResult) -> str:
    """A legal record's rounds, totals and winners, in words."""
    names = _names(result.players)
    rules = result.record.rules
    # the options as a record writes them: as few and as plain as they go ("rounds=1")
    spec = rules.to_spec()
    options = spec.items() if isinstance(spec, dict) else ()
    house = ", ".join(
        f"{key}={json.dumps(value, ensure_ascii=False)}"
        for key, value in options
        if key != "preset"
    )
    lines = [
        f"Legal record: {rules.preset_name} rules{f' ({house})' if house else ''}, "
        f"{len(names)} players: {', '.join(names)}."
    ]
    for k, (outcome, state) in enumerate(zip(result.rounds, result.match.rounds, strict=True)):
        head = f"Round {k} (engine {outcome.engine}-{outcome.engine})"
        if outcome.scores is None:
            lines.append(f"{head}: in play, {names[state.current_seat]} to move.")
        elif outcome.ended == "out" and state.out_seat is not None:
            lines.append(
                f"{head}: {names[state.out_seat]} went out. {_scores_line(names, outcome.scores)}."
            )
        else:
            lines.append(f"{head}: blocked. {_scores_line(names, outcome.scores)}.")
    if result.rounds:  # (a person counts from 1: "Round 0" read as a slip)
        lines.append("(Rounds are counted from 0, as `analyze --round` and records count them.)")
    finished = sum(1 for r in result.rounds if r.scores is not None)
    lines.append(f"Totals: {_scores_line(names, result.totals)}.")  # (all 0 before a round ends)
    winners = " and ".join(names[seat] for seat in result.winners)
    if result.complete:
        title = "Winner" if len(result.winners) == 1 else "Winners (tied)"
        lines.append(f"{title}: {winners} (lowest total).")
        played = (
            "its one round was"
            if rules.round_count == 1
            else f"all {rules.round_count} rounds were"
        )
        lines.append(f"The game is complete: {played} played.")
    else:
        if result.winners:
            title = "Leader" if len(result.winners) == 1 else "Leaders (tied)"
            lines.append(f"{title}: {winners} (lowest total so far).")
        else:
            lines.append("No round has finished yet: nobody leads.")
        lines.append(f"The game is in progress: {finished} of {rules.round_count} rounds finished.")
    return "\n".join(lines)
