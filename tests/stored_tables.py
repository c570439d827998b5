"""Tables written straight into the server's store, as the server keeps them, for tests
that need a table at a given position: a websocket or a browser then comes to it."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
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


def refused_on(state: Any, tile: Any, train: int) -> Any:
    """The engine's refusal of ``tile`` on ``train`` for the seat to move of ``state``, a
    round at such a position (None: legal)."""
    from mextrain.rules import Action, IllegalActionError

    try:
        state.copy().apply(Action.play(tile, train), state.current_seat)
    except IllegalActionError as err:
        return err
    return None
