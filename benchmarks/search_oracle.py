"""What the search could win if it knew more: the value of hidden information.

    python benchmarks/search_oracle.py [--deals 50] [--players 4] [--preset classic]
                                       [--batches 60] [--jobs 2] [--blur 10,30,60]
                                       [--reveal 25,50,75] [--knows view,hands,all]

Plays single rounds in which one seat searches and the others are ``planner`` bots, every
deal once per seat (the searching seat rotates), and prints the searching seat's share of
the wins for searchers that differ only in what they are told:

- ``view``: the rollout search as the bots run it, from the seat's view (the other hands
  and the boneyard dealt again for each batch);
- ``hands``: the same search told the other seats' hands (only the boneyard's order is
  dealt again): an oracle no real player has;
- ``all``: told everything, the boneyard's order too (one playout per action is exact);
- ``blur:P`` (with ``--blur P,...``): told the other hands with each of their tiles, with
  probability ``P`` percent, swapped for a random tile held elsewhere (the boneyard or
  another of those hands), afresh for each batch -- beliefs that are right about most
  tiles, wrong about some, as a good reading of the plays could give.
- ``reveal:P`` (with ``--reveal P,...``): told, as facts, where ``P`` percent of the other
  hands' tiles are (each tile with probability ``P`` percent, drawn once per decision),
  the rest of the unseen tiles dealt afresh for each batch uniformly over the other
  hands' free places and the boneyard -- exact knowledge of part of the hands and none
  of the rest, the best any reading of the plays could give about the tiles it pins
  down. (The voids are not used: ``reveal:0`` is the ``view`` searcher without them.)

``--knows`` picks the rows to play, in place of the default: ``view``, ``hands``, ``all``
and every ``blur`` and ``reveal`` row asked for.

Each searcher plays every legal action on ``--batches`` deals (no racing) and the round out
with the planner's moves, and takes the best mean win share. A fair share is 1 / players.
The gap between ``view`` and ``hands`` is what perfect reading of the other hands would be
worth to this search; the ``blur`` rows show how little of it survives beliefs that are
only mostly right. This is a measurement for research, not a bot: the oracles see hidden
tiles.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random

from mextrain.rules import Action, RoundState, Rules, iter_bits
from mextrain.search import FastPlannerPlayout, InfoState
from mextrain.search.ismcts import rewards
from mextrain.search.policy import _play_table

KNOWS = ("view", "hands", "all")


def _blur(state: RoundState, share: float, rng: random.Random) -> RoundState:
    """The real deal with each tile of the other hands, with probability ``share``,
    swapped for a random tile held elsewhere (the boneyard or another of those hands)."""
    me = state.current_seat
    hands = list(state.hands)
    boneyard = list(state.boneyard[state.bone_pos :])
    held = [(s, t) for s in range(state.n) if s != me for t in iter_bits(hands[s])]
    for seat, tid in held:
        if not hands[seat] >> tid & 1 or rng.random() >= share:
            continue
        elsewhere = [
            (s, t) for s in range(state.n) if s not in (me, seat) for t in iter_bits(hands[s])
        ]
        pick = rng.randrange(len(boneyard) + len(elsewhere))
        if pick < len(boneyard):
            other = boneyard[pick]
            boneyard[pick] = tid
        else:
            holder, other = elsewhere[pick - len(boneyard)]
            hands[holder] ^= (1 << other) | (1 << tid)
        hands[seat] ^= (1 << tid) | (1 << other)
    rng.shuffle(boneyard)
    return state.with_hidden(hands, boneyard)


def _revealed(state: RoundState, share: float, rng: random.Random) -> list[int]:
    """Per seat, the tiles of its hand the searcher is told (none of its own hand: that
    it knows anyway), each of the other hands' tiles with probability ``share``."""
    me = state.current_seat
    told = [0] * state.n
    for seat in range(state.n):
        if seat != me:
            for tid in iter_bits(state.hands[seat]):
                if rng.random() < share:
                    told[seat] |= 1 << tid
    return told


