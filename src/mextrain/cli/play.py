"""``mextrain play``: a full-screen game in the terminal against bots or friends.

Without ``--seats`` a start screen offers the rules, house options, seats and language,
filled in from the options given. Every game is saved after every action in the user's data
directory (``MEXTRAIN_DATA_DIR`` overrides it); ``--resume`` carries on with the newest
unfinished one.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
from pathlib import Path
from typing import TYPE_CHECKING

import click

from mextrain.bots import BotSpecError, bot_names
from mextrain.i18n import (
    Translator,
    bot_error_text,
    detect_language,
    normalise_language,
    os_error_text,
    rules_error_text,
    terminal_safe,
)
from mextrain.rules import Rules, RulesError, show_text

from ._common import (
    IMPORT_HELP,
    FiniteFloat,
    ImportFailed,
    LanguageCommand,
    OptionError,
    SavedFile,
    WholeNumber,
    import_modules,
    lang_option,
    speak,
)

if TYPE_CHECKING:
    from mextrain.tui import PlayApp
from ._common import has_terminal as _has_terminal  # (tests put a terminal here)

DEFAULT_PLAYERS = 4


def default_bot() -> str:
    """The default opponent: the strongest bot registered (`mextrain.search.BY_STRENGTH`
    is weakest first; imported here, as `bot_names` imports the search bots: not for
    ``--help``)."""
    from mextrain.search import BY_STRENGTH

    known = set(bot_names())
    return next((name for name in reversed(BY_STRENGTH) if name in known), sorted(known)[0])


def _rules(text: str, t: Translator) -> Rules:
    spec: object = text.strip()
    if text.lstrip().startswith(("{", "[", '"')):  # JSON: an object, or a preset's name
        try:
            spec = json.loads(text)
        except json.JSONDecodeError as err:
            raise click.BadParameter(
                t("tui.cli.not_json", reason=err.msg), param_hint="--rules"
            ) from None
    try:
        return Rules.from_spec(spec)
    except RulesError as err:
        text = rules_error_text(err, t.lang)
        if err.option == "rules":  # (the whole of --rules: not "--rules: rules: ...")
            text = t(f"game.rules_error.{err.code}", **err.params)
        raise click.BadParameter(text, param_hint="--rules") from None


def _with_house(rules: Rules, options: tuple[str, ...], t: Translator) -> Rules:
    overrides: dict[str, object] = {}
    for option in options:
        key, eq, value = option.partition("=")
        if not eq or not key.strip():  # ("=1": a value with no name)
            raise click.BadParameter(
                t("tui.cli.not_name_value", option=show_text(option)), param_hint="--option"
            )
        try:
            overrides[key.strip()] = json.loads(value)
        except json.JSONDecodeError:
            overrides[key.strip()] = value
    if not overrides:
        return rules
    try:
        return rules.with_options(**overrides)
    except RulesError as err:
        raise click.BadParameter(rules_error_text(err, t.lang), param_hint="--option") from None


@click.command(cls=LanguageCommand)  # (a refusal once the language is known: in it)
@click.option(
    "--rules",
    "rules_text",
    default="classic",
    show_default=True,
    help="A preset (classic, relaxed, cardinal) or a JSON rules object.",
)
@click.option(
    "--option",
    "options",
    multiple=True,
    metavar="NAME=VALUE",
    help="A house rule on top of the preset, e.g. draw_until_playable=true.",
)
@click.option(
    "--players", type=WholeNumber(), default=None, help="How many seats (2-10, as the rules allow)."
)
@click.option(
    "--seats",
    default=None,
    metavar="LIST",
    help="Comma-separated seats: 'you' (or 'human') or a bot name, e.g. you,expert,hard.",
)
@click.option(
    "--names",
    default=None,
    metavar="LIST",
    help="Comma-separated names for the people at the keyboard, in seat order "
    "(default: Player 1, ...).",
)
@lang_option("Language (default: from the locale).")
@click.option(
    "--delay",
    type=FiniteFloat(0, 60),
    default=None,
    help="Seconds between bots' moves (default 0.8; 0 for no pause; at most 60).",
)
@click.option(
    "--seed",
    type=WholeNumber(),
    default=None,
    help="The game's seed: its deals and the bots' random choices (same seed, same game).",
)
@click.option("--import", "imports", multiple=True, metavar="MODULE", help=IMPORT_HELP)
@click.option("--light", is_flag=True, help="Colours for a light terminal background.")
@click.option("--resume", is_flag=True, help="Carry on with the last unfinished game.")
@click.option(
    "--file",
    "file",
    type=SavedFile(),
    default=None,
    help="With --resume: carry on with this saved game instead.",
)
def play(
    rules_text: str,
    options: tuple[str, ...],
    players: int | None,
    seats: str | None,
    names: str | None,
    lang: str | None,
    delay: float | None,
    seed: int | None,
    imports: tuple[str, ...],
    light: bool,
    resume: bool,
    file: Path | None,
) -> None:
    """Play Mexican Train in the terminal against bots, or with friends at one keyboard."""
    try:
        from mextrain.tui import (
            DEFAULT_DELAY,
            GameSession,
            GameSetup,
            PlayApp,
            parse_seats,
            rename_default_names,
        )
        from mextrain.tui.screens import cannot_resume_line, resume_detail
        from mextrain.tui.session import (
            GameInUse,
            find_resumable,
            latest_if_finished,
            passed_worth_saying,
            read_start_choices,
            saved_language,
        )
    except ImportError as err:  # pragma: no cover - depends on the installed extras
        raise click.ClickException(
            f"the terminal game needs the 'tui' extra (in a clone: pip install -e '.[tui]'): {err}"
        ) from None
    language = normalise_language(lang) or detect_language()
    t = Translator(language)
    speak(t)  # (its refusals are said in it)
    pause = DEFAULT_DELAY if delay is None else delay
    given = click.get_current_context().get_parameter_source
    try:
        import_modules(imports)  # (first: their bots may be named in --seats, or be saved)
    except ImportFailed as err:  # (a refused job, status 1, as in simulate: not a slip
        # in the command line, which --help would mend)
        why = t("tui.cli.import_failed", module=show_text(err.module), detail=err.detail)
        raise OptionError(why, "--import", value=True) from None
    if file is not None and not resume:
        raise click.BadParameter(t("tui.cli.file_needs_resume"), param_hint="--file")
    if resume:
        if names is not None:
            raise click.BadParameter(t("tui.cli.keeps_names"), param_hint="--names")
        for param, hint in (
            ("rules_text", "--rules"),
            ("options", "--option"),
            ("players", "--players"),
        ):
            if given(param) is click.core.ParameterSource.COMMANDLINE:
                raise click.BadParameter(t("tui.cli.keeps_rules"), param_hint=hint)
        kinds = None
        if seats is not None:
            try:
                kinds = parse_seats(seats)
            except (BotSpecError, ValueError) as err:
                raise click.BadParameter(
                    bot_error_text(err, t.lang), param_hint="--seats"
                ) from None

        def in_its_language(path: Path | None) -> Translator:
            # what is said about a save is said in the language it was played in (the
            # language the game goes on in), unless --lang says otherwise; the locale's
            # where the save does not say (cut short, from elsewhere)
            saved = None if lang is not None or path is None else saved_language(path)
            said = t if saved is None else Translator(saved)
            speak(said)  # (the words around a refusal in it too: "Virhe: …")
            return said

        def cannot_resume(path: Path, err: Exception, said: Translator) -> str:
            # the save by its file name and why in a few words, as the start screen says
            # it; then, on a line of its own, where the file is and the detail behind it
            line = cannot_resume_line(path, err, said)
            where = terminal_safe(str(path))
            detail = resume_detail(err, said)
            return f"{line}\n  {where}" + ("" if detail is None else f": {detail}")

        session = None
        if file is not None:
            try:
                session = GameSession.load(file, kinds, seed)
                session.claim()  # (GameInUse: another terminal plays it)
            except (ValueError, OSError) as err:
                said = in_its_language(file)
                raise click.ClickException(cannot_resume(file, err, said)) from None
        else:
            # the newest unfinished game that can go on: one that cannot (a bot since
            # renamed, a hand-edited seat) is passed over, and said so, not a dead end
            try:
                session, passed = find_resumable(seats=kinds, seed=seed)
            except BotSpecError as err:  # more seats than the newest game has
                raise click.BadParameter(
                    bot_error_text(err, t.lang), param_hint="--seats"
                ) from None
            if session is None:
                over = latest_if_finished()
                # the newest file that could not go on says why -- unless a finished game
                # is newer than it (quit on its last round's end: its result is there)
                worth = passed_worth_saying(passed, over)
                if worth:
                    newest, broken = worth[0]
                    said = in_its_language(newest)
                    raise click.ClickException(cannot_resume(newest, broken, said))
                if over is not None:
                    said = in_its_language(over)
                    how = _on_its_own_line(f"mextrain replay {_shell_word(over)} --watch")
                    raise click.ClickException(said("tui.cli.last_game_over") + how)
                raise click.ClickException(t("tui.cli.no_saved_game"))
            # the saves passed over are said in the language of the game that goes on
            said = Translator(session.lang) if lang is None and session.lang else t
            for path, broken in passed:
                click.echo(cannot_resume(path, broken, said), err=True)
            if passed and session.path is not None:  # (on a line of its own: 80 columns)
                going_on = terminal_safe(session.path.name)
                click.echo(said("tui.cli.passed_over", path=going_on), err=True)
            try:  # (passed over as not in use a moment ago; another terminal may have
                session.claim()  # begun playing it since)
            except GameInUse as err:
                assert session.path is not None
                said = in_its_language(session.path)
                raise click.ClickException(cannot_resume(session.path, err, said)) from None
        try:
            if lang is None and session.lang is not None:  # the language it was played in
                language = session.lang
                t = Translator(language)
                speak(t)  # (a refusal now -- no terminal -- framed in it too)
            rename_default_names(session, t)
            _ready_to_play(t)
            resumed = PlayApp(session=session, lang=language, delay=pause, light=light)
            resumed.run()
            _say_where_saved(resumed)
        finally:  # (the process may go on: a test's, or a script's)
            session.release()
        return
    rules = _with_house(_rules(rules_text, t), options, t)
    # the start screen opens on the seats a game last began with there, and a seat added
    # gets the level last chosen (a person need not choose their opponents again)
    kept = read_start_choices() if seats is None else None
    count = players
    if count is None:
        try:
            count = len(parse_seats(seats)) if seats else DEFAULT_PLAYERS
        except (BotSpecError, ValueError) as err:
            raise click.BadParameter(bot_error_text(err, t.lang), param_hint="--seats") from None
        if kept is not None:
            count = len(kept.seats)
        lo, hi = rules.players
        count = min(max(count, lo), hi)
    if not rules.allows_players(count):
        lo, hi = rules.players
        key = "tui.cli.players_exactly" if lo == hi else "tui.cli.players_range"
        raise click.BadParameter(t(key, low=lo, high=hi, count=count), param_hint="--players")
    if kept is not None:
        kinds = [*kept.seats[:count], *[kept.level] * (count - len(kept.seats))]
    else:
        try:
            kinds = parse_seats(seats if seats else ["human", default_bot()], count)
        except (BotSpecError, ValueError) as err:
            raise click.BadParameter(bot_error_text(err, t.lang), param_hint="--seats") from None
    chosen = _names_by_seat(names, kinds, t)
    if kept is not None and names is None:
        chosen = kept.names[:count]
    setup = GameSetup(rules, tuple(kinds), language, chosen)
    app = PlayApp(
        setup=setup,
        lang=language,
        delay=pause,
        seed=seed,
        show_start=seats is None,
        light=light,
        level=kept.level if kept is not None else None,
    )
    _ready_to_play(t)
    try:
        app.run()
        _say_where_saved(app)
    finally:  # (the app lets go of it as it closes; unless it never ran)
        if app.session is not None:
            app.session.release()


def _say_where_saved(app: PlayApp) -> None:
    """After the screen closes on a game still in play: where it is kept, and how to go on
    (in the language the game was played in); on a game over, how to go through it again
    (it said nothing); or that it could not be saved."""
    session = app.session
    if session is None or session.path is None:
        return
    t = Translator(app.lang)
    if session.unsaved is not None:  # (its last moves, or all of it, are lost: said so)
        reason = terminal_safe(os_error_text(session.unsaved, t.lang))
        if session.path.exists():
            where = terminal_safe(str(session.path))
            click.echo(t("tui.cli.not_saved", reason=reason, path=where), err=True)
        else:
            click.echo(t("tui.cli.not_saved_at_all", reason=reason), err=True)
        return
    if not session.path.exists():
        return
    if session.match.is_complete:  # (quit at its end: where to go through it again)
        how = f"mextrain replay {_shell_word(session.path)} --watch"
        click.echo(t("tui.cli.saved_over") + _on_its_own_line(how))
        return
    click.echo(t("tui.cli.saved_to_resume") + _on_its_own_line(str(session.path)))


def _on_its_own_line(text: str) -> str:
    """``text`` (a save's path, a command naming one) on a line of its own under the
    words before it, indented: a path is long (``~/.local/share/mextrain/games/...``),
    and within the sentence it pushed the command to copy past 80 columns, where the
    terminal broke it mid-word ("mextrain play --" / "resume")."""
    return f"\n  {terminal_safe(text)}"


def _shell_word(path: Path) -> str:
    """``path`` as a shell reads it as one word in a command to copy (a data directory
    may have a space in it: ``~/Library/Application Support`` on macOS; Windows's
    shells take double quotes)."""
    if os.name == "nt":  # pragma: no cover - Windows
        return subprocess.list2cmdline([str(path)])
    return shlex.quote(str(path))


def _ready_to_play(t: Translator) -> None:
    """Refuse, before the screen opens: without a terminal (keys from a pipe, a screen
    into a file) there is no game to play; without a folder to save in, no game to keep."""
    from mextrain.tui.session import games_dir

    if not _has_terminal():
        raise click.UsageError(t("tui.cli.needs_terminal"))
    folder = games_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        reason = terminal_safe(os_error_text(err, t.lang))
        raise click.ClickException(
            t("tui.cli.cannot_save", path=terminal_safe(str(folder)), reason=reason)
        ) from None


def _names_by_seat(text: str | None, kinds: list[str], t: Translator) -> tuple[str, ...]:
    """``--names``: the people's names in seat order, as one entry per seat ("" for bots
    and for people left unnamed)."""
    if text is None:
        return ()
    from mextrain.tui import HUMAN, check_names, seat_names

    given = [n.strip() for n in text.split(",")]
    people = [seat for seat, kind in enumerate(kinds) if kind == HUMAN]
    if len(given) > len(people):
        raise click.BadParameter(
            t(
                "tui.cli.names_unused",
                names=t.plural("tui.cli.names", len(given)),
                people=t.plural("tui.cli.people", len(people)),
            ),
            param_hint="--names",
        )
    chosen = [""] * len(kinds)
    for seat, name in zip(people, given, strict=False):
        chosen[seat] = name
    try:
        check_names(seat_names(kinds, t, chosen), t)
    except ValueError as err:
        raise click.BadParameter(str(err), param_hint="--names") from None
    return tuple(chosen)
