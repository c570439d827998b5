"""Typed messages: what a browser may send, checked field by field before anything else.

Every client message is one JSON object whose ``type`` picks its model; unknown fields,
wrong types and oversized values are refused (``extra="forbid"``). The server's own
messages are plain dicts built in `mextrain.web.tables` (each seat's filtered view).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Annotated, Any, Final, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    JsonValue,
    TypeAdapter,
    ValidationError,
    model_validator,
)
from pydantic_core import PydanticCustomError

from mextrain.i18n import LANGUAGES, Translator, is_visible_text, latin_key, name_keys
from mextrain.rules import show_text
from mextrain.web.tables import MAX_TURN_TIME

__all__ = [
    "CHAT_PHRASES",
    "ActionMessage",
    "BackMessage",
    "ChatMessage",
    "ClientMessage",
    "CreateTable",
    "HelloMessage",
    "HintMessage",
    "JoinTable",
    "LangMessage",
    "LeaveMessage",
    "MessageError",
    "NewSeatLinkMessage",
    "PingMessage",
    "RematchMessage",
    "StartMessage",
    "UndoMessage",
    "field_path",
    "parse_client_message",
    "validation_reason",
]


def _bot_like() -> re.Pattern[str]:
    """Names the page gives bots in any language ("Bot 2", "Robot 2", "Botti 2"), from
    the catalogues: a person may not take one, or the table would show two bots."""
    words = set()
    for lang in LANGUAGES:
        label = Translator(lang)("web.bot_short", number="\0")
        word = label.split("\0")[0].strip()
        words |= {re.escape(word), re.escape(latin_key(word))}  # "B0t 2" too
    digits = re.escape(latin_key("0123456789"))
    return re.compile(rf"^(?:{'|'.join(sorted(words))})\s*[\d{digits}]+\b", re.IGNORECASE)


_BOT_LIKE: Final = _bot_like()


def _shown_name(name: str) -> str:
    """A name as everyone will see it: no space around it, and every character one you
    can see (no control, format or bidirectional characters: U+202E could make a name
    read backwards; an emoji's joiners are fine), as the terminal game asks too; and not
    a bot's."""
    name = name.strip()
    if not is_visible_text(name):
        raise ValueError("a name is 1 to 24 characters you can see")
    # (in look-alike letters too: "Rоbot 2", "Ｂｏｔ ２")
    if any(_BOT_LIKE.match(key) for key in name_keys(name)):
        # its own error type: the refusal's code (`bot_name`) tells the page which words
        raise PydanticCustomError(
            "bot_name", "{name} is what bots are called here: choose another name", {"name": name}
        )
    return name


Name = Annotated[
    str,
    Field(min_length=1, max_length=24, pattern=r"^[^\x00-\x1f<>]+$"),
    AfterValidator(_shown_name),
]
SeatSpec = Annotated[str, Field(pattern=r"^(open|bot:[a-z][a-z0-9_]{0,23})$")]


#: a position number: a JSON integer, never "3", true or 3.0
Version = Annotated[int, Field(ge=0, strict=True)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=True)


class HelloMessage(_Strict):
    """First message of a connection: a seat token (none for a spectator) and a language."""

    type: Literal["hello"]
    token: Annotated[str, Field(min_length=16, max_length=64)] | None = None
    lang: Annotated[str, Field(max_length=16)] | None = None


class ActionMessage(_Strict):
    """A move of the connection's own seat: ``5-12@M``, ``5-12@2``, ``draw`` or ``pass``,
    made in the position numbered ``version`` (a stale version changes nothing)."""

    type: Literal["action"]
    move: Annotated[
        str, Field(min_length=4, max_length=12, pattern=r"^(draw|pass|[0-9]+-[0-9]+@(M|[0-9]+))$")
    ]
    version: Version


class StartMessage(_Strict):
    """Start the game now: seats nobody has taken are given to bots."""

    type: Literal["start"]


class HintMessage(_Strict):
    type: Literal["hint"]
    version: Version


class PingMessage(_Strict):
    type: Literal["ping"]


class BackMessage(_Strict):
    """The player is back: a seat a bot plays since its time ran out turn after turn is
    theirs again (see `Table.back`)."""

    type: Literal["back"]


class LangMessage(_Strict):
    """The page now reads in ``lang``: the server's words to this connection (a refused
    move's reason) follow it, without connecting again (which others would see as going
    offline for a moment, and which would drop a move sent meanwhile)."""

    type: Literal["lang"]
    lang: Annotated[str, Field(max_length=16)]


class LeaveMessage(_Strict):
    """Leave the table for good: the seat is open again before the start, and played by a
    bot that anyone arriving late may take over once the game is in play."""

    type: Literal["leave"]


class UndoMessage(_Strict):
    """Take back this seat's latest move of the round, and the bots' replies after it,
    made in the position numbered ``version``: alone against bots only (`Table.undo`)."""

    type: Literal["undo"]
    version: Version


class NewSeatLinkMessage(_Strict):
    """Give this seat a new token, so that its old link (shared by mistake, or on a device
    lost) opens it no more: this connection keeps the seat, every other one with the old
    token only watches from then on."""

    type: Literal["new_seat_link"]


#: the stock phrases of the table talk: each reader sees them in their own language
#: (``web.chat.phrase.*``), so a table of several languages can still greet and thank
CHAT_PHRASES: Final = (
    "hello",
    "good_luck",
    "your_turn",
    "nice_move",
    "oops",
    "thanks",
    "good_game",
)


#: what typing and pasting put in a line that shows as a plain space, or as nothing (a
#: soft hyphen, the marks that pasted Arabic or Hebrew carries): made plain, not refused
_PLAIN: Final = str.maketrans(
    {"\t": " ", "\u00a0": " ", "\u2007": " ", "\u202f": " ", "\u00ad": None}
    | dict.fromkeys("\u200e\u200f")
)


def _plain(text: object) -> object:
    return text.translate(_PLAIN) if isinstance(text, str) else text


def _said(text: str) -> str:
    """Free text at the table: one line of characters you can see (as a name)."""
    if not is_visible_text(text):
        raise ValueError("say something: characters you can see, on one line")
    return text


class ChatMessage(_Strict):
    """Say something at the table: free ``text`` (up to 200 characters, one line) or one
    of the stock ``phrase``s, which everyone reads in their own language."""

    type: Literal["chat"]
    text: (
        Annotated[
            str,
            BeforeValidator(_plain),
            Field(min_length=1, max_length=200),
            AfterValidator(_said),
        ]
        | None
    ) = None
    phrase: Literal[CHAT_PHRASES] | None = None  # type: ignore[valid-type]

    @model_validator(mode="after")
    def _one_of_them(self) -> ChatMessage:
        if (self.text is None) == (self.phrase is None):
            raise ValueError("a chat message has either a text or a phrase")
        return self


class RematchMessage(_Strict):
    """Play again, once the game is over: a new table with the same rules and bots."""

    type: Literal["rematch"]


#: every message a browser may send (the one list: parsing, typing and checking use it)
AnyClientMessage = (
    HelloMessage
    | ActionMessage
    | StartMessage
    | HintMessage
    | PingMessage
    | RematchMessage
    | LeaveMessage
    | NewSeatLinkMessage
    | UndoMessage
    | BackMessage
    | ChatMessage
    | LangMessage
)
ClientMessage = Annotated[AnyClientMessage, Field(discriminator="type")]
_ADAPTER: TypeAdapter[Any] = TypeAdapter(ClientMessage)


class MessageError(ValueError):
    """A client message that is not one of ours; ``code`` names the problem."""

    def __init__(self, code: str, detail: str) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail


_ONE = {"characters": "character", "entries": "entry", "items": "item"}


def _count(n: int, unit: str) -> str:
    return f"{n} {unit}" if n != 1 else f"1 {_ONE[unit]}"


#: the validator's errors that need no detail of their own, in our words
_SAID: Final = {
    "union_tag_not_found": 'a message needs a "type"',
    "dict_type": "a JSON object is expected",
    "model_type": "a JSON object is expected",
    "model_attributes_type": "a JSON object is expected",
    "extra_forbidden": "no such field",
    "missing": "missing",
    "string_pattern_mismatch": "not in the expected form",
    "int_type": "a whole number (a JSON integer) is expected",
    "int_parsing": "a whole number (a JSON integer) is expected",
    "int_from_float": "a whole number (a JSON integer) is expected",
    "string_type": "a string is expected",
    # (a lone half of a surrogate pair, "\ud800": JSON can write one, no text holds it)
    "string_unicode": "not text: half a surrogate pair, which no text holds",
    "bool_type": "true or false is expected",
    "bool_parsing": "true or false is expected",
}


def field_path(loc: Iterable[object]) -> str:
    """Where in a message or a request's body the validator found a fault, as a refusal
    names it (``options.max_pip``, ``seats.0``): a key the page did not send (a field it
    does not know) shortened as a long text is (`show_text`), not quoted whole."""
    return ".".join(show_text(str(part), str) for part in loc if part != "body")


def validation_reason(error: Mapping[str, Any]) -> str:
    """One of the validator's errors in our own words, for the ``message`` of a refusal
    (a program reads it; the page shows words of its own for each ``code``). The
    validator's wording for sizes is generic ("200 items" for a line's characters)."""
    kind = error.get("type")
    ctx: Mapping[str, Any] = error.get("ctx") or {}
    value = error.get("input")
    unit = (
        "characters"
        if isinstance(value, str)
        else "entries"
        if isinstance(value, dict)
        else "items"
    )
    if kind in ("too_long", "string_too_long"):
        return f"at most {_count(ctx['max_length'], unit)}"
    if kind in ("too_short", "string_too_short"):
        return f"at least {_count(ctx['min_length'], unit)}"
    if kind == "value_error" and "error" in ctx:
        return str(ctx["error"])
    if kind == "union_tag_invalid":
        tag = show_text(str(ctx["tag"]))
        return f"no message has the type {tag} (the types: {ctx['expected_tags']})"
    if kind == "json_invalid":
        return f"not JSON ({ctx.get('error', 'unreadable')})"
    if kind == "literal_error":
        return f"one of {ctx['expected']}"
    if isinstance(kind, str) and kind in _SAID:
        return _SAID[kind]
    if kind == "greater_than_equal":
        return f"at least {ctx['ge']}"
    if kind == "less_than_equal":
        return f"at most {ctx['le']}"
    return str(error.get("msg", "not valid"))


def parse_client_message(text: str) -> AnyClientMessage:
    """Validate one message's text; raise `MessageError` with a short reason."""
    try:
        message = _ADAPTER.validate_json(text)
    except ValidationError as err:
        first = err.errors(include_url=False)[0]
        where = field_path(first["loc"]) or "message"
        # a line of talk the table cannot take is the player's words, not a broken page:
        # it gets its own refusal, which the page shows by the talk's field
        code = "chat_text" if first["loc"][:1] == ("chat",) else "malformed"
        raise MessageError(code, f"{where}: {validation_reason(first)}") from None
    assert isinstance(message, AnyClientMessage)
    return message


# -- HTTP bodies ------------------------------------------------------------------------


class CreateTable(_Strict):
    """A new table: the creator takes seat 0; the other seats are open or bots."""

    name: Name
    preset: Literal["classic", "relaxed", "cardinal"] = "classic"
    #: house rules (RULES.md's option names) on top of the preset; their values are the
    #: rules' to check (`Rules.from_spec`), which say what each one takes in words of its
    #: own ("max_pip: must be a whole number from 1 to 30, not 6.5") and by a code the page
    #: words in its player's language, where a type here could only say "invalid"
    options: dict[
        Literal[
            "double_blank_points",
            "mexican_after_own_train",
            "mexican_after_first_round_of_turns",
            "no_going_out_on_double",
            "draw_until_playable",
            "first_turn_run",
            "unsatisfied_double_penalty",
            "rounds",
            "max_pip",
            "hand_size",
        ],
        JsonValue,
    ] = Field(default_factory=dict, max_length=10)
    seats: Annotated[list[SeatSpec], Field(min_length=1, max_length=9)]
    #: the seconds a person has for each move before a bot makes it for them (0: no
    #: clock); the server sets the shortest it allows (``min_turn_time``)
    turn_time: Annotated[int, Field(ge=0, le=MAX_TURN_TIME, strict=True)] = 0
    #: how quickly the bots move: their pause before a move, the server's (``bot_delay``)
    #: times `BOT_PACES`' factor
    bot_pace: Literal["slow", "normal", "fast"] = "normal"


class JoinTable(_Strict):
    name: Name
