"""Translations: English, French, Italian and Finnish.

Strings live in JSON message catalogs, one file per namespace and language:
``catalogs/<namespace>.<lang>.json`` (``game`` for the game's own words and the rule
errors, shared by every interface; ``tui`` and ``web`` for each interface). Keys are
dotted names, values are `str.format` templates. A string with a number in it has one key
per plural form, ``<key>.one`` and ``<key>.other`` (CLDR's categories: French says
"0 domino", English "0 tiles"), and `Translator.plural` picks the form for the number. A key
missing in one language falls back to English, then to the key itself, so a gap shows up
as text, never as a crash; the test suite checks that every catalog has every English key
with the same placeholders.
"""

from __future__ import annotations

import errno
import functools
import json
import math
import os
import re
import string
import unicodedata
from collections.abc import Mapping
from decimal import ROUND_HALF_UP, Decimal
from importlib import resources
from typing import Final

from mextrain.rules import MEXICAN, IllegalActionError, Rules, RulesError, Shortened

__all__ = [
    "DEFAULT_LANGUAGE",
    "LANGUAGES",
    "LANGUAGE_NAMES",
    "NAMESPACES",
    "Translator",
    "accepted_language",
    "accepted_values",
    "bot_error_text",
    "catalog",
    "detect_language",
    "error_text",
    "is_visible_text",
    "latin_key",
    "length_key",
    "length_words",
    "name_key",
    "name_keys",
    "normalise_language",
    "plural_form",
    "rules_error_text",
    "rules_in_short",
    "same_name",
    "terminal_safe",
    "whole_percent",
]

LANGUAGES: Final = ("en", "fr", "it", "fi")
DEFAULT_LANGUAGE: Final = "en"
LANGUAGE_NAMES: Final = {"en": "English", "fr": "Français", "it": "Italiano", "fi": "Suomi"}


def _namespaces() -> tuple[str, ...]:
    files = resources.files(__package__).joinpath("catalogs")
    names = {entry.name.split(".")[0] for entry in files.iterdir() if entry.name.endswith(".json")}
    return tuple(sorted(names))


NAMESPACES: Final = _namespaces()


def normalise_language(code: str | None) -> str | None:
    """``"fr_FR.UTF-8"``, ``"fr-CA"``, ``"FR"`` → ``"fr"``; None when not one of ours."""
    if not code:
        return None
    base = code.strip().replace("-", "_").split(".")[0].split("_")[0].lower()
    return base if base in LANGUAGES else None


def detect_language(environ: Mapping[str, str] | None = None) -> str:
    """The language of the user's locale (``LC_ALL``, ``LC_MESSAGES``, ``LANG``,
    ``LANGUAGE``), English when none of ours is set."""
    env = os.environ if environ is None else environ
    for var in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        for part in env.get(var, "").split(":"):
            lang = normalise_language(part)
            if lang:
                return lang
    return DEFAULT_LANGUAGE


#: a weight's value (``q=0.8``): digits with a decimal point or not; no sign, exponent,
#: ``inf`` or ``nan``
_Q_VALUE = re.compile(r"\d+(?:\.\d*)?|\.\d+")


def accepted_values(header: str | None) -> list[tuple[str, float]]:
    """The values an HTTP header of weighted values (``Accept``, ``Accept-Language``)
    names, in its order, each with its weight, ``q`` (its value's other parameters are left
    out): 1 without one, 0 -- not wanted -- for ``q=0`` in any spelling (``q=0.0``,
    ``q=0.000``, ``Q = 0``) and for one that is no number from 0 to 1 (``q=-1``,
    ``q=1e-3``, ``q=nan``, ``q=high``: a weight that cannot be read never makes a value
    wanted); a weight over 1 is read as 1. A wildcard (``*``, ``*/*``, ``text/*``) is a
    value like any other, for the caller to read. One reading for every such header the
    web server reads."""
    values: list[tuple[str, float]] = []
    for part in (header or "").split(","):
        value, *params = (piece.strip() for piece in part.split(";"))
        if not value:
            continue
        weight = 1.0
        for param in params:
            name, _, given = param.partition("=")
            if name.strip().lower() == "q":
                given = given.strip()
                weight = min(float(given), 1.0) if _Q_VALUE.fullmatch(given) else 0.0
        values.append((value, weight))
    return values


