"""Game records (docs/RECORDS.md): the value types, reading with structure checks, and writing.

Reading checks the document's shape only — types, presets and options, readable tiles and
actions — and raises `RecordFormatError` naming the field at fault. Whether the deal and
the actions are legal is the replay's job (`mextrain.records.replay`), and the engine's.
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from mextrain.rules import (
    Action,
    ActionFormatError,
    Match,
    Rules,
    RulesError,
    Shortened,
    Tile,
    TileFormatError,
    parse_action,
    parse_tile,
    show_value,
)

from .errors import RecordFormatError

__all__ = [
    "FORMAT",
    "VERSION",
    "GameRecord",
    "RecordResult",
    "RecordedAction",
    "RoundRecord",
    "dumps_pretty",
    "load_record",
]

FORMAT: Final = "mexican-train-record"
VERSION: Final = 1


@dataclass(frozen=True, slots=True)
class RecordedAction:
    """One action of a record: the acting seat, the action, and its text as written."""

    seat: int
    action: Action
    text: str

    @classmethod
    def of(cls, seat: int, action: Action) -> RecordedAction:
        return cls(seat, action, action.notation(seat))

    def notation(self) -> str:
        """The action in canonical record notation (``2:5-12@M``)."""
        return self.action.notation(self.seat)


@dataclass(frozen=True, slots=True)
class RoundRecord:
    """One round as dealt, and every action taken in it."""

    engine: int
    starter: int | None
    hands: tuple[tuple[Tile, ...], ...]
    boneyard: tuple[Tile, ...]
    actions: tuple[RecordedAction, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "engine": self.engine,
            "starter": self.starter,
            "hands": [[str(t) for t in hand] for hand in self.hands],
            "boneyard": [str(t) for t in self.boneyard],
            "actions": [a.notation() for a in self.actions],
        }


@dataclass(frozen=True, slots=True)
class RecordResult:
    """A record's claimed outcome: scores of each finished round, and their totals."""

    scores: tuple[tuple[int, ...], ...]
    totals: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"scores": [list(s) for s in self.scores], "totals": list(self.totals)}


@dataclass(frozen=True)
class GameRecord:
    """A whole game: the rules, the seats' names, every round's deal and actions."""

    rules: Rules
    players: tuple[str, ...]
    rounds: tuple[RoundRecord, ...]
    result: RecordResult | None = None

    # -- building ------------------------------------------------------------------------

    @classmethod
    def from_match(cls, match: Match, names: Sequence[str]) -> GameRecord:
        """The record of ``match`` so far, with a ``result`` over its finished rounds.
        ``names`` is a sequence of one name per seat, each text a record can hold
        (`ValueError` otherwise: a single string is no list of names, and the reader would
        refuse the file written with them)."""
        # (the types say so already; a caller without a type checker is told, not misread:
        # "abcd" would be four seats named a, b, c and d)
        if isinstance(names, (str, bytes)) or not isinstance(names, Sequence):
            what = f"the string {names!r}" if isinstance(names, str) else repr(names)
            raise ValueError(f"names must be a list of seat names, one per seat, not {what}")
        if len(names) != match.players:
            raise ValueError(f"{match.players} seats need {match.players} names, not {len(names)}")
        try:
            _Reader.players(list(names))
        except RecordFormatError as err:
            raise ValueError(err.reason) from None
        if Rules.from_spec(_json_native(match.rules.to_spec())) != match.rules:
            # a rule set changed outside `Rules.with_options` would be written wrongly
            raise ValueError(
                "these rules cannot be written as a preset plus overrides: build them with "
                "Rules.preset or Rules.with_options"
            )
        rounds = []
        for state in match.rounds:
            tiles = state.ts.tiles
            rounds.append(
                RoundRecord(
                    engine=state.engine,
                    starter=state.starter,
                    hands=tuple(tuple(state.ts.tiles_of(mask)) for mask in state.initial.hands),
                    boneyard=tuple(tiles[i] for i in state.initial.boneyard),
                    actions=tuple(RecordedAction.of(seat, a) for seat, a in state.history),
                )
            )
        result = RecordResult(
            scores=tuple(tuple(s) for s in match.round_scores()),
            totals=tuple(match.totals),
        )
        return cls(
            rules=match.rules,
            players=tuple(names),
            rounds=tuple(rounds),
            result=result,
        )

    # -- writing -------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The record as a JSON-ready dict, fields in the format's order."""
        doc: dict[str, Any] = {
            "format": FORMAT,
            "version": VERSION,
            "rules": _json_native(self.rules.to_spec()),
            "players": list(self.players),
            "rounds": [r.to_dict() for r in self.rounds],
        }
        if self.result is not None:
            doc["result"] = self.result.to_dict()
        return doc

    def to_json(self) -> str:
        """Pretty, stable JSON text: the same record always gives the same text."""
        return dumps_pretty(self.to_dict()) + "\n"


