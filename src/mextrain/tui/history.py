"""Statistics of the games played in the terminal: every saved game is a record
(`session.GameSession.save`), read back and replayed here, and summed up per person.

Shown by ``mextrain stats`` and by the start screen's statistics screen. People are told
apart by the names they played under, read as `mextrain.store.person_key` reads them
("Ana", "ana" and " Ana " are one person); bots are not counted as players, only as the
opponents people met, and in the ranking by rating, a level as one player.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from rich.cells import cell_len

from mextrain.i18n import LANGUAGES, Translator
from mextrain.records import RecordError, load_record, parse_json, replay_record
from mextrain.rules import show_text
from mextrain.sim.ratings import Rating, rate_games
from mextrain.sim.stats import wilson_interval
from mextrain.store import person_key, shown_person

from .render import BOT_LEVELS, MAX_NAME, clip, clip_name, fit
from .session import _EXTRA_FIELD, HUMAN, SAVED_SHAPE, games_dir, taken_back_of

#: who a rating is of (`ranking`): ``("person", person_key(name))`` or ``("bot", level)``
Entity = tuple[str, str]

__all__ = [
    "Entity",
    "History",
    "Opponent",
    "PersonStats",
    "PlayedGame",
    "level_name",
    "ranking",
    "read_game",
    "read_history",
    "stats_text",
    "summarize",
]


@dataclass(frozen=True, slots=True)
class PlayedGame:
    """One saved game, replayed: who sat where and how it stands."""

    path: Path
    players: tuple[str, ...]
    #: each seat's kind when it was last saved: "human" or a bot spec ("expert"); ""
    #: where the record does not say (`read_game` with ``seats_needed`` False)
    kinds: tuple[str, ...]
    preset: str
    totals: tuple[int, ...]
    #: the lowest totals (the winners, once complete)
    winners: tuple[int, ...]
    #: per finished round, the seats with its lowest score (whoever went out)
    round_winners: tuple[tuple[int, ...], ...]
    complete: bool
    #: the rounds dealt so far (the one in play, if any, counted) and the game's length
    rounds_dealt: int = 0
    round_count: int = 0
    #: how many times its player took a move back (alone against bots): not rated
    taken_back: int = 0

    @property
    def people(self) -> list[int]:
        return [seat for seat, kind in enumerate(self.kinds) if kind == HUMAN]


@dataclass(slots=True)
class Opponent:
    """A person's games with one bot level at the table."""

    level: str
    games: int = 0
    wins: int = 0


@dataclass(slots=True)
class PersonStats:
    """One person's finished games. A win shared on equal lowest totals counts as a win."""

    name: str
    games: int = 0
    wins: int = 0
    points: int = 0  # the totals of every finished game, summed
    best: int | None = None  # the lowest total of a finished game
    rounds: int = 0  # finished rounds in those games
    rounds_won: int = 0  # rounds ended with the person's lowest score (gone out, mostly)
    unfinished: int = 0
    opponents: dict[str, Opponent] = field(default_factory=dict)
    #: the rating's shown value (`ranking`), None before a finished game
    rating: float | None = None
    #: the games that rating rests on
    rated_games: int = 0

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def win_interval(self) -> tuple[float, float]:
        """Wilson 95% interval of the win rate (0 to 1 without games)."""
        return wilson_interval(self.wins, self.games) if self.games else (0.0, 1.0)

    @property
    def average(self) -> float | None:
        return self.points / self.games if self.games else None

    def to_dict(self) -> dict[str, object]:
        return {
            "name": self.name,
            "games": self.games,
            "wins": self.wins,
            "win_rate": round(self.win_rate, 4) if self.games else None,
            "win_interval": [round(x, 4) for x in self.win_interval],
            "average_points": None if self.average is None else round(self.average, 2),
            "best_total": self.best,
            "rounds": self.rounds,
            "rounds_won": self.rounds_won,
            "unfinished": self.unfinished,
            "rating": None if self.rating is None else round(self.rating, 2),
            "rated_games": self.rated_games,
            "opponents": [
                {"level": o.level, "games": o.games, "wins": o.wins}
                for o in sorted(self.opponents.values(), key=_met_order)
            ],
        }


