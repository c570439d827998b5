"""Turning game results into per-entry statistics: wins, intervals and ratings.

- **Wins**: a game's winners are the entries with the lowest total; a shared win is split
  evenly (two winners get half a win each). The win rate is wins / games with a Wilson
  95% interval computed on that fractional count.
- **Mean score** is points per round. Its 95% interval is a Student t interval over
  *deals*: each deal contributes the entry's mean over all its seat rotations, so the
  deals are independent samples and the correlation between rotations of one deal is
  accounted for. With a single deal there is no interval (``[null, null]``). Intervals are
  cut to what can be (points are never below 0; a difference of win rates lies within
  [-1, 1]). When every deal gives the same value there is no interval either: a t
  interval of no width would read as certainty where the deals are merely too few to
  differ. The one exception is a pair whose wins and points differ by exactly 0 in every
  deal, which two bots that play alike give on duplicate deals by construction: their
  intervals are ``[0, 0]`` (two entries that merely never won differ by 0 wins in every
  deal, but not by 0 points: no interval).
- **Rating**: openskill's Plackett-Luce model, one team per entry, ranked by total (ties
  share a rank), updated game by game in game order.
- **Paired differences**: for every two entries, the difference of their win rates and of
  their points per round, each with a Student t interval over deals of the per-deal
  differences. Both entries played the same deals in every seat, so the deal's luck
  cancels in the difference: this is the comparison to read when asking whether one bot
  beats another, far narrower than two separate intervals suggest when the deals differ
  more than the bots do.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

from .games import GameResult, SimConfig
from .ratings import rate_games
from .stats import mean_interval, wilson_interval

__all__ = ["EntryStats", "PairStats", "SimReport", "deal_interval", "summarise"]


def _maybe(x: float) -> float | None:
    return None if math.isnan(x) else x


@dataclass(frozen=True, slots=True)
class EntryStats:
    bot: str
    wins: float
    win_rate: float
    win_rate_ci95: tuple[float, float]
    mean_score: float
    mean_score_ci95: tuple[float, float]  # NaN for a single deal, or deals all alike
    rating_mu: float
    rating_sigma: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "bot": self.bot,
            "wins": self.wins,
            "win_rate": self.win_rate,
            "win_rate_ci95": list(self.win_rate_ci95),
            "mean_score": self.mean_score,
            "mean_score_ci95": [_maybe(x) for x in self.mean_score_ci95],
            "rating": {"mu": self.rating_mu, "sigma": self.rating_sigma},
        }


@dataclass(frozen=True, slots=True)
class PairStats:
    """Entry ``a`` against entry ``b`` on the same deals: ``a``'s figure less ``b``'s."""

    a: int
    b: int
    win_rate_difference: float
    win_rate_difference_ci95: tuple[float, float]  # NaN: see `deal_interval`
    mean_score_difference: float
    mean_score_difference_ci95: tuple[float, float]  # NaN: see `deal_interval`

    def to_dict(self) -> dict[str, Any]:
        return {
            "entries": [self.a, self.b],
            "win_rate_difference": self.win_rate_difference,
            "win_rate_difference_ci95": [_maybe(x) for x in self.win_rate_difference_ci95],
            "mean_score_difference": self.mean_score_difference,
            "mean_score_difference_ci95": [_maybe(x) for x in self.mean_score_difference_ci95],
        }


#: the text table lists every pair up to this many entries, else the first entry's pairs
TEXT_PAIRS_UP_TO = 4
#: the width the text report keeps to where its bots' names let it (a terminal's)
TEXT_WIDTH = 80


@dataclass(frozen=True, slots=True)
class SimReport:
    rules: str | dict[str, Any]
    players: int
    games: int
    rounds_per_game: int
    seed: int
    entries: tuple[EntryStats, ...]
    rounds: int
    actions: int
    seconds: float
    #: every two entries ``a < b``, in order (0-1, 0-2, ..., 1-2, ...)
    pairs: tuple[PairStats, ...] = ()

    @property
    def rounds_per_second(self) -> float | None:
        """``None`` when no time was measured (the wall clock may even step back)."""
        return self.rounds / self.seconds if self.seconds > 0 else None

    @property
    def actions_per_second(self) -> float | None:
        return self.actions / self.seconds if self.seconds > 0 else None

    def to_dict(self) -> dict[str, Any]:
        """The ``--json`` object."""
        return {
            "rules": self.rules,
            "players": self.players,
            "games": self.games,
            "rounds_per_game": self.rounds_per_game,
            "seed": self.seed,
            "entries": [e.to_dict() for e in self.entries],
            "pairs": [p.to_dict() for p in self.pairs],
            "rounds_per_second": self.rounds_per_second,
            "actions_per_second": self.actions_per_second,
        }

    def to_text(self) -> str:
        """A table for people."""
        rules = self.rules if isinstance(self.rules, str) else json.dumps(self.rules)
        deals = self.games // self.players

        def n(count: int, word: str) -> str:
            return f"{count} {word}" if count == 1 else f"{count} {word}s"

        rows = []
        for i, e in enumerate(self.entries):
            lo, hi = e.mean_score_ci95
            rows.append(
                [
                    str(i),
                    e.bot,
                    _wins(e.wins),
                    f"{e.win_rate:.3f}",
                    f"[{e.win_rate_ci95[0]:.3f}, {e.win_rate_ci95[1]:.3f}]",
                    f"{e.mean_score:.2f}",
                    "n/a" if math.isnan(lo) else f"[{lo:6.2f}, {hi:6.2f}]",
                    f"{e.rating_mu:.2f} ± {e.rating_sigma:.2f}",
                ]
            )
        head = ["#", "bot", "wins", "win rate", "95% interval", "pts/round", "95% interval"]
        lines = [
            f"{n(self.games, 'game')} ({n(deals, 'deal')} x {self.players} seat rotations), "
            f"{n(self.rounds_per_game, 'round')} each, {self.players} players, rules {rules}, "
            f"seed {self.seed}",
            "",
            *_columns([[*head, "rating"], *rows], left={1}),
        ]
        lines.extend(self._pairs_text())
        lines.append("")
        rounds, actions = self.rounds_per_second, self.actions_per_second
        speed = (
            "no time measured"
            if rounds is None or actions is None
            else f"{rounds:.1f} rounds/s, {actions:.0f} actions/s"
        )
        lines.append(
            f"{self.rounds} rounds, {self.actions} actions in {max(self.seconds, 0.0):.1f} s: "
            f"{speed}"
        )
        return "\n".join(lines)

    def _pairs_text(self) -> list[str]:
        """The paired differences: every pair for a few entries, else entry 0's."""
        if len(self.entries) <= TEXT_PAIRS_UP_TO:
            shown = list(self.pairs)
            head = "Paired differences on the same deals (first less second):"
        else:
            shown = [p for p in self.pairs if p.a == 0]
            head = (
                "Paired differences on the same deals, entry 0 less each other "
                "(--json has every pair):"
            )
        if not shown:
            return []
        rows = []
        for p in shown:
            lo, hi = p.win_rate_difference_ci95
            win_ci = "n/a" if math.isnan(lo) else f"[{lo:+.3f}, {hi:+.3f}]"
            lo, hi = p.mean_score_difference_ci95
            score_ci = "n/a" if math.isnan(lo) else f"[{lo:+6.2f}, {hi:+6.2f}]"
            rows.append((p, win_ci, score_ci))
        wide = max(17, *(len(score_ci) for _, _, score_ci in rows))
        lines = [
            "",
            head,
            f"{'pair':>6}  {'win rate':>9} {'95% interval':>17} "
            f"{'pts/round':>9} {'95% interval':>{wide}}",
        ]
        for p, win_ci, score_ci in rows:
            lines.append(
                f"{f'{p.a}-{p.b}':>6}  {p.win_rate_difference:>+9.3f} {win_ci:>17} "
                f"{p.mean_score_difference:>+9.2f} {score_ci:>{wide}}"
            )
        return lines


