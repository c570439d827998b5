"""``mextrain simulate``: a tournament between bots with duplicate deals and seat rotation."""

from __future__ import annotations

import contextlib
import json
import signal
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import click

from mextrain.rules import show_text

from ._common import (
    IMPORT_HELP,
    PATH_SHOWN,
    AnyPath,
    Choice,
    ImportFailed,
    JsonCommand,
    OptionError,
    import_modules,
)

if TYPE_CHECKING:
    from mextrain.rules import Rules
    from mextrain.sim import SimulationError

__all__ = ["simulate"]


def _cores() -> int:
    """The cores this process may use (a container's, not the machine's)."""
    from mextrain.sim.backends import usable_cores

    return usable_cores()


def _rules(text: str) -> Rules:
    """``--rules``: a preset name, or a JSON object ``{"preset": NAME, ...overrides}`` (a
    JSON string names a preset too); the rules core says what is wrong with either."""
    from mextrain.rules import Rules, RulesError

    text = text.strip()
    spec: object = text
    if text.startswith(("{", "[", '"')):  # JSON of another kind is said to be one
        try:
            spec = json.loads(text)
        except json.JSONDecodeError as err:
            raise click.BadParameter(f"not a JSON object: {err}", param_hint="--rules") from None
    try:
        return Rules.from_spec(spec)
    except RulesError as err:
        if err.option != "rules":  # (an option's fault: a refused job, exit 1)
            raise
        raise click.BadParameter(err.message, param_hint="--rules") from None


@click.command(cls=JsonCommand)
@click.option(
    "--rules",
    "rules_text",
    default="classic",
    show_default=True,
    help='A preset (classic, relaxed, cardinal) or a JSON object {"preset": ..., options}.',
)
@click.option("--players", type=click.IntRange(min=2), required=True, help="Seats per game.")
@click.option(
    "--bots",
    required=True,
    help="One bot entry per seat, comma-separated; parameters as name:key=value,key=value.",
)
@click.option(
    "--games",
    type=click.IntRange(min=1),
    required=True,
    help="Games to play: a multiple of --players (each deal is played in every rotation).",
)
@click.option("--seed", type=int, required=True, help="Same seed, same results.")
@click.option(
    "--rounds",
    type=click.IntRange(min=1),
    default=None,
    help="Rounds per game: the first K engines of the rules (default: all of them).",
)
@click.option(
    "--jobs",
    type=click.IntRange(min=1),
    default=_cores,
    show_default="all cores",
    help="Worker processes (or Ray CPUs for a local Ray); 1 plays in this process.",
)
@click.option(
    "--backend",
    type=Choice(["process", "ray"]),
    default="process",
    show_default=True,
    help="Local process pool, or a Ray cluster (needs the 'ray' extra).",
)
@click.option("--address", default=None, help="Ray cluster address (with --backend ray).")
@click.option(
    "--records",
    "records_text",
    # (a file there is checked with the rest, a refused job: not Click's status 2)
    type=AnyPath(),
    default=None,
    help=(
        "Save every game as a record (docs/RECORDS.md) in this directory, which must not "
        "hold another run's records."
    ),
)
@click.option("--import", "imports", multiple=True, metavar="MODULE", help=IMPORT_HELP)
@click.option("--json", "as_json", is_flag=True, help="Print exactly one JSON object.")
def simulate(
    rules_text: str,
    players: int,
    bots: str,
    games: int,
    seed: int,
    rounds: int | None,
    jobs: int,
    backend: str,
    address: str | None,
    records_text: str | None,
    imports: tuple[str, ...],
    as_json: bool,
) -> None:
    """Play bots against each other and report win rates, scores and ratings per entry.

    Each deal is played once per rotation of the bot entries through the seats, so the
    luck of the deal cancels out.

    \b
    Example:
      mextrain simulate --players 3 --bots planner,greedy,random --games 300 --seed 1
    Bots of your own, from a module that registers them:
      mextrain simulate --import mybots --bots mine,planner --players 2 --games 4 --seed 1
    """
    from mextrain.bots import BotSpecError
    from mextrain.rules import RulesError
    from mextrain.sim import (
        SimulationError,
        address_source,
        check_cluster,
        check_job,
        cluster_address,
    )
    from mextrain.sim import simulate as run

    try:
        import_modules(imports)  # (first: their bots may be named in --bots)
    except ImportFailed as err:
        # (Python's words name the module, not the option: said as Click says a value)
        raise OptionError(str(err), "--import", value=True) from None
    entries = _split_bots(bots)
    if address is not None and backend != "ray":
        raise click.BadParameter("--address goes with --backend ray", param_hint="--address")
    try:
        # the whole job, before anything is made: a refused job leaves no records directory
        game_rules = _rules(rules_text)
        check_job(
            game_rules,
            players,
            entries,
            games,
            seed,
            rounds,
            jobs,
            records_text is not None,
            backend,
            address,
        )
        joining = cluster_address(backend, address)  # (--address, or RAY_ADDRESS)
        if joining is not None:
            check_cluster(joining, source=address_source(address, "--address"))
    except BotSpecError as err:  # ("unknown bot 'x'": the option named as for --rules)
        raise OptionError(str(err), "--bots", value=True) from None
    except RulesError as err:
        if err.option == "players":  # (the rules allow not that many: --players says it all)
            raise OptionError(err.message, "--players", value=True) from None
        # (the rules option at fault named in the words: "x: unknown option")
        raise OptionError(str(err), "--rules", value=True) from None
    except SimulationError as err:
        if err.option is not None and err.command is not None:
            # ("Invalid value for --games: ... with --players 3 ...": the option to change
            # named first, as for --bots, --import and --records)
            raise OptionError(err.command, err.option, value=True) from None
        if err.option is not None:
            raise OptionError(_as_option(err), err.option) from None
        raise click.ClickException(str(err)) from None
    records_dir = None
    if records_text is not None:
        # find out now, not after every game has been played, that records cannot be
        # saved; the directory is made with the first record (a run refused by Ray, say,
        # leaves none)
        from mextrain.sim import prepare_records_dir

        if not records_text.strip():
            raise click.BadParameter("an empty path is no directory", param_hint="--records")
        records_dir = Path(records_text)
        try:
            prepare_records_dir(records_dir, make=False)
        # a directory that cannot take this run's records is a refused job (status 1),
        # as an unknown bot is, not a command line that cannot be read (2)
        except OSError as err:
            raise OptionError(
                f"cannot save records in {show_text(records_text, str, PATH_SHOWN)}: "
                f"{err.strerror or type(err).__name__}",
                "--records",
                value=True,
            ) from None
        except SimulationError as err:
            raise OptionError(str(err), "--records", value=True) from None
    bar = None
    progress = None
    if sys.stderr.isatty():
        bar = click.progressbar(length=games, label="games", file=sys.stderr, show_eta=True)
        bar.__enter__()
        progress = bar.update
    try:
        with _terminate_as_interrupt():
            report = run(
                game_rules,
                players,
                entries,
                games,
                seed,
                rounds=rounds,
                jobs=jobs,
                backend=backend,
                address=address,
                records=records_dir,
                progress=progress,
            )
    except KeyboardInterrupt as err:
        if bar is not None:
            bar.__exit__(None, None, None)
            bar = None
        # the shell's status for a SIGTERM or a Ctrl-C: not a refused job's 1
        stopped, status = (
            ("terminated", 128 + signal.SIGTERM)
            if isinstance(err, _Terminated)
            else ("interrupted", 130)
        )
        said = f"{stopped}{_saved(records_dir)}"
        if as_json:  # (still one object on standard output)
            click.echo(json.dumps({"error": {"reason": said}}))
        else:
            click.echo(said, err=True)
        sys.exit(status)
    except (SimulationError, BotSpecError, RulesError) as err:
        raise click.ClickException(f"{err}{_saved(records_dir)}") from None
    except OSError as err:  # e.g. the disk filled up, or the directory became unwritable
        if records_dir is None:
            raise click.ClickException(str(err) or type(err).__name__) from None
        raise click.ClickException(f"cannot save the records: {err}{_saved(records_dir)}") from None
    finally:
        if bar is not None:
            bar.__exit__(None, None, None)
    if as_json:
        click.echo(json.dumps(report.to_dict()))
    else:
        click.echo(report.to_text())
        if records_dir is not None:
            click.echo(f"records: {games} games saved in {records_dir}")