def accepted_language(header: str | None) -> str:
    """The language of ours a browser asks for first in its ``Accept-Language`` header
    (``"de-CH, fr;q=0.9, en;q=0.8"`` → ``"fr"``), as the page picks one from the
    browser's list of languages; English when it asks for none of ours (a wildcard names
    none of ours)."""
    asked = [(weight, tag) for tag, weight in accepted_values(header) if weight > 0]
    for _, tag in sorted(asked, key=lambda pair: -pair[0]):  # (stable: in order at equal q)
        lang = normalise_language(tag)
        if lang:
            return lang
    return DEFAULT_LANGUAGE


@functools.cache
def catalog(namespace: str, lang: str) -> dict[str, str]:
    """One catalog file as a dict (empty if the file does not exist)."""
    path = resources.files(__package__).joinpath("catalogs", f"{namespace}.{lang}.json")
    if not path.is_file():
        return {}
    data = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise ValueError(f"catalog {namespace}.{lang}.json is not an object")
    return {str(k): str(v) for k, v in data.items()}


def _fill(template: str, params: Mapping[str, object], lang: str = DEFAULT_LANGUAGE) -> str:
    """A template with its placeholders filled; as it is when they do not fit, so a
    broken translation shows as text, never as a crash. Italian joins a preposition to the
    article a train's name starts with ("su" + "il treno messicano": "sul treno
    messicano") and writes "ad" for "a" before an a ("tocca ad Anna"), French elides "de"
    before a vowel ("de Émile": "d'Émile"), as the browser's copy of this does. A value
    too long to quote whole (`Shortened`: a long text refused, a number of thousands of
    digits) says its length in the language."""
    pieces: list[tuple[str, str | None]] = []
    try:
        for literal, field, spec, conversion in _FORMATTER.parse(template):
            value = None
            if field is not None:
                found = _FORMATTER.get_field(field, (), params)[0]
                if isinstance(found, Shortened):  # (its length in the language's words)
                    found = found.said(Translator(lang).count_words)
                value = _FORMATTER.format_field(
                    _FORMATTER.convert_field(found, conversion), spec or ""
                )
            pieces.append((literal, value))
    except (KeyError, IndexError, ValueError, AttributeError, TypeError):
        return template
    # words meet within the template's own text and where it meets a value, never inside
    # a value: a name or a player's words stay as they were written ("de Anna" said at
    # the table is not "d'Anna")
    out = []
    for literal, value in pieces:
        literal = _contract(literal, lang)
        if value is not None:
            literal, value = _join(literal, value, lang)
            out.append(literal + value)
        else:
            out.append(literal)
    return "".join(out)


_FORMATTER: Final = string.Formatter()
_SU_IL: Final = re.compile(r"\b([Ss])u il\b")
_SU_END: Final = re.compile(r"\b([Ss])u $")
_IL_START: Final = re.compile(r"il\b")
#: French elides "de" before a vowel ("le train d'Émile"), a name set apart by U+2068
#: included, a name of another language too ("d'Åsa", "d'Äänekoski"); not before y or h,
#: which go either way ("de Yannick", "de Hugo")
_VOWEL: Final = "[AEIOUÀÁÂÄÅÆÉÈÊËÌÍÎÏÒÓÔÖØŒÙÚÛÜaeiouàáâäåæéèêëìíîïòóôöøœùúûü]"
#: Italian writes "ad" for "a" before a word that starts with an a ("tocca ad Anna")
_A_END: Final = re.compile(r"\b([Aa]) $")
_A_START: Final = re.compile("\u2068?[AÀÁÂÄÅaàáâäå]")
_DE_VOWEL: Final = re.compile(rf"\b([Dd])e (\u2068?)(?={_VOWEL})")
_DE_END: Final = re.compile(r"\b([Dd])e $")
_VOWEL_START: Final = re.compile(rf"\u2068?{_VOWEL}")


