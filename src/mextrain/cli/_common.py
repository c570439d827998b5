"""What the commands share: option types, and text made safe for a terminal."""

from __future__ import annotations

import importlib
import json
import math
import os
import re
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import IO, Any, Final, TypeVar

import click
from click.formatting import join_options

from mextrain.i18n import LANGUAGES, Translator, detect_language, terminal_safe
from mextrain.records import shorten_numbers
from mextrain.rules import show_text

__all__ = [
    "IMPORT_HELP",
    "PATH_SHOWN",
    "AnyPath",
    "Choice",
    "CommandGroup",
    "FiniteFloat",
    "HelpInLanguage",
    "ImportFailed",
    "JsonCommand",
    "LanguageCommand",
    "OptionError",
    "SavedFile",
    "SpeaksRefusals",
    "WholeNumber",
    "error_json",
    "has_terminal",
    "import_modules",
    "lang_option",
    "speak",
    "speak_as_given",
    "terminal_safe",
    "words_of",
]


class OptionError(click.ClickException):
    """A refused job that one option is at fault for (an unknown bot in ``--bots``): the
    status of a refused job (1), not of a command line that cannot be read (2), and
    ``--json`` names the option. ``value``: the option's value is refused in words that do
    not name the option (the rules core's ``x: unknown option``), so the text names it as
    Click's refusal of a value does, ``Invalid value for --rules: x: unknown option`` (the
    ``--json`` reason is the message alone, the option beside it)."""

    def __init__(self, message: str, option: str, *, value: bool = False) -> None:
        super().__init__(message)
        self.option = option
        self.value = value

    def format_message(self) -> str:
        if self.value:
            return f"Invalid value for {self.option}: {self.message}"
        return self.message


#: the most characters of a file's path a refusal quotes (`show_text`): a path may well be
#: longer than the 40 characters of other text, and is worth reading whole up to here
PATH_SHOWN: Final = 200


class _QuotesShortened(click.ParamType[Any, Any]):
    """A type whose refusal quotes a long value shortened (`show_text`: its first 40
    characters and its length): Click's own words quote the value whole ("'xxx…' is not
    one of 'en', 'fr'", "File 'xxx…' does not exist.", "is not a valid integer"), a
    5,000-character argument printed in full."""

    #: past how many characters (`show_text`'s ``limit``)
    shown_limit: int | None = None

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        try:
            return super().convert(value, param, ctx)
        except click.BadParameter as err:
            _quoted_shortened(err, value, self.shown_limit)
            raise


def _quoted_shortened(err: click.BadParameter, value: Any, limit: int | None = None) -> None:
    """``err`` quoting ``value`` as `show_text` does, where it quotes it as Click does
    (``{value!r}``)."""
    if isinstance(value, str):
        shortened = err.message.replace(repr(value), show_text(value, limit=limit))
        object.__setattr__(err, "message", shortened)  # (see `CommandGroup`)


class Choice(_QuotesShortened, click.Choice[str]):
    """`click.Choice`, a long value refused shortened (`_QuotesShortened`)."""


class AnyPath(_QuotesShortened, click.Path):
    """`click.Path`, a long path refused shortened (`_QuotesShortened`)."""

    shown_limit = PATH_SHOWN


class FiniteFloat(_QuotesShortened, click.FloatRange):
    """A number from ``min`` to ``max``, and a real one: ``nan`` and ``inf`` are refused (a
    bot delay of ``inf`` would stop every game). Refused in the command's language once an
    eager ``--lang`` has named it (`speak_as_given`)."""

    name = "number"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        t = _translator(ctx)
        try:
            number = click.FLOAT.convert(value, param, ctx)
        except click.BadParameter as err:
            if t is None:
                _quoted_shortened(err, value)
                raise
            self.fail(t("tui.cli.not_number", value=show_text(str(value))), param, ctx)
        # finite first: "inf is not a finite number" says more than a range would; but a
        # number written out in digits is finite, however many ("1" and 400 zeros, which
        # a float reads as inf): that one is past the range
        if not math.isfinite(number) and not _written_in_digits(value):
            said = f"{value} is not a finite number"
            self.fail(said if t is None else t("tui.cli.not_finite", value=value), param, ctx)
        try:
            if not math.isfinite(number):
                message = f"{value} is not in the range {self._describe_range()}."
                self.fail(message, param, ctx)
            return super().convert(number, param, ctx)
        except click.BadParameter:
            key = _range_key(self)
            if t is None or key is None:
                raise  # (a range our words do not say: Click's own)
            low, high = _bounds(t, self)
            self.fail(t(f"tui.cli.out_of_{key}", value=value, low=low, high=high), param, ctx)


