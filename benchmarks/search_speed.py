"""The search bot's speed: playouts per second, and iterations that fit in 200 ms.

    python benchmarks/search_speed.py [--players 4] [--moves 12]
    python benchmarks/search_speed.py --against ../old-checkout/src [--runs 3]

On real decisions (seats with a choice in rounds played by ``planner`` bots, as in
`search.py`) it measures:

- planner playouts per second: a determinization played out to the round's end, and one
  played 16 plies and scored by the static evaluation (the default bot's leaves);
- iterations that fit in 200 ms, over 300-iteration searches of ``--moves`` decisions:
  the default race (16 plies and the evaluation; made to keep every move in the race, so
  that no move is decided early) and the tree search with whole playouts
  (``algorithm=ismcts,depth=end``);
- the milliseconds a move of ``ismcts:iterations=300`` and of
  ``ismcts:algorithm=ismcts,depth=end,iterations=300`` take, the mean over the decisions.

Times are the process's CPU time, not the wall clock: the machine may be shared.

With ``--against DIR`` (another checkout's ``src``) every measurement is taken by the
code of this checkout and by the other, each in a fresh process, one after the other,
``--runs`` times; the best figure of each is printed with the ratio. On a shared machine
only such a ratio, from one run, says anything.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

PLAYOUT_SECONDS = 2.0

#: the process's CPU time: on a machine shared with other work the wall clock measures the
#: others too (the searches' own ``time_ms`` budgets run on the wall clock)
clock = time.process_time


def measure(players: int, moves: int, seed: int) -> dict[str, float]:
    """Every figure, for the code on ``sys.path``."""
    sys.path.insert(0, str(Path(__file__).parent))
    from mextrain.bots import make_bot
    from mextrain.search import FastPlannerPlayout, InfoState, SearchConfig, rollout_search, search
    from mextrain.search.evaluate import Evaluator
    from mextrain.search.ismcts import finish
    from mextrain.search.policy import _play_table
    from search import decisions  # (benchmarks/search.py)

    found = decisions("classic", players, 6, seed)
    rng = random.Random(seed)
    infos = [InfoState(view, rng) for _state, view in found]
    out: dict[str, float] = {}

    for name, depth in (("playouts/s, to the end", None), ("playouts/s, 16 plies", 16)):
        policy = FastPlannerPlayout()
        evaluator = Evaluator()
        done = 0
        start = clock()
        while clock() - start < PLAYOUT_SECONDS:
            state = infos[done % len(infos)].sample(rng)
            table = _play_table(state.ts.max_pip, state.n)
            finish(state, policy, rng, depth, table, evaluator, 0.25, 50.0)
            done += 1
        out[name] = done / (clock() - start)

    views = [view for _state, view in found][:: max(1, len(found) // moves)][:moves]
    race = SearchConfig(iterations=300, depth=16, race_min=10**6)  # never drops a move
    tree = SearchConfig(iterations=300)
    for name, run, config in (
        ("race: iterations in 200 ms", rollout_search, race),
        ("tree, whole playouts: iterations in 200 ms", search, tree),
    ):
        done = 0
        policy = FastPlannerPlayout()
        evaluator = Evaluator()
        start = clock()
        for i, view in enumerate(views):
            policy.own_seat = view.seat
            result = run(view, random.Random(i), config, policy=policy, evaluator=evaluator)
            done += result.iterations
        out[name] = 0.2 * done / (clock() - start)

    for name, spec in (
        ("ismcts:iterations=300, ms a move", "ismcts:iterations=300"),
        (
            "tree, whole playouts, 300 iterations: ms a move",
            "ismcts:algorithm=ismcts,depth=end,iterations=300",
        ),
    ):
        bot = make_bot(spec)
        start = clock()
        for i, view in enumerate(views):
            bot.act(view, random.Random(i))
        out[name] = 1000 * (clock() - start) / len(views)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--moves", type=int, default=12, help="decisions searched")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--against", help="another checkout's src directory, the peer")
    parser.add_argument("--runs", type=int, default=3, help="with --against: runs of each")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    if args.against is None:
        figures = measure(args.players, args.moves, args.seed)
        if args.json:
            print(json.dumps(figures))
            return
        for name, value in figures.items():
            print(f"{name:<48} {value:10,.1f}")
        return
    here = str(Path(__file__).resolve().parent.parent / "src")
    trees = {"this checkout": here, "against": str(Path(args.against).resolve())}
    results: dict[str, list[dict[str, float]]] = {name: [] for name in trees}
    command = [sys.executable, __file__, "--json", "--players", str(args.players)]
    command += ["--moves", str(args.moves), "--seed", str(args.seed)]
    for _ in range(args.runs):
        for name, src in trees.items():
            env = {**os.environ, "PYTHONPATH": src}
            done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
            results[name].append(json.loads(done.stdout))
    print(f"classic, {args.players} seats, best of {args.runs} runs each, alternating\n")
    print(f"{'':<48} {'this':>10} {'against':>10}   ratio")
    for key in results["this checkout"][0]:
        # the best run of each: the most done per second, the fewest ms a move
        pick = min if key.endswith("a move") else max
        mine = pick(r[key] for r in results["this checkout"])
        peer = pick(r[key] for r in results["against"])
        ratio = peer / mine if key.endswith("a move") else mine / peer
        print(f"{key:<48} {mine:10,.1f} {peer:10,.1f}   {ratio:.2f}x")


if __name__ == "__main__":
    main()
