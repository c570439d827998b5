"""``mextrain analyze RECORD --round R --action A [--json]``: every legal action of a
recorded position with its estimated win probability and expected round score.

The position is the one just before action ``A`` of round ``R`` (both counted from 0, as
in the record; ``A`` may be the round's action count for a round still in play), seen by
the seat to move: the search uses that seat's knowledge only, never the record's hidden
tiles. Exit status: 0 on success, 1 for a record that breaks a rule, 2 for input that is
not a record or a position that is not in it.
"""

from __future__ import annotations

import random
import sys
from typing import Any, NoReturn

import click

from ._common import (
    AnyPath,
    Choice,
    FiniteFloat,
    JsonCommand,
    error_json,
    terminal_safe,
)

# the search's budgets (mextrain.search.ismcts, checked by a test; not imported here, so
# that the command line starts without loading the search)
MAX_ITERATIONS = 1_000_000
MAX_TIME_MS = 3_600_000

__all__ = ["analyze"]


@click.command(cls=JsonCommand)
@click.argument("record", type=AnyPath(allow_dash=True))
@click.option("--round", "round_index", type=int, required=True, help="Round, from 0.")
@click.option(
    "--action",
    "action_index",
    type=int,
    required=True,
    help="Analyse the position before this action of the round (from 0).",
)
@click.option(
    "--iterations",
    type=click.IntRange(min=1, max=MAX_ITERATIONS),
    default=None,
    help="Search iterations (default 1000 unless --time-ms is given).",
)
@click.option(
    "--time-ms",
    type=FiniteFloat(min=0, min_open=True, max=MAX_TIME_MS),
    default=None,
    help="Think time in milliseconds instead of (or as well as) an iteration budget.",
)
@click.option("--seed", type=int, default=0, show_default=True, help="Same seed, same figures.")
@click.option(
    "--policy",
    type=Choice(["plan", "greedy", "random", "planner"]),
    default="planner",
    show_default=True,
    help="How the search plays rounds out.",
)
@click.option("--json", "as_json", is_flag=True, help="Print exactly one JSON object.")
def analyze(
    record: str,
    round_index: int,
    action_index: int,
    iterations: int | None,
    time_ms: float | None,
    seed: int,
    policy: str,
    as_json: bool,
) -> None:
    """Rank every legal action of a recorded position by its chances.

    Example: mextrain analyze game.json --round 0 --action 12 --json
    """
    from mextrain.records import RecordError, load_record, replay_record
    from mextrain.rules import RoundState
    from mextrain.search import analyze as run

    from .replay import _describe_error, _print_json, _read

    def refuse(option: str, reason: str) -> NoReturn:
        """A position that is not in the record: with --json still one object (its
        reason as `error_json` gives one, a long number shortened)."""
        if as_json:
            _print_json(error_json(click.BadParameter(reason, param_hint=option)))
            sys.exit(2)
        raise click.BadParameter(reason, param_hint=option)

    try:
        replayed = replay_record(load_record(_read(record)))
    except RecordError as err:
        if as_json:
            _print_json(err.to_json_dict())
        else:
            click.echo(_describe_error(err), err=True)
        sys.exit(err.exit_code)
    rounds = replayed.match.rounds
    if not rounds:
        refuse("--round", "the record has no rounds yet")
    if not 0 <= round_index < len(rounds):
        refuse("--round", f"the record has rounds 0 to {len(rounds) - 1}, not {round_index}")
    played = rounds[round_index]
    actions = played.history
    if not 0 <= action_index <= len(actions):
        if not actions:  # (not "the positions before them are 0 to -1")
            refuse(
                "--action",
                f"round {round_index} has no actions yet: its one position is 0, as dealt; "
                f"not {action_index}",
            )
        refuse(
            "--action",
            f"round {round_index} has {len(actions)} actions: the positions before them are "
            f"0 to {len(actions) - 1}, and {len(actions)} is the one after the last; "
            f"not {action_index}",
        )
    data = played.to_dict()
    data["actions"] = data["actions"][:action_index]
    state = RoundState.from_dict(data)
    if state.is_over:
        refuse(
            "--action",
            f"round {round_index} is over after {action_index} actions: nothing to analyse",
        )
    seat = state.current_seat
    view = state.view(seat)
    ranked = run(view, random.Random(seed), iterations=iterations, time_ms=time_ms, policy=policy)
    taken = actions[action_index][1] if action_index < len(actions) else None
    rank = next((i for i, a in enumerate(ranked) if a.action == taken), None)
    out: dict[str, Any] = {
        "round": round_index,
        "action": action_index,
        "seat": seat,
        "seed": seed,
        "iterations": sum(a.visits for a in ranked),
        "policy": policy,
        "position": view.to_dict(),
        "actions": [a.to_dict(seat) for a in ranked],
        "best": ranked[0].action.notation(seat),
        "played": None if taken is None else taken.notation(seat),
        "played_rank": rank,
    }
    if as_json:
        _print_json(out)
        return
    names = replayed.players
    name = terminal_safe(names[seat])
    who = f"{name} (seat {seat})" if name else f"seat {seat}"  # (not "seat 1 (seat 1)")
    click.echo(
        f"Round {round_index}, before action {action_index}: {who} to move, "
        f"holding {' '.join(str(t) for t in view.hand)}."
    )
    done = out["iterations"]
    click.echo(
        f"{done} search iteration{'' if done == 1 else 's'}, seed {seed}, {policy} playouts."
    )
    click.echo(f"{'action':<12} {'win %':>6} {'95% interval':>15} {'exp. pips':>10} {'visits':>7}")
    for a in ranked:
        low, high = a.win_interval
        mark = "  <- played" if a.action == taken else ""
        if a.win_probability is not None and a.expected_score is not None:
            chance, pips = f"{100 * a.win_probability:6.1f}", f"{a.expected_score:10.1f}"
        else:  # never tried: no estimate (not a sure loss)
            chance, pips = f"{'-':>6}", f"{'-':>10}"
        click.echo(
            f"{a.action.notation(seat):<12} {chance} "
            f"[{100 * low:5.1f}, {100 * high:5.1f}] {pips} {a.visits:7d}{mark}"
        )
