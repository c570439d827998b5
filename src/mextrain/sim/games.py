"""Playing one simulated game: duplicate deals, seat rotation and seeded bots.

A job is a `SimConfig`; a game is its index ``g`` in ``range(config.games)``. Game ``g``
plays deal ``g // players`` under rotation ``g % players``:

- **Deals** depend only on ``(seed, deal, round)``: every round's shuffle (and round 0's
  starting seat) comes from its own `random.Random`, never from the bots' play, so all
  rotations of a deal see exactly the same hands, boneyard and starter.
- **Rotation** ``r`` seats bot entry ``e`` at seat ``(e + r) % players``: over the
  ``players`` rotations of a deal every entry plays every hand once.
- **Bots** get one RNG per seat, seeded from ``(seed, deal, rotation, seat)``.

Everything a worker needs is the config and the game indices (seeds, not state), so any
backend produces the same `GameResult` for the same game.
"""

from __future__ import annotations

import hashlib
import importlib
import random
import sys
import time
from collections.abc import Iterable
from dataclasses import dataclass, field

from mextrain.bots import Bot, BotSpecError, make_bot
from mextrain.rules import (
    Action,
    IllegalActionError,
    Match,
    Rules,
    Tile,
    deal_round,
    show_text,
    winners_of,
)

__all__ = [
    "GameResult",
    "SimConfig",
    "SimulationError",
    "deal_for",
    "derive_seed",
    "play_game",
    "play_games",
    "seat_entries",
]


class SimulationError(RuntimeError):
    """A bot broke the rules or the job cannot be run as asked; ``option`` names the
    command line's option at fault, where one is (``"--games"``). ``parameter`` names the
    argument of `simulate` / `check_job` at fault where the message begins with its name
    (``"rounds must be ..."``, ``"jobs=99 is ..."``): the words are a Python caller's, and
    the command says them with its option's name instead (``--rounds``, ``--jobs 99``).
    ``command``: the refusal of ``option``'s value in the command line's words, where they
    name options the message does not (``--players``), said after "Invalid value for"
    the option."""

    def __init__(
        self,
        message: str = "",
        *,
        option: str | None = None,
        parameter: str | None = None,
        command: str | None = None,
    ) -> None:
        super().__init__(message)
        self.option = option
        self.parameter = parameter
        self.command = command


@dataclass(frozen=True, slots=True)
class SimConfig:
    """One simulation job. ``rules`` already has the game's rounds (see `game_rules`)."""

    rules: Rules
    players: int
    bots: tuple[str, ...]  # one bot spec per entry, in the order given
    games: int
    seed: int
    keep_records: bool = False
    #: modules that register the entries' bots (`mextrain.bots.bot_module`), imported by
    #: each worker before it plays: a Ray worker runs none of the caller's code otherwise
    imports: tuple[str, ...] = ()

    @property
    def rotations(self) -> int:
        return self.players

    @property
    def deals(self) -> int:
        return self.games // self.rotations

    @property
    def rounds_per_game(self) -> int:
        return self.rules.round_count

    def check(self) -> None:
        """Raise `SimulationError` for a job that cannot be run as asked."""
        self.rules.check_players(self.players)
        if len(self.bots) != self.players:
            said = (
                f"{self.players} players need {self.players} bot entries, "
                f"got {len(self.bots)}: {show_text(', '.join(self.bots), str)}"
            )
            raise SimulationError(
                said,
                option="--bots",
                # (the command's words name both options the count is told by)
                command=f"{said}; give --bots one entry per seat, or change --players",
            )
        if self.games < 1:
            raise SimulationError("the number of games must be at least 1", option="--games")
        if self.games % self.rotations:
            lower = self.games - self.games % self.rotations
            options = f"{lower} or {lower + self.rotations}" if lower else str(self.rotations)
            rule = f"must be a multiple of {self.rotations}: try {options}"
            raise SimulationError(
                f"each deal is played once per seat rotation ({self.rotations} games), so "
                f"the number of games {rule}",
                option="--games",
                command=f"each deal is played once per seat rotation ({self.rotations} games "
                f"with --players {self.players}), so --games {rule}",
            )
        for spec in self.bots:
            make_bot(spec)


@dataclass(frozen=True, slots=True)
class GameResult:
    """What one game produced, with everything indexed by bot entry (not seat)."""

    game: int
    deal: int
    rotation: int
    totals: tuple[int, ...]  # per entry: points over the game
    round_scores: tuple[tuple[int, ...], ...]  # per round, per entry
    wins: tuple[float, ...]  # per entry: 1, a share of a split win, or 0
    actions: int
    record: str | None = None  # the game record (JSON text) when records are kept
    #: wall-clock times (`time.time`) the game started and ended, for the speed figures:
    #: comparable across the processes of one machine; not part of a result's value
    started: float = field(default=0.0, compare=False)
    finished: float = field(default=0.0, compare=False)


