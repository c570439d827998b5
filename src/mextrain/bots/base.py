"""The bot interface and the registry that finds bots by name (``name:key=value,...``).

A bot receives a `SeatView` — its own hand, the table, hand sizes, the boneyard's size,
the public history and, on its turn, ``view.legal_actions`` — and an RNG of its own. It
never receives a `RoundState`, so it cannot see hidden tiles by construction.
"""

from __future__ import annotations

import inspect
import math
import random
import re
import sys
import typing
import warnings
from collections.abc import Callable
from importlib import metadata
from typing import Any, Protocol, runtime_checkable

from mextrain.rules import Action, SeatView, show_text

__all__ = [
    "PLUGIN_GROUP",
    "Bot",
    "BotPluginWarning",
    "BotSpecError",
    "bot_names",
    "make_bot",
    "parse_bot_spec",
    "register_bot",
    "registered_by",
    "split_bot_list",
]


@runtime_checkable
class Bot(Protocol):
    """A computer player."""

    name: str

    def act(self, view: SeatView, rng: random.Random) -> Action:
        """One of ``view.legal_actions``."""
        ...


class BotSpecError(ValueError):
    """A bot name or parameter that the registry does not know.

    ``str(err)`` is English; ``code`` names the fault and ``params`` its details (text as
    written), so that interfaces can say it in the player's language
    (``game.bot_error.CODE``)."""

    def __init__(self, message: str, *, code: str = "bad_spec", **params: object) -> None:
        super().__init__(message)
        self.code = code
        self.params = params

    def __reduce__(self) -> tuple[object, ...]:
        return (_rebuild_bot_error, (str(self), self.code, self.params))


def _rebuild_bot_error(message: str, code: str, params: dict[str, object]) -> BotSpecError:
    return BotSpecError(message, code=code, **params)


class BotPluginWarning(UserWarning):
    """An installed package's bot that is not offered: its name is taken or cannot be
    named in a spec."""


BotFactory = Callable[..., Bot]
_REGISTRY: dict[str, BotFactory] = {}
#: the module whose code called `register_bot` for each name
_REGISTERED_BY: dict[str, str] = {}

#: the entry-point group an installed package declares its bots in
#: (``[project.entry-points."mextrain.bots"]``: ``name = "module:factory"``)
PLUGIN_GROUP = "mextrain.bots"
#: installed packages' bots by name (the registry holds `_not_loaded` for one until it is
#: first made)
_PLUGINS: dict[str, metadata.EntryPoint] = {}
_plugins_read = False


#: characters a bot's name cannot hold: a spec or a list of them splits on them
_NOT_IN_NAMES = frozenset(":,=")


def register_bot(name: str, factory: BotFactory, *, replace: bool = False) -> None:
    """Make ``factory(**params)`` available as ``name``.

    A name is text a spec can name: not empty, without ``:``, ``,``, ``=`` or white space.
    A name already taken -- a built-in bot's, or one another module registered -- is
    refused (`ValueError`) unless ``replace`` is true; the module that registered a name
    may register it again (a module reloaded, a notebook cell run twice)."""
    if not isinstance(name, str) or not name:
        raise ValueError(f"a bot's name is non-empty text, not {name!r}")
    if any(c in _NOT_IN_NAMES or c.isspace() for c in name):
        raise ValueError(
            f"bot name {name!r} cannot be named in a spec: no ':', ',', '=' or white space"
        )
    if not callable(factory):
        raise TypeError(f"a bot's factory is callable (a class, a function), not {factory!r}")
    caller = sys._getframe(1).f_globals.get("__name__")
    if not (isinstance(caller, str) and caller.startswith("mextrain.")):
        # the built-in bots first: registered later, they would overwrite a name of yours
        _load_builtin()
    taken_by = _REGISTERED_BY.get(name, "?")
    packaged = name in _PLUGINS and _within(caller, _PLUGINS[name].module)
    if name in _REGISTRY and not replace and taken_by != caller and not packaged:
        raise ValueError(
            f"a bot named {name!r} is already registered (by {taken_by}): "
            "choose another name, or pass replace=True to replace it"
        )
    _REGISTRY[name] = factory
    if name in _PLUGINS and not packaged:
        del _PLUGINS[name]  # (replaced: no longer the installed package's bot)
    if isinstance(caller, str):
        _REGISTERED_BY[name] = caller
    else:  # pragma: no cover - a caller without a module name
        _REGISTERED_BY.pop(name, None)