#: a number in digits, as a float reads it (``1e400``, ``-99…9.5``): no ``inf`` or ``nan``
_DIGITS = re.compile(r"\s*[+-]?(?:[0-9_]+\.?[0-9_]*|\.[0-9_]+)(?:[eE][+-]?[0-9_]+)?\s*")


def _written_in_digits(value: object) -> bool:
    """Whether ``value`` (as typed) writes a number in digits rather than a word such as
    ``inf`` or ``nan``: such a number is finite even where a float cannot hold it."""
    return isinstance(value, str) and _DIGITS.fullmatch(value) is not None


def _range_key(kind: click.IntRange | click.FloatRange) -> str | None:
    """How the catalogs say a range with both bounds given, the upper one included:
    ``"range"``, "from min to max"; ``"range_above"``, the same with min excluded
    (``analyze --time-ms``: more than 0); None for any other range (Click's words)."""
    if kind.min is None or kind.max is None or kind.max_open:
        return None
    return "range_above" if kind.min_open else "range"


def _bounds(t: Translator, kind: click.IntRange | click.FloatRange) -> tuple[str, str]:
    """A range's two bounds as ``t``'s language writes them (`Translator.number`):
    "1 000 000" and "0,5" in French, where Python wrote "1000000" (or "1e+06") and
    "0.5"; the same in --help's "[from A to B]" and in a value's refusal."""
    low, high = kind.min, kind.max
    if low is None or high is None:
        raise ValueError("a range with a bound missing (see `_range_key`)")
    return t.number(low), t.number(high)


class SavedFile(_QuotesShortened, click.Path):
    """An existing file (not a folder; with ``folder``, an existing folder), as a `Path`,
    refused in the command's language once an eager ``--lang`` has named it."""

    shown_limit = PATH_SHOWN

    def __init__(self, folder: bool = False) -> None:
        super().__init__(exists=True, file_okay=not folder, dir_okay=folder, path_type=Path)
        self.folder = folder

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        try:
            return super().convert(value, param, ctx)
        except click.BadParameter:
            t = _translator(ctx)
            if t is None:
                raise
            gone = not os.path.exists(value)
            wrong = "tui.cli.not_a_folder" if self.folder else "tui.cli.not_a_file"
            key = "tui.cli.no_such_file" if gone else wrong
            path = show_text(click.format_filename(value), str, PATH_SHOWN)
            self.fail(t(key, path=path), param, ctx)


class WholeNumber(_QuotesShortened, click.IntRange):
    """A whole number, from ``min`` to ``max`` where given, as Click's own, but refused in
    the command's language once an eager ``--lang`` has named it (a range other than "from
    min to max" in Click's words)."""

    name = "integer"

    def _describe_range(self) -> str:
        # (no range, no "[x<=None]" in the help)
        return "" if self.min is None and self.max is None else super()._describe_range()

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        try:
            return super().convert(value, param, ctx)
        except click.BadParameter:
            t = _translator(ctx)
            if t is None:
                raise
            try:
                number = int(value)
            except (TypeError, ValueError):
                self.fail(t("tui.cli.not_whole", value=show_text(str(value))), param, ctx)
            key = _range_key(self)
            if key is None:
                raise
            low, high = _bounds(t, self)
            self.fail(t(f"tui.cli.out_of_{key}", value=number, low=low, high=high), param, ctx)


def has_terminal() -> bool:
    """Whether keys come from a terminal and the screen goes to one (the full-screen
    commands need both)."""
    return sys.stdin.isatty() and sys.stdout.isatty()


def _option_of(err: click.ClickException) -> str | None:
    """The option (or argument) a refusal is about, if it is about one."""
    if isinstance(err, click.BadParameter):
        if isinstance(err.param_hint, str):
            return err.param_hint
        if isinstance(err.param, click.Argument):
            return err.param.human_readable_name  # ("FILE")
        if err.param is not None and err.param.opts:
            return max(err.param.opts, key=len)  # ("--games", not "-g")
    elif isinstance(err, click.NoSuchOption | click.BadOptionUsage):
        return err.option_name  # (an unknown option; one given without its value)
    elif isinstance(err, OptionError):
        return err.option
    elif isinstance(err, _Refusal):
        return err.named
    return None


