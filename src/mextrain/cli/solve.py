"""``mextrain solve --start P TILE... [--json]``: the longest train a hand can lay."""

from __future__ import annotations

import json

import click

from mextrain.i18n import Translator, detect_language, normalise_language
from mextrain.planner import PlanError, PlanTimeout, plan
from mextrain.records import show_number
from mextrain.rules import Tile, TileFormatError, parse_tile, show_text

from ._common import (
    FiniteFloat,
    JsonCommand,
    LanguageCommand,
    WholeNumber,
    lang_option,
    speak,
)

#: seconds the search has unless ``--time-limit`` says (0: no limit): far beyond a dealt
#: hand (a millisecond or less), short of the minutes or more a rare hand of a big set takes
TIME_LIMIT = 60
#: the longest ``--time-limit`` that is not 0 (a day)
MAX_TIME_LIMIT = 86_400


def _read_tiles(texts: tuple[str, ...], max_pip: int, t: Translator) -> list[Tile]:
    """The hand, each tile read from its text; a text refused is quoted as a record's
    reader quotes it (`show_text`: past 40 characters, its first 40 and its length)."""
    tiles: list[Tile] = []
    seen: set[Tile] = set()
    for text in texts:
        try:
            tile = parse_tile(text)
        except TileFormatError:
            raise click.UsageError(t("tui.solve.not_a_tile", text=show_text(text))) from None
        if tile.high > max_pip:
            raise click.UsageError(t("tui.solve.pip_range", text=show_text(text), max_pip=max_pip))
        if tile in seen:
            raise click.UsageError(t("tui.solve.twice", tile=tile))
        seen.add(tile)
        tiles.append(tile)
    return tiles


class _SolveCommand(LanguageCommand, JsonCommand):
    """`solve`: a refusal made once the language is known is said in that language, its
    frame too ("Erreur : …", not Click's English "Error: …"); with ``--json`` it is the
    JSON object `JsonCommand` prints, its reason in that language."""


@click.command(cls=_SolveCommand)
@click.option(
    "--start",
    "-s",
    type=WholeNumber(),
    required=True,
    help="The pip the train starts from: the engine, or the open end of a train.",
)
@click.option(
    "--max-pip",
    type=WholeNumber(0, 30),
    default=12,
    show_default=True,
    help="The set: double-N.",
)
@click.option(
    "--time-limit",
    type=FiniteFloat(min=0, max=MAX_TIME_LIMIT),
    default=TIME_LIMIT,
    show_default=True,
    help="Seconds the search may take; past them it stops with no answer (0: no limit).",
)
@lang_option("Language of the answer and the refusals (default: from the locale).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.argument("tiles", nargs=-1)
def solve(
    start: int,
    max_pip: int,
    time_limit: float,
    lang: str | None,
    as_json: bool,
    tiles: tuple[str, ...],
) -> None:
    """Find the longest train a hand can lay from the pip START (exact): the engine's, or
    the open end of a train already laid.

    TILES are written like 5-12 or 12-5. The train has the most tiles, then the most pips;
    equal trains are ordered by their tiles, so the answer is always the same.

    \b
    Example:
      mextrain solve --start 12 12-5 5-3 3-3 3-9 9-12 0-1 2-2 12-4
    """
    t = Translator(normalise_language(lang) or detect_language())
    speak(t)  # (its refusals are said in it)
    if not 0 <= start <= max_pip:
        # (--json names the option, as it does for a --start that is no number)
        raise click.BadOptionUsage(
            "--start", t("tui.solve.start_range", start=show_number(start), max_pip=max_pip)
        )
    hand = _read_tiles(tiles, max_pip, t)
    try:
        result = plan(hand, start, max_pip=max_pip, time_limit=time_limit or None)
    except PlanError as err:  # pragma: no cover - the checks above come first
        raise click.UsageError(str(err)) from None
    except PlanTimeout:
        # (no answer rather than one that may not be the best: the solver is exact)
        raise click.ClickException(
            t(
                "tui.solve.timeout",
                seconds=t.number(time_limit),
                start=start,
                tiles=t.plural("tui.solve.tiles", len(hand)),
            )
        ) from None
    if as_json:
        click.echo(json.dumps(result.to_dict()))
        return
    train = result.train
    tiles_n = t.plural("tui.solve.tiles", train.length)
    pips = t.plural("tui.solve.pips", train.pips)
    click.echo(t("tui.solve.best", start=start, tiles=tiles_n, pips=pips))
    click.echo(f"  {' '.join(train.oriented()) or t('tui.solve.no_tile')}")
    extras = " ".join(str(tile) for tile in result.extras) or t("tui.solve.none")
    extra_pips = t.plural("tui.solve.pips", result.extra_pips)
    click.echo(t("tui.solve.extras", count=len(result.extras), pips=extra_pips, tiles=extras))
    if result.mexican_starters:
        starters = " ".join(str(tile) for tile in result.mexican_starters)
        click.echo(f"  {t('tui.solve.mexican', tiles=starters)}")
    if result.stranded_doubles:
        doubles = " ".join(str(tile) for tile in result.stranded_doubles)
        click.echo(f"  {t('tui.solve.stranded', tiles=doubles)}")