@dataclass(frozen=True, slots=True)
class History:
    """The games of a folder: those read, and the files that were not games of ours."""

    folder: Path
    games: tuple[PlayedGame, ...]
    #: files that are not legal records, or records saved by something else than
    #: ``mextrain play`` (which seats were people is unknown): left out
    skipped: tuple[Path, ...]


def read_game(path: Path, seats_needed: bool = True) -> PlayedGame:
    """A saved game, replayed through the engine. Raises `RecordError` for a file that is
    not a legal record, `ValueError` for a record that does not say who played it -- or,
    unless ``seats_needed``, gives it with every seat's kind ``""`` (unknown: a record
    from elsewhere put among the saved games)."""
    raw = parse_json(path.read_bytes(), SAVED_SHAPE)
    result = replay_record(load_record(raw))
    extra = raw.get(_EXTRA_FIELD)
    seats = extra.get("seats") if isinstance(extra, dict) else None
    players = result.record.players
    if (
        not isinstance(seats, list)
        or len(seats) != len(players)
        or not all(isinstance(kind, str) and kind for kind in seats)
    ):
        if seats_needed:
            raise ValueError(f"{path.name} does not say which seats were people")
        seats = [""] * len(players)
    round_winners = tuple(
        tuple(seat for seat, s in enumerate(r.scores) if s == min(r.scores))
        for r in result.rounds
        if r.scores is not None
    )
    return PlayedGame(
        path=path,
        players=tuple(players),
        kinds=tuple(str(k) for k in seats),
        preset=result.record.rules.preset_name,
        totals=tuple(result.totals),
        winners=tuple(result.winners),
        round_winners=round_winners,
        complete=result.complete,
        rounds_dealt=len(result.record.rounds),
        round_count=result.record.rules.round_count,
        taken_back=taken_back_of(extra),
    )


def read_history(folder: Path | None = None) -> History:
    """Every game saved in ``folder`` (default: where ``mextrain play`` saves), oldest
    first (the file names are the start times)."""
    where = games_dir() if folder is None else folder
    games: list[PlayedGame] = []
    skipped: list[Path] = []
    paths = sorted(where.glob("*.json")) if where.is_dir() else []
    for path in paths:
        if not path.is_file():  # a folder or a pipe named *.json: no saved game (and a
            skipped.append(path)  # pipe would wait for ever to be read)
            continue
        try:
            games.append(read_game(path))
        except (RecordError, ValueError, OSError):
            skipped.append(path)
    return History(where, tuple(games), tuple(skipped))


def _level(kind: str) -> str:
    return kind.split(":", 1)[0]


def level_name(level: str, t: Translator) -> str:
    """A bot level as the player reads it ("Esperto"), or its own name if it has none."""
    key = f"tui.level.{level}"
    return t(key) if t.has(key) else level


def summarize(
    games: Iterable[PlayedGame], name: str | None = None, t: Translator | None = None
) -> list[PersonStats]:
    """Per person (or only ``name``'s): most finished games first.

    A person is a name as `person_key` reads it: "Ana", "ana", "Ana " and an "é" typed
    with a combining accent or without are one person each, shown as spelt in their last
    game of ``games`` (`read_history` gives them oldest first: their latest spelling).
    With ``t``, a default name in any language ("Joueur 1", the person at seat 1 who
    chose no name, in a game played in French) is that language's ("Player 1" in
    English), so a person who never chose a name is one person whatever language each
    game was played in; ``name`` may be given in either."""
    games = list(games)
    people: dict[str, PersonStats] = {}
    canonical = _canonical_names(t)
    for game in games:
        for seat in game.people:
            who = canonical(game.players[seat], seat)
            key = person_key(who)
            if name is not None and key != person_key(canonical(name, seat)):
                continue
            stats = people.setdefault(key, PersonStats(who))
            stats.name = shown_person(who)  # (the last game's spelling stays)
            if not game.complete:
                stats.unfinished += 1
                continue
            won = seat in game.winners
            stats.games += 1
            stats.wins += won
            total = game.totals[seat]
            stats.points += total
            stats.best = total if stats.best is None else min(stats.best, total)
            stats.rounds += len(game.round_winners)
            stats.rounds_won += sum(seat in w for w in game.round_winners)
            for level in sorted({_level(k) for k in game.kinds if k != HUMAN}):
                met = stats.opponents.setdefault(level, Opponent(level))
                met.games += 1
                met.wins += won
    rated = ranking(games, t)
    for key, stats in people.items():
        rating = rated.get(("person", key))
        stats.rating = None if rating is None else rating.shown
        stats.rated_games = 0 if rating is None else rating.games
    return sorted(people.values(), key=lambda p: (-p.games, -p.unfinished, p.name.casefold()))