def _json_native(value: Any) -> Any:
    """``value`` as JSON would give it back (tuples become lists, keys become text)."""
    return json.loads(json.dumps(value))


# -- pretty printing -------------------------------------------------------------------------

_WIDTH = 100


def dumps_pretty(value: Any, indent: int = 0, start: int | None = None) -> str:
    """JSON with objects and nested lists broken over lines and lists of plain values kept
    on as few lines as fit in 100 columns (one hand, one boneyard: a line or a few).

    ``indent`` is the indentation of the value's block; ``start`` the column where the value
    itself begins (after a key), ``indent`` if not given.
    """
    flat = json.dumps(value, ensure_ascii=False)
    column = indent if start is None else start
    if not isinstance(value, dict | list) or (
        column + len(flat) < _WIDTH and not _has_nested(value)
    ):
        return flat
    pad = " " * (indent + 2)
    end = " " * indent
    if isinstance(value, dict):
        if not value:
            return "{}"
        items = []
        for k, v in value.items():
            key = f"{pad}{json.dumps(k, ensure_ascii=False)}: "
            items.append(key + dumps_pretty(v, indent + 2, len(key)))
        return "{\n" + ",\n".join(items) + "\n" + end + "}"
    if not value:
        return "[]"
    if _has_nested(value):
        items = [pad + dumps_pretty(v, indent + 2) for v in value]
        return "[\n" + ",\n".join(items) + "\n" + end + "]"
    # a long list of plain values: wrap it
    lines: list[str] = []
    line = ""
    for v in value:
        text = json.dumps(v, ensure_ascii=False)
        if line and len(pad) + len(line) + len(text) + 3 > _WIDTH:  # ", " and ","
            lines.append(line)
            line = ""
        line = f"{line}, {text}" if line else text
    lines.append(line)
    return "[\n" + ",\n".join(pad + ln for ln in lines) + "\n" + end + "]"


def _has_nested(value: dict[str, Any] | list[Any]) -> bool:
    items = value.values() if isinstance(value, dict) else value
    return any(isinstance(v, dict | list) and v for v in items)


# -- reading -----------------------------------------------------------------------------


def load_record(source: str | bytes | Mapping[str, Any]) -> GameRecord:
    """Read a record from JSON text or an already-parsed JSON object.

    Checks the structure only; raises `RecordFormatError` naming the field at fault.
    """
    if isinstance(source, str | bytes | bytearray):
        doc: Any = parse_json(source, RECORD_SHAPE)
    elif isinstance(source, Mapping):
        doc = source
    else:
        raise RecordFormatError(None, "a record is JSON text or a JSON object")
    try:
        return _Reader().document(doc)
    except RecursionError:  # (a value the parser took, nested too deep to look through)
        raise RecordFormatError(None, "not a record: nested too deep to read") from None


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON value")


#: the fields of a record, where a key given twice makes it no record (`parse_json`): a
#: dict of the fields an object has (each to its own shape), a list of the shape of every
#: item, or None for a whole value in which every key counts (``rules``: an unknown
#: option there is refused anyway). A field the format does not know is ignored, a key
#: given twice in it too.
Shape = dict[str, "Shape"] | list["Shape"] | None
ROUND_SHAPE: dict[str, Shape] = dict.fromkeys(("engine", "starter", "hands", "boneyard", "actions"))
RECORD_SHAPE: dict[str, Shape] = {
    "format": None,
    "version": None,
    "rules": None,
    "players": None,
    "rounds": [ROUND_SHAPE],
    "result": {"scores": None, "totals": None},
}


