"""Where the search's think time goes: resampling, copies and playouts, per policy.

    python benchmarks/search.py [--seconds 1] [--players 4] [--preset classic]

Collects real decisions (seats with a choice, in rounds played by ``planner`` bots), then
times on them, each for about ``--seconds``:

- building the seat's `InfoState` (the replay of the public history, once per decision);
- one determinization (`InfoState.sample`) and a bare `RoundState.copy` as its peer;
- a playout to the round's end from a determinization, for each policy: uniformly random
  actions through `legal_actions` (the engine's floor), ``greedy`` and ``plan`` (state
  level, no views) and ``planner`` (the planner bot through seat views, the peer);
- whole ISMCTS iterations (determinize, select, expand, play out, back up) per policy.

Ratios are printed against the peer measured in the same run: compare ratios, not raw
figures, on a shared machine.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from mextrain.bots import make_bot
from mextrain.rules import RoundState, Rules, SeatView
from mextrain.search import InfoState, SearchConfig, make_policy, search
from mextrain.search.policy import RandomPlayout


def decisions(
    preset: str, players: int, rounds: int, seed: int
) -> list[tuple[RoundState, SeatView]]:
    rules = Rules.preset(preset)
    rng = random.Random(seed)
    bot = make_bot("planner")
    out = []
    for k in range(rounds):
        state = RoundState.new(
            rules, players, k % rules.round_count, rng, starter=rng.randrange(players)
        )
        while not state.is_over:
            legal = state.legal_actions()
            if len(legal) == 1:
                state.apply(legal[0])
                continue
            view = state.view(state.current_seat)
            out.append((state.copy(), view))
            state.apply(bot.act(view, rng))
    return out


def rate(seconds: float, step: Callable[[int], None]) -> float:
    """Calls of ``step(i)`` per second, over about ``seconds``."""
    count = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        step(count)
        count += 1
    return count / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--preset", default="classic")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    found = decisions(args.preset, args.players, 6, args.seed)
    print(f"{len(found)} decisions, {args.preset}, {args.players} seats\n")
    rng = random.Random(args.seed)
    infos = [InfoState(view, rng) for _state, view in found]

    def build(i: int) -> None:
        InfoState(found[i % len(found)][1], rng)

    def sample(i: int) -> None:
        infos[i % len(infos)].sample(rng)

    def copy(i: int) -> None:
        found[i % len(found)][0].copy()

    lines: list[tuple[str, float, str]] = []
    copies = rate(args.seconds, copy)
    lines.append(("RoundState.copy", copies, ""))
    samples = rate(args.seconds, sample)
    lines.append(("InfoState.sample", samples, f"{copies / samples:.1f}x the cost of a copy"))
    builds = rate(args.seconds, build)
    lines.append(("InfoState (once per decision)", builds, f"{samples / builds:.0f}x a sample"))

    policies = {
        "random": RandomPlayout(),
        "greedy": make_policy("greedy"),
        "plan": make_policy("plan"),
        "planner": make_policy("planner"),
    }
    playouts: dict[str, float] = {}
    for name, policy in policies.items():

        def playout(i: int, policy: object = policy) -> None:
            state = infos[i % len(infos)].sample(rng)
            policy.playout(state, rng)  # type: ignore[attr-defined]

        playouts[name] = rate(args.seconds, playout)
    for name, value in playouts.items():
        note = "" if name == "planner" else f"{value / playouts['planner']:.1f}x planner playouts"
        lines.append((f"sample + {name} playout", value, note))

    iterations: dict[str, float] = {}
    for name in ("greedy", "plan", "planner"):
        done = 0
        start = time.perf_counter()
        for i, (_state, view) in enumerate(found):
            result = search(
                view, rng, SearchConfig(time_ms=1000 * args.seconds / 4, policy=name), info=infos[i]
            )
            done += result.iterations
            if time.perf_counter() - start > args.seconds:
                break
        iterations[name] = done / (time.perf_counter() - start)
    for name, value in iterations.items():
        note = (
            ""
            if name == "planner"
            else f"{value / iterations['planner']:.1f}x with planner playouts"
        )
        lines.append((f"ISMCTS iterations, {name}", value, note))

    width = max(len(label) for label, _v, _n in lines)
    for label, value, note in lines:
        print(f"{label:<{width}} {value:12,.0f} /s   {note}")


if __name__ == "__main__":
    main()