def _canonical_names(t: Translator | None) -> Callable[[str, int], str]:
    """A person's name as the statistics count it (`summarize`): a default name in any
    language ("Joueur 1") as ``t``'s ("Player 1"), any other as it is."""
    defaults: dict[int, tuple[set[str], str]] = {}

    def canonical(who: str, seat: int) -> str:
        if t is None:
            return who
        if seat not in defaults:
            number = seat + 1
            every = {Translator(lang)("tui.name.player", number=number) for lang in LANGUAGES}
            defaults[seat] = ({person_key(n) for n in every}, t("tui.name.player", number=number))
        keys, mine = defaults[seat]
        return mine if person_key(who) in keys else who

    return canonical


def ranking(games: Iterable[PlayedGame], t: Translator | None = None) -> dict[Entity, Rating]:
    """Every person's (``("person", person_key(name))``, named as `summarize` names
    them) and bot level's (``("bot", level)``) rating over the finished ``games``, in
    the order given (`read_history`'s: the order they began), as the web statistics rate
    theirs (`mextrain.sim.ratings`): each game ranks its seats by total, a bot of a level
    at several seats is one player, moved by the sum of its seats' moves. A game where a
    move was taken back rates nobody, as on the web (`mextrain.web.ratings`)."""
    canonical = _canonical_names(t)

    def seats(game: PlayedGame) -> list[tuple[Entity, int]]:
        return [
            (
                ("person", person_key(canonical(game.players[seat], seat)))
                if kind == HUMAN
                else ("bot", _level(kind)),
                game.totals[seat],
            )
            for seat, kind in enumerate(game.kinds)
        ]

    return rate_games(seats(game) for game in games if game.complete and not game.taken_back)


#: the columns `stats_text` lays its table out in: an 80-column terminal's, less the last
#: (where a full line would wrap in some terminals)
STATS_WIDTH = 79


