"""Tournaments between bots: duplicate deals, seat rotation, parallel runs, honest statistics.

`simulate` is the whole job behind ``mextrain simulate``: build the config, play every
game on a backend, write records if asked, and summarise per bot entry.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from mextrain.rules import Rules

from .backends import BACKENDS, ProgressFn, check_cluster, chunk_games, run_games
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
    "SimConfig",
    "SimReport",
    "SimulationError",
    "check_cluster",
    "check_job",
    "chunk_games",
    "deal_for",
    "derive_seed",
    "game_rules",
    "play_game",
    "play_games",
    "prepare_records_dir",
    "run_games",
    "seat_entries",
    "simulate",
    "summarise",
    "write_records",
]


def game_rules(rules: Rules, rounds: int | None) -> Rules:
    """The rules of one simulated game: all of ``rules``' rounds, or only its first ``rounds``
    engines (a shorter match, written into the rules so records replay as complete games)."""
    if rounds is None or rounds == rules.round_count:
        return rules
    if not 1 <= rounds <= rules.round_count:
        raise SimulationError(
            f"--rounds must be from 1 to {rules.round_count} for these rules, not {rounds}"
        )
    return rules.with_options(rounds=list(rules.rounds[:rounds]))


def prepare_records_dir(directory: Path) -> None:
    """Make ``directory`` for a run's records; `SimulationError` if it already holds
    records (``game-*.json``): another run's would be overwritten, or mixed with this
    one's. ``OSError`` if it cannot be made."""
    directory.mkdir(parents=True, exist_ok=True)
    if any(directory.glob("game-*.json")):
        raise SimulationError(
            f"{directory} already holds game records (game-*.json) of another run: "
            "save this one's in an empty directory"
        )


def write_records(results: list[GameResult], directory: Path) -> list[Path]:
    """Save each game's record as ``game-000123.json`` in ``directory``
    (`prepare_records_dir`: a new or empty one)."""
    prepare_records_dir(directory)
    width = max(6, len(str(len(results) - 1)))
    paths = []
    for result in results:
        if result.record is None:
            raise SimulationError(f"game {result.game} was played without keeping its record")
        path = directory / f"game-{result.game:0{width}d}.json"
        text = result.record if result.record.endswith("\n") else result.record + "\n"
        path.write_text(text, encoding="utf-8")
        paths.append(path)
    return paths


def check_job(
    rules: Rules,
    players: int,
    bots: Sequence[str],
    games: int,
    seed: int,
    rounds: int | None = None,
    jobs: int = 1,
    keep_records: bool = False,
) -> SimConfig:
    """The job `simulate` would run, checked (`SimulationError`, `BotSpecError`,
    `RulesError`) without playing a game: an interface refuses a bad job before it makes
    anything, a records directory included."""
    # (the types say so already; a caller without a type checker is told, not misread)
    if isinstance(bots, str):
        raise SimulationError(
            f"bots must be a list of bot specs, one per entry, not the string {bots!r} "
            "(mextrain.bots.split_bot_list splits a comma-separated list)"
        )
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise SimulationError(f"the seed must be a whole number, not {seed!r}")
    config = SimConfig(
        rules=game_rules(rules, rounds),
        players=players,
        bots=tuple(bots),
        games=games,
        seed=seed,
        keep_records=keep_records,
    )
    config.check()
    if jobs < 1:
        raise SimulationError(f"--jobs must be at least 1, not {jobs}")
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
    records: Path | None = None,
    progress: ProgressFn | None = None,
) -> SimReport:
    """Play ``games`` games (a multiple of ``players``: one per seat rotation of each deal)
    and summarise them per bot entry. Same arguments, same statistics, whatever ``jobs``
    or ``backend``; only the speed figures differ."""
    base = rules if isinstance(rules, Rules) else Rules.from_spec(rules)
    config = check_job(base, players, bots, games, seed, rounds, jobs, records is not None)
    results = run_games(config, jobs=jobs, backend=backend, address=address, progress=progress)
    # from the first game's start to the last one's end: starting and stopping the
    # workers (or Ray) is not playing
    seconds = max(r.finished for r in results) - min(r.started for r in results)
    if records is not None:
        write_records(results, records)
    return summarise(config, results, seconds, rules_spec=base.to_spec())