def parse_json(source: str | bytes | bytearray, shape: Shape = None) -> Any:
    """JSON text as a record reads it: UTF-8 (a BOM allowed), no ``NaN`` or ``Infinity``,
    and any text that is not such JSON -- nested too deep to read included -- a
    `RecordFormatError`, never another exception; an object that gives a key twice too
    (which value counts is anyone's guess), where ``shape`` says the key counts (the
    whole document, unless given: `RECORD_SHAPE` for a record). For files that keep more
    than the record (``mextrain play``'s saved games)."""
    if isinstance(source, bytes | bytearray):
        try:
            source = bytes(source).decode("utf-8-sig")
        except UnicodeDecodeError as err:
            raise RecordFormatError(None, f"not a record: not UTF-8 text ({err.reason})") from None
    text = source.removeprefix("\ufeff")
    repeated: list[_Repeated] = []

    def read_object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        obj = dict(pairs)
        if len(obj) == len(pairs):
            return obj
        counts = Counter(key for key, _ in pairs)
        twice = _Repeated(obj)
        twice.repeated = {key: n for key, n in counts.items() if n > 1}
        repeated.append(twice)
        return twice

    try:
        doc = json.loads(text, parse_constant=_reject_constant, object_pairs_hook=read_object)
    except json.JSONDecodeError as err:
        # (some of json's messages end in "at" already: "Unterminated string starting at")
        where = f"{err.msg.removesuffix(' at')} at line {err.lineno}, column {err.colno}"
        raise RecordFormatError(None, f"not a record: not JSON ({where})") from None
    except RecursionError:
        raise RecordFormatError(None, "not a record: not JSON (nested too deep to read)") from None
    except ValueError as err:
        # Python's limit on a number's digits said in words, not as advice to a programmer
        # (the limit is the interpreter's: -X int_max_str_digits or PYTHONINTMAXSTRDIGITS)
        limit = sys.get_int_max_str_digits()
        why = f"a number of more than {limit:,} digits" if "digits" in str(err) else str(err)
        raise RecordFormatError(None, f"not a record: not JSON ({why})") from None
    if repeated:
        _refuse_repeated(doc, shape)
    return doc


class _Repeated(dict[str, Any]):
    """A JSON object that gives a key more than once (JSON's readers keep the last value,
    or the first, or refuse it): the keys so given, and how many times."""

    repeated: dict[str, int]


def _refuse_repeated(doc: Any, shape: Shape) -> None:
    """A `RecordFormatError` naming the first key given twice where ``shape`` says it
    counts (in the document's order, the outer objects first) and where it is."""
    stack: list[tuple[Any, str, Shape]] = [(doc, "", shape)]
    while stack:  # (not recursive: a document may nest as deep as the parser went)
        value, path, known = stack.pop()
        if isinstance(value, _Repeated):
            key = next(
                (k for k in value if k in value.repeated and (known is None or k in known)),
                None,
            )
            if key is not None and not isinstance(known, list):
                times = value.repeated[key]
                said = "twice" if times == 2 else f"{times} times"
                where = f"in {_short_path(path)}" if path else "at the top of the record"
                raise RecordFormatError(
                    _short_path(_key_path(path, key)),
                    f"the key {_show(key)} is given {said} {where}: a record that gives a "
                    "field more than once is ambiguous",
                )
        if isinstance(value, dict) and not isinstance(known, list):
            stack.extend(
                (v, _key_path(path, k), None if known is None else known[k])
                for k, v in reversed(value.items())
                if known is None or k in known
            )
        elif isinstance(value, list) and not isinstance(known, dict):
            item = None if known is None else known[0]
            stack.extend((v, f"{path}[{i}]", item) for i, v in reversed(list(enumerate(value))))


def _short_path(path: str) -> str:
    """A field's path as a message writes it: its middle left out past 80 characters
    (``[0][0]…[0].a``, in a document nested hundreds deep)."""
    return path if len(path) <= 80 else f"{path[:40]}…{path[-39:]}"


_NAME: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,39}")


def _key_path(path: str, key: str) -> str:
    """The path of ``key`` in the object at ``path``, as the reader names fields
    (``rounds[0].starter``); a key that is no plain name is written as JSON writes it
    (``comment["a b"]``)."""
    if _NAME.fullmatch(key):
        return f"{path}.{key}" if path else key
    return f"{path}[{_show(key)}]"


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


