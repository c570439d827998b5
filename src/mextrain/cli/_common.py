"""What the commands share: option types, and text made safe for a terminal."""

from __future__ import annotations

import math
from typing import Any

import click

from mextrain.i18n import terminal_safe

__all__ = ["FiniteFloat", "terminal_safe"]


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