def _contract(text: str, lang: str) -> str:
    """Words that meet within one piece of text: Italian "su il" is "sul", French "de"
    elides before a vowel."""
    if lang == "it":
        return _SU_IL.sub(r"\1ul", text)
    if lang == "fr":
        return _DE_VOWEL.sub(r"\1'\2", text)
    return text


def _join(literal: str, value: str, lang: str) -> tuple[str, str]:
    """The same where a template's text meets the value put after it ("su " + "il treno
    messicano", "a " + "Anna", "de " + "Émile")."""
    if lang == "it" and (m := _SU_END.search(literal)) and _IL_START.match(value):
        return literal[: m.start()] + m.group(1) + "ul", value[2:]
    if lang == "it" and (m := _A_END.search(literal)) and _A_START.match(value):
        return literal[: m.start()] + m.group(1) + "d ", value
    if lang == "fr" and (m := _DE_END.search(literal)) and _VOWEL_START.match(value):
        return literal[: m.start()] + m.group(1) + "'", value
    return literal, value


def plural_form(lang: str, count: int) -> str:
    """CLDR's cardinal plural category of a whole number: ``"one"`` or ``"other"`` (our four
    languages have only these two; French counts 0 as one, the others only 1)."""
    if lang == "fr":
        return "one" if count in (0, 1) else "other"
    return "one" if count == 1 else "other"


#: how each language sets a whole number's thousands apart, and from how many digits
#: (CLDR's grouping separator and minimum grouping digits, as the browser writes them)
_GROUPING: Final = {"en": (",", 4), "fr": ("\u202f", 4), "it": (".", 5), "fi": ("\u00a0", 4)}

#: languages that write a decimal comma
_DECIMAL_COMMA: Final = frozenset({"fr", "it", "fi"})
#: what comes between a percentage's number and its sign, as the browser's
#: ``Intl.NumberFormat`` writes it (CLDR): a no-break space in French and Finnish, so that
#: a line never wraps before the sign; nothing in English and Italian
_PERCENT_SPACE: Final = {"fr": "\u00a0", "fi": "\u00a0"}


def whole_percent(share: float) -> int:
    """A share (0 to 1) as a whole percentage, rounded as the browser's
    ``Intl.NumberFormat`` rounds it: the share as its shortest decimal writes it (0.145,
    not the binary 0.14499…), a half away from zero (1/8 is 13, where Python's rounding to
    even says 12)."""
    return int((Decimal(repr(float(share))) * 100).quantize(Decimal(1), ROUND_HALF_UP))