def _columns(
    rows: Sequence[Sequence[str]], left: frozenset[int] | set[int] = frozenset()
) -> list[str]:
    """``rows`` (the first the headings) in columns as wide as their widest cell: numbers
    to the right, the columns ``left`` to the left. The first column (the entry's number,
    two wide) stands two spaces before the next; the others two apart where that fits in
    `TEXT_WIDTH` columns, else one (a report of bots with short names fits a terminal)."""
    widths = [max(len(row[c]) for row in rows) for c in range(len(rows[0]))]
    widths[0] = max(widths[0], 2)
    gap = "  " if sum(widths) + 2 * (len(widths) - 1) <= TEXT_WIDTH else " "
    lines = []
    for row in rows:
        cells = [
            cell.ljust(w) if c in left else cell.rjust(w)
            for c, (cell, w) in enumerate(zip(row, widths, strict=True))
        ]
        lines.append(f"{cells[0]}  {gap.join(cells[1:])}".rstrip())
    return lines


def _ratings(results: Sequence[GameResult], entries: int) -> list[tuple[float, float]]:
    rated = rate_games(list(enumerate(result.totals)) for result in results)
    fresh = PlackettLuce()  # (an entry no game rated: a new player's)
    return [
        (rated[e].mu, rated[e].sigma) if e in rated else (fresh.mu, fresh.sigma)
        for e in range(entries)
    ]