def _within(caller: object, module: str) -> bool:
    """Whether code of ``caller`` is ``module``'s own: the module, or one in its package
    (an installed package's entry ``pkg`` whose ``pkg.inner`` registers the bot)."""
    return isinstance(caller, str) and (caller == module or caller.startswith(f"{module}."))


def bot_module(spec: str) -> str | None:
    """The module whose import registered the bot ``spec`` names (the one that called
    `register_bot`, whatever the factory is: a built-in class under a name of yours, a
    ``functools.partial``), for a worker process that must import it too; None for a
    built-in bot, a bot registered by a script run as ``__main__``, or a name not
    registered."""
    _load_builtin()
    name = parse_bot_spec(spec)[0]
    module = _REGISTERED_BY.get(name)
    if module is None or module in ("mextrain", "__main__", "__mp_main__"):
        return None  # (a script's own bots are registered in its workers as they start)
    if name in _PLUGINS:
        return None  # (an installed package's: the workers find it as this process did)
    if module.startswith("mextrain."):
        return None
    return module


def registered_by(name: str) -> str | None:
    """The module whose code registered the bot ``name`` (``"__main__"`` for a script's
    own; an installed package's module for its entry point's bot), None for a name not
    registered."""
    _load_builtin()
    return _REGISTERED_BY.get(name)


def bot_names() -> list[str]:
    _load_builtin()
    return sorted(_REGISTRY)


def _coerce(text: str) -> Any:
    low = text.lower()
    if low in ("true", "false"):
        return low == "true"
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def split_bot_list(text: str) -> list[str]:
    """Split ``ismcts:iterations=200,policy=planner,greedy`` into bot entries.

    Entries are separated by commas. A part with ``=`` but no ``:`` is one more parameter
    of the entry before it (bot names never contain ``=``), so the registry's own
    ``name:key=value,key=value`` form works unchanged inside the list. An empty entry is
    refused (``greedy,,random`` is a slip, not two bots).
    """
    entries: list[str] = []
    for raw in text.split(","):
        part = raw.strip()
        if not part:
            shown = show_text(text)
            raise BotSpecError(f"empty bot entry in {shown}", code="empty_entry", text=shown)
        if "=" in part and ":" not in part:
            if not entries or ":" not in entries[-1]:
                raise BotSpecError(
                    f"parameter {show_text(part)} does not follow a bot name with ':'",
                    code="dangling",
                    part=show_text(part),
                )
            entries[-1] += f",{part}"
        else:
            entries.append(part)
    return entries


