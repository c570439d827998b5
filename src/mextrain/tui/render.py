"""The table as text (Textual content markup): trains, hands, score sheet, round results.

Everything shown comes from a `SeatView` or a finished `RoundState`; nothing here decides
what is legal. Meaning never rests on colour alone: open doubles carry ``‼``, markers
``⚑``, a seat on its last tile ``!``, the seat to move ``▶``, playable tiles ``*`` and
the chosen tile brackets, so the table reads the same in monochrome and for colour-blind
players. Pips are always written as numbers.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import NamedTuple

from rich.cells import cell_len, set_cell_size

from mextrain.i18n import Translator
from mextrain.rules import MEXICAN, Action, Match, RoundState, SeatView, Tile, TrainView
from mextrain.search import BY_STRENGTH

from .typography import unbroken

__all__ = [
    "BOT_LEVELS",
    "HINT_SEPARATOR",
    "MAX_NAME",
    "TILES_MARK",
    "TRAIN_KEYS",
    "Unit",
    "capitalised",
    "clip",
    "clip_name",
    "describe_action",
    "engine_start_words",
    "escape",
    "fit",
    "hand_markup",
    "hint_words",
    "laid_tiles",
    "open_doubles_markup",
    "playable_tiles",
    "round_result_markup",
    "score_sheet_markup",
    "seat_tiles_lines",
    "sentence_with_tiles",
    "status_markup",
    "totals_text",
    "train_columns",
    "train_key",
    "train_markup",
    "trains_markup",
    "wrap_units",
]

#: bot levels, weakest first (as measured: `mextrain.search.BY_STRENGTH`): the start
#: screen offers them in this order, and the statistics list the bots a person met in it
BOT_LEVELS = BY_STRENGTH


def capitalised(text: str) -> str:
    """A catalog's text starting a sentence of its own, its first letter a capital ("The
    round is blocked"). Never a text that starts with a name: a name stays as its owner
    wrote it ("ana went out", "greedy 5 went out"), whatever the sentence."""
    return text[:1].upper() + text[1:]


def fit(text: str, width: int, *, right: bool = False) -> str:
    """``text`` padded (or cut) to ``width`` terminal cells, on the right or, with
    ``right``, on the left. Cells, not characters: an emoji or a CJK letter takes two, so
    counting characters misaligns every column after a name like "Ana 🎲"."""
    if cell_len(text) > width:
        text = set_cell_size(text, width)
    gap = " " * (width - cell_len(text))
    return gap + text if right else text + gap


def clip(text: str, width: int) -> str:
    """``text`` if it fits in ``width`` cells, else cut to fit with "…" at the end."""
    if cell_len(text) <= width:
        return text
    return set_cell_size(text, width - 1).rstrip() + "…"


#: the longest name a person may give themselves (as at the web tables)
MAX_NAME = 24

_SEAT_NUMBER = re.compile(r"\s\d+$")


def clip_name(name: str, width: int) -> str:
    """`clip`, keeping a trailing seat number ("Difficile 3" in 10 cells is "Diffici… 3",
    not "Difficile…"): default names differ by it alone."""
    if cell_len(name) <= width:
        return name
    number = _SEAT_NUMBER.search(name)
    if number is None or width < len(number.group()) + 1:
        return clip(name, width)
    tail = number.group()
    if width < len(tail) + 2:  # no room for "…": the name's first letter ("H 10")
        return fit(name[: number.start()], width - len(tail)) + tail
    return clip(name[: number.start()], width - len(tail)) + tail


#: after a trailing backslash, so that it cannot disarm the markup that follows
_ZERO_WIDTH_SPACE = "\u200b"


def escape(text: str) -> str:
    r"""``text`` as typed, inside Textual markup: every ``[`` escaped (Textual never reads
    a ``[`` after a backslash as a tag, and shows ``\[`` as ``[``). Textual's own `escape`
    leaves a ``[`` that does not look like a tag, so a name such as ``Ana [b`` would
    swallow the markup after it. A trailing backslash gets a zero-width space after it, or
    it would disarm the tag that follows."""
    out = text.replace("[", "\\[")
    return out + _ZERO_WIDTH_SPACE if out.endswith("\\") else out


#: tiles of a train shown on its one-line row at 80 columns (the trains screen shows them
#: all; a wider screen shows more: `tiles_that_fit`)
SHOWN_TILES = 7


def tiles_that_fit(width: int) -> int:
    """How many of a train's last tiles its row shows on a screen ``width`` cells wide:
    `SHOWN_TILES` at 80 columns, more where there is room (a tile takes at most six cells,
    "10-12 "; the row's key, owner, hand size, tiles left out, open end and target mark at
    most 38)."""
    return max(SHOWN_TILES, (width - 38) // 6)


#: the key that picks each train: seats 1-9 and 0 for the tenth, ``m`` for the Mexican
TRAIN_KEYS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "0")


def train_key(train: int) -> str:
    return "m" if train == MEXICAN else TRAIN_KEYS[train]


def playable_tiles(view: SeatView) -> dict[Tile, list[int]]:
    """Each tile the engine lets the seat play now, and the trains it may go on."""
    out: dict[Tile, list[int]] = {}
    for action in view.legal_actions:
        if action.kind == "play" and action.tile is not None and action.train is not None:
            out.setdefault(action.tile, []).append(action.train)
    return out


def train_markup(
    view: SeatView,
    train: TrainView,
    t: Translator,
    names: Sequence[str],
    targets: Collection[int] = (),
    shown: int | None = SHOWN_TILES,
    clickable: bool = True,
) -> str:
    """One train: key, owner, hand size, marker, tiles (the last ``shown``), open end."""
    lead, parts, end = train_columns(view, train, t, names, targets, shown)
    line = f"{lead} {' '.join(parts)} {end}"
    tid = MEXICAN if train.is_mexican else train.owner
    target = "'M'" if tid == MEXICAN else str(tid)
    return f"[@click=screen.train({target})]{line}[/]" if clickable else line


def train_columns(
    view: SeatView,
    train: TrainView,
    t: Translator,
    names: Sequence[str],
    targets: Collection[int] = (),
    shown: int | None = SHOWN_TILES,
) -> tuple[str, tuple[str, ...], str]:
    """A train's row in its parts: key, owner, hand size and marker up to the bar; its
    tiles (the last ``shown``, after the count of those left out), or the words for a
    train not started; its open end (with the target mark). The trains window wraps a long
    train between its tiles, under the first, and keeps the open end beside the last."""
    owner = train.owner
    tid = MEXICAN if train.is_mexican else owner
    if train.is_mexican:
        pointer = " "
        word = t("game.train.mexican")
        label = escape(fit(clip(word[:1].upper() + word[1:], 16), 17))
    else:
        pointer = "▶" if view.current_seat == owner and view.ended is None else " "
        count = view.hand_sizes[owner]
        name = fit(clip_name(names[owner], 10), 10)
        marker = "[b]⚑[/b]" if train.marker_up else " "
        last = "[b]![/b]" if count == 1 else " "
        label = f"{escape(name)} {marker} {count:>2}{last} "
    tiles = train.oriented(view.engine)
    hidden = 0
    if shown is not None and len(tiles) > shown:
        hidden = len(tiles) - shown
        tiles = tiles[-shown:]
    parts = []
    if hidden:  # (with a plus: "…10 10-3" read as a tile's end)
        parts.append(f"[dim]+{hidden}[/dim]")
    for index, text in enumerate(tiles):
        last_tile = index == len(tiles) - 1
        if last_tile and train.open_double:
            parts.append(f"[reverse b]{text}‼[/reverse b]")
        else:
            parts.append(text)
    if not parts:
        parts.append(f"[dim]{t('tui.table.not_started')}[/dim]")
    end = f"→ [b]{train.open_end}[/b]"
    key = train_key(tid)
    if tid in targets:
        head = f"[reverse b]{key}[/reverse b]"
        end += f" [b]◀ {t('tui.table.target')}[/b]"
    else:
        head = key
    return f"{pointer}{head} {label}│", tuple(parts), end


def trains_markup(
    view: SeatView,
    t: Translator,
    names: Sequence[str],
    targets: Collection[int] = (),
    shown: int | None = SHOWN_TILES,
    clickable: bool = True,
    you: int | None = None,
) -> str:
    """Every train, the Mexican last, then a line naming the open doubles to answer
    (``you``: the seat whose train is called "your train", if any)."""
    lines = [train_markup(view, tr, t, names, targets, shown, clickable) for tr in view.trains]
    doubles = open_doubles_markup(view, t, names, you)
    if doubles is not None:
        lines.append(doubles)
    return "\n".join(lines)


def open_doubles_markup(
    view: SeatView, t: Translator, names: Sequence[str], you: int | None = None
) -> str | None:
    """The line naming the open doubles to answer, if any (``you`` as in `trains_markup`)."""
    if not view.open_doubles:
        return None
    # (a name as typed: "Ana [b" must not open a tag, nor "[@click=...]" make one)
    named = {seat: escape(name) for seat, name in enumerate(names)}
    doubles = ", ".join(
        t("tui.table.your_train_the") if train == you else t.train_label(train, -2, named)
        for train in view.open_doubles
    )
    # under open_doubles_block the oldest must be answered before any other play --
    # once the turn that played it has ended: its follow-ups go anywhere; once the round
    # is over nothing is to be answered, the doubles are only named (left open)
    key = "tui.table.open_doubles_free"
    if view.ended is not None:
        key = "tui.table.open_doubles_left"
    elif view.rules.open_doubles_block:
        owed = view.owes_follow_up
        key = "tui.table.open_doubles_after_turn" if owed else "tui.table.open_doubles"
    return f"[reverse b]‼ {t(key, trains=doubles)}[/reverse b]"


#: the fewest cells a name on the status line keeps, however little room the rest leaves
_STATUS_NAME_MIN = 6


def status_markup(
    match: Match,
    view: SeatView,
    t: Translator,
    names: Sequence[str],
    width: int = 80,
    after: Sequence[str] = (),
) -> str:
    """The line over the table: round, engine, boneyard and whose turn it is, then the
    parts ``after`` it (the replay viewer's "move 3/150"), in ``width`` cells (at least
    80): a name too long for what the rest leaves is cut with "…", its seat number kept
    (`clip_name`), whatever the set, the rounds and the language. Each part is kept whole
    on a line, should the line be wrapped ("move" never parted from its "3/150")."""
    k = view.round_index
    parts = [
        t("tui.status.round", number=k + 1, total=match.rules.round_count),
        t("tui.status.engine", engine=f"{view.engine}-{view.engine}"),
        t("tui.status.boneyard", count=view.boneyard_size),
    ]
    tail = [unbroken(part) for part in after]
    if view.ended is None:
        rest = cell_len(" · ".join([*parts, t("tui.status.turn", name=""), *tail]))
        room = max(max(width, 80) - rest, _STATUS_NAME_MIN)
        name = clip_name(names[view.current_seat], room)
        parts.append(t("tui.status.turn", name=escape(name)))
    else:
        parts.append(t("tui.status.round_over"))
    return " · ".join([*parts, *(escape(part) for part in tail)])


def hand_markup(
    hand: Sequence[Tile],
    t: Translator,
    playable: Collection[Tile],
    cursor: int | None,
    chosen: Tile | None,
    clickable: bool = True,
    width: int | None = None,
) -> str:
    """The hand in the set's order: ``*`` and bold for a tile the engine lets you play now,
    brackets for the chosen tile, reverse video for the cursor. With ``width``, a hand
    too long for it goes on over several lines, broken between two tiles, each line
    starting as the first does (left to the screen's wrapping, a line lost its first
    tile's leading space and stood one column to the left of the line above)."""
    if not hand:
        return f"[dim]{t('tui.hand.empty')}[/dim]"
    units: list[Unit] = []
    for index, tile in enumerate(hand):
        text = str(tile)
        mark = "*" if tile in playable else " "
        text = f"[{text}{mark}]" if tile == chosen else f" {text}{mark} "
        markup = f"[b u]{escape(text)}[/b u]" if tile in playable else escape(text)
        if index == cursor:
            markup = f"[reverse]{markup}[/reverse]"
        if clickable:
            markup = f"[@click=screen.pick({index})]{markup}[/]"
        units.append(Unit(markup, text))
    return "\n".join(wrap_units(units, width))


class Unit(NamedTuple):
    """What `wrap_units` never breaks (a tile, with its marks): its markup, the text it
    shows, and what goes before it when it follows another on the same line."""

    markup: str
    text: str
    gap: str = ""


def wrap_units(units: Sequence[Unit], width: int | None, indent: int = 0) -> list[str]:
    """``units`` one after another (each after its gap), broken between two of them into
    lines of ``width`` cells at most (without ``width``, one line). The first line follows
    ``indent`` cells the caller puts before it (a seat's name and points); the lines after
    it start with as many spaces, so that the list hangs under its first unit -- or at
    column 0 where the indent leaves no room for the widest unit. A space at the end of a
    unit may go past the edge: the screen drops it. A tile is never cut, nor a list run
    back under what stands before it, as the screen's own wrapping does."""
    if width is not None and units:
        widest = max(cell_len(unit.text.rstrip()) for unit in units)
        hang = indent if indent + widest <= width else 0
    else:
        hang = indent
    lines: list[str] = []
    line, used = "", indent  # the cells the line takes so far
    on_line = 0  # the units on it
    for unit in units:
        gap = unit.gap if on_line else ""
        # (a space at the end of a line may go past the edge: the screen drops it)
        seen = cell_len((gap + unit.text).rstrip())
        # a new line, if this one holds something: a unit, or what the caller puts first
        if width is not None and used + seen > width and (on_line or (not lines and indent)):
            lines.append(line)
            line, used, on_line, gap = " " * hang, hang, 0, ""
        line += gap + unit.markup
        used += cell_len(gap + unit.text)
        on_line += 1
    lines.append(line)
    return lines


#: between two moves of a hint: a line broken there ends with the dot, the next move
#: starts the next line (never a line starting with "· ")
HINT_SEPARATOR = "\u00a0· "


def hint_words(
    action: Action,
    seat: int,
    t: Translator,
    names: Sequence[str],
    view: SeatView | None = None,
    yours: bool = True,
) -> str:
    """An action as a suggestion to ``seat``: "12-9 on Ben's train", "draw" (in a
    sentence: "Hint: draw", not the button's "Draw"). With ``view``, the position it is
    for, a tile is written as it would lie on the train named, from that train's open end
    (as the log writes it once played: 9-12 onto a 12 is "12-9"); without, as the hand
    holds it. ``yours``: the seat's own train is "your train" (to its player), else
    "their own train" (a replay's analysis, of whoever is to move)."""
    if action.kind == "draw":
        return t("game.hint.draw")
    if action.kind == "pass":
        return t("game.hint.pass")
    assert action.tile is not None
    assert action.train is not None
    # (a seat's name and its number, "Glouton 2", never broken across the hint's lines)
    where = to_train(action.train, seat, t, [unbroken(name) for name in names], yours=yours)
    tile = str(action.tile)
    if view is not None:
        end = view.train(action.train).open_end
        if action.tile.has(end):
            tile = action.tile.oriented(end)
    return t("tui.hint.play", tile=tile, train=where)


def to_train(
    train: int, seat: int, t: Translator, names: Sequence[str], yours: bool = False
) -> str:
    """Where ``seat``'s tile goes, as a move or a hint says it: "the Mexican train", "Ben's
    train", its own ("your train" to the player, ``yours``; "their own train" in the log);
    Finnish says it in the illative ("Meksikon junaan", "omaan junaasi")."""
    if train == MEXICAN:
        return t("tui.to_train.mexican")
    if train == seat:
        return t("tui.to_train.yours" if yours else "tui.to_train.theirs")
    if train < len(names) and names[train]:
        return t("tui.to_train.of", name=names[train])
    return t("tui.to_train.of_seat", number=train + 1)


def laid_tiles(view: SeatView) -> dict[Tile, str]:
    """Every tile on the table as it lies on its train, written from the end that joined
    the tile before (the trains' own writing: ``Tile(7, 12)`` laid on a 12 is "12-7")."""
    laid: dict[Tile, str] = {}
    for train in view.trains:
        laid.update(zip(train.tiles, train.oriented(view.engine), strict=True))
    return laid


def describe_action(
    seat: int,
    action: Action,
    t: Translator,
    names: Sequence[str],
    laid: Mapping[Tile, str] | None = None,
) -> str:
    """One line of the log, in words; a tile played is written as it lies on its train
    (``laid``: `laid_tiles` of the table after the play), else from its low end."""
    who = names[seat]
    if action.kind == "draw":
        return t("tui.log.draw", who=who)
    if action.kind == "pass":
        return t("tui.log.pass", who=who)
    assert action.tile is not None
    assert action.train is not None
    where = to_train(action.train, seat, t, names)
    tile = laid.get(action.tile, str(action.tile)) if laid is not None else str(action.tile)
    return t("tui.log.play", who=who, tile=tile, train=where)


def engine_start_words(state: RoundState, t: Translator, names: Sequence[str]) -> str | None:
    """Where the engine's holder starts (``holder_starts``, cardinal): who was dealt the
    round's engine, or, when nobody was, that every seat drew in turn until it turned up,
    how many tiles in all (the hands are bigger by that) and who drew it. None where the
    engine is set aside before the deal. The table's log and the replay say the same."""
    if state.rules.engine_setup != "holder_starts":
        return None
    engine = f"{state.engine}-{state.engine}"
    who = names[state.starter]
    drawn = state.as_dealt().bone_pos  # the tiles the draw cycles took, in all
    if drawn:
        return t.plural("tui.log.engine_drawn", drawn, engine=engine, who=who)
    return t("tui.log.engine_held", engine=engine, who=who)


def round_result_markup(
    state: RoundState,
    t: Translator,
    names: Sequence[str],
    tiles_of: Callable[[int], list[Tile]],
    width: int | None = None,
) -> str:
    """Each seat's tiles left and points at the end of a round. With ``width``, a seat's
    tiles too many for a line go on under its first tile, broken between two tiles."""
    parts = state.score_parts()
    if state.ended == "out" and state.out_seat is not None:
        # the name starts the sentence in every language, as its owner wrote it: "ana
        # went out", not "Ana" (the log keeps it so too)
        head = t("game.ended.out", who=escape(names[state.out_seat]))
    else:
        head = capitalised(t("game.ended.blocked"))
    lines = [f"[b]{head}.[/b]", ""]
    name_width = max(cell_len(n) for n in names)
    for seat, name in enumerate(names):
        part = parts[seat] if parts is not None else None
        total = part.total if part else 0
        points = t.plural("tui.round_end.points", total, count=t.whole(total))  # ("1 234")
        lead = f"{fit(name, name_width)}  {fit(points, 10, right=True)}  "
        # points that are not the pips left: a 0-0 left, doubles left open
        extra = []
        if part and part.double_blank:
            extra.append(t("tui.round_end.double_blank", points=t.whole(part.double_blank)))
        if part and part.penalty:
            penalty = t.whole(part.penalty)
            extra.append(t.plural("tui.round_end.penalty", part.open_doubles, points=penalty))
        lines.extend(seat_tiles_lines(lead, tiles_of(seat), width, extra))
    return "\n".join(lines)


def seat_tiles_lines(
    lead: str, tiles: Sequence[Tile], width: int | None, extra: Sequence[str] = ()
) -> list[str]:
    """A seat's row of the round's end or the replay's hands: ``lead`` (plain text: its
    name, points or tile count), then its tiles ("—" for none) and the ``extra`` words
    in brackets; too long for ``width``, the tiles go on under the first one."""
    units = [Unit(str(tile), str(tile), " ") for tile in tiles] or [Unit("—", "—")]
    # what follows the tiles goes on a part at a time ("0-0 +50 ·", "2 doubles left open
    # +20"), or a word at a time where a part is wider than the room under the tiles
    said = [
        f"{'(' if k == 0 else ''}{part}{')' if k == len(extra) - 1 else ' ·'}"
        for k, part in enumerate(extra)
    ]
    if width is not None and any(cell_len(lead + part) > width for part in said):
        words: list[str] = []
        for word in " ".join(said).split(" "):
            if word == "·":  # (with the word before it, not at the start of a line)
                words[-1] += " ·"
            else:
                words.append(word)
        said = words
    for k, part in enumerate(said):
        units.append(Unit(f"[dim]{escape(part)}[/dim]", part, " " if k else "  "))
    lines = wrap_units(units, width, cell_len(lead))
    lines[0] = escape(lead) + lines[0]
    return lines


#: where a sentence lists its tiles (`sentence_with_tiles`): given as the ``tiles`` of a
#: catalog's template, it is found again in the sentence the template makes
TILES_MARK = "\x00"


def sentence_with_tiles(
    sentence: str, tiles: Sequence[str], width: int | None, lines: int | None = None
) -> str:
    """``sentence`` (plain text) with ``tiles`` where it has `TILES_MARK`, as markup: too
    long for ``width``, the tiles go on under the first one, broken between two tiles, and
    what follows them goes on after the last (the screen's wrapping ran them back to
    column 0, under the words before them). Where the words before the tiles leave too
    little room for that (the tiles would take more lines hanging under them), the tiles
    start a line of their own, at column 0. Where neither fits in ``lines`` (a very narrow
    screen), it all runs on from line to line, broken between two words or tiles: all of
    it shown is worth more than the tiles lined up."""
    before, _, after = sentence.partition(TILES_MARK)
    units = [Unit(escape(tile), tile, " ") for tile in tiles]
    rest = after.lstrip()
    if rest:  # ("(9 tiles)": one piece, after the last tile as the sentence spaces it)
        units.append(Unit(escape(rest), rest, after[: len(after) - len(rest)]))
    indent = cell_len(before)
    hanging = wrap_units(units, width, indent)
    hanging[0] = escape(before) + hanging[0]
    if width is None or not units:
        return "\n".join(hanging)
    below = [escape(before.rstrip()), *wrap_units(units, width)]
    hangs = indent + max(cell_len(unit.text) for unit in units) <= width
    laid = hanging if hangs and len(hanging) <= len(below) else below
    if lines is not None and len(laid) > lines:
        # (broken at plain spaces only: French keeps "12\u00a0:" whole, as one word)
        words = [Unit(escape(word), word, " ") for word in before.split(" ") if word]
        laid = wrap_units([*words, *units], width)
    return "\n".join(laid)


def totals_text(match: Match, t: Translator, names: Sequence[str]) -> str:
    """The match totals so far on one line, the leader starred, as plain text: what a
    round's end shows above the score sheet, which may be taller than the screen (too long
    for the screen, it goes on between two seats: `screens.PackedLine`)."""
    leaders = set(match.winners)
    totals = " · ".join(
        f"{name} {t.whole(total)}{'★' if seat in leaders else ''}"  # ("1 234" in French)
        for seat, (name, total) in enumerate(zip(names, match.totals, strict=True))
    )
    return t("tui.round_end.totals", totals=totals)


#: the columns a score sheet may use: 80, less a window's frame, padding and scroll bar
SHEET_WIDTH = 74


def points_in(points: int, col: int, t: Translator) -> str:
    """Points as the language writes them ("1 234" in French and Finnish, "1,234" in
    English), or their bare digits where that is too wide for a column of ``col`` cells
    (ten seats' narrow columns)."""
    said = t.whole(points)
    return said if cell_len(said) <= col else str(points)


def score_sheet_markup(match: Match, t: Translator, names: Sequence[str]) -> str:
    """Every round of the rules (played or not) by seat, then the totals, in
    `SHEET_WIDTH` columns for up to ten seats whatever the language's words."""
    n = match.players
    round_word = t("game.round")
    engine_word = t("game.engine")
    engine_word = engine_word[:1].upper() + engine_word[1:]
    # the left part: the round's number, then its engine (as wide as the words need, and
    # two cells apart at the least: Italian's "Round Stazione" read as one heading)
    left_a = max(6, cell_len(round_word) + 1)
    left_b = max(7, cell_len(engine_word) + 1)
    left = left_a + left_b + 1
    # (up to 14: "Giocatore 1", "Joueur 10" whole where there is room)
    col = max(4, min(14, (SHEET_WIDTH - left) // max(n, 1) - 1))
    head = escape(fit(round_word, left_a) + fit(engine_word, left_b, right=True) + " ")
    # every cell is `col` wide and one more after it: a space, or the leader's star on
    # the totals, so that the numbers line up down the column either way
    head += "".join(
        escape(fit(clip_name(name, col), col, right=True)) + " "
        for name in names  # padded as shown, then escaped
    )
    lines = [f"[b]{head}[/b]"]
    scores = match.round_scores()
    for k in range(match.rules.round_count):
        engine = match.rules.engine_for(k)
        row = f"{k + 1:<{left_a}}{f'{engine}-{engine}':>{left_b}} "
        if k < len(scores):
            row += "".join(f"{points_in(p, col, t):>{col}} " for p in scores[k])
        elif k == match.round_index and not match.current.is_over:
            row += "".join(f"{'…':>{col}} " for _ in range(n))
        else:
            row += "".join(f"{'·':>{col}} " for _ in range(n))
        lines.append(row)
    totals = match.totals
    leaders = set(match.winners)
    total_row = escape(fit(t("game.total"), left)) + "".join(
        f"{points_in(p, col, t):>{col}}" + ("★" if s in leaders else " ")
        for s, p in enumerate(totals)
    )
    lines.append(f"[b]{total_row}[/b]")
    return "\n".join(lines)
