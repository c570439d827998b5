"""What the commands share: option types, and text made safe for a terminal."""

from __future__ import annotations

import math
import unicodedata
from typing import Any

import click

__all__ = ["FiniteFloat", "terminal_safe"]


class FiniteFloat(click.FloatRange):
    """A number from ``min`` up, and a real one: ``nan`` and ``inf`` are refused (a bot
    delay of ``inf`` would stop every game)."""

    name = "number"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value} is not a finite number", param, ctx)
        return number


#: characters that turn text round on the screen (a name could reverse the line after it)
_BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


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
