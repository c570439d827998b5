"""``mextrain stats``: how the people who play in the terminal are doing.

Reads every game ``mextrain play`` saved (or those of ``--dir``), replays each through the
engine and sums up each person's finished games: games, wins with a 95% interval, points,
rounds won, and the bot levels they met. ``--json`` prints one object.
"""

from __future__ import annotations

import json
from pathlib import Path

import click

from mextrain.i18n import Translator, detect_language, normalise_language

from ._common import (
    JsonCommand,
    LanguageCommand,
    SavedFile,
    lang_option,
    speak,
    terminal_safe,
)


class _StatsCommand(LanguageCommand, JsonCommand):
    """`stats`: with ``--lang``, what it refuses (a ``--dir`` that is no folder, an
    unknown option) is said in that language, its frame too; with ``--json`` it is the
    JSON object `JsonCommand` prints, its reason in that language."""


@click.command(cls=_StatsCommand)
@click.option(
    "--dir",
    "folder",
    type=SavedFile(folder=True),
    default=None,
    help="Read the games saved in this folder (default: where mextrain play saves them).",
)
@click.option("--name", default=None, help="Only this person (the name they played under).")
@lang_option("Language (default: from the locale).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead.")
def stats(folder: Path | None, name: str | None, lang: str | None, as_json: bool) -> None:
    """Statistics of the games played in the terminal, per person."""
    try:
        from mextrain.tui.history import ranking, read_history, stats_text, summarize
    except ImportError as err:  # pragma: no cover - depends on the installed extras
        raise click.ClickException(
            f"statistics need the 'tui' extra (in a clone: pip install -e '.[tui]'): {err}"
        ) from None
    history = read_history(folder)
    # default names are given in one language: the reader's; --json's are English unless
    # --lang says otherwise, so that a script reads the same names whatever the locale
    chosen = normalise_language(lang)
    t = Translator(chosen or ("en" if as_json else detect_language()))
    speak(t)  # (its refusals are said in it)
    people = summarize(history.games, name, t)
    if as_json:
        finished = sum(g.complete for g in history.games)
        doc = {
            "folder": str(history.folder),
            "finished": finished,
            "unfinished": len(history.games) - finished,
            "skipped": [str(p) for p in history.skipped],
            "people": [p.to_dict() for p in people],
            # the bot levels the people listed met, rated as they are (their ranking)
            "bots": [
                {"level": level, "rating": round(rating.shown, 2), "games": rating.games}
                for (kind, level), rating in sorted(
                    ranking(history.games, t).items(), key=lambda item: -item[1].shown
                )
                if kind == "bot" and any(level in p.opponents for p in people)
            ],
        }
        text = json.dumps(doc, ensure_ascii=False)  # (on one line, as every --json)
        # a folder or file name that is not UTF-8 (a lone surrogate here) is written as the
        # JSON escape, so that the output stays UTF-8 and JSON
        click.echo(text.encode("utf-8", "backslashreplace").decode("utf-8"))
        return
    # names come from saved files, which anyone may have written
    click.echo(terminal_safe(stats_text(history, people, t, name), keep="\n"))
