"""The engine's errors: each says, in a player's words, what rule was broken."""

from __future__ import annotations

__all__ = ["DealError", "IllegalActionError", "RulesError"]

from .options import RulesError


class IllegalActionError(ValueError):
    """An action the rules do not allow here. The state it was tried on is unchanged."""


class DealError(ValueError):
    """Hands and boneyard that are not a legal deal for the rules and round."""