class Translator:
    """``t("game.draw")`` in one language, with English as the fallback."""

    __slots__ = ("lang",)

    def __init__(self, lang: str | None = None) -> None:
        self.lang = normalise_language(lang) or DEFAULT_LANGUAGE

    def has(self, key: str) -> bool:
        namespace = key.split(".", 1)[0]
        return key in catalog(namespace, self.lang) or key in catalog(namespace, "en")

    def __call__(self, key: str, **params: object) -> str:
        namespace = key.split(".", 1)[0]
        template = catalog(namespace, self.lang).get(key)
        if template is None:
            template = catalog(namespace, DEFAULT_LANGUAGE).get(key, key)
        return _fill(template, params, self.lang)

    def plural(self, key: str, count: int, /, **params: object) -> str:
        """``t.plural("tui.hand.tiles", 1)`` → "1 tile in hand": the template of ``key``'s
        plural form for ``count`` (``{count}`` in it), English as the fallback. ``count``
        may be given as written too, the form still chosen by the number: ``t.plural(key,
        1000, count=t.whole(1000))`` says "1 000" in French."""
        return _fill(self._plural_template(key, count), {"count": count, **params}, self.lang)

    def _plural_template(self, key: str, count: int) -> str:
        namespace = key.split(".", 1)[0]
        for lang in (self.lang, DEFAULT_LANGUAGE):
            strings = catalog(namespace, lang)
            template = strings.get(f"{key}.{plural_form(lang, count)}", strings.get(f"{key}.other"))
            if template is not None:
                return template
        return key

    def whole(self, number: int) -> str:
        """A whole number as the language writes it, its thousands set apart as the
        browser's ``Intl.NumberFormat`` sets them (CLDR): "3,000" in English, "3 000" in
        French (a narrow no-break space) and Finnish (a no-break space), "3000" and
        "30.000" in Italian (which groups from five digits)."""
        digits = str(abs(number))
        separator, fewest = _GROUPING.get(self.lang, _GROUPING[DEFAULT_LANGUAGE])
        if len(digits) >= fewest:
            head = len(digits) % 3 or 3
            groups = [digits[:head]] + [digits[i : i + 3] for i in range(head, len(digits), 3)]
            digits = separator.join(groups)
        return f"-{digits}" if number < 0 else digits

    def number(self, value: float) -> str:
        """A number as the language writes it, whole or not, its shortest decimal (0.1,
        never 0.1000000000000000055) without an exponent: "1,000,000" and "0.5" in
        English, "1 000 000" and "0,5" in French (`whole` for the part before the
        point, the language's decimal sign after it). A bound of a command line's range
        is written here, in its --help and in its refusal."""
        if isinstance(value, int):
            return self.whole(value)
        if not math.isfinite(value):
            return str(value)
        if value.is_integer():
            return self.whole(int(value))
        sign = "-" if value < 0 else ""
        head, _, tail = format(Decimal(repr(abs(value))), "f").partition(".")
        point = "," if self.lang in _DECIMAL_COMMA else "."
        return f"{sign}{self.whole(int(head))}{point}{tail}"

    def count_words(self, unit: str, count: int) -> str:
        """The length of a text or a number too long to quote whole, in this language
        (``"5 001 caractères"``; ``unit``: ``"characters"`` or ``"digits"``), as
        `mextrain.rules.Shortened.said` takes it."""
        template = self._plural_template(f"game.shortened.{unit}", count)
        return _fill(template, {"count": self.whole(count)}, self.lang)

    def decimal(self, value: float, places: int = 1) -> str:
        """``value`` with ``places`` decimals, in the language's way: "15.3" in English,
        "15,3" in French, Italian and Finnish."""
        text = f"{value:.{places}f}"
        return text.replace(".", ",") if self.lang in _DECIMAL_COMMA else text

    def percent(self, share: float) -> str:
        """A share (0 to 1) as a whole percentage (`whole_percent`), as the browser's
        ``Intl.NumberFormat`` writes it: "40%" in English and Italian, "40 %" in French
        and Finnish (a no-break space before the sign). Every percentage the terminal and
        the command line show is written here."""
        return f"{whole_percent(share)}{_PERCENT_SPACE.get(self.lang, '')}%"

    def percent_range(self, low: float, high: float) -> str:
        """Two shares as a range of whole percentages, the sign once: "6-79%", French
        "6-79 %"."""
        return f"{whole_percent(low)}-{self.percent(high)}"

    def train_label(self, train: int, actor: int, names: Mapping[int, str] | None = None) -> str:
        """ "the Mexican train", "its own train" (the actor's) or "Ana's train"."""
        if train == MEXICAN:
            return self("game.train.mexican_the")
        if train == actor:
            return self("game.train.own_the")
        if names and train in names:
            return self("game.train.of", name=names[train])
        # a seat without a name: "le train du joueur 2", not "le train de Joueur 2"
        return self("game.train.of_seat", number=train + 1)

    def seat_name(self, seat: int, names: Mapping[int, str] | None = None) -> str:
        if names and seat in names:
            return names[seat]
        return self("game.seat", number=seat + 1)

    def all(self, namespace: str) -> dict[str, str]:
        """Every string of a namespace in this language (English filling the gaps), for a
        browser to load at once."""
        merged = dict(catalog(namespace, DEFAULT_LANGUAGE))
        merged.update(catalog(namespace, self.lang))
        return merged


