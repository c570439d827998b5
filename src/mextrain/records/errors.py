"""The two ways a record can fail: it is not a record at all, or it breaks the rules."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from mextrain.rules import IllegalActionError, Shortened

__all__ = ["IllegalRecordError", "RecordError", "RecordFormatError", "shorten_numbers"]


class RecordError(ValueError):
    """A record that `mextrain replay` rejects; ``exit_code`` is the command's exit status."""

    exit_code: int = 1
    round: int | None = None
    action: int | None = None
    text: str | None = None
    reason: str = ""

    def error_dict(self) -> dict[str, Any]:
        """The ``error`` object of the format's ``--json`` output."""
        return {
            "round": self.round,
            "action": self.action,
            "text": self.text,
            "reason": self.reason,
        }

    def to_json_dict(self) -> dict[str, Any]:
        """``{"valid": false, "error": {...}}`` as ``mextrain replay --json`` prints it."""
        return {"valid": False, "error": self.error_dict()}


class RecordFormatError(RecordError):
    """The input is not a game record: not JSON, or a field is missing, mistyped or unreadable.

    ``field`` is the path of the field at fault (``rounds[0].hands[2][5]``), or None when the
    document as a whole is at fault. ``reason`` names it.
    """

    exit_code = 2

    def __init__(self, field: str | None, message: str) -> None:
        self.field = field
        self.reason = f"{field}: {message}" if field else message
        super().__init__(self.reason)


class IllegalRecordError(RecordError):
    """A well-formed record that breaks the rules.

    ``round`` and ``action`` are 0-based indices (None where the problem is not in a round,
    or not in an action); ``text`` is the action as the record writes it; ``reason`` is the
    rule broken, in a player's words; ``cause``, the engine's refusal of that action, where
    the engine refused it (its ``code`` and ``params`` say it in any language), and then
    ``players`` the record's seat names.
    """

    exit_code = 1

    def __init__(
        self,
        round: int | None,
        action: int | None,
        text: str | None,
        reason: str,
        cause: IllegalActionError | None = None,
        players: Sequence[str] = (),
    ) -> None:
        self.round = round
        self.action = action
        self.text = text
        self.reason = reason
        self.cause = cause
        #: the record's seat names, where ``cause`` names seats by number
        self.players = tuple(players)
        super().__init__(self.describe())

    def describe(self) -> str:
        """One line naming the round, the action and the rule broken (the action's text
        with a number of more than 40 digits shortened, as the reason writes it; ``text``
        itself is as written)."""
        where = []
        if self.round is not None:
            where.append(f"round {self.round}")
        if self.action is not None:
            where.append(f'action {self.action} "{shorten_numbers(self.text or "")}"')
        if not where:
            return self.reason
        return f"{', '.join(where)}: {self.reason}"


#: a number a message writes out in full, past the 40 digits a message shows of one
_DIGITS = re.compile(r"[0-9]{41,}")


def shorten_numbers(text: str, words: Callable[[str, int], str] | None = None) -> str:
    """``text`` with each run of more than 40 digits written as its first eight and their
    count (``77777777…(3,000 digits)``), as a long number is in a message (`show_number`
    writes one so): a record's action, the engine's reason for refusing one (which writes
    its numbers in full, up to the 4,300 digits Python reads), as replay, the terminal
    and the web page say it. ``words``: how the message's language says the count
    (`Shortened.said`; English without it)."""

    def shortened(m: re.Match[str]) -> str:
        number = Shortened(f"{m.group()[:8]}…", len(m.group()), "digits")
        return number if words is None else number.said(words)

    return _DIGITS.sub(shortened, text)