def error_json(err: click.ClickException) -> dict[str, Any]:
    """A refusal as ``--json`` prints it: ``{"error": {"option": ..., "reason": ...}}``,
    the option it is about where there is one."""
    reason = err.message
    option = _option_of(err)
    if isinstance(err, click.MissingParameter) and not reason:
        reason = err.format_message()  # ("Missing option '--bots'.")
    error: dict[str, str] = {"reason": _numbers_shortened(err, reason)}  # (as `CommandGroup`)
    return {"error": {"option": option, **error} if option else error}


def _numbers_shortened(err: click.ClickException, message: str) -> str:
    """``message``, of the refusal ``err``, with a number of more than 40 digits shortened
    (`shorten_numbers`), its count in the words of the refusal's language."""
    words = err.t.count_words if isinstance(err, _Refusal) else None
    return shorten_numbers(message, words)


class CommandGroup(click.Group):
    """The ``mextrain`` command: a refusal of any of its commands, Click's own and the
    command's, writes a number of more than 40 digits as replay writes one
    (``77777777…(3,000 digits)``, `shorten_numbers`; in French ``3 000 chiffres``):
    ``--players 7777...7`` was quoted back with its thousands of digits ("not in the
    range", "not a finite number", the rules' "for 2 to 8 players, not ...")."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except click.ClickException as err:
            # (an attribute of the instance, which Click's types mark final: it sets it
            # once, and every way of showing the refusal reads it)
            object.__setattr__(err, "message", _numbers_shortened(err, err.message))
            raise


#: where a command keeps the translator its refusals are said in (``click.Context.meta``)
_TRANSLATOR = "mextrain.cli.translator"
#: where a command keeps the language ``--lang`` names for its ``--help`` (the same)
_HELP_LANGUAGE = "mextrain.cli.help_language"


def _translator(ctx: click.Context | None) -> Translator | None:
    """The language the running command's refusals are said in, if it has one yet."""
    t = None if ctx is None else ctx.meta.get(_TRANSLATOR)
    return t if isinstance(t, Translator) else None


def words_of(ctx: click.Context | None) -> Translator:
    """The language the running command speaks in: the one ``--lang`` named (or `speak`
    set), else the locale's -- for a refusal made before the command has set its own."""
    return _translator(ctx) or Translator(detect_language())


def speak(t: Translator) -> None:
    """From now on the running command's refusals are said in ``t``'s language, all of
    it (`LanguageCommand`): a command calls it once it knows the language."""
    click.get_current_context().meta[_TRANSLATOR] = t


#: Click's words for what is left over on a command line (``--names Jean Paul``: "Paul")
_EXTRA_ARGUMENTS: Final = re.compile(r"Got unexpected extra arguments? \((?P<args>.*)\)", re.DOTALL)


class _Refusal(click.ClickException):
    """A refusal in the reader's language, all of it: Click frames its messages in
    English ("Error:", "Invalid value for --seats:", "Try ... for help."), around words
    already in the reader's language."""

    def __init__(
        self, err: click.ClickException, t: Translator, help_for: str | None = None
    ) -> None:
        option = _option_of(err)
        #: the option the refusal is about (for ``--json``), whatever the words name
        self.named = option
        message = err.message
        # (a value refused, by Click or by the command (`OptionError`'s ``value``): "Invalid
        # value for" its option; Click's own words for a command line it cannot read, said
        # in the language too)
        value = isinstance(err, click.BadParameter) or getattr(err, "value", False) is True
        self.option = option if value else None
        if isinstance(err, click.MissingParameter):
            message, self.option = t("tui.cli.missing", option=option), None
        elif isinstance(err, click.NoSuchOption):
            message = t("tui.cli.no_such_option", option=option)
        elif isinstance(err, click.BadOptionUsage) and message.endswith("requires an argument."):
            message = t("tui.cli.needs_value", option=option)
        elif type(err) is click.UsageError and (extra := _EXTRA_ARGUMENTS.fullmatch(message)):
            # (a name with a space, unquoted: --names Jean Paul)
            message = t("tui.cli.extra_arguments", args=show_text(extra["args"]))
        super().__init__(message)
        self.t = t
        self.help = help_for
        if isinstance(err, click.UsageError) and err.ctx is not None:
            self.help = f"{err.ctx.command_path} --help"

    def format_message(self) -> str:
        if self.option is not None:
            return self.t("tui.cli.error_option", option=self.option, message=self.message)
        return self.t("tui.cli.error", message=self.message)

    def show(self, file: IO[Any] | None = None) -> None:
        click.echo(self.format_message(), file=file, err=file is None)
        if self.help is not None:  # (a command line to mend: where the options are told)
            click.echo(self.t("tui.cli.try_help", command=self.help), file=file, err=file is None)


