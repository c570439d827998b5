"""``mextrain serve``: the web server for tables that friends join from their browsers."""

from __future__ import annotations

import contextlib
import ipaddress
import os
import socket
import sqlite3
import sys
from collections.abc import Callable
from pathlib import Path

import click

from mextrain.i18n import Translator, detect_language, os_error_text
from mextrain.rules import show_text

from ._common import (
    PATH_SHOWN,
    AnyPath,
    Choice,
    FiniteFloat,
    LanguageCommand,
    lang_option,
    speak,
    words_of,
)

__all__ = ["default_db", "serve"]


def default_db() -> Path:
    """``mextrain.sqlite3`` in mextrain's data directory (``$MEXTRAIN_DATA_DIR`` or the
    user's)."""
    from mextrain.store import data_dir

    return data_dir() / "mextrain.sqlite3"


def _host(ctx: click.Context, param: click.Parameter, value: str) -> str:
    # an empty address would listen on every one the machine has: say which, don't guess
    if not value.strip():
        raise click.BadParameter(words_of(ctx)("tui.serve.no_host"))
    return value


class _ServeCommand(LanguageCommand):
    """`serve`: what it says as it starts (where to open it) and what it refuses, in the
    language of ``--lang``, else of the locale; its ``--help`` too. The server's log is
    uvicorn's, in English."""


