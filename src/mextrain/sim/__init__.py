"""Tournaments between bots: duplicate deals, seat rotation, parallel runs, honest statistics.

`simulate` is the whole job behind ``mextrain simulate``: build the config, play every
game on a backend, write records if asked, and summarise per bot entry.
"""

from __future__ import annotations

import contextlib
import errno
import operator
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from mextrain.bots import bot_module
from mextrain.rules import Rules

from .backends import (
    BACKENDS,
    ProgressFn,
    ResultsFn,
    address_source,
    check_address,
    check_cluster,
    chunk_games,
    cluster_address,
    max_jobs,
    run_games,
    usable_cores,
)
from .games import (
    GameResult,
    SimConfig,
    SimulationError,
    deal_for,
    derive_seed,
    play_game,
    play_games,
    seat_entries,
)
from .report import EntryStats, SimReport, summarise

__all__ = [
    "BACKENDS",
    "EntryStats",
    "GameResult",
    "ProgressFn",
    "ResultsFn",
    "SimConfig",
    "SimReport",
    "SimulationError",
    "address_source",
    "check_address",
    "check_cluster",
    "check_job",
    "chunk_games",
    "cluster_address",
    "deal_for",
    "derive_seed",
    "game_rules",
    "max_jobs",
    "play_game",
    "play_games",
    "prepare_records_dir",
    "record_name",
    "run_games",
    "seat_entries",
    "simulate",
    "summarise",
    "write_record",
    "write_records",
]


def game_rules(rules: Rules, rounds: int | None) -> Rules:
    """The rules of one simulated game: all of ``rules``' rounds, or only its first ``rounds``
    engines (a shorter match, written into the rules so records replay as complete games)."""
    if rounds is None or rounds == rules.round_count:
        return rules
    if not 1 <= rounds <= rules.round_count:
        raise SimulationError(
            f"rounds must be from 1 to {rules.round_count} for these rules, not {rounds}",
            option="--rounds",
            parameter="rounds",
        )
    return rules.with_options(rounds=list(rules.rounds[:rounds]))


def prepare_records_dir(directory: str | os.PathLike[str], make: bool = True) -> Path:
    """Check that this run's records can be saved in ``directory``, and make it (unless
    ``make`` is false: a command checks before it plays and makes the directory with its
    first record). `SimulationError` if it already holds records (``game-*.json``: another
    run's would be overwritten, or mixed with this one's); ``OSError`` if it cannot be
    made or written in (a file is written there and removed, or in the folder it would be
    made in: a read-only disk refuses it). An empty path is no directory (`Path("")` is
    the working directory: the records would land among whatever it holds)."""
    if not os.fspath(directory).strip():
        raise SimulationError(
            "an empty path is no directory: name the records' directory", option="--records"
        )
    path = Path(directory)
    if path.is_symlink() and not path.exists():  # a link to nothing is no directory
        raise NotADirectoryError(errno.ENOTDIR, "a link to nothing", str(path))
    if path.is_dir():
        if any(path.glob("game-*.json")):
            raise SimulationError(
                f"{path} already holds game records (game-*.json) of another run: "
                "save this one's in an empty directory",
                option="--records",
            )
        _try_writing(path)
        return path
    if path.exists():
        raise NotADirectoryError(errno.ENOTDIR, "not a directory", str(path))
    if make:
        path.mkdir(parents=True, exist_ok=True)
        _try_writing(path)
        return path
    parent = path.parent
    while not parent.exists() and parent != parent.parent:
        parent = parent.parent
    if not parent.is_dir():
        raise NotADirectoryError(errno.ENOTDIR, "not a directory", str(parent))
    _try_writing(parent)
    return path


def _try_writing(directory: Path) -> None:
    with tempfile.TemporaryFile(dir=directory, prefix=".mextrain-"):
        pass


def record_name(game: int, games: int) -> str:
    """The file name of game ``game``'s record in a run of ``games`` games (numbered from
    0, at least six digits, all of a run's names sort in game order)."""
    width = max(6, len(str(games - 1)))
    return f"game-{game:0{width}d}.json"


def write_record(result: GameResult, directory: Path, games: int) -> Path:
    """Save one game's record in ``directory`` (made already), whole or not at all: it is
    written to a hidden file, then renamed (a full disk leaves no cut record)."""
    if result.record is None:
        raise SimulationError(f"game {result.game} was played without keeping its record")
    path = directory / record_name(result.game, games)
    text = result.record if result.record.endswith("\n") else result.record + "\n"
    part = directory / f".{path.name}.{os.getpid()}.part"
    try:
        part.write_text(text, encoding="utf-8")
        # linked, not renamed: a name another run has written is refused, never
        # overwritten (two runs started on one new directory cannot mix)
        taken = False
        try:
            os.link(part, path)
        except FileExistsError:
            taken = True
        except OSError:  # a file system without hard links
            taken = path.exists()
            if not taken:
                part.replace(path)
        if taken:
            raise SimulationError(
                f"{directory} already holds {path.name}, another run's: save this one's "
                "in a directory of its own"
            )
    finally:
        part.unlink(missing_ok=True)
    return path


