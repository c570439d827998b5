"""Lines in the terminal never wrap at a no-break space.

French sets ``: ; ! ?`` and ``»`` apart from the word before them with a no-break space
(U+00A0), and ``«`` from the word after it; French and Finnish set a number's thousands
apart with one ("3 000", U+202F and U+00A0), and "45 %" its percent sign. Rich, and
Textual, which wraps its widgets' text with Rich's `divide_line`, split a line into words
at every character Python's ``\\s`` matches, these included (Rich issues #3545 and #4196),
so a lone "?" or "»", or the "000" of a number, could start a line.

Neither library lets a program say where a line may break: both call
``rich._wrap.divide_line``, which finds the words with the module's pattern ``re_word``.
`keep_no_break_spaces` replaces that one pattern with one that treats the no-break spaces
as part of a word, as Unicode's line breaking does (UAX #14, class GL). It replaces only
the pattern it knows: a Rich that finds words another way is left as it is, and the tests,
which wrap French text through both libraries, say so.

Importing `mextrain.tui` does it, before any widget is drawn."""

from __future__ import annotations

import re
from typing import Final

import rich._wrap

__all__ = ["NO_BREAK_SPACES", "keep_no_break_spaces", "unbroken"]

#: the spaces no line breaks at: no-break space, figure space, narrow no-break space
NO_BREAK_SPACES: Final = "\u00a0\u2007\u202f"


def unbroken(text: str) -> str:
    """``text`` that no line breaks inside: its spaces made no-break spaces (a seat's name
    and its number, "Mestari 4", stay on one line)."""
    return text.replace(" ", "\u00a0")


#: Rich's own pattern: a word, with any whitespace before it (at the start of the text)
#: and after it
_RICH_WORD: Final = r"\s*\S+\s*"
#: the same, a no-break space counting as part of a word, not as a place to break
_WORD: Final = re.compile(rf"[^\S{NO_BREAK_SPACES}]*[\S{NO_BREAK_SPACES}]+[^\S{NO_BREAK_SPACES}]*")


def keep_no_break_spaces() -> bool:
    """Make Rich (and Textual) wrap lines at breaking spaces only; whether they now do so
    this way (False: this Rich finds its words another way, left alone). Once is enough,
    again changes nothing."""
    current = getattr(rich._wrap, "re_word", None)
    if current is _WORD:
        return True
    if not isinstance(current, re.Pattern) or current.pattern != _RICH_WORD:
        return False
    rich._wrap.re_word = _WORD
    return True
