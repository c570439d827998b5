"""Computer players. A bot sees one seat's view and returns one of its legal actions."""

from .base import (
    PLUGIN_GROUP,
    Bot,
    BotPluginWarning,
    BotSpecError,
    bot_module,
    bot_names,
    make_bot,
    register_bot,
    registered_by,
    split_bot_list,
)

__all__ = [
    "PLUGIN_GROUP",
    "Bot",
    "BotPluginWarning",
    "BotSpecError",
    "bot_module",
    "bot_names",
    "make_bot",
    "register_bot",
    "registered_by",
    "split_bot_list",
]
