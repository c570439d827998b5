"""Raw speed of the rules engine: random play, per preset and player count.

    python benchmarks/engine.py [--seconds 2] [--presets classic,relaxed,cardinal]

Each line plays whole rounds with uniformly random legal actions through the public API
(`legal_actions` + `apply`, as a bot would) for a fixed time and prints actions and rounds
per second. Where OpenSpiel is installed (``pip install open-spiel``) its
``python_block_dominoes`` is played the same way in the same run, and the ratio is printed:
compare ratios, not raw figures, since machines are noisy.
"""

from __future__ import annotations

import argparse
import random
import time

from mextrain.rules import RoundState, Rules


def bench_mextrain(preset: str, players: int, seconds: float, seed: int = 1) -> tuple[float, float]:
    rules = Rules.preset(preset)
    rng = random.Random(seed)
    choice = rng.choice
    actions = rounds = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        state = RoundState.new(rules, players, rounds % rules.round_count, rng)
        legal_actions = state.legal_actions
        apply = state.apply
        while state.ended is None:
            apply(choice(legal_actions()))
            actions += 1
        rounds += 1
    elapsed = time.perf_counter() - start
    return actions / elapsed, rounds / elapsed


def bench_openspiel(seconds: float, seed: int = 1) -> tuple[float, float] | None:
    """OpenSpiel's pure-Python block dominoes, random play; every `apply_action` counts
    (the deal's chance actions too, which only flatters the peer)."""
    try:
        import pyspiel
        from open_spiel.python.games import block_dominoes  # noqa: F401  (registers it)
    except ImportError:
        return None
    game = pyspiel.load_game("python_block_dominoes")
    rng = random.Random(seed)
    actions = games = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                action = rng.choice(state.chance_outcomes())[0]
            else:
                action = rng.choice(state.legal_actions())
            state.apply_action(action)
            actions += 1
        games += 1
    elapsed = time.perf_counter() - start
    return actions / elapsed, games / elapsed


SEATS = {"classic": (2, 4, 6, 8), "relaxed": (2, 4, 6, 8), "cardinal": (4, 6, 8, 10)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per line")
    parser.add_argument("--presets", default="classic,relaxed,cardinal")
    args = parser.parse_args()

    peer = bench_openspiel(args.seconds)
    if peer is None:
        print("OpenSpiel is not installed: no peer ratio (pip install open-spiel)")
    else:
        print(f"{'openspiel python_block_dominoes':34} {peer[0]:>12,.0f} actions/s")
    print(f"{'rules':10} {'seats':>5} {'actions/s':>12} {'rounds/s':>10} {'vs OpenSpiel':>13}")
    for preset in args.presets.split(","):
        for players in SEATS[preset]:
            aps, rps = bench_mextrain(preset, players, args.seconds)
            ratio = f"{aps / peer[0]:.2f}x" if peer else "-"
            print(f"{preset:10} {players:>5} {aps:>12,.0f} {rps:>10,.0f} {ratio:>13}")
    if peer is not None:  # the headline figure, measured again right next to the peer
        again = bench_openspiel(args.seconds)
        aps, _ = bench_mextrain("classic", 4, args.seconds)
        assert again is not None
        mean_peer = (peer[0] + again[0]) / 2
        print(
            f"classic, 4 seats vs OpenSpiel (peer measured before and after): "
            f"{aps / mean_peer:.2f}x"
        )


if __name__ == "__main__":
    main()