def write_records(results: list[GameResult], directory: str | os.PathLike[str]) -> list[Path]:
    """Save each game's record as ``game-000123.json`` in ``directory``
    (`prepare_records_dir`: a new or empty one)."""
    path = prepare_records_dir(directory)
    return [write_record(result, path, len(results)) for result in results]


def _whole(name: str, value: Any) -> int:
    """A whole number as Python's int (a NumPy integer too: a sweep over ``np.arange``);
    anything else -- ``2.0``, ``True``, ``"2"`` -- refused in words."""
    if not isinstance(value, bool):
        with contextlib.suppress(TypeError):
            return operator.index(value)  # (NumPy's truth value is no index: refused too)
    raise SimulationError(f"{name} must be a whole number, not {value!r}")


def check_job(
    rules: Rules | str | dict[str, Any],
    players: int,
    bots: Sequence[str],
    games: int,
    seed: int,
    rounds: int | None = None,
    jobs: int = 1,
    keep_records: bool = False,
    backend: str = "process",
    address: str | None = None,
) -> SimConfig:
    """The job `simulate` would run, checked (`SimulationError`, `BotSpecError`,
    `RulesError`) without playing a game: an interface refuses a bad job before it makes
    anything, a records directory included. A Ray cluster's address (``address``, or
    ``RAY_ADDRESS``) is checked for its shape; whether a cluster answers there is asked
    by `check_cluster`, as `simulate` does before it starts."""
    # (the types say so already; a caller without a type checker is told, not misread)
    if isinstance(bots, str) or not isinstance(bots, Sequence):
        what = f"the string {bots!r}" if isinstance(bots, str) else repr(bots)
        raise SimulationError(
            f"bots must be a list of bot specs, one per entry, not {what} "
            "(mextrain.bots.split_bot_list splits a comma-separated list)"
        )
    if not all(isinstance(spec, str) for spec in bots):
        raise SimulationError(f"each bot is a spec in text, such as 'planner': not {bots!r}")
    players = _whole("players", players)
    games = _whole("games", games)
    seed = _whole("seed", seed)
    jobs = _whole("jobs", jobs)
    if rounds is not None:
        rounds = _whole("rounds", rounds)
    if backend not in BACKENDS:
        raise SimulationError(f"unknown backend {backend!r}; choose one of {', '.join(BACKENDS)}")
    if address is not None and backend != "ray":
        raise SimulationError(
            "an address is for the ray backend (a cluster to run on)",
            option="--address",
            parameter="address",
        )
    base = rules if isinstance(rules, Rules) else Rules.from_spec(rules)
    imports = tuple(sorted({m for m in map(bot_module, bots) if m is not None}))
    config = SimConfig(
        rules=game_rules(base, rounds),
        players=players,
        bots=tuple(bots),
        games=games,
        seed=seed,
        keep_records=keep_records,
        imports=imports,
    )
    config.check()
    if jobs < 1:
        raise SimulationError(
            f"jobs must be at least 1, not {jobs}", option="--jobs", parameter="jobs"
        )
    limit = max_jobs()
    if jobs > limit and cluster_address(backend, address) is None:
        raise SimulationError(
            f"jobs={jobs} is more processes than this machine can use: at most {limit} "
            f"(4 per core; it has {usable_cores()})",
            option="--jobs",
            parameter="jobs",
        )
    joining = cluster_address(backend, address)
    if joining is not None:
        # its shape only: whether a cluster answers there is asked when the run starts
        # (`check_cluster`), not of every job checked
        check_address(joining, address_source(address))
    return config


def simulate(
    rules: Rules | str | dict[str, Any],
    players: int,
    bots: list[str] | tuple[str, ...],
    games: int,
    seed: int,
    rounds: int | None = None,
    jobs: int = 1,
    backend: str = "process",
    address: str | None = None,
    records: str | os.PathLike[str] | None = None,
    progress: ProgressFn | None = None,
) -> SimReport:
    """Play ``games`` games (a multiple of ``players``: one per seat rotation of each deal)
    and summarise them per bot entry. Same arguments, same statistics, whatever ``jobs``
    or ``backend``; only the speed figures differ."""
    base = rules if isinstance(rules, Rules) else Rules.from_spec(rules)
    keep = records is not None
    config = check_job(base, players, bots, games, seed, rounds, jobs, keep, backend, address)
    jobs = _whole("jobs", jobs)
    sink = None
    if records is not None:
        # refused before any game is played; made with the first record
        directory = prepare_records_dir(records, make=False)
        claimed: list[Path] = []

        def sink(batch: list[GameResult]) -> None:
            # each record is saved as its game comes back: a run that stops (Ctrl-C, a
            # bot's failure, a full disk) keeps every game finished before
            if not claimed:  # the first: checked again (another run may have begun there)
                prepare_records_dir(directory)
                claimed.append(directory)
            for result in batch:
                write_record(result, directory, config.games)

    results = run_games(
        config, jobs=jobs, backend=backend, address=address, progress=progress, sink=sink
    )
    # from the first game's start to the last one's end: starting and stopping the
    # workers (or Ray) is not playing
    seconds = max(r.finished for r in results) - min(r.started for r in results)
    # (the rules played: with ``rounds``, the shortened engine list the records hold too)
    return summarise(config, results, seconds)