class _UsageRefusal(_Refusal):
    """A command line to mend, in the reader's language (Click's status for one)."""

    exit_code = click.UsageError.exit_code


def _in_language(
    err: click.ClickException, t: Translator | None, help_for: str | None = None
) -> click.ClickException | None:
    """``err`` said in ``t``'s language (the one the command chose, `speak`), or None: no
    language chosen yet, or said in it already. ``help_for``: the command whose ``--help``
    a refusal with no context of its own points to."""
    if t is None or isinstance(err, _Refusal):
        return None
    said = _UsageRefusal if err.exit_code == _UsageRefusal.exit_code else _Refusal
    return said(err, t, help_for if isinstance(err, click.UsageError) else None)


def speak_as_given(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """The callback of an eager ``--lang`` (read before any other option): the refusals of
    the rest of the command line (``--start x``) are said in the language it names too."""
    if value is not None:
        ctx.meta[_TRANSLATOR] = Translator(value)
    return value


_F = TypeVar("_F", bound=Callable[..., Any])


def lang_option(help: str) -> Callable[[_F], _F]:
    """A command's eager ``--lang``: read before any other option (`speak_as_given`), so
    that the refusals of the rest of the command line are said in the language it names."""
    return click.option(
        "--lang",
        default=None,
        type=Choice(LANGUAGES),
        is_eager=True,
        callback=speak_as_given,
        help=help,
    )


def _language_given(args: list[str]) -> str | None:
    """The language ``--lang X`` or ``--lang=X`` names on a command line, if it names one
    (before a ``--``, which ends the options)."""
    options = args[: args.index("--")] if "--" in args else args
    for i, arg in enumerate(options):
        value = options[i + 1] if arg == "--lang" and i + 1 < len(options) else None
        if arg.startswith("--lang="):
            value = arg.removeprefix("--lang=")
        if value in LANGUAGES:
            return value
    return None


class _SaysRefusals(click.Command):
    """A command that may word the refusals of its command line its own way (`_as_said`)
    and show them its own way (`_show_refusal`)."""

    def make_context(
        self,
        info_name: str | None,
        args: list[str],
        parent: click.Context | None = None,
        **extra: Any,
    ) -> click.Context:
        given = list(args)  # (as given: parsing may use the list up)
        try:
            return super().make_context(info_name, args, parent, **extra)
        except click.ClickException as err:
            said = self._as_said(err, given, info_name, parent)
            self._show_refusal(err, said, given, info_name, parent)
            if said is err:
                raise
            raise said from None

    def _as_said(
        self,
        err: click.ClickException,
        args: list[str],
        info_name: str | None,
        parent: click.Context | None,
    ) -> click.ClickException:
        """``err`` as the command says it (as Click does, unless a subclass says)."""
        return err

    def _show_refusal(
        self,
        err: click.ClickException,
        said: click.ClickException,
        args: list[str],
        info_name: str | None,
        parent: click.Context | None,
    ) -> None:
        """Show ``said`` (``err`` as the command says it) and exit, or leave it to Click."""


#: an option's name in a help's words ("--time-ms"), which Click's wrapping (Python's
#: textwrap) would break after a hyphen inside it: "--time-" on one line, "ms" on the next
_OPTION_NAME: Final = re.compile(r"--\w+(?:-\w+)+")
#: what stands for a hyphen inside an option's name while the help is wrapped: a hyphen
#: no line breaks at, one cell wide as the hyphen is
_KEPT_HYPHEN: Final = "\u2011"


def _whole_options(text: str) -> str:
    """``text`` with the hyphens inside its options' names kept from line breaks (until
    `_help_in` gives them back)."""
    return _OPTION_NAME.sub(lambda m: "--" + m.group()[2:].replace("-", _KEPT_HYPHEN), text)


def _help_in(command: click.Command, ctx: click.Context, t: Translator) -> str:
    """``command``'s ``--help`` in ``t``'s language: its usage, its description and each
    option's help from the catalog (``tui.cli.help.<command>.about``,
    ``tui.cli.help.<command>.<parameter>``, or ``tui.cli.help.<parameter>`` for one the
    commands share), with what Click adds (a default, a range, "required") in it too."""
    name = command.name or ""
    formatter = ctx.make_formatter()
    pieces = [
        t("tui.cli.help.options_metavar") if piece == "[OPTIONS]" else piece
        for piece in command.collect_usage_pieces(ctx)
    ]
    usage = f"{t('tui.cli.help.usage')} "
    formatter.write_usage(ctx.command_path, " ".join(pieces), prefix=usage)
    formatter.write_paragraph()
    with formatter.indentation():
        formatter.write_text(_whole_options(t(f"tui.cli.help.{name}.about")))
    rows = []
    for param in command.get_params(ctx):
        if not isinstance(param, click.Option) or param.hidden:
            continue
        names = join_options(param.opts)[0]  # (as Click writes them: "-s, --start")
        if not param.is_flag and not param.count:
            metavar = param.make_metavar(ctx)
            key = f"tui.cli.help.metavar.{metavar.lower()}"
            names += f" {t(key) if t.has(key) else metavar}"
        own = f"tui.cli.help.{name}.{param.name}"  # (else one the commands share)
        if param is command.get_help_option(ctx):
            said = t("tui.cli.help.help")
        else:
            said = t(own) if t.has(own) else t(f"tui.cli.help.{param.name}")
        extra = []
        if param.required:
            extra.append(t("tui.cli.help.required"))
        if param.show_default and param.default is not None and not param.is_flag:
            extra.append(t("tui.cli.help.default", value=param.default))
        kind = param.type
        if isinstance(kind, click.IntRange | click.FloatRange):
            shape = _range_key(kind)
            if shape is not None:
                low, high = _bounds(t, kind)  # ("1 000 000", not "1e+06")
                extra.append(t(f"tui.cli.help.{shape}", low=low, high=high))
        if extra:
            said += f"  [{t('tui.cli.help.extra_join').join(extra)}]"  # (French: " ; ")
        rows.append((names, _whole_options(said)))
    formatter.write_paragraph()
    formatter.write(f"{t('tui.cli.help.options')}\n")  # (its colon as the language has it)
    with formatter.indentation():
        formatter.write_dl(rows)
    # (the hyphens kept whole while wrapping, given back: "--time-ms" as it is typed)
    return formatter.getvalue().rstrip("\n").replace(_KEPT_HYPHEN, "-")


class SpeaksRefusals(_SaysRefusals):
    """A command whose own refusals, once it knows its language (`speak`), are said in
    it, the words around them too ("Virhe: …"); before that, in Click's English."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except click.ClickException as err:
            said = _in_language(err, _translator(ctx))
            if said is None:
                raise
            raise said from None

    def _in_given_language(
        self,
        err: click.ClickException,
        args: list[str],
        info_name: str | None,
        parent: click.Context | None,
    ) -> click.ClickException:
        """``err``, a refusal of the command line, in the language it names (``--lang``),
        if it names one: an option Click cannot read stops it before it reads ``--lang``,
        so it is looked for here too."""
        t = _translator(getattr(err, "ctx", None))
        if t is None:
            given = _language_given(args)
            t = None if given is None else Translator(given)
        path = f"{parent.command_path} {info_name}" if parent is not None else info_name
        return _in_language(err, t, f"{path} --help") or err


class HelpInLanguage(click.Command):
    """A command whose ``--help`` is in the language of ``--lang``, wherever it stands on
    the command line, else of the locale (`_help_in`) -- that alone: what else it says, and
    in which language, is the command's own business (`LanguageCommand` says its refusals
    in that language too; ``replay`` reports in English)."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        # ``--lang`` wherever it stands, even after ``--help`` (an eager option that
        # would show the help before ``--lang`` was read)
        given = _language_given(args)
        if given is not None:
            ctx.meta[_HELP_LANGUAGE] = given
        return super().parse_args(ctx, args)

    def get_help(self, ctx: click.Context) -> str:
        given = ctx.meta.get(_HELP_LANGUAGE)
        t = _translator(ctx) or Translator(given if given in LANGUAGES else detect_language())
        if t.lang == "en":
            return super().get_help(ctx)  # (Click's own, from the same English words)
        return _help_in(self, ctx, t)


