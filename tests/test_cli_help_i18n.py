"""``--help`` of the commands with ``--lang`` (play, solve, stats, replay, analyze, serve) in the
player's language: from ``--lang`` wherever it stands, else from the locale; English as
Click writes it. (``replay --help`` was in English whatever the language: its ``--lang`` is for
``--watch``, and its report stays in English, but its help is read by the same people.)"""

from __future__ import annotations

import re

import click
import pytest
from click.testing import CliRunner, Result

from mextrain.cli import main
from mextrain.i18n import LANGUAGES, Translator

COMMANDS = ("play", "solve", "stats", "replay", "analyze", "serve")
OTHERS = [lang for lang in LANGUAGES if lang != "en"]


def invoke(*args: str, env: dict[str, str] | None = None) -> Result:
    quiet = {"LC_ALL": "", "LC_MESSAGES": "", "LANG": "C", "LANGUAGE": ""}
    return CliRunner().invoke(main, list(args), prog_name="mextrain", env={**quiet, **(env or {})})


def command(name: str) -> click.Command:
    assert isinstance(main, click.Group)
    found = main.commands[name]
    return found


def options(name: str) -> list[click.Option]:
    cmd = command(name)
    with click.Context(cmd, info_name=name) as ctx:
        return [p for p in cmd.get_params(ctx) if isinstance(p, click.Option)]


def words(text: str) -> str:
    """``text`` with its white space as one space (``--help`` wraps its lines)."""
    return re.sub(r"\s+", " ", text).strip()


@pytest.mark.parametrize("name", COMMANDS)
def test_the_catalogs_english_is_the_help_click_shows(name: str) -> None:
    """The other languages translate the catalog's English: it must be the command's own
    (a help changed in the code and not in the catalog would leave them behind)."""
    en = Translator("en")
    cmd = command(name)
    assert cmd.help is not None
    assert words(cmd.help) == words(en(f"tui.cli.help.{name}.about"))  # (wrapped as written)
    with click.Context(cmd, info_name=name) as ctx:
        helper = cmd.get_help_option(ctx)
        for option in options(name):
            if option is helper:
                assert option.help == en("tui.cli.help.help")
                continue
            own = f"tui.cli.help.{name}.{option.name}"
            assert option.help == en(own if en.has(own) else f"tui.cli.help.{option.name}")
            if not option.is_flag and not isinstance(option.type, click.Choice):
                metavar = option.make_metavar(ctx)
                assert en.has(f"tui.cli.help.metavar.{metavar.lower()}"), metavar


@pytest.mark.parametrize("lang", OTHERS)
@pytest.mark.parametrize("name", COMMANDS)
def test_help_is_in_the_language_of_lang_wherever_it_stands(name: str, lang: str) -> None:
    t, en = Translator(lang), Translator("en")
    for args in ((name, "--lang", lang, "--help"), (name, "--help", "--lang", lang)):
        shown = invoke(*args)
        assert shown.exit_code == 0, shown.output
        said = words(shown.output)
        assert said.startswith(f"{words(t('tui.cli.help.usage'))} mextrain {name} "), said
        assert words(t(f"tui.cli.help.{name}.about").replace("\b", "")) in said
        assert words(t("tui.cli.help.options")) in said
        for option in options(name):
            own = f"tui.cli.help.{name}.{option.name}"
            if not t.has(own):
                continue
            assert words(t(own)) in said, own
            assert words(en(own)) not in said, own  # (no English left)
        assert words(t("tui.cli.help.help")) in said
        assert "Show this message and exit." not in said


def test_help_says_defaults_ranges_and_what_is_required_in_the_language() -> None:
    shown = invoke("solve", "--help", "--lang", "fr").output
    said = words(shown)
    assert "[obligatoire]" in said
    assert "[par défaut : 12 ; de 0 à 30]" in said
    # (no-break spaces before French colons and semicolons, not "12; de 0")
    assert "défaut\u00a0: 12\u00a0; de" in shown
    assert "-s, --start ENTIER" in said  # (the options as Click writes them, metavar too)
    said = words(invoke("play", "--help", "--lang", "fi").output)
    assert "--delay LUKU" in said
    assert "[0–60]" in said
    assert "[oletus: classic]" in said
    # a whole number's range as the language writes the number ("1e+06" was Python's)
    shown = invoke("analyze", "--help", "--lang", "fr").output
    assert "[de 1 à 1 000 000]" in words(shown)
    assert "1\u202f000\u202f000]" in shown  # (narrow no-break spaces: never wrapped)
    assert "[da 1 a 1.000.000]" in words(invoke("analyze", "--help", "--lang", "it").output)


@pytest.mark.parametrize("name", COMMANDS)
def test_help_without_lang_is_in_the_locales_language(name: str) -> None:
    t = Translator("it")
    shown = invoke(name, "--help", env={"LANG": "it_IT.UTF-8"})
    assert shown.exit_code == 0
    assert words(shown.output).startswith(f"{t('tui.cli.help.usage')} mextrain {name}")
    english = invoke(name, "--help")  # (the locale C: English, Click's own)
    assert english.output.startswith(f"Usage: mextrain {name} [OPTIONS]")
    assert "Show this message and exit." in english.output
    assert invoke(name, "--help", "--lang", "en", env={"LANG": "fi_FI.UTF-8"}).output == (
        english.output
    )


def test_replays_help_in_a_language_changes_nothing_else_it_says() -> None:
    """``replay``'s report and its refusals stay in English (RECORD.md fixes their words)
    with its help in the language: ``--lang`` without ``--watch`` is still refused, in
    English, whatever the locale."""
    refused = invoke("replay", "x.json", "--lang", "fr", env={"LANG": "fi_FI.UTF-8"})
    assert refused.exit_code == 2
    assert "--lang sets the language of --watch" in refused.output
    assert "Usage: mextrain replay" in refused.output


@pytest.mark.parametrize("name", COMMANDS)
@pytest.mark.parametrize("columns", [50, 57, 63, 71, 80])
def test_french_help_never_wraps_at_a_no_break_space(name: str, columns: int) -> None:
    """Click wraps the help at plain spaces only (Python's ``textwrap``): a line of French
    help never starts with the ":" or ";" a no-break space holds to its word ("[par
    défaut : 12 ; de 0 à 30]"), nor ends with "«"."""
    result = CliRunner().invoke(
        main, [name, "--help", "--lang", "fr"], prog_name="mextrain", terminal_width=columns
    )
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    # (wrapped at that width: all but an example, which is shown as written)
    assert sum(len(line) > columns for line in lines) <= 1, lines
    for line in lines:
        assert not line.lstrip().startswith(tuple(":;!?»")), lines
        assert not line.rstrip().endswith("«"), lines


@pytest.mark.parametrize("name", COMMANDS)
@pytest.mark.parametrize("lang", OTHERS)
def test_an_options_name_in_the_help_is_never_broken_at_its_hyphen(name: str, lang: str) -> None:
    """Click wraps the help with Python's textwrap, which breaks a line after a hyphen
    between two letters: the Finnish ``analyze --help`` in a terminal of 80 columns read
    "ellei --time-" on one line and "ms ole annettu" on the next. An option's name in the
    help's words stays whole at every width, its hyphens as typed."""
    for columns in range(50, 101):
        result = CliRunner().invoke(
            main, [name, "--help", "--lang", lang], prog_name="mextrain", terminal_width=columns
        )
        assert result.exit_code == 0, result.output
        assert "\u2011" not in result.output
        for line in result.output.splitlines():
            assert not re.search(r"--\w+(-\w+)*-$", line.rstrip()), (columns, line)