def length_key(rules: Rules) -> tuple[str, int | None, dict[str, str]]:
    """The words for a game's rounds and their engines, as the rules in short say them:
    the ``game.rules_length`` key, the count its plural form is chosen by (None: a single
    round's key, which has no plural forms) and its other parameters. A set's full game
    ("A full game is 13 rounds, from the 12-12 engine down to 0-0"; a double-6 set's: 7
    rounds from 6-6), a run down or up a pip a round ("This game is 4 rounds, from the
    12-12 engine down to 9-9"), the engines one by one for any other sequence, and a single
    round's one engine. The terminal says them with `length_words`; the web server sends
    them to the page, which says them in its own language."""
    engines = rules.rounds
    count = len(engines)
    first, last = (f"{pip}-{pip}" for pip in (engines[0], engines[-1]))
    if count == 1:  # (not "from the 12-12 engine down to 12-12")
        return "game.rules_length.single", None, {"engine": first}
    if engines == tuple(range(rules.max_pip, -1, -1)):
        return "game.rules_length.full", count, {"first": first}
    if engines == tuple(range(engines[0], engines[-1] - 1, -1)):
        return "game.rules_length.down", count, {"first": first, "last": last}
    if engines == tuple(range(engines[0], engines[-1] + 1)):
        return "game.rules_length.up", count, {"first": first, "last": last}
    listed = ", ".join(f"{pip}-{pip}" for pip in engines)
    return "game.rules_length.list", count, {"engines": listed}


def length_words(rules: Rules, t: Translator) -> str:
    """A game's rounds and their engines in words (`length_key`)."""
    key, count, params = length_key(rules)
    return t(key, **params) if count is None else t.plural(key, count, **params)


def rules_in_short(rules: Rules | None, t: Translator) -> str:
    """The rules in short (``game.rules_short``, the browser's too), whose first words say
    a full game's 13 rounds from the 12-12 engine down to 0-0: for other rounds (a double-6
    set, ``rounds=4``, a sequence of one's own), those words say this game's."""
    short = t("game.rules_short")
    if rules is None:
        return short
    full = length_words(Rules.preset(rules.preset_name), t)
    said = length_words(rules, t)
    if said == full:
        return short
    if short.startswith(full):
        return said + short[len(full) :]
    # (a translation whose text starts otherwise: this game's length before it)
    return said + ".\n" + short