_SURROGATE: Final = re.compile(r"[\ud800-\udfff]")


def _is_text(value: object) -> bool:
    """A string that is Unicode text: JSON can spell a lone surrogate (``"\\ud800"``),
    which no UTF-8 file or terminal can hold."""
    return isinstance(value, str) and not _SURROGATE.search(value)


#: the most digits a number in a message is written out with; past them it is shortened
#: as a tile's pip too long to read is (``77777777…(3,000 digits)``)
_NUMBER_DIGITS: Final = 40


def show_number(value: int) -> str:
    """A whole number as a message writes it: in full up to `_NUMBER_DIGITS` digits, else its
    first eight and how many there are (``77777777…(3,000 digits)``, a `Shortened`), as a
    tile's pip too long to read is written -- and one too long for Python to write out
    (``10**5000`` from a parsed object) without failing."""
    try:
        text = str(value)  # (a pip read past Python's limit writes itself shortened already)
    except ValueError:  # more digits than Python converts to text
        text = ""
    digits = text.removeprefix("-")
    if text and (len(digits) <= _NUMBER_DIGITS or not digits.isdigit()):
        return text
    size = abs(value)
    count = int(size.bit_length() * 0.30102999566398120) + 1  # (log10(2): at most one over)
    if size < 10 ** (count - 1):
        count -= 1
    first = size // 10 ** (count - 8)
    return Shortened(f"{'-' if value < 0 else ''}{first}…", count, "digits")