class LanguageCommand(HelpInLanguage, SpeaksRefusals):
    """A command whose refusals, once it knows its language (`speak`), are said in it --
    from the command line's own, with an eager ``--lang`` (`speak_as_given`) -- and whose
    ``--help`` is in the language of ``--lang``, else of the locale (`HelpInLanguage`)."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        # (``--lang`` wherever it stands: its refusals are said in it from the start)
        given = _language_given(args)
        if given is not None and _translator(ctx) is None:
            ctx.meta[_TRANSLATOR] = Translator(given)
        return super().parse_args(ctx, args)

    def _as_said(
        self,
        err: click.ClickException,
        args: list[str],
        info_name: str | None,
        parent: click.Context | None,
    ) -> click.ClickException:
        return self._in_given_language(err, args, info_name, parent)


class JsonCommand(_SaysRefusals):
    """A command with ``--json`` (``as_json``): given it, every refusal is one JSON object
    on standard output (`error_json`) with the usual exit status -- a command line that
    cannot be read (``--games x``, ``--games 0``, an unknown or missing option; status 2)
    and the command's own refusals alike -- not text for a person."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except click.ClickException as err:
            if not ctx.params.get("as_json"):
                raise
            click.echo(json.dumps(self.error_json(err)))
            sys.exit(err.exit_code)

    def error_json(self, err: click.ClickException) -> dict[str, Any]:
        """The JSON object a refusal is printed as (`error_json`, unless a command says)."""
        return error_json(err)

    def _show_refusal(
        self,
        err: click.ClickException,
        said: click.ClickException,
        args: list[str],
        info_name: str | None,
        parent: click.Context | None,
    ) -> None:
        if isinstance(err, click.UsageError) and self._asks_for_json(info_name, args, parent):
            click.echo(json.dumps(self.error_json(said)))
            sys.exit(err.exit_code)

    def _asks_for_json(
        self, info_name: str | None, args: list[str], parent: click.Context | None
    ) -> bool:
        """Whether ``--json`` was given as itself: read again as click reads it, but
        without stopping at errors (``--records --json`` names a folder; ``-- --json``
        is an argument)."""
        options = args[: args.index("--")] if "--" in args else args
        if "--json" not in options:
            return False
        try:
            ctx = super().make_context(
                info_name,
                list(args),
                parent,
                resilient_parsing=True,
                ignore_unknown_options=True,
            )
        except click.ClickException:  # (an option missing its value, the last one given)
            return True
        return bool(ctx.params.get("as_json"))


