"""``mextrain solve --start P TILE... [--json]``: the longest train a hand can lay."""

from __future__ import annotations

import json

import click

from mextrain.planner import PlanError, plan
from mextrain.rules import Tile, TileFormatError, parse_tile


def _read_tiles(texts: tuple[str, ...], max_pip: int) -> list[Tile]:
    tiles: list[Tile] = []
    seen: set[Tile] = set()
    for text in texts:
        try:
            tile = parse_tile(text)
        except TileFormatError as err:
            raise click.UsageError(str(err)) from None
        if tile.high > max_pip:
            raise click.UsageError(
                f"{text!r}: pips go from 0 to {max_pip} in a double-{max_pip} set "
                f"(use --max-pip for a bigger set)"
            )
        if tile in seen:
            raise click.UsageError(f"{tile} is given twice")
        seen.add(tile)
        tiles.append(tile)
    return tiles


@click.command()
@click.option(
    "--start",
    "-s",
    type=int,
    required=True,
    help="The pip the train starts from: the engine, or the open end of a train.",
)
@click.option(
    "--max-pip",
    type=click.IntRange(0, 30),
    default=12,
    show_default=True,
    help="The set: double-N.",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.argument("tiles", nargs=-1)
def solve(start: int, max_pip: int, as_json: bool, tiles: tuple[str, ...]) -> None:
    """Find the longest train a hand can lay from the pip START (exact): the engine's, or
    the open end of a train already laid.

    TILES are written like 5-12 or 12-5. The train has the most tiles, then the most pips;
    equal trains are ordered by their tiles, so the answer is always the same.

    \b
    Example:
      mextrain solve --start 12 12-5 5-3 3-3 3-9 9-12 0-1 2-2 12-4
    """
    if not 0 <= start <= max_pip:
        raise click.UsageError(
            f"--start {start}: the pip must be from 0 to {max_pip} in a double-{max_pip} set"
        )
    hand = _read_tiles(tiles, max_pip)
    try:
        result = plan(hand, start, max_pip=max_pip)
    except PlanError as err:  # pragma: no cover - the checks above come first
        raise click.UsageError(str(err)) from None
    if as_json:
        click.echo(json.dumps(result.to_dict()))
        return
    train = result.train
    click.echo(
        f"Best train from {start}: {_count(train.length, 'tile')}, {_count(train.pips, 'pip')}"
    )
    click.echo(f"  {train}")
    extras = " ".join(str(t) for t in result.extras) or "none"
    click.echo(f"Extras ({len(result.extras)}, {_count(result.extra_pips, 'pip')}): {extras}")
    if result.mexican_starters:
        starters = " ".join(str(t) for t in result.mexican_starters)
        click.echo(f"  could start the Mexican train: {starters}")
    if result.stranded_doubles:
        doubles = " ".join(str(t) for t in result.stranded_doubles)
        click.echo(f"  stranded doubles (the train never reaches them): {doubles}")


def _count(n: int, word: str) -> str:
    """ "1 tile", "2 tiles", "0 tiles"."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"