def _show(value: object) -> str:
    """A value as JSON spells it, shortened (a lone surrogate escaped as JSON escapes it;
    a long number as `show_number` writes it)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return show_number(value)
    text = _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", show_value(value))
    return text if len(text) <= 40 else text[:37] + "..."


_MISSING: Final = object()


class _Reader:
    """Reads a parsed document field by field, in the format's order."""

    def document(self, doc: Any) -> GameRecord:
        if not isinstance(doc, Mapping):
            raise RecordFormatError(None, f"a record is a JSON object, not {_show(doc)}")
        fmt = doc.get("format", _MISSING)
        if fmt is _MISSING:
            raise RecordFormatError("format", f'missing: a record has "format": "{FORMAT}"')
        if fmt != FORMAT or not isinstance(fmt, str):
            raise RecordFormatError("format", f'must be "{FORMAT}", not {_show(fmt)}')
        version = doc.get("version", _MISSING)
        if version is _MISSING:
            raise RecordFormatError("version", f"missing: this is version {VERSION}")
        if not _is_int(version) or version != VERSION:
            raise RecordFormatError(
                "version", f"must be the number {VERSION}, not {_show(version)}"
            )
        spec = self.required(doc, "rules", "")
        rules = self.rules(spec)
        players = self.players(self.required(doc, "players", ""))
        raw_rounds = self.required(doc, "rounds", "")
        if not isinstance(raw_rounds, list | tuple):
            raise RecordFormatError("rounds", f"must be a list of rounds, not {_show(raw_rounds)}")
        rounds = tuple(self.round(raw, index, rules) for index, raw in enumerate(raw_rounds))
        result = self.result(doc.get("result", _MISSING))
        return GameRecord(
            rules=rules,
            players=players,
            rounds=rounds,
            result=result,
        )

    @staticmethod
    def required(obj: Mapping[str, Any], key: str, path: str) -> Any:
        value = obj.get(key, _MISSING)
        if value is _MISSING:
            raise RecordFormatError(f"{path}{key}", "missing")
        return value

    @staticmethod
    def rules(spec: Any) -> Rules:
        if not isinstance(spec, str | Mapping):
            raise RecordFormatError(
                "rules",
                'must be a preset name or an object like {"preset": "classic", ...}, '
                f"not {_show(spec)}",
            )
        try:
            return Rules.from_spec(spec)
        except RulesError as err:
            message = str(err).removeprefix(f"{err.option}: ")
            where = "rules" if err.option == "rules" else f"rules.{err.option}"
            raise RecordFormatError(where, message) from None
        except (TypeError, ValueError) as err:
            raise RecordFormatError("rules", str(err)) from None

    @staticmethod
    def players(value: Any) -> tuple[str, ...]:
        if not isinstance(value, list | tuple) or not all(isinstance(name, str) for name in value):
            raise RecordFormatError(
                "players", f"must be a list of seat names (text), not {_show(value)}"
            )
        for seat, name in enumerate(value):
            if not _is_text(name):
                raise RecordFormatError(
                    f"players[{seat}]",
                    f"must be Unicode text, not {_show(name)} (a lone surrogate)",
                )
        return tuple(value)

    def round(self, raw: Any, index: int, rules: Rules) -> RoundRecord:
        path = f"rounds[{index}]"
        if not isinstance(raw, Mapping):
            raise RecordFormatError(path, f"a round is a JSON object, not {_show(raw)}")
        engine = self.required(raw, "engine", f"{path}.")
        if not _is_int(engine):
            raise RecordFormatError(
                f"{path}.engine", f"must be the engine's pip number, not {_show(engine)}"
            )
        starter = raw.get("starter")
        if starter is not None and not _is_int(starter):
            raise RecordFormatError(
                f"{path}.starter", f"must be a seat number or null, not {_show(starter)}"
            )
        if starter is None and index == 0 and rules.first_player == "rotate":
            raise RecordFormatError(
                f"{path}.starter",
                "missing: under these rules the first round's starting seat is chosen at "
                "random, so the record must say which seat started",
            )
        raw_hands = self.required(raw, "hands", f"{path}.")
        if not isinstance(raw_hands, list | tuple):
            raise RecordFormatError(
                f"{path}.hands",
                f"must be a list with one list of tiles per seat, not {_show(raw_hands)}",
            )
        hands = tuple(
            self.tiles(hand, f"{path}.hands[{seat}]") for seat, hand in enumerate(raw_hands)
        )
        boneyard = self.tiles(self.required(raw, "boneyard", f"{path}."), f"{path}.boneyard")
        raw_actions = self.required(raw, "actions", f"{path}.")
        if not isinstance(raw_actions, list | tuple):
            raise RecordFormatError(
                f"{path}.actions", f"must be a list of actions, not {_show(raw_actions)}"
            )
        actions = []
        for i, text in enumerate(raw_actions):
            try:
                seat, action = parse_action(text)
            except ActionFormatError as err:
                raise RecordFormatError(f"{path}.actions[{i}]", str(err)) from None
            actions.append(RecordedAction(seat, action, text))
        return RoundRecord(engine, starter, hands, boneyard, tuple(actions))

    @staticmethod
    def tiles(value: Any, path: str) -> tuple[Tile, ...]:
        if not isinstance(value, list | tuple):
            raise RecordFormatError(path, f"must be a list of tiles, not {_show(value)}")
        out = []
        for i, text in enumerate(value):
            try:
                out.append(parse_tile(text))
            except TileFormatError as err:
                raise RecordFormatError(f"{path}[{i}]", str(err)) from None
        return tuple(out)

    @staticmethod
    def result(value: Any) -> RecordResult | None:
        # optional: left out, there is none. ``null`` is not "absent" here (the format says
        # so of ``starter`` alone): it is a result given without its scores and totals
        if value is _MISSING:
            return None
        if not isinstance(value, Mapping):
            leave_out = " (a record with no result leaves the field out)" if value is None else ""
            raise RecordFormatError(
                "result",
                f'must be an object with "scores" and "totals", not {_show(value)}{leave_out}',
            )
        for key in ("scores", "totals"):
            if key not in value:
                raise RecordFormatError(
                    f"result.{key}", 'missing: a result needs both "scores" and "totals"'
                )
        scores = value["scores"]
        if not isinstance(scores, list | tuple) or not all(
            isinstance(s, list | tuple) and all(_is_int(p) for p in s) for s in scores
        ):
            raise RecordFormatError(
                "result.scores",
                f"must be one list of whole numbers per finished round, not {_show(scores)}",
            )
        totals = value["totals"]
        if not isinstance(totals, list | tuple) or not all(_is_int(p) for p in totals):
            raise RecordFormatError(
                "result.totals", f"must be a list of whole numbers, not {_show(totals)}"
            )
        return RecordResult(tuple(tuple(s) for s in scores), tuple(totals))