def error_text(
    err: IllegalActionError,
    lang: str | None = None,
    names: Mapping[int, str] | None = None,
    reader: int | None = None,
    *,
    spoken: bool = False,
) -> str:
    """A rule error in the player's language, naming players by ``names`` (seat → name).

    ``reader``: the seat the message is shown to. Told of its own attempt, a player reads
    it in the second person ("You have a tile that fits and must play it.", its train
    "your train": ``game.error_you.CODE``), not as a record or a replay names a seat
    ("Ana has a tile that fits...").

    ``spoken``: the words a screen reader is given, each tile in words ("You can't play
    tile 0 and 1 on your train", ``game.error_tile_said``), since "0-1" may be read "0
    minus 1"; shown, and in a terminal, a tile is written as the table writes it."""
    t = Translator(lang)
    key = f"game.error.{err.code}"
    if not t.has(key):
        return str(err)
    params: dict[str, object] = dict(err.params)
    for field in _TILE_FIELDS:
        if field in params:
            # a pip too long for Python to read is written shortened, its length in
            # English ("5-77777777…(5,000 digits)"): in the message's language here
            params[field] = Shortened.said_within(str(params[field]), t.count_words)
    said: list[str] = []  # the tiles in words
    if spoken:
        for field in _TILE_FIELDS:
            if field in params:
                a, _, b = str(params[field]).partition("-")
                said.append(t("game.error_tile_said", a=a, b=b))
                params[field] = said[-1]
    actor = int(params.get("seat", 0))  # type: ignore[call-overload]
    yours = reader is not None and reader == actor and t.has(f"game.error_you.{err.code}")
    if yours:
        key = f"game.error_you.{err.code}"
    params["who"] = t.seat_name(actor, names)
    if "current" in params:
        params["current"] = t.seat_name(int(params["current"]), names)  # type: ignore[call-overload]
    if "train" in params:
        train = int(params["train"])  # type: ignore[call-overload]
        if train == actor and (yours or err.code == "open_double_first"):
            # the reader's own train ("your"; an open double's sentence has no subject to
            # own it either)
            params["train"] = t("game.train.own")
        else:
            params["train"] = t.train_label(train, actor, names)
    text = t(key, **params)
    if text.startswith(tuple(said)):  # "Tile 0 and 13 is not in the double-12 set."
        return text[:1].upper() + text[1:]
    return text


#: the parameters of a rule error that are tiles ("0-1")
_TILE_FIELDS: Final = ("tile", "drawn", "double")


def bot_error_text(err: ValueError, lang: str | None = None) -> str:
    """A bad bot spec's error (`mextrain.bots.BotSpecError`, which this layer may not
    import: read by its ``code`` and ``params``) in the player's language
    (``game.bot_error.CODE``); the English text if the catalogue has no words for it. A
    bot's own complaint about a value (``bad_parameters``: "iterations must be at least
    1") stays in English inside it."""
    t = Translator(lang)
    code = getattr(err, "code", None)
    params = getattr(err, "params", None)
    key = f"game.bot_error.{code}"
    if not isinstance(code, str) or not isinstance(params, dict) or not t.has(key):
        return str(err)
    return t(key, **params)


#: the operating system's errors people meet saving and reading games, by errno: the key
#: of their words (``game.os_error.KEY``)
_OS_ERRORS: Final = {
    number: key
    for name, key in (
        ("EACCES", "denied"),
        ("EPERM", "denied"),
        ("ENOSPC", "no_space"),
        ("EDQUOT", "no_space"),  # (a quota: full for this user)
        ("EROFS", "read_only"),
        ("ENOENT", "not_found"),
        ("ENOTDIR", "not_a_folder"),
        ("EISDIR", "is_a_folder"),
        ("ENAMETOOLONG", "too_long"),
    )
    if (number := getattr(errno, name, None)) is not None  # (not every system has each)
}


def os_error_text(err: OSError, lang: str | None = None) -> str:
    """Why the system refused a file, in the player's language for the usual reasons
    (permission, a full or read-only disk, a missing folder); else the system's own
    words (``strerror``, which follow its locale)."""
    key = _OS_ERRORS.get(err.errno) if err.errno is not None else None
    if key is not None:
        return Translator(lang)(f"game.os_error.{key}")
    return err.strerror or str(err) or type(err).__name__


def rules_error_text(err: RulesError, lang: str | None = None) -> str:
    """An invalid rule set's error in the player's language: ``"option: what is wrong"``
    (the option by the name a rules spec gives it)."""
    t = Translator(lang)
    key = f"game.rules_error.{err.code}"
    if not t.has(key):
        return str(err)
    return t("game.rules_error_line", option=err.option, text=t(key, **err.params))


#: invisible characters that belong inside what you see: the joiners and selectors of
#: emoji (a family, a flag, a skin tone are one symbol made of several characters)
_JOINERS: Final = frozenset("\u200c\u200d\ufe0e\ufe0f") | frozenset(
    chr(c) for c in range(0xE0020, 0xE0080)
)


