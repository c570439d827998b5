"""The search bots' moves on recorded positions, with each move's visits: the playouts,
the train searches, the evaluation and the determinizations are made faster from time to
time, and none of that may change a move.

The expectations were recorded with the code before the playouts were made cheaper
(docs/PERFORMANCE.md, *Search*). One bot makes every move of a list, in order, so its
train-search memo carries over from move to move as in a game (where a budget runs out
depends on what the memo holds). A change that moves one of these on purpose must say
why, and record them again.
"""

from __future__ import annotations

import random

import pytest

from mextrain.bots import make_bot
from mextrain.rules import RoundState, Rules, SeatView
from mextrain.search import ISMCTSBot

DEFAULT = "ismcts:iterations=300"
TREE = "ismcts:algorithm=ismcts,depth=end,iterations=300"

#: per (bot, rules, seats): for each position, the move chosen | each legal move's visits
RECORDED: dict[tuple[str, str, int], list[str]] = {
    (DEFAULT, "classic", 4): [
        "8-12@M | 8-12@M:50 11-12@0:50 8-12@0:8 11-12@M:8",
        "0-11@M | 0-11@M:97 4-11@M:97 5-12@2:97 7-12@2:8",
        "2-11@M | 2-11@M:115 6-11@M:115 6-12@3:45 0-12@3:8 2-12@3:8 5-11@M:8",
        "6-6@M | 6-6@M:17 11-12@0:17 6-9@M:9 1-6@M:8",
        "11-12@0 | 11-12@0:8 1-6@M:8 6-9@M:8",
        "4-9@M | 4-9@M:138 4-11@M:138 4-7@2:15 4-7@M:8",
        "8-9@M | 8-9@M:97 2-12@3:97 6-12@3:97 0-12@3:8",
        "5-12@1 | 5-12@1:61 0-8@M:61 2-8@M:61 1-8@M:61 4-7@2:55",
        "2-12@M | 2-12@M:71 2-6@M:71 2-12@1:71 6-12@1:18 0-12@1:13 2-4@M:8 0-12@3:8 2-12@3:8"
        " 6-12@3:8 0-2@M:8 2-5@M:8 2-11@M:8",
        "2-7@M | 2-7@M:13 9-10@0:13 6-9@0:9 7-9@0:9 1-2@M:8 2-10@M:8",
    ],
    (DEFAULT, "classic", 2): [
        "8-12@M | 8-12@M:75 11-12@0:75 8-12@0:8 11-12@M:8",
        "8-11@M | 8-11@M:47 5-12@1:47",
        "11-12@0 | 11-12@0:8 9-11@M:8 11-12@M:8",
        "11-11@M | 11-11@M:29 5-12@1:29 1-11@M:8 3-11@M:8",
        "5-12@1 | 5-12@1:20 3-11@M:20 1-11@M:8",
        "1-9@M | 1-9@M:23 3-5@1:23",
        "1-5@M | 1-5@M:127 1-4@M:127 1-2@M:20 1-3@M:18 1-6@M:8",
        "4-6@M | 4-6@M:36 3-5@1:36",
        "3-5@1 | 3-5@1:142 1-1@M:142 1-10@M:8 1-11@M:8",
        "3-5@1 | 3-5@1:40 1-11@M:40 1-10@M:8",
    ],
    (TREE, "classic", 4): [
        "8-12@M | 8-12@M:179 11-12@0:100 11-12@M:12 8-12@0:9",
        "5-12@2 | 5-12@2:109 7-12@2:104 4-11@M:47 0-11@M:40",
        "6-11@M | 6-11@M:82 2-11@M:69 2-12@3:57 6-12@3:36 5-11@M:34 0-12@3:22",
    ],
    (TREE, "classic", 2): [
        "8-12@M | 8-12@M:189 11-12@0:72 8-12@0:25 11-12@M:14",
        "8-11@M | 8-11@M:254 5-12@1:46",
        "11-12@0 | 11-12@0:151 11-12@M:80 9-11@M:69",
    ],
}


def _positions(preset: str, players: int, seed: int, count: int) -> list[SeatView]:
    """The first ``count`` decisions with a choice in rounds played by ``planner`` bots."""
    rules = Rules.preset(preset)
    rng = random.Random(seed)
    bot = make_bot("planner")
    out: list[SeatView] = []
    k = 0
    while len(out) < count:
        start = rng.randrange(players)
        state = RoundState.new(rules, players, k % rules.round_count, rng, starter=start)
        k += 1
        while not state.is_over and len(out) < count:
            legal = state.legal_actions()
            if len(legal) > 1:
                out.append(state.view(state.current_seat))
                state.apply(bot.act(out[-1], rng))
            else:
                state.apply(legal[0])
    return out


@pytest.mark.parametrize("case", list(RECORDED), ids=lambda c: f"{c[0]}-{c[1]}-{c[2]}")
def test_the_search_bots_make_the_recorded_moves(case: tuple[str, str, int]) -> None:
    spec, preset, players = case
    expected = RECORDED[case]
    bot = make_bot(spec)
    assert isinstance(bot, ISMCTSBot)
    played = []
    for i, view in enumerate(_positions(preset, players, 2026, len(expected))):
        action = bot.act(view, random.Random(i))
        assert bot.last is not None
        visits = " ".join(f"{s.action}:{s.visits}" for s in bot.last.stats)
        played.append(f"{action} | {visits}")
    assert played == expected
