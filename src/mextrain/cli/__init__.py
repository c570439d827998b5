"""The ``mextrain`` command line. Each subcommand lives in its own module."""

from __future__ import annotations

import click

from mextrain import __version__

from ._common import CommandGroup


@click.group(cls=CommandGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="mextrain")
def main() -> None:
    """Mexican Train dominoes: play, replay, solve, simulate and keep statistics."""


def _register() -> None:
    # Imported here so that each command module can import `main`-free helpers freely.
    from . import replay, simulate

    main.add_command(replay.replay)
    main.add_command(simulate.simulate)
    from . import analyze

    main.add_command(analyze.analyze)
    from . import serve

    main.add_command(serve.serve)
    from . import play

    main.add_command(play.play)
    from . import solve

    main.add_command(solve.solve)
    from . import stats

    main.add_command(stats.stats)


_register()