#: the zero-width joiner and non-joiner: they join what stands on both sides of them
_ZW: Final = frozenset("\u200c\u200d")


#: characters Unicode calls printable that show nothing: fillers and blank patterns
#: ("Ana" + U+3164 would read as a second "Ana")
_BLANKS: Final = frozenset("\u115f\u1160\u17b4\u17b5\u2800\u3164\uffa0")
#: accents stacked on one letter: a few are writing ("ệ" decomposed has two), a pile is
#: "zalgo" text drawn across the lines around it
MAX_MARKS_IN_A_ROW: Final = 3


#: characters that turn text round on the screen (a name could reverse the line after it)
_BIDI: Final = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def terminal_safe(text: str, keep: str = "") -> str:
    """``text`` as it may reach a terminal: control characters (escape sequences, line
    breaks, a name's bell), lone surrogates and direction overrides -- which a record's
    names may hold, as JSON allows -- are written as ``\\uXXXX`` escapes; everything
    else, emoji and their joiners included, is kept, and so are the characters in
    ``keep`` (``"\\n"``: text of several lines)."""
    return "".join(
        f"\\u{ord(c):04x}"
        if c not in keep and (c in _BIDI or unicodedata.category(c) in ("Cc", "Cs"))
        else c
        for c in text
    )


def is_visible_text(text: str) -> bool:
    """Whether every character of ``text`` is one you can see, or an emoji's joiner
    beside them (``"👨‍👩‍👧"`` is), with something to see at all: no control characters,
    no bidirectional or other format characters (U+202E would turn a name round), no
    blank fillers and no more than `MAX_MARKS_IN_A_ROW` accents on one letter."""
    seen = False
    marks = 0
    previous = ""
    for ch in text:
        if ch in _JOINERS:
            # inside what you see only: never first; a joiner (U+200C, U+200D) joins two
            # characters you see, so it is never last and nothing invisible follows it
            # ("Ana" + U+200D, or + U+200D U+FE0F, would pass for "Ana")
            if not previous or previous in _ZW:
                return False
            previous = ch
            continue
        previous = ch
        if not ch.isprintable() or ch in _BLANKS:
            return False
        if unicodedata.category(ch) in ("Mn", "Me"):
            marks += 1
            if marks > MAX_MARKS_IN_A_ROW:
                return False
            continue
        marks = 0
        seen = seen or not ch.isspace()
    return seen and previous not in _ZW


#: Unicode's default-ignorable code points (DerivedCoreProperties.txt): characters that
#: show nothing where a font does not know them -- the grapheme joiner U+034F, variation
#: selectors, zero-width spaces and joiners, fillers, tags
_IGNORABLE: Final = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)


def _ignorable(ch: str) -> bool:
    code = ord(ch)
    return any(low <= code <= high for low, high in _IGNORABLE)


#: letters of other scripts that look like Latin ones (from UTS #39's confusables:
#: Cyrillic, Greek and Armenian letters, and Latin's own dotless i and script a and g),
#: as case folding leaves them, each by the look of its capital ("н": "Н" is "H")
_CAPITAL_LOOK = str.maketrans(
    {
        # Cyrillic
        "а": "a", "в": "b", "е": "e", "і": "i", "ј": "j", "к": "k", "м": "m", "н": "h",
        "о": "o", "р": "p", "с": "c", "т": "t", "у": "y", "х": "x", "ѕ": "s", "ԁ": "d",
        "һ": "h", "ӏ": "l", "ԛ": "q", "ԝ": "w", "ү": "y",
        # Greek
        "α": "a", "β": "b", "ε": "e", "ζ": "z", "η": "h", "ι": "i", "κ": "k", "μ": "m",
        "ν": "n", "ο": "o", "ρ": "p", "τ": "t", "υ": "y", "χ": "x", "ϲ": "c", "ϳ": "j",
        # Armenian
        "օ": "o", "ս": "u", "հ": "h", "ո": "n", "ց": "g", "զ": "q",
        # Latin
        "ı": "i", "ɑ": "a", "ɡ": "g", "ɩ": "i",
    }
)  # fmt: skip
#: small letters whose own look is another Latin letter than their capital's (Greek "ν"
#: looks like "v", its capital "Ν" like "N"), mapped before case folding
_SMALL_LOOK = str.maketrans(
    {"ν": "v", "υ": "u", "η": "n", "γ": "y", "п": "n", "г": "r", "ѵ": "v"}
)  # fmt: skip