def parse_bot_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``"ismcts:iterations=200,policy=planner"`` → ``("ismcts", {...})``."""
    name, params, _ = _parse_bot_spec(spec)
    return name, params


def _parse_bot_spec(spec: str) -> tuple[str, dict[str, Any], dict[str, str]]:
    """`parse_bot_spec`, and each parameter's value as written (``1e400``, where the
    value read is ``inf``): a refusal quotes what was written."""
    if not isinstance(spec, str):  # (not "'NoneType' object has no attribute 'strip'")
        raise TypeError(f"a bot spec is text such as 'planner', not {spec!r}")
    name, colon, rest = spec.strip().partition(":")
    params: dict[str, Any] = {}
    written: dict[str, str] = {}
    if colon and not name.strip():  # (":x=1": parameters with no bot before them)
        raise BotSpecError(
            f"parameter {show_text(rest)} does not follow a bot name with ':'",
            code="dangling",
            part=show_text(rest),
        )
    if colon:  # ("greedy:" names no parameter: a slip, said so)
        for part in rest.split(","):
            key, eq, value = part.partition("=")
            if not eq or not key.strip():
                raise BotSpecError(
                    f"bot parameter {show_text(part)} in {show_text(spec)} is not key=value",
                    code="not_key_value",
                    part=show_text(part),
                    spec=show_text(spec),
                )
            if key.strip() in params:
                raise BotSpecError(
                    f"bot parameter {show_text(key.strip())} is given twice in {show_text(spec)}",
                    code="twice",
                    param=show_text(key.strip()),
                    spec=show_text(spec),
                )
            params[key.strip()] = _coerce(value.strip())
            written[key.strip()] = value.strip()
    return name, params, written


def make_bot(spec: str) -> Bot:
    """Build a bot from ``name`` or ``name:key=value,...``."""
    _load_builtin()
    name, params, written = _parse_bot_spec(spec)
    if name not in _REGISTRY:
        known = ", ".join(sorted(_REGISTRY))
        raise BotSpecError(
            f"unknown bot {show_text(name)}; known bots: {known}",
            code="unknown_bot",
            name=show_text(name),
            known=known,
        )
    factory = _REGISTRY[name]
    if factory is _not_loaded:
        factory = _load_plugin(name)
    _check_numbers(name, factory, params, written)
    try:
        return factory(**params)
    except (TypeError, ValueError) as err:  # an unknown parameter, or a value out of range
        raise BotSpecError(
            f"bad parameters for bot {show_text(name)}: {err}",
            code="bad_parameters",
            name=show_text(name),
            detail=str(err),
        ) from None
    except Exception as err:
        if name not in _PLUGINS:
            raise  # (a bot of your own code: its own error, as it raised it)
        # an installed package's bot that cannot be made (a file of its own missing): said
        # as a package that cannot be loaded, not a traceback out of every interface
        raise _plugin_failed(name, f"{type(err).__name__}: {err}") from err


#: factories' signatures, read once each (a simulation makes its bots afresh for every
#: game, and reading one with its annotations costs more than a greedy bot's whole game)
_SIGNATURES: dict[int, tuple[BotFactory, inspect.Signature | None]] = {}


def _signature(factory: BotFactory) -> inspect.Signature | None:
    known = _SIGNATURES.get(id(factory))
    if known is not None and known[0] is factory:  # (the factory kept: its id stays its own)
        return known[1]
    try:
        signature: inspect.Signature | None = inspect.signature(factory, eval_str=True)
    except (TypeError, ValueError, NameError):  # pragma: no cover - no signature to read
        signature = None
    _SIGNATURES[id(factory)] = (factory, signature)
    return signature


#: a number written in digits (``10.5``, ``1e400``, ``-1_000``), not a word (``inf``)
_DIGITS = re.compile(r"[+-]?(?:[0-9_]+\.?[0-9_]*|\.[0-9_]+)(?:[eE][+-]?[0-9_]+)?")


def _in_digits(text: str) -> bool:
    """Whether ``text`` writes a number in digits rather than a word (``inf``, ``nan``)."""
    return _DIGITS.fullmatch(text) is not None


def _check_numbers(
    name: str, factory: BotFactory, params: dict[str, Any], written: dict[str, str]
) -> None:
    """Refuse a parameter the factory does not take, naming the ones it does, and a value
    of the wrong kind -- text where it wants a number (``time_ms=abc``), ``true`` where it
    wants a number, a fraction where it wants a whole number (``iterations=10.5``), a
    number where it wants true or false, ``nan`` or ``inf`` where it wants a number
    (``extra_cost=nan``), a number too large for a float to hold (``time_ms=1e400``, which
    Python reads as ``inf``) -- rather than take it or fail inside the bot with Python's
    words. A number is quoted as ``written`` has it (``1e400``, ``1e5``; not ``inf``,
    ``100000.0``), and a parameter that takes text alone gets the text as written."""
    signature = _signature(factory)
    if signature is None:  # pragma: no cover - no signature to read
        return
    known = [
        p.name
        for p in signature.parameters.values()
        if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
    ]
    takes_any = any(p.kind is p.VAR_KEYWORD for p in signature.parameters.values())
    for key in params:
        if key not in known and not takes_any:
            if not known:
                raise BotSpecError(
                    f"bot {show_text(name)} has no parameter {show_text(key)} (it takes none)",
                    code="no_parameters",
                    name=show_text(name),
                    param=show_text(key),
                )
            raise BotSpecError(
                f"bot {show_text(name)} has no parameter {show_text(key)} "
                f"(its parameters: {', '.join(known)})",
                code="no_parameter",
                name=show_text(name),
                param=show_text(key),
                known=", ".join(known),
            )
    for key, value in params.items():
        param = signature.parameters.get(key)
        if param is None:
            continue
        kinds = typing.get_args(param.annotation) or (param.annotation,)
        if str in kinds:
            # text, and nothing else a value is read as: the text as written, not the
            # number it reads as (policy=1e400 was "not inf"; policy=12 "not 12", the
            # bot's check of a text given a number, rather than "unknown bot '12'")
            if not {int, float, bool} & set(kinds) and key in written:
                params[key] = written[key]
            continue
        wrong = None
        if int in kinds or float in kinds:
            if isinstance(value, str) or (isinstance(value, bool) and bool not in kinds):
                wrong = ("not_a_number", "must be a number")
            elif isinstance(value, float) and float not in kinds:
                wrong = ("not_whole", "must be a whole number")
            elif isinstance(value, float) and _in_digits(written.get(key, "")):
                if not math.isfinite(value):  # (digits that a float cannot hold: 1e400)
                    wrong = ("too_large", "must be a finite number")
            elif isinstance(value, float) and not math.isfinite(value):  # nan, inf
                wrong = ("not_finite", "must be a finite number")
        elif bool in kinds and not isinstance(value, bool):
            wrong = ("not_true_false", "must be true or false")
        if wrong is not None:
            shown = str(value).lower() if isinstance(value, bool) else repr(value)
            if isinstance(value, str):  # (a text: quoted, a long one shortened)
                shown = show_text(value)
            elif _in_digits(written.get(key, "")):  # (a number as written: 1e400, not inf)
                shown = written[key]
            said = f"{key} {wrong[1]}, not {shown}"
            if wrong[0] == "too_large":  # (not "not inf": what was written, and why)
                said = f"{key} {wrong[1]}, and {shown} is too large to be one"
            raise BotSpecError(
                f"bad parameters for bot {show_text(name)}: {said}",
                code=wrong[0],
                name=show_text(name),
                param=key,
                shown=shown,
            )


def _load_builtin() -> None:
    # Built-in bots register themselves on import.
    import mextrain.search  # noqa: F401  (the search bots: ismcts and its levels)

    from . import planner, simple  # noqa: F401

    if not _plugins_read:
        _read_plugins()


def _read_plugins() -> None:
    """Offer the bots installed packages declare (entry points of `PLUGIN_GROUP`) by
    name, without importing them: a package is imported when its bot is first made, so
    that a broken or slow one costs nothing until it is named. One whose name is taken
    (a built-in bot's, another package's) or cannot be named in a spec is left out with a
    `BotPluginWarning`."""
    global _plugins_read
    _plugins_read = True
    try:
        found = sorted(metadata.entry_points(group=PLUGIN_GROUP), key=_entry_text)
    except Exception as err:  # pragma: no cover - a broken install's metadata
        warnings.warn(f"installed bots could not be read: {err}", BotPluginWarning, stacklevel=3)
        return
    for entry in found:
        name = entry.name
        where = _entry_text(entry)
        if not name or any(c in _NOT_IN_NAMES or c.isspace() for c in name):
            problem = "cannot be named in a spec (no ':', ',', '=' or white space)"
        elif name in _REGISTRY:
            taken_by = _PLUGINS[name].value if name in _PLUGINS else _REGISTERED_BY.get(name)
            problem = f"is taken (by {taken_by})"
        else:
            _PLUGINS[name] = entry
            _REGISTRY[name] = _not_loaded
            _REGISTERED_BY[name] = entry.module
            continue
        warnings.warn(
            f"the bot {name!r} of {where} is left out: its name {problem}",
            BotPluginWarning,
            stacklevel=3,
        )


def _entry_text(entry: metadata.EntryPoint) -> str:
    """``package 1.0 (name = module:factory)``, the package when it is known."""
    dist = getattr(entry, "dist", None)
    package = f"{dist.name} {dist.version} " if dist is not None else ""
    return f"{package}({entry.name} = {entry.value})"


def _not_loaded(**_params: object) -> Bot:  # pragma: no cover - replaced before any call
    raise RuntimeError("an installed bot is loaded by make_bot before it is called")


def _load_plugin(name: str) -> BotFactory:
    """Import an installed package's bot (its entry point's object: a factory, or a
    module that registers the name when imported), and keep its factory under its name.
    A failure is a `BotSpecError` (``plugin_failed``) naming the package and Python's
    reason; the name stays offered, to fail the same way when named again."""
    entry = _PLUGINS[name]
    try:
        loaded = entry.load()
    except Exception as err:
        raise _plugin_failed(name, f"{type(err).__name__}: {err}") from err
    if _REGISTRY.get(name, _not_loaded) is not _not_loaded:
        factory = _REGISTRY[name]  # (the module registered it as it was imported)
    elif callable(loaded) and not inspect.ismodule(loaded):
        factory = loaded
    else:
        raise _plugin_failed(name, f"{entry.value} is not a class or function that makes a bot")
    _REGISTRY[name] = factory
    return factory


def _plugin_failed(name: str, detail: str) -> BotSpecError:
    where = _entry_text(_PLUGINS[name])
    return BotSpecError(
        f"bot {show_text(name)} of {where} could not be loaded: {detail}",
        code="plugin_failed",
        name=show_text(name),
        entry=where,
        detail=detail,
    )
