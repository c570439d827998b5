"""Tables written straight into the server's store, as the server keeps them, for tests
that need a table at a given position: a websocket or a browser then comes to it."""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

#: the people of a stored table, by seat
NAMES = ("Ana", "Ben", "Cy", "Di")


def store_table(
    db: Path | str,
    code: str,
    spec: Any,
    seed: str,
    moves: Sequence[str],
    names: Sequence[str] = NAMES[:2],
) -> list[str]:
    """Write to the store at ``db`` a table of people, one per name (by seat), under the
    rules ``spec``, its deal from ``seed``, that has started and played ``moves`` (record
    notation): the seed, the joins, the start and every move, as its log would hold them.
    Returns the seats' tokens."""
    from mextrain.store import Store
    from mextrain.web.tables import hash_token

    tokens = [secrets.token_urlsafe(24) for _ in names]
    events: list[tuple[str, dict[str, Any]]] = [
        *(
            ("join", {"seat": i, "name": name, "token": hash_token(tokens[i])})
            for i, name in enumerate(names)
        ),
        ("start", {"bots": {}}),
        *(("action", {"action": move}) for move in moves),
    ]
    store = Store(db)
    try:
        table_id = store.create_table(code, {"rules": spec, "seats": ["open"] * len(names)}, seed)
        for seq, (kind, data) in enumerate(events):
            store.append(table_id, seq, kind, data)
    finally:
        store.close()
    return tokens


def table_at(
    db: Path | str,
    code: str,
    spec: Any,
    players: int,
    wanted: Callable[[Any], bool],
    *,
    over: bool = False,
    draws_first: bool = False,
    tries: int = 2000,
    names: Sequence[str] = NAMES,
) -> tuple[list[str], Any]:
    """A table of people (``names``, by seat) in play at a position of its first round
    where ``wanted`` holds and the first seat is to move (``over``: at the round's end,
    where it holds), written to the store at ``db`` by `store_table`: rounds are played
    with the engine from seed after seed (at most ``tries``) until one comes there, each
    move a random legal one (``draws_first``: a draw whenever one is legal, which keeps
    hands full and rounds long). The seats' tokens are returned, with the round at that
    position."""
    from mextrain.rules import Match, Rules

    rules = Rules.from_spec(spec)
    for k in range(tries):
        seed = f"{code}-{k}"
        state = Match.new(rules, players, random.Random(seed)).current
        rng = random.Random(k)
        moves: list[str] = []
        while not state.is_over and not (not over and state.current_seat == 0 and wanted(state)):
            legal = state.legal_actions()
            draws = [a for a in legal if a.kind == "draw"] if draws_first else []
            action = draws[0] if draws else rng.choice(legal)
            moves.append(action.notation(state.current_seat))
            state.apply(action, state.current_seat)
        if state.is_over == over and (not over or wanted(state)):
            break
    else:
        raise AssertionError(f"no round of {tries} came to the position wanted for {code}")
    return store_table(db, code, spec, seed, moves, names[:players]), state


def refused_on(state: Any, tile: Any, train: int) -> Any:
    """The engine's refusal of ``tile`` on ``train`` for the seat to move of ``state``, a
    round at such a position (None: legal)."""
    from mextrain.rules import Action, IllegalActionError

    try:
        state.copy().apply(Action.play(tile, train), state.current_seat)
    except IllegalActionError as err:
        return err
    return None
