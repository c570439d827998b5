"""Where the search's think time goes: resampling, copies and playouts, per policy.

    python benchmarks/search.py [--seconds 1] [--players 4] [--preset classic]

Collects real decisions (seats with a choice, in rounds played by ``planner`` bots), then
times on them, each for about ``--seconds``:

- building the seat's `InfoState` (the replay of the public history, once per decision);
- one determinization (`InfoState.sample`) and a bare `RoundState.copy` as its peer;
- the same with inference from the opponents' recent plays (``infer=planner``);
- a playout to the round's end from a determinization, for each policy: uniformly random
  actions through `legal_actions` (the engine's floor), ``greedy``, ``plan`` and
  ``planner`` (the planner's moves computed on the state, no views) and the planner bot
  itself through seat views (the peer);
- whole ISMCTS iterations (determinize, select, expand, play out, back up) per policy, and
  rollout-search iterations (one playout each); then both with the playouts cut after 16
  plies and scored by the static evaluation (``depth=16``, the bot's default).

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
from mextrain.search import (
    FastPlannerPlayout,
    InfoState,
    SearchConfig,
    make_policy,
    rollout_search,
    search,
)
from mextrain.search.policy import PlannerPlayout, RandomPlayout


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
    model = FastPlannerPlayout()
    inferred = [InfoState(view, rng, model=model) for _state, view in found]

    def build_inferred(i: int) -> None:
        InfoState(found[i % len(found)][1], rng, model=model)

    def sample_inferred(i: int) -> None:
        inferred[i % len(inferred)].sample(rng)

    value = rate(args.seconds, sample_inferred)
    lines.append(("InfoState.sample, infer=planner", value, f"{samples / value:.1f}x a sample"))
    value = rate(args.seconds, build_inferred)
    lines.append(("InfoState, infer=planner", value, f"{builds / value:.1f}x an InfoState"))

    policies = {
        "random": RandomPlayout(),
        "greedy": make_policy("greedy"),
        "plan": make_policy("plan"),
        "planner": make_policy("planner"),
        "planner bot (views)": PlannerPlayout(),
    }
    playouts: dict[str, float] = {}
    for name, policy in policies.items():

        def playout(i: int, policy: object = policy) -> None:
            state = infos[i % len(infos)].sample(rng)
            policy.playout(state, rng)  # type: ignore[attr-defined]

        playouts[name] = rate(args.seconds, playout)
    for name, value in playouts.items():
        peer = playouts["planner bot (views)"]
        note = "" if name.endswith("(views)") else f"{value / peer:.1f}x the planner bot's"
        lines.append((f"sample + {name} playout", value, note))

    iterations: dict[str, float] = {}
    for name in (
        "ismcts, greedy",
        "ismcts, plan",
        "ismcts, planner",
        "rollout, planner",
        "ismcts, planner, depth 16",
        "rollout, planner, depth 16",
    ):
        algorithm, policy_name, *cut = name.split(", ")
        run = search if algorithm == "ismcts" else rollout_search
        depth = int(cut[0].split()[1]) if cut else None
        config = SearchConfig(time_ms=1000 * args.seconds / 4, policy=policy_name, depth=depth)
        done = 0
        start = time.perf_counter()
        for i, (_state, view) in enumerate(found):
            done += run(view, rng, config, info=infos[i]).iterations
            if time.perf_counter() - start > args.seconds:
                break
        iterations[name] = done / (time.perf_counter() - start)
    for name, value in iterations.items():
        peer = iterations["ismcts, planner"]
        note = "" if name == "ismcts, planner" else f"{value / peer:.1f}x ismcts, planner"
        lines.append((f"iterations: {name}", value, note))

    width = max(len(label) for label, _v, _n in lines)
    for label, value, note in lines:
        print(f"{label:<{width}} {value:12,.0f} /s   {note}")


if __name__ == "__main__":
    main()