def derive_seed(*parts: int | str) -> int:
    """A 64-bit seed from named parts, identical in every process and on every machine."""
    text = ":".join(str(p) for p in parts).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big")


def seat_entries(players: int, rotation: int) -> list[int]:
    """The bot entry at each seat under ``rotation``: entry ``e`` sits at ``(e + r) % n``."""
    return [(seat - rotation) % players for seat in range(players)]


def deal_for(
    rules: Rules, players: int, seed: int, deal: int, round_index: int
) -> tuple[list[list[Tile]], list[Tile], int | None]:
    """The hands, boneyard and (round 0 under ``rotate``) starter of one round of a deal."""
    rng = random.Random(derive_seed("deal", seed, deal, round_index))
    starter = None
    if rules.first_player == "rotate" and round_index == 0:
        starter = rng.randrange(players)
    hands, boneyard = deal_round(rules, players, round_index, rng)
    return hands, boneyard, starter


def _names(config: SimConfig, entries: list[int]) -> list[str]:
    return [config.bots[e] for e in entries]


def play_game(config: SimConfig, game: int) -> GameResult:
    """Play game ``game`` of the job to the end and report it per entry."""
    started = time.time()
    n = config.players
    deal, rotation = divmod(game, config.rotations)
    entries = seat_entries(n, rotation)
    bots: list[Bot] = [make_bot(config.bots[e]) for e in entries]
    rngs = [random.Random(derive_seed("bot", config.seed, deal, rotation, s)) for s in range(n)]
    match = Match(config.rules, n)
    actions = 0
    for k in range(config.rules.round_count):
        hands, boneyard, starter = deal_for(config.rules, n, config.seed, deal, k)
        state = match.deal_next_round(hands, boneyard, starter)
        while not state.is_over:
            legal = state.legal_actions()
            seat = state.current_seat
            # with a single legal action there is no choice: the bot is not asked
            try:
                if len(legal) == 1:
                    action = legal[0]
                else:
                    action = bots[seat].act(match.view(seat), rngs[seat])
            except Exception as err:  # a bot's own failure, said with where it happened
                raise SimulationError(
                    f"bot {config.bots[entries[seat]]!r} at seat {seat} (game {game}, "
                    f"round {k}) failed: {_failure(err)}"
                ) from err
            if not isinstance(action, Action):  # (a bot's type hints bind nothing at run time)
                raise SimulationError(
                    f"bot {config.bots[entries[seat]]!r} at seat {seat} (game {game}, "
                    f"round {k}) chose {action!r}, which is not an action"
                )
            try:
                state.apply(action, seat)
            except IllegalActionError as err:
                raise SimulationError(
                    f"bot {config.bots[entries[seat]]!r} at seat {seat} (game {game}, "
                    f"round {k}) chose {action!r}: {err}"
                ) from err
        actions += len(state.history)
    seat_totals = match.totals
    winners = winners_of(seat_totals)
    share = 1.0 / len(winners)
    totals = [0] * n
    wins = [0.0] * n
    for seat, entry in enumerate(entries):
        totals[entry] = seat_totals[seat]
        if seat in winners:
            wins[entry] = share
    round_scores = tuple(
        tuple(scores[entries.index(e)] for e in range(n)) for scores in match.round_scores()
    )
    record = None
    if config.keep_records:
        record = _record_json(match, _names(config, entries))
    return GameResult(
        game=game,
        deal=deal,
        rotation=rotation,
        totals=tuple(totals),
        round_scores=round_scores,
        wins=tuple(wins),
        actions=actions,
        record=record,
        started=started,
        finished=time.time(),
    )


def _failure(err: Exception) -> str:
    """A bot's exception as Python shows its last line: ``KeyError: 'no such train'`` (the
    type says as much as the text, which may be only a key or be empty)."""
    text = str(err)
    return f"{type(err).__name__}: {text}" if text else type(err).__name__


def _record_json(match: Match, names: list[str]) -> str:
    from mextrain.records import GameRecord

    return GameRecord.from_match(match, names).to_json()


def play_games(config: SimConfig, games: Iterable[int]) -> list[GameResult]:
    """Play several games of a job in one process (a worker's unit of work)."""
    missing: dict[str, str] = {}
    for module in config.imports:
        if module not in sys.modules:
            # a module that is not to be found here (code run from a string) may have
            # registered its bot some other way; if not, making the bot says so, and why
            try:
                importlib.import_module(module)
            except ImportError as err:
                missing[module] = str(err)
    try:
        return [play_game(config, g) for g in games]
    except BotSpecError as err:
        if err.code != "unknown_bot" or not missing:
            raise
        why = "; ".join(f"{module!r}: {reason}" for module, reason in missing.items())
        raise BotSpecError(
            f"{err} (this process could not import the modules that registered the job's "
            f"bots -- {why})",
            code=err.code,
            **err.params,
        ) from err