class _Terminated(KeyboardInterrupt):
    """A SIGTERM (``kill``, a job scheduler, a container stopping), stopping the run as
    Ctrl-C does: the workers ended with it, the finished games' records kept."""


@contextlib.contextmanager
def _terminate_as_interrupt() -> Iterator[None]:
    """While the games play, SIGTERM stops them as Ctrl-C does (by default it killed this
    process alone, and the worker processes played on without it)."""
    if threading.current_thread() is not threading.main_thread():
        yield  # (signals reach the main thread only)
        return

    def stop(signum: int, frame: object) -> None:
        raise _Terminated

    before = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before)


def _saved(records_dir: Path | None) -> str:
    """What a run that stopped has saved: each game's record as it finished."""
    if records_dir is None:
        return ""
    try:
        count = sum(1 for _ in records_dir.glob("game-*.json"))
    except OSError:  # pragma: no cover - the directory went away meanwhile
        return ""
    if not count:
        return f" (no record saved in {records_dir})"
    return f" ({count} finished game{'s' if count != 1 else ''} saved in {records_dir})"


def _as_option(err: SimulationError) -> str:
    """A refusal of the job as the command says it: words that begin with the Python
    argument at fault (``rounds must be ...``, ``jobs=99 is ...``) begin with the option
    instead (``--rounds must be ...``, ``--jobs 99 is ...``)."""
    message = str(err)
    if err.parameter is None or err.option is None:
        return message
    for said in (f"{err.parameter}=", f"{err.parameter} "):
        if message.startswith(said):
            return f"{err.option} {message.removeprefix(said)}"
    return message


def _split_bots(text: str) -> list[str]:
    """The ``--bots`` list's entries (`split_bot_list`), each written as a spec
    (`parse_bot_spec`): a slip in the writing is a usage error (status 2) whatever part
    it is in -- an empty entry, ``greedy:oops``, a parameter given twice -- while an
    unknown bot or a bad value is a refused job (status 1)."""
    from mextrain.bots import BotSpecError, split_bot_list
    from mextrain.bots.base import parse_bot_spec

    try:
        entries = split_bot_list(text)
        for entry in entries:
            parse_bot_spec(entry)
    except BotSpecError as err:
        raise click.BadParameter(str(err), param_hint="--bots") from None
    return entries