@click.command(cls=_ServeCommand)
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    callback=_host,
    help="Address to listen on (keep 127.0.0.1 behind a reverse proxy).",
)
@click.option(
    "--port",
    default=8000,
    show_default=True,
    type=click.IntRange(0, 65535),
    help="Port to listen on (0: any free one).",
)
@click.option(
    "--db",
    "db",
    type=AnyPath(dir_okay=False, path_type=Path),
    default=None,
    help=(
        "SQLite database file [default: mextrain.sqlite3 in $MEXTRAIN_DATA_DIR, else the "
        "user data dir]."
    ),
)
@click.option(
    "--bot-delay",
    default=0.6,
    show_default=True,
    type=FiniteFloat(0, 60),
    help="Seconds a bot waits before moving, so people can follow (at most 60).",
)
@click.option(
    "--takeover-after",
    default=30.0,
    show_default=True,
    type=FiniteFloat(0, 86_400),
    help="Seconds before a bot plays for a player whose browser is gone (at most a day).",
)
@click.option(
    "--round-pause",
    default=4.0,
    show_default=True,
    type=FiniteFloat(0, 3600),
    help="Seconds between the end of a round and the next deal (at most 3600).",
)
@click.option(
    "--messages-per-second",
    default=20.0,
    show_default=True,
    type=FiniteFloat(1, 10_000),
    help="Most messages a connection may send per second, 1 to 10000 (bursts of twice that).",
)
@click.option(
    "--tables-per-minute",
    default=20.0,
    show_default=True,
    type=FiniteFloat(1, 10_000),
    help="New tables one address may make a minute, 1 to 10000 (in bursts of as many).",
)
@click.option(
    "--joins-per-minute",
    default=30.0,
    show_default=True,
    type=FiniteFloat(1, 10_000),
    help="Seats one address may take a minute, 1 to 10000 (in bursts of as many).",
)
@click.option(
    "--lookups-per-minute",
    default=60.0,
    show_default=True,
    type=FiniteFloat(1, 10_000),
    help="Codes of no table one address may ask about a minute, 1 to 10000 (in bursts of as many).",
)
@click.option(
    "--connections-per-address",
    default=32,
    show_default=True,
    type=click.IntRange(1, 10_000),
    help="Websockets one address may hold open at once, 1 to 10000.",
)
@click.option(
    "--min-turn-time",
    default=10.0,
    show_default=True,
    type=FiniteFloat(1, 3600),
    help="The shortest time per move a table may be given, in seconds (1 to 3600).",
)
@click.option(
    "--idle-minutes",
    default=30.0,
    show_default=True,
    type=FiniteFloat(0, 10_080),
    help=(
        "Minutes after which a table nobody is at, waiting for its players, leaves memory "
        "until someone comes back (0 to 10080; 0: never)."
    ),
)
@click.option(
    "--log-level",
    default="info",
    show_default=True,
    type=Choice(["critical", "error", "warning", "info", "debug"]),
    help="How much the server logs (uvicorn's levels).",
)
@lang_option("Language of what it says as it starts (default: from the locale).")
def serve(
    host: str,
    port: int,
    db: Path | None,
    bot_delay: float,
    takeover_after: float,
    round_pause: float,
    messages_per_second: float,
    tables_per_minute: float,
    joins_per_minute: float,
    lookups_per_minute: float,
    connections_per_address: int,
    min_turn_time: float,
    idle_minutes: float,
    log_level: str,
    lang: str | None,
) -> None:
    """Serve tables in the browser: create one, share its code, bots fill empty seats."""
    t = Translator(lang or detect_language())
    speak(t)
    try:
        import uvicorn

        from mextrain.web import Settings, create_app
    except ImportError as err:  # pragma: no cover - depends on the install
        raise click.ClickException(t("tui.serve.needs_web", reason=str(err))) from None
    if db is not None and str(db) in ("", "."):  # (click reads an empty path as ".")
        raise click.BadParameter(t("tui.serve.no_db"), param_hint="--db")
    _check_listen(host, port, t)  # before anything is made: a busy port leaves no database
    path = db or default_db()
    shown = show_text(str(path), str, PATH_SHOWN)  # (a long path shortened)
    folder = show_text(str(path.parent), str, PATH_SHOWN)

    def cannot_open(reason: str) -> click.ClickException:
        return click.ClickException(t("tui.serve.cannot_open", path=shown, reason=reason))

    try:  # a clear error now rather than a traceback from the server's startup
        if path.parent.exists() and not path.parent.is_dir():
            raise cannot_open(t("tui.serve.not_a_folder", folder=folder))
        if db is not None and not path.parent.exists():  # (a mistyped folder: not made)
            raise cannot_open(t("tui.serve.no_folder", folder=folder))
        path.parent.mkdir(parents=True, exist_ok=True)
        with contextlib.closing(sqlite3.connect(path)) as conn:
            # reads the file: one that is not a database (a mistyped --db) is refused here
            conn.execute("PRAGMA schema_version").fetchone()
    except OSError as err:
        raise cannot_open(os_error_text(err, t.lang)) from None
    except sqlite3.Error as err:  # (SQLite's own words, in English: "file is not a database")
        raise cannot_open(str(err)) from None
    from mextrain.store import DatabaseInUse, ServerLock

    try:  # the server takes the lock itself as it starts; this says why it cannot, early
        with ServerLock(path):
            pass
    except DatabaseInUse:
        lock = show_text(f"{path}.lock", str, PATH_SHOWN)
        raise click.ClickException(t("tui.serve.in_use", path=shown, lock=lock)) from None
    except OSError as err:
        raise cannot_open(os_error_text(err, t.lang)) from None
    settings = Settings(
        bot_delay=bot_delay,
        takeover_after=takeover_after,
        round_pause=round_pause,
        messages_per_second=messages_per_second,
        burst=max(2, int(messages_per_second * 2)),
        tables_per_minute=tables_per_minute,
        joins_per_minute=joins_per_minute,
        lookups_per_minute=lookups_per_minute,
        connections_per_address=connections_per_address,
        min_turn_time=min_turn_time,
        idle_after=idle_minutes * 60,
    )
    app = create_app(path, settings)
    click.echo(t("tui.serve.database", path=str(path)), err=True)
    _say_where(host, port, sys.stderr.isatty(), t)
    uvicorn.run(
        app, host=host, port=port, log_level=log_level, ws_max_size=65536, proxy_headers=True
    )


