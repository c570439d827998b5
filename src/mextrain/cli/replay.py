"""``mextrain replay FILE [--json]``: check a game record against the rules."""

from __future__ import annotations

import click


@click.command()
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def replay(file: str, as_json: bool) -> None:
    """Replay a game record (RECORD.md) and check every action against its rules."""
    raise click.ClickException("not implemented yet")