def _shown(name: str) -> str:
    """``name`` as it shows: its compatibility forms folded, the characters that show
    nothing left out, decomposed (so that a look-alike under an accent is mapped too)."""
    folded = unicodedata.normalize("NFKC", name)
    kept = "".join(ch for ch in folded if not _ignorable(ch))
    return unicodedata.normalize("NFD", kept)


def name_key(name: str) -> str:
    """What tells two names apart, as one key (for a table of names, such as the talk's
    limits): case, characters that show nothing (an emoji's joiners, variation selectors,
    U+034F), the compatibility forms of letters and letters of other scripts that look like
    Latin capitals do not ("Ana", "ana" + U+200D, "Ana" + U+034F, full-width "Ａｎａ" and
    "Аnа" with Cyrillic "А" and "а" are one name). Accents count, on look-alikes too ("ё"
    is "ë", not "e"). `same_name` catches small look-alikes too."""
    return unicodedata.normalize("NFC", _shown(name).casefold().translate(_CAPITAL_LOOK))


#: Latin's own look-alikes (from UTS #39's confusables, those most typefaces share): "I",
#: "l", "1" and "|"; "O", "o" and "0"; "rn" and "m"; "vv" and "w" -- each group read as
#: one sign that no name's other keys hold (a letter outside every name's case folding
#: would do; these are the look's own), so that "Ian" and "lan" are one name but not
#: "Ian" and "LAN"
_LATIN_LOOK: Final = {
    "I": "\u01c0", "l": "\u01c0", "1": "\u01c0", "|": "\u01c0",
    "O": "\u1d0f", "o": "\u1d0f", "0": "\u1d0f",
    "rn": "\u0271", "m": "\u0271", "vv": "\u028d", "w": "\u028d",
}  # fmt: skip
_LATIN_LOOK_RE: Final = re.compile("|".join(sorted(map(re.escape, _LATIN_LOOK), key=len)[::-1]))


def name_keys(name: str) -> frozenset[str]:
    """Every key under which ``name`` reads as another: `name_key`'s; one where small
    letters of other scripts are read by their own look ("Eνa" with a Greek "ν" is "Eva");
    and one where Latin's own look-alikes are ("Ian" and "lan", "B0b" and "Bob", "Arnie"
    and "Amie"). Two names are one (`same_name`) when they share a key: one key cannot do
    it all, since "Анна" and "АННА" are one name, and "АННА" reads "AHHA"."""
    own = _shown(name).translate(_SMALL_LOOK).casefold().translate(_CAPITAL_LOOK)
    return frozenset({name_key(name), unicodedata.normalize("NFC", own), latin_key(name)})


def latin_key(name: str) -> str:
    """`name_key` with Latin's own look-alikes read as one ("Ian" and "lan", "B0b" and
    "Bob", "Arnie" and "Amie"); one of `name_keys`."""
    latin = _LATIN_LOOK_RE.sub(lambda m: _LATIN_LOOK[m.group()], _shown(name))
    return unicodedata.normalize("NFC", latin.casefold().translate(_CAPITAL_LOOK))


def same_name(a: str, b: str) -> bool:
    """Whether two names would read as one at a table (see `name_keys`)."""
    return bool(name_keys(a) & name_keys(b))