def stats_text(
    history: History,
    people: Sequence[PersonStats],
    t: Translator,
    name: str | None = None,
    width: int = STATS_WIDTH,
) -> str:
    """The statistics as plain text in the player's language: where the games are, one
    line per person, then whom each met (``name``: the person asked for, if one was).
    The table's rows fit ``width`` columns in every language: a name too long for that
    (a person may choose 24 characters) is cut with "…" on its row, kept whole on the
    line of whom they met, or, for a person who met no bot in a finished game, on a line
    of their games finished and unfinished -- at full length a French, Italian or Finnish
    row ran past 80 columns, and the terminal broke every row of the table in two."""
    finished = sum(g.complete for g in history.games)
    lines = [
        t(
            "tui.stats.where",
            folder=str(history.folder),
            finished=t.plural("tui.stats.finished", finished),
            unfinished=t.plural("tui.stats.unfinished", len(history.games) - finished),
        )
    ]
    if history.skipped:
        lines.append(t.plural("tui.stats.skipped", len(history.skipped)))
    if not people:
        if name:
            nobody = t("tui.stats.none_named", name=show_text(name, str))
        else:  # (games saved, bots' alone: "nobody has played" would be untrue)
            nobody = t("tui.stats.only_bots" if history.games else "tui.stats.none")
        lines += ["", nobody]
        return "\n".join(lines)
    heads = [t(f"tui.stats.head.{k}") for k in _COLUMNS]
    rows = []
    for p in people:
        lo, hi = p.win_interval
        rows.append(
            [
                # (a name longer than a player may choose, from a record made elsewhere,
                # is cut rather than push every row across the screen)
                clip(p.name, MAX_NAME),
                t.whole(p.games),
                t.whole(p.wins),
                f"{t.percent(p.win_rate)} ({t.percent_range(lo, hi)})" if p.games else "-",
                "-" if p.average is None else t.decimal(p.average),
                "-" if p.best is None else t.whole(p.best),  # ("1 234", as the average)
                f"{t.whole(p.rounds_won)}/{t.whole(p.rounds)}",
            ]
        )
    widths = [max(cell_len(r[i]) for r in [heads, *rows]) for i in range(len(heads))]
    over = sum(widths) + len(_GAP) * (len(widths) - 1) - width
    if over > 0:  # (the names' column gives way, down to its heading's width)
        widths[0] = max(cell_len(heads[0]), widths[0] - over)
        for row in rows:
            row[0] = clip_name(row[0], widths[0])

    def line(cells: list[str]) -> str:
        first = fit(cells[0], widths[0])
        rest = (fit(c, w, right=True) for c, w in zip(cells[1:], widths[1:], strict=True))
        return _GAP.join([first, *rest]).rstrip()

    lines += ["", line(heads), *(line(r) for r in rows)]
    below = []
    for p, row in zip(people, rows, strict=True):
        if p.opponents:
            parts = [
                t(
                    "tui.stats.against_one",
                    level=level_name(o.level, t),
                    wins=o.wins,
                    games=o.games,
                )
                for o in sorted(p.opponents.values(), key=_met_order)
            ]
            below.append(t("tui.stats.against", name=p.name, list=" · ".join(parts)))
        elif row[0] != p.name:  # (cut, and no line of whom they met: only unfinished
            # games, or games among people; "Jean-Ba…" was all there was of the name)
            done = t.plural("tui.stats.finished", p.games)
            left = t.plural("tui.stats.unfinished", p.unfinished)
            below.append(t("tui.stats.games_of", name=p.name, finished=done, unfinished=left))
    if below:
        lines += ["", *below]
    lines += _ranking_lines(history, people, t, width)
    return "\n".join(lines)


def _ranking_lines(
    history: History, people: Sequence[PersonStats], t: Translator, width: int
) -> list[str]:
    """The ranking by rating, after a blank line: its heading (in lines of ``width``),
    then the people listed and the bot levels they met (`ranking`), the highest first, a
    line each with the games its rating rests on ("  2. Ana  10.9  (12 games)"); none
    before a finished game."""
    bots = {
        level: rating
        for (kind, level), rating in ranking(history.games, t).items()
        if kind == "bot" and any(level in p.opponents for p in people)
    }
    entries = [
        (clip(p.name, MAX_NAME), p.rating, p.rated_games) for p in people if p.rating is not None
    ]
    entries += [
        (t("tui.stats.ranking_bot", level=level_name(level, t)), rating.shown, rating.games)
        for level, rating in bots.items()
    ]
    if not entries:
        return []
    entries.sort(key=lambda entry: -entry[1])
    places = [f"{t.whole(n)}." for n in range(1, len(entries) + 1)]
    wide = max(cell_len(name) for name, _, _ in entries)
    figures = [t.decimal(rating) for _, rating, _ in entries]
    numbers = max(cell_len(f) for f in figures)
    room = max(cell_len(p) for p in places)
    rows = zip(places, entries, figures, strict=True)
    return [
        "",
        *textwrap.wrap(t("tui.stats.ranking"), width, break_on_hyphens=False),
        *(
            f"  {fit(place, room, right=True)} {fit(name, wide)}  "
            f"{fit(shown, numbers, right=True)}  {t.plural('tui.stats.ranking_games', games)}"
            for place, (name, _, games), shown in rows
        ),
    ]


def _met_order(o: Opponent) -> tuple[int, int, str]:
    """The bots a person met: the most games first, then weakest first (not by their
    English names: "Facile · Esperto · Difficile · Medio" read as no order at all), a bot
    of one's own after the levels."""
    rank = BOT_LEVELS.index(o.level) if o.level in BOT_LEVELS else len(BOT_LEVELS)
    return -o.games, rank, o.level


#: between two columns of the table
_GAP = "  "
_COLUMNS = ("player", "games", "won", "rate", "average", "best", "rounds")