def deal_means(results: Sequence[GameResult], values: Sequence[float]) -> list[float]:
    """``values`` (one per game of ``results``) averaged over each deal's games, its seat
    rotations, in deal order: one independent sample per deal."""
    by_deal: dict[int, list[float]] = {}
    for r, v in zip(results, values, strict=True):
        by_deal.setdefault(r.deal, []).append(v)
    return [math.fsum(v) / len(v) for _, v in sorted(by_deal.items())]


#: values that differ by no more than this (relative to their mean, or absolutely below
#: 1) are the same value: a deal's figure is a mean of a few rotations' ratios, summed in
#: one order or another
SAME_VALUE = 1e-9


def deal_interval(
    values: Sequence[float], zero_is_exact: bool = False
) -> tuple[float, float, float]:
    """``(mean, lo, hi)`` over the deals' ``values``: `mean_interval`, with no interval
    (NaN) where the values do not spread at all -- the deals were too few to differ, and
    an interval of no width would read as certainty. With ``zero_is_exact`` (a pair of
    entries that play alike: both their differences are 0 in every deal) values all
    exactly 0 keep ``[0, 0]``: two bots that play alike give 0 on every duplicate deal,
    whatever the number of deals."""
    mean, lo, hi = mean_interval(values)
    alike = len(values) > 1 and max(values) - min(values) <= SAME_VALUE * max(1.0, abs(mean))
    if alike and not (zero_is_exact and all(v == 0.0 for v in values)):
        return mean, math.nan, math.nan
    return mean, lo, hi


def summarise(
    config: SimConfig,
    results: Sequence[GameResult],
    seconds: float,
) -> SimReport:
    """Per-entry statistics of a finished job (``results`` in game order)."""
    n = config.players
    games = len(results)
    if games != config.games:
        raise ValueError(f"expected {config.games} results, got {games}")
    if games % n:  # (the statistics are per deal: a deal short of a rotation is unfair)
        raise ValueError(
            f"{games} games are not whole deals: a deal is played once per rotation of "
            f"the {n} seats, so the games must be a multiple of {n}"
        )
    rounds_per_game = config.rounds_per_game
    ratings = _ratings(results, n)
    entries = []
    for e in range(n):
        wins = math.fsum(r.wins[e] for r in results)
        per_game = [r.totals[e] / rounds_per_game for r in results]
        mean, lo, hi = deal_interval(deal_means(results, per_game))
        lo = max(lo, 0.0)  # (nan stays nan) points are never fewer than none
        entries.append(
            EntryStats(
                bot=config.bots[e],
                wins=wins,
                win_rate=wins / games,
                win_rate_ci95=wilson_interval(wins, games),
                mean_score=mean,
                mean_score_ci95=(lo, hi),
                rating_mu=ratings[e][0],
                rating_sigma=ratings[e][1],
            )
        )
    pairs = []
    for a in range(n):
        for b in range(a + 1, n):
            win_diff = deal_means(results, [r.wins[a] - r.wins[b] for r in results])
            # points summed as the whole numbers they are, then divided once: a deal where
            # the two entries scored alike is exactly 0 (ratios summed, 5/13 + 3/13 - 8/13,
            # leave a crumb of rounding that would read as a difference)
            score_diff = [
                d / rounds_per_game
                for d in deal_means(results, [r.totals[a] - r.totals[b] for r in results])
            ]
            # [0, 0] only for entries that play alike: the same wins and points in every
            # deal. Two entries that merely never won differ by 0 wins in every deal by
            # chance, as two deals at -36 points do: no interval, not certainty
            alike = all(v == 0.0 for v in win_diff) and all(v == 0.0 for v in score_diff)
            wd, wlo, whi = deal_interval(win_diff, zero_is_exact=alike)
            if not math.isnan(wlo):  # a difference of two shares lies within [-1, 1]
                wlo, whi = max(wlo, -1.0), min(whi, 1.0)
            sd, slo, shi = deal_interval(score_diff, zero_is_exact=alike)
            pairs.append(PairStats(a, b, wd, (wlo, whi), sd, (slo, shi)))
    return SimReport(
        rules=config.rules.to_spec(),  # (the rules played: the records' rules)
        players=n,
        games=games,
        rounds_per_game=rounds_per_game,
        seed=config.seed,
        entries=tuple(entries),
        rounds=sum(len(r.round_scores) for r in results),
        actions=sum(r.actions for r in results),
        seconds=seconds,
        pairs=tuple(pairs),
    )


def _wins(wins: float) -> str:
    """A win count as it is: whole, or with the shares of tied wins (0.25, 2.083), not
    rounded to one place ("0.2")."""
    return f"{wins:.3f}".rstrip("0").rstrip(".")