def _reveal(state: RoundState, told: list[int], rng: random.Random) -> RoundState:
    """A deal that keeps the seat's hand and the ``told`` tiles where they are, and deals
    every other unseen tile uniformly over the other hands' free places (their sizes
    kept) and the boneyard."""
    me = state.current_seat
    unseen = list(state.boneyard[state.bone_pos :])
    for seat in range(state.n):
        if seat != me:
            unseen.extend(iter_bits(state.hands[seat] & ~told[seat]))
    rng.shuffle(unseen)
    hands = list(state.hands)
    for seat in range(state.n):
        if seat != me:
            free = state.hands[seat].bit_count() - told[seat].bit_count()
            hands[seat] = told[seat]
            for tid in unseen[:free]:
                hands[seat] |= 1 << tid
            del unseen[:free]
    return state.with_hidden(hands, unseen)


def _decide(state: RoundState, knows: str, batches: int, rng: random.Random) -> Action:
    policy = FastPlannerPlayout()
    me = state.current_seat
    legal = state.legal_actions()
    info = InfoState(state.view(me), rng) if knows == "view" else None
    told = _revealed(state, int(knows[7:]) / 100, rng) if knows.startswith("reveal:") else None
    total = dict.fromkeys(legal, 0.0)
    for _ in range(1 if knows == "all" else batches):
        if info is not None:
            deal = info.sample(rng)
        elif knows == "hands":
            boneyard = list(state.boneyard[state.bone_pos :])
            rng.shuffle(boneyard)
            deal = state.with_hidden(list(state.hands), boneyard)
        elif knows.startswith("blur:"):
            deal = _blur(state, int(knows[5:]) / 100, rng)
        elif told is not None:
            deal = _reveal(state, told, rng)
        else:
            deal = state
        for action in legal:
            trial = deal.copy()
            trial.apply(action)
            if trial.ended is None:
                policy.playout(trial, rng)
            total[action] += rewards(trial, 0.0, 50.0)[me]
    return max(legal, key=lambda a: total[a])


def _deal(job: tuple[str, int, int, int, str]) -> list[float]:
    """The searcher's win share in each seat of one deal."""
    preset, players, deal, batches, knows = job
    rules = Rules.preset(preset)
    start = RoundState.new(rules, players, 0, random.Random(deal))
    planner = FastPlannerPlayout()
    table = _play_table(start.ts.max_pip, players)
    shares = []
    for seat in range(players):
        state = start.copy()
        rng = random.Random(deal * 1000 + seat)
        while state.ended is None:
            legal = state.legal_actions()
            if len(legal) == 1:
                state.apply(legal[0])
            elif state.current_seat == seat:
                state.apply(_decide(state, knows, batches, rng))
            else:
                tid, train = planner.choose(state, state.legal_plays())
                state.apply(table[tid][train + 1])
        scores = state.scores()
        assert scores is not None
        best = min(scores)
        shares.append(1.0 / scores.count(best) if scores[seat] == best else 0.0)
    return shares


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=50)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--preset", default="classic")
    parser.add_argument("--batches", type=int, default=60)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=5000)
    parser.add_argument("--blur", default="", help="percentages for blur:P rows, e.g. 10,30,60")
    parser.add_argument("--reveal", default="", help="percentages for reveal:P rows, e.g. 25,50,75")
    parser.add_argument(
        "--knows",
        default="",
        help="the rows to play, e.g. view,reveal:50 (default: view, hands, all and the "
        "--blur and --reveal rows)",
    )
    args = parser.parse_args()
    rows = KNOWS + tuple(
        f"{kind}:{p}"
        for kind, shares in (("blur", args.blur), ("reveal", args.reveal))
        for p in shares.split(",")
        if p
    )
    if args.knows:
        rows = tuple(args.knows.split(","))
    for knows in rows:
        kind, _, share = knows.partition(":")
        if knows not in KNOWS and not (kind in ("blur", "reveal") and share.isdigit()):
            parser.error(f"--knows: no row {knows!r} (view, hands, all, blur:P, reveal:P)")
    print(f"{args.preset}, {args.players} seats, {args.deals} deals x {args.players} seats")
    with multiprocessing.get_context("spawn").Pool(args.jobs) as pool:
        for knows in rows:
            jobs = [
                (args.preset, args.players, args.seed + d, args.batches, knows)
                for d in range(args.deals)
            ]
            shares = [x for deal in pool.map(_deal, jobs, chunksize=1) for x in deal]
            n = len(shares)
            mean = sum(shares) / n
            var = sum((x - mean) ** 2 for x in shares) / (n - 1)
            half = 1.96 * math.sqrt(var / n)
            print(f"knows {knows:<10}  win share {mean:.3f} +- {half:.3f}  ({n} rounds)")


if __name__ == "__main__":
    main()