#: ``--import``'s help
IMPORT_HELP = (
    "A module of yours to import first, whose bots it registers (mextrain.bots.register_bot) "
    "may then be named: a module name, found from the current directory too, or a .py file. "
    "Repeatable."
)


def import_modules(modules: Iterable[str]) -> None:
    """``--import``: import each module (a name, looked for in the current directory as
    ``python -m`` does, or a ``.py`` file's path), so that the bots it registers can be
    named. `ImportFailed` says which one failed and why; the modules before it stay
    imported. A worker process of the simulator imports the bots' modules itself, from the
    same search path (`mextrain.bots.bot_module`)."""
    for given in modules:
        name = given.strip()
        if name.endswith(".py"):
            path = Path(name)
            try:
                found = path.is_file()
            except OSError as err:  # (a name too long for the system: "File name too long")
                raise ImportFailed(given, err.strerror or type(err).__name__) from None
            if not found:
                raise ImportFailed(given, "no such file")
            folder = str(path.resolve().parent)
            if folder not in sys.path:
                sys.path.insert(0, folder)
            name = path.stem
        elif os.getcwd() not in sys.path and "" not in sys.path:
            sys.path.insert(0, os.getcwd())
        if not name or not all(part.isidentifier() for part in name.split(".")):
            raise ImportFailed(given, "not a module name")
        try:
            importlib.import_module(name)
        except Exception as err:  # its own code failed: said, not a traceback
            # (Python's words quote the module missing whole: "No module named '...'")
            said = str(err).replace(repr(name), show_text(name))
            raise ImportFailed(given, f"{type(err).__name__}: {said}") from err


class ImportFailed(Exception):
    """A module ``--import`` names could not be imported: ``module`` as given, ``detail``
    what went wrong (Python's words)."""

    def __init__(self, module: str, detail: str) -> None:
        super().__init__(f"cannot import {show_text(module)}: {detail}")
        self.module = module
        self.detail = detail
