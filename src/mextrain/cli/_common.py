"""What the commands share: option types, and text made safe for a terminal."""

from __future__ import annotations

import math
import sys
from typing import Any

import click

from mextrain.i18n import terminal_safe

__all__ = ["FiniteFloat", "has_terminal", "terminal_safe"]


class FiniteFloat(click.FloatRange):
    """A number from ``min`` up, and a real one: ``nan`` and ``inf`` are refused (a bot
    delay of ``inf`` would stop every game)."""

    name = "number"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        # finite first: "inf is not a finite number" says more than a range would
        number = click.FLOAT.convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value} is not a finite number", param, ctx)
        return super().convert(number, param, ctx)


def has_terminal() -> bool:
    """Whether keys come from a terminal and the screen goes to one (the full-screen
    commands need both)."""
    return sys.stdin.isatty() and sys.stdout.isatty()
