"""Computer players. A bot sees one seat's view and returns one of its legal actions."""

from .base import (
    Bot,
    BotSpecError,
    bot_module,
    bot_names,
    make_bot,
    register_bot,
    registered_by,
    split_bot_list,
)

__all__ = [
    "Bot",
    "BotSpecError",
    "bot_module",
    "bot_names",
    "make_bot",
    "register_bot",
    "registered_by",
    "split_bot_list",
]
