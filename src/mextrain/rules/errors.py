"""The engine's errors: each says, in a player's words, what rule was broken."""

from __future__ import annotations

__all__ = ["DealError", "IllegalActionError", "RulesError"]

from .options import RulesError


class IllegalActionError(ValueError):
    """An action the rules do not allow here. The state it was tried on is unchanged.

    ``str(err)`` is an English sentence for players; ``code`` names the rule broken and
    ``params`` holds its details, so that interfaces can say it in the player's language.
    """

    def __init__(self, code: str, message: str, **params: object) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.params = params

    def __reduce__(self) -> tuple[object, ...]:
        return (_rebuild_illegal, (self.code, self.message, self.params))


def _rebuild_illegal(code: str, message: str, params: dict[str, object]) -> IllegalActionError:
    return IllegalActionError(code, message, **params)


class DealError(ValueError):
    """Hands and boneyard that are not a legal deal for the rules and round."""