def _check_listen(host: str, port: int, t: Translator) -> None:
    """Say now, in words, that the server cannot listen at ``host:port`` (a port in use, an
    address this machine does not have), rather than in the server's log after start-up."""
    # (port 0: any free one, but the address must be this machine's; a long host shortened)
    where = f"{show_text(host, str)}:{port}"
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server does
            probe.bind(address)
    except OSError as err:  # (socket.gaierror is one)
        if isinstance(err, socket.gaierror):  # (the resolver's words: no errno of the system)
            reason = str(err.strerror or err)
        else:
            reason = os_error_text(err, t.lang)
        raise click.ClickException(
            t("tui.serve.cannot_listen", where=where, reason=reason)
        ) from None
    except UnicodeError:  # (a name of more than 63 characters between two dots)
        reason = t("tui.serve.not_a_host")
        raise click.ClickException(
            t("tui.serve.cannot_listen", where=where, reason=reason)
        ) from None


def addresses(
    host: str, port: int, lan: Callable[[], str | None] | None = None
) -> tuple[str | None, str | None]:
    """Where to open the server listening at ``host:port``: on this machine, and from the
    other devices on its network (None where there is no such address: a loopback host
    is for this machine alone; with port 0 the port is chosen as it starts). Listening on
    every address (``0.0.0.0``, ``::``), the others use this machine's address on its
    network (``lan``, by default `lan_address`)."""
    if port == 0:
        return None, None
    if host in ("", "0.0.0.0", "::"):
        other = (lan or lan_address)()
        here = "[::1]" if host == "::" else "127.0.0.1"
        return f"http://{here}:{port}", f"http://{_in_url(other)}:{port}" if other else None
    address = f"http://{_in_url(host)}:{port}"
    return address, None if _is_loopback(host) else address


def lan_address() -> str | None:
    """This machine's IPv4 address on its network: the one its traffic out would leave
    from (a UDP socket's "connect" sends nothing), or None if it has none but loopback."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))  # (TEST-NET-1: never routed, nothing is sent)
            found = str(probe.getsockname()[0])
    except OSError:
        return None
    return None if _is_loopback(found) or found == "0.0.0.0" else found


#: white on black, whatever the terminal's own colours (SGR 97 and 40), then reset
QR_COLOURS = ("\x1b[97;40m", "\x1b[0m")


def qr_text(text: str, colours: bool = False) -> str:
    """``text`` as a QR code in a terminal: each character two modules, one over the other
    (block elements), the light ones drawn, the dark ones left blank, with the quiet zone
    the standard asks for. With ``colours`` each line is drawn white on black, so the code
    reads the same on a light terminal as on a dark one; without, it reads where text is
    light on a dark background, as in most terminals, and inverted on a light one (which
    not every reader accepts)."""
    import segno

    rows = [list(row) for row in segno.make(text, error="m").matrix_iter(border=4)]
    rows.append([0] * len(rows[0]))  # (an odd count: the last line's lower half light)
    blocks = {(0, 0): "\u2588", (0, 1): "\u2580", (1, 0): "\u2584", (1, 1): " "}
    start, end = QR_COLOURS if colours else ("", "")
    return "\n".join(
        start + "".join(blocks[top, bottom] for top, bottom in zip(upper, lower, strict=True)) + end
        for upper, lower in zip(rows[::2], rows[1::2], strict=False)
    )


def _say_where(host: str, port: int, terminal: bool, t: Translator | None = None) -> None:
    """Tell where to open the server (on stderr, as the rest of what it says): on this
    machine, and from the others on its network, their address also as a QR code for a
    phone's camera when a person reads it (``terminal``: not in a log), in its own
    colours unless the environment asks for none (``NO_COLOR``)."""
    t = t or Translator("en")
    here, other = addresses(host, port)
    if here is None:
        return
    click.echo(t("tui.serve.here", address=here), err=True)
    if other is None:
        if _is_loopback(host):
            click.echo(t("tui.serve.loopback"), err=True)
        return
    click.echo(t("tui.serve.network", address=other), err=True)
    if terminal:
        try:
            colours = not os.environ.get("NO_COLOR")
            code = qr_text(other, colours=colours)
        except ImportError:  # pragma: no cover - segno comes with the 'web' extra
            return
        click.echo(code, err=True, color=colours)


def _is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host.lower().rstrip(".") == "localhost"


def _in_url(host: str) -> str:
    """``host`` as a URL writes it (an IPv6 address in brackets)."""
    return f"[{host}]" if ":" in host else host
