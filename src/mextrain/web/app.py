"""The web application: lobby and records over HTTP, play over one websocket per browser.

The server is the authority. A websocket first says ``hello`` with its seat token (or
none, to watch); from then on every message is validated against `mextrain.web.messages`,
limited in size and rate, and answered with the connection's own seat's view only.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import html
import json
import logging
import os
import random
import sqlite3
from collections import Counter, OrderedDict
from collections.abc import AsyncIterator, Mapping, MutableMapping, Sequence
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import FastAPI, HTTPException, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import HTTPConnection
from starlette.types import Scope

from mextrain import __version__
from mextrain.i18n import (
    LANGUAGE_NAMES,
    LANGUAGES,
    Translator,
    accepted_language,
    accepted_values,
    error_text,
    normalise_language,
)
from mextrain.records import (
    IllegalRecordError,
    RecordFormatError,
    ReplayResult,
    load_record,
    replay_record,
    shorten_numbers,
)
from mextrain.rules import MEXICAN, PRESET_NAMES, RoundState, Rules, RulesError, Shortened
from mextrain.search import analyze
from mextrain.sim.stats import wilson_interval
from mextrain.store import GameSummary, ServerLock, Store, StoredTable, person_key

from .messages import (
    ActionMessage,
    BackMessage,
    ChatMessage,
    CreateTable,
    HelloMessage,
    HintMessage,
    JoinTable,
    LangMessage,
    LeaveMessage,
    MessageError,
    NewSeatLinkMessage,
    PingMessage,
    RematchMessage,
    StartMessage,
    UndoMessage,
    field_path,
    parse_client_message,
    validation_reason,
)
from .ratings import RatingsKept
from .tables import (
    Client,
    RateLimiter,
    RateLimits,
    Settings,
    Table,
    TableError,
    TableManager,
    bot_level_of,
    bot_levels,
    page_move,
    score_extras,
)

__all__ = ["create_app"]

log = logging.getLogger(__name__)
STATIC = Path(str(resources.files("mextrain.web").joinpath("static")))
#: tables one request may ask about (`GET /api/tables?codes=...`)
MAX_CODES_ASKED = 50
#: client addresses whose table-making (`Settings.tables_per_minute`) and joining
#: (`Settings.joins_per_minute`) are kept count of
MAX_CREATORS_KEPT = 4096
#: the largest request body read (a new table's settings take a few hundred bytes)
MAX_BODY = 64 * 1024


#: what a page of ours may load and where it may be shown: the front end is files of its
#: own (no build, no inline script or style element: Preact sets a style through the DOM,
#: which the policy allows), talks to its own origin only (`'self'` covers its websocket),
#: and no other site may frame it (a click on a tile there could be someone else's)
CONTENT_SECURITY_POLICY = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self'",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)
#: the headers every HTTP answer carries (`SecurityHeaders`)
SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),  # a file is what its type says, never a script
    (b"x-frame-options", b"DENY"),  # (frame-ancestors, for browsers that predate it)
    # a table's address holds its code: another site a page links to is not told it
    (b"referrer-policy", b"same-origin"),
)


class SecurityHeaders:
    """Add `SECURITY_HEADERS` to every HTTP answer (pages, files, the API, refusals)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Any) -> None:
            if message["type"] == "http.response.start":
                names = {name.lower() for name, _ in message.get("headers", [])}
                extra = [(k, v) for k, v in SECURITY_HEADERS if k not in names]
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        await self.app(scope, receive, send_with_headers)


class BodyLimit:
    """Refuse a request whose body is over ``limit`` bytes before anything reads it: 413
    for a declared length over it, 411 for a body sent without a length (chunked), each
    with the ``{"detail": {"code", "message"}}`` of every other refusal. The addresses
    ``own`` (a record sent to be replayed, far larger than a table's settings) keep to a
    limit of their own, and refuse in words of their own."""

    def __init__(self, app: Any, limit: int = MAX_BODY, own: frozenset[str] = frozenset()) -> None:
        self.app = app
        self.limit = limit
        self.own = own

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope["path"] not in self.own:
            headers = dict(scope["headers"])
            length = headers.get(b"content-length")
            refusal = None
            if length is not None:
                if not (length.isdigit() and int(length) <= self.limit):
                    refusal = (413, "too_large", f"a request body is at most {self.limit} bytes")
            elif b"chunked" in headers.get(b"transfer-encoding", b"").lower():
                refusal = (411, "length_required", "a request body needs its Content-Length")
            if refusal is not None:
                status, code, message = refusal
                response = JSONResponse(
                    {"detail": {"code": code, "message": message}}, status_code=status
                )
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


class PageFiles(StaticFiles):
    """The page's files (its script, style sheet, icon), each asked again of the server
    at every use (``Cache-Control: no-cache``), which answers 304 while it is unchanged:
    without it a browser kept a file it had as long as it liked (a share of the file's
    age), and after an upgrade went on with the old script or look."""

    def file_response(
        self,
        full_path: str | os.PathLike[str],
        stat_result: os.stat_result,
        scope: Scope,
        status_code: int = 200,
    ) -> Response:
        response = super().file_response(full_path, stat_result, scope, status_code)
        response.headers["Cache-Control"] = "no-cache"
        return response


def create_app(db: str | Path, settings: Settings | None = None) -> FastAPI:
    """The application over the SQLite database at ``db`` (created if missing)."""
    settings = settings or Settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        with ServerLock(db):  # one server per database (DatabaseInUse otherwise)
            store = Store(db)
            manager = TableManager(store, settings)
            await manager.restore()
            app.state.store = store
            app.state.manager = manager
            manager.resume()
            try:
                yield
            finally:
                await manager.close()
                store.close()

    app = FastAPI(
        title="mextrain",
        version=__version__,
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
        openapi_url=None,
    )
    app.mount("/static", PageFiles(directory=STATIC), name="static")
    app.add_middleware(BodyLimit, own=frozenset({"/api/replay", "/api/replay/analysis"}))
    app.add_middleware(SecurityHeaders)  # (outermost: a body refused too has them)

    @app.exception_handler(Exception)
    async def server_error(request: Request, exc: Exception) -> Response:
        # a failure of ours: the framework answers it outside every middleware, so the
        # answer carries the security headers itself (and the error is still logged)
        headers = {k.decode(): v.decode() for k, v in SECURITY_HEADERS}
        detail = {"code": "server", "message": "the server failed: try again in a moment"}
        return JSONResponse({"detail": detail}, 500, headers=headers)

    @app.exception_handler(sqlite3.Error)
    async def not_kept(request: Request, exc: sqlite3.Error) -> Response:
        # the database refused a request's read or write (held by another program past
        # SQLite's wait, a full disk): nothing changed -- a new table or a seat is dropped
        # (`TableManager.create`; a join's log is written first), a table out of memory
        # stays out -- and asking again may work (a 500 said "the server failed")
        log.error("%s %s: the database refused it", request.method, request.url.path, exc_info=exc)
        reading = request.method in ("GET", "HEAD")  # (a read: nothing to keep)
        return await http_error(request, _not_read() if reading else _not_kept())

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        # refusals of ours carry {"code", "message"} already; the framework's own (an
        # unknown address, a method not allowed) are given the same shape
        given: object = exc.detail  # (typed as text; ours are objects)
        if isinstance(given, dict):
            return JSONResponse({"detail": given}, exc.status_code, headers=exc.headers)
        headers = exc.headers
        if exc.status_code == 404 and _outside_the_api(request):
            # an address of no page: a browser opening it gets a page that says so
            if _html_accepted(request):
                return _not_found_page(request, headers)
            headers = {**(headers or {}), **NOT_FOUND_VARY}
        code = {404: "not_found", 405: "method"}.get(exc.status_code, "http")
        if exc.status_code == 400 and given == "There was an error parsing the body":
            # (the framework's words for a body that is no text: bytes that are not UTF-8)
            code, given = "invalid", "body: not JSON (not UTF-8 text)"
        detail = {"code": code, "message": str(given)}
        return JSONResponse({"detail": detail}, exc.status_code, headers=headers)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        # a request body that does not validate is refused like every other request:
        # ``detail`` is {"code", "message"}, the message naming the field at fault
        errors = exc.errors()
        first = errors[0] if errors else {}
        loc = tuple(first.get("loc", ()))
        if first.get("type") == "json_invalid":
            # (its place is the character where the text stopped being JSON, not a field)
            place = f" at character {loc[-1]}" if loc[1:] else ""
            message = f"body: not JSON{place} ({first.get('ctx', {}).get('error', 'unreadable')})"
        else:
            where = field_path(loc) or "body"
            message = f"{where}: {validation_reason(first)}"
        # a name bots go by is refused in words of its own; anything else is "invalid"
        code = "bot_name" if first.get("type") == "bot_name" else "invalid"
        return JSONResponse({"detail": {"code": code, "message": message}}, status_code=422)

    def manager_of(request: Request | WebSocket) -> TableManager:
        manager: TableManager = request.app.state.manager
        return manager

    def store_of(request: Request) -> Store:
        store: Store = request.app.state.store
        return store

    #: table codes asked about that name no table, per client address: a code is all it
    #: takes to watch a table and to take an open seat, and a loop of guesses found live
    #: tables among the codes in minutes. Past the limit every lookup from the address is
    #: refused, a table found or not (a refusal of the misses alone still told the hits)
    lookups = settings.lookups_per_minute
    misses = RateLimits(lookups / 60, max(1, int(lookups)), MAX_CREATORS_KEPT)

    def guessing(conn: HTTPConnection) -> HTTPException | None:
        """The refusal for an address that has asked about too many codes of no table."""
        return None if misses.ready(_address(conn)) else too_many_lookups()

    def too_many_lookups() -> HTTPException:
        return _refuse(429, "too_many_lookups", "too many codes of no table: wait a minute")

    def missed(conn: HTTPConnection) -> None:
        """A code asked about names no table: counted against the address."""
        misses.allow(_address(conn))

    async def table_or_404(request: Request, code: str) -> Table:
        refused = guessing(request)
        if refused is not None:
            raise refused
        table = await manager_of(request).fetch(code)  # (the store's errors: `not_kept`)
        if table is None:
            missed(request)
            raise _refuse(404, "no_table", "no table with that code")
        return table

    # -- pages (one page app: the browser routes) -----------------------------------

    index = STATIC / "index.html"

    # (HEAD too: what a link checker or an uptime monitor asks)
    @app.api_route("/", methods=["GET", "HEAD"], include_in_schema=False)
    @app.api_route("/t/{code}", methods=["GET", "HEAD"], include_in_schema=False)
    # (the page says there is no such table)
    @app.api_route("/t/", methods=["GET", "HEAD"], include_in_schema=False)
    @app.api_route("/replay/{game_id}", methods=["GET", "HEAD"], include_in_schema=False)
    @app.api_route("/replay/", methods=["GET", "HEAD"], include_in_schema=False)
    # (a record file opened in the browser)
    @app.api_route("/replay", methods=["GET", "HEAD"], include_in_schema=False)
    @app.api_route("/stats", methods=["GET", "HEAD"], include_in_schema=False)
    @app.api_route("/help", methods=["GET", "HEAD"], include_in_schema=False)
    async def page() -> FileResponse:
        return FileResponse(index, headers={"Cache-Control": "no-cache"})

    # the tab's icon where a browser looks for one by habit (a bookmark, a page of ours
    # it has no icon link for): the page's own
    @app.api_route("/favicon.ico", methods=["GET", "HEAD"], include_in_schema=False)
    async def icon() -> FileResponse:
        return FileResponse(STATIC / "icon.svg", media_type="image/svg+xml")

    # -- lobby --------------------------------------------------------------------------

    @app.get("/api/options")
    async def options() -> dict[str, Any]:
        return {
            "presets": list(PRESET_NAMES),
            # how many seats each preset is for, the creator's included: [low, high]
            "players": {name: list(Rules.preset(name).players) for name in PRESET_NAMES},
            "bots": bot_levels(),
            "languages": [{"code": c, "name": LANGUAGE_NAMES[c]} for c in LANGUAGES],
            # the shortest time per move a table may have (`--min-turn-time`): the lobby
            # offers no shorter one
            "min_turn_time": settings.min_turn_time,
            "version": __version__,
        }

    #: each language's words for the page, as sent, with their entity tag (the words are
    #: the package's: they change only with an upgrade, which restarts the server)
    catalogues: dict[str, tuple[bytes, str]] = {}

    @app.get("/api/i18n/{lang}")
    async def strings(lang: str, request: Request) -> Response:
        """A language's words for the page. A browser asks again at every use and gets a
        304 while they are unchanged: kept for a while instead (it was five minutes), the
        old words met a new script after an upgrade, which showed its new words' keys."""
        code = normalise_language(lang) or "en"
        if code not in catalogues:
            t = Translator(code)
            body = json.dumps(
                {"lang": code, "strings": {**t.all("game"), **t.all("web")}},
                ensure_ascii=False,
                separators=(",", ":"),
            ).encode("utf-8")
            catalogues[code] = body, '"' + hashlib.sha256(body).hexdigest()[:32] + '"'
        body, tag = catalogues[code]
        headers = {"Cache-Control": "no-cache", "ETag": tag}
        asked = request.headers.get("if-none-match", "")
        if tag in (one.strip().removeprefix("W/") for one in asked.split(",")) or asked == "*":
            return Response(status_code=304, headers=headers)
        return Response(body, media_type="application/json", headers=headers)

    #: new tables per client address (a table is a game its bots play to the end, and
    #: the store keeps it)
    per_minute = settings.tables_per_minute
    creators = RateLimits(per_minute / 60, max(1, int(per_minute)), MAX_CREATORS_KEPT)

    def may_create(request: Request) -> bool:
        return creators.allow(_address(request))

    #: seats taken per client address: each join (and the leave after it) is kept in the
    #: table's log, so a loop of joining and leaving would grow it without end
    joins = settings.joins_per_minute
    joiners = RateLimits(joins / 60, max(1, int(joins)), MAX_CREATORS_KEPT)

    @app.post("/api/tables", status_code=201)
    async def create_table(body: CreateTable, request: Request) -> dict[str, Any]:
        if not may_create(request):
            raise _refuse(429, "too_many_tables", "too many new tables from here: wait a minute")
        spec: dict[str, Any] = {"preset": body.preset}
        spec.update((str(k), v) for k, v in body.options.items())
        try:
            table, token = await manager_of(request).create(
                spec,
                list(body.seats),
                body.name,
                turn_time=body.turn_time,
                bot_pace=body.bot_pace,
            )
        except TableError as err:
            raise _refuse(400, err.code, err.message) from None
        except RulesError as err:
            # the fault by its code, for the page to say in its player's language
            raise _refuse(400, "options", str(err), rule=_rule_fault(err)) from None
        except ValueError as err:
            raise _refuse(400, "options", str(err)) from None
        return {"code": table.code, "seat": 0, "token": token, "link": f"/t/{table.code}"}

    @app.post("/api/tables/{code}/join")
    async def join_table(code: str, body: JoinTable, request: Request) -> dict[str, Any]:
        table = await table_or_404(request, code)
        if not joiners.allow(_address(request)):
            raise _refuse(429, "too_many_joins", "too many seats taken from here: wait a minute")
        try:
            seat, token = table.join(body.name)
        except TableError as err:
            raise _refuse(409, err.code, err.message) from None
        return {"code": table.code, "seat": seat, "token": token}

    async def listed(request: Request, codes: list[str]) -> dict[str, Any]:
        """Tables as `table_info` shows them (None: no such table), by code; a finished
        table that is not in memory is described from the store, not rebuilt from its log
        (a listing of 50 finished tables rebuilt them all on every request, and held the
        server meanwhile). An unfinished one out of memory -- a table waiting for its
        players that nobody had been at for a while (`Settings.idle_after`): a short log
        -- is read back. The store is read on a worker thread, once for all the codes not
        in memory (a lookup each, on the event loop, held up every table)."""
        manager = manager_of(request)
        store = store_of(request)
        missing = [c for c in codes if manager.in_memory(c) is None]
        read = await asyncio.to_thread(_described, store, missing) if missing else {}
        found: dict[str, Any] = {}
        for code in codes:
            table = manager.in_memory(code)  # (come into memory meanwhile, maybe)
            if table is None and code not in read:  # (in memory then, and gone since)
                read.update(await asyncio.to_thread(_described, store, [code]))
                table = manager.in_memory(code)
            if table is not None:
                found[code] = table.public()
                continue
            entry = read.get(code)
            if entry is None or entry[0].code in manager.broken:
                # (a table whose log cannot be replayed is left out: no such table, as its
                # link and a join say, not a game over)
                found[code] = None
                continue
            stored, game_id = entry
            if stored.finished is None:
                table = await manager.fetch(code)  # (None: its log cannot be replayed)
                found[code] = None if table is None else table.public()
                continue
            found[code] = {
                "code": stored.code,
                "status": "finished",
                "seats": [],
                "game_id": game_id,
            }
        return found

    @app.get("/api/tables")
    async def tables_info(request: Request, codes: str = "") -> dict[str, Any]:
        """Several tables at once, as `table_info` shows them (null: no such table): the
        lobby's list of a browser's tables in one request."""
        wanted = [c for c in codes.split(",") if c][:MAX_CODES_ASKED]
        if any(not c.isalnum() or len(c) > 12 for c in wanted):
            raise _refuse(422, "invalid", "codes are letters and digits, comma separated")
        refused = guessing(request)
        if refused is not None:
            raise refused
        found = await listed(request, [c.upper() for c in wanted])
        for _ in range(sum(info is None for info in found.values())):
            if not misses.allow(_address(request)):
                # (past the limit the answer is not given at all: its tables found would
                # tell which of the codes guessed are live)
                raise too_many_lookups()
        return {"tables": found}

    @app.get("/api/tables/{code}")
    async def table_info(code: str, request: Request) -> dict[str, Any]:
        refused = guessing(request)
        if refused is not None:
            raise refused
        table = await manager_of(request).fetch(code)
        info = None if table is None else table.public()
        if info is None:
            missed(request)
            raise _refuse(404, "no_table", "no table with that code")
        return info

    # -- records, replays, statistics ----------------------------------------------------

    # (the store's reads for these run on a worker thread, not the event loop: a long
    # one -- the statistics of years of games -- held up every table meanwhile)

    @app.get("/api/games")
    async def games(request: Request, name: str | None = None, limit: int = 20) -> list[Any]:
        limit = max(1, min(limit, 100))
        found = await asyncio.to_thread(store_of(request).recent_games, limit, _asked_name(name))
        return [_summary(g) for g in found]

    @app.get("/api/games/{game_id}/record")
    async def record(game_id: int, request: Request) -> Response:
        game = await asyncio.to_thread(store_of(request).game, game_id)
        if game is None:
            raise _refuse(404, "no_game", "no such game")
        return Response(
            game.record,
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="mextrain-{game_id}.json"'},
        )

    @app.get("/api/games/{game_id}/replay")
    async def replay(game_id: int, request: Request) -> dict[str, Any]:
        """Every position of a finished game, all hands shown, for the replay viewer."""
        game = await asyncio.to_thread(store_of(request).game, game_id)
        if game is None:
            raise _refuse(404, "no_game", "no such game")
        result = await asyncio.to_thread(lambda: replay_record(load_record(game.record)))
        frames = await asyncio.to_thread(
            _replay_frames, result.match.rounds, list(game.players), result.totals, result.winners
        )
        store = store_of(request)
        humans, left = await asyncio.to_thread(
            lambda: (store.humans_of(game_id), store.left_of(game_id))
        )
        frames["bots"] = _bots(game.players, humans)
        # per seat: its person left before the end, a bot finishing the game for them (as
        # the statistics' recent games mark it)
        frames["left"] = list(left) or [False] * len(game.players)
        frames["open_doubles_block"] = result.record.rules.open_doubles_block
        return frames

    #: records sent to be replayed, per client address (each is replayed through the
    #: engine)
    replays = settings.replays_per_minute
    replayers = RateLimits(replays / 60, max(1, int(replays)), MAX_CREATORS_KEPT)

    @app.post("/api/replay")
    async def replay_sent(request: Request) -> dict[str, Any]:
        """A record a page sends (a file its player opened), checked and replayed for the
        viewer as a kept game is: every position, every hand face up (the record holds
        them all, and is the sender's own). Nothing of it is kept. A record that is none,
        or breaks the rules, is refused as ``mextrain replay`` refuses it, its reason in
        English (``detail``: where, and the rule broken) under words of the page's own."""
        if not replayers.allow(_address(request)):
            raise _refuse(429, "too_many_replays", "too many records sent from here: wait a minute")
        result = await sent_record(request)
        return await asyncio.to_thread(_sent_frames, result)

    async def sent_record(request: Request) -> ReplayResult:
        """The record a request's body holds, replayed; refused, in words the page gives in
        its language, where it is too large, no record, or breaks the rules."""
        limit = settings.max_record_bytes
        length = request.headers.get("content-length")
        if length is None:
            raise _refuse(411, "length_required", "a request body needs its Content-Length")
        if not (length.isdigit() and int(length) <= limit):
            raise _refuse(413, "record_too_large", f"a record here is at most {limit:,} bytes")
        body = bytearray()
        async for chunk in request.stream():
            body += chunk
            if len(body) > limit:
                raise _refuse(413, "record_too_large", f"a record here is at most {limit:,} bytes")
        try:
            result = await asyncio.to_thread(lambda: replay_record(load_record(bytes(body))))
        except IllegalRecordError as err:
            lang = request.query_params.get("lang")
            lang = lang if lang in LANGUAGES else _chosen_language(request)
            raise _refuse(
                422,
                "record_illegal",
                err.describe(),
                round=err.round,
                action=err.action,
                text=None
                if err.text is None
                else shorten_numbers(err.text, Translator(lang).count_words),
                reason=err.reason,
                said=_record_fault_said(err, lang),
            ) from None
        except RecordFormatError as err:
            code = "record_version" if err.field == "version" else "record_damaged"
            raise _refuse(422, code, err.reason.removeprefix("not a record: ")) from None
        if not result.match.rounds:
            raise _refuse(422, "record_empty", "the record has no round dealt yet")
        return result

    #: analyses of a replay's positions, per client address (each makes the search bot
    #: think for up to `Settings.hint_time_ms`), and how many may think at once, so that
    #: the tables' own bots and hints are not kept waiting by them
    per_minute = settings.analyses_per_minute
    analysers = RateLimits(per_minute / 60, max(1, int(per_minute)), MAX_CREATORS_KEPT)
    thinking = asyncio.Semaphore(ANALYSES_AT_ONCE)
    #: a kept game's positions analysed already (the same position, the same answer)
    analysed: OrderedDict[tuple[int, int, int], dict[str, Any]] = OrderedDict()

    async def position_analysis(
        request: Request, result: ReplayResult, where: tuple[int, int]
    ) -> dict[str, Any]:
        if not analysers.allow(_address(request)):
            raise _refuse(429, "too_many_analyses", "too many analyses from here: wait a minute")
        async with thinking:
            return await asyncio.to_thread(_analysis, result, *where, settings)

    @app.get("/api/games/{game_id}/analysis")
    async def game_analysis(
        game_id: int, request: Request, round: int = 0, step: int = 0
    ) -> dict[str, Any]:
        """The search bot's analysis of a position of a kept game's replay (``round``,
        ``step``: after that many of its actions), from the seat to move's own tiles
        only, as its hint would have been, and the move the game made there."""
        key = (game_id, round, step)
        if key in analysed:
            analysed.move_to_end(key)
            return analysed[key]
        store = store_of(request)
        game = await asyncio.to_thread(store.game, game_id)
        if game is None:
            raise _refuse(404, "no_game", "no such game")
        # kept with the game too, so that a restart neither thinks again nor answers
        # otherwise; an answer of another budget (the server's hint settings) is not it
        budget = f"iterations={settings.hint_iterations},time_ms={settings.hint_time_ms}"
        answer = await asyncio.to_thread(store.analysis, game_id, round, step, budget)
        if answer is None:
            result = await asyncio.to_thread(lambda: replay_record(load_record(game.record)))
            answer = await position_analysis(request, result, (round, step))
            try:
                answer = await asyncio.to_thread(
                    store.keep_analysis, game_id, round, step, budget, answer
                )
            except sqlite3.Error:  # (the answer thought out is not lost: memory keeps it)
                log.warning("game %d: an analysis could not be kept", game_id, exc_info=True)
        analysed[key] = answer
        while len(analysed) > ANALYSES_KEPT:
            analysed.popitem(last=False)
        return answer

    @app.post("/api/replay/analysis")
    async def sent_analysis(request: Request, round: int = 0, step: int = 0) -> dict[str, Any]:
        """The same of a record a page sends (a file its player opened): nothing kept."""
        if not analysers.ready(_address(request)):  # (refused before the body is read)
            raise _refuse(429, "too_many_analyses", "too many analyses from here: wait a minute")
        result = await sent_record(request)
        return await position_analysis(request, result, (round, step))

    #: the statistics' ratings, worked out again only once another game is kept
    ratings_kept = RatingsKept(bot_level_of)

    @app.get("/api/stats")
    async def stats(request: Request, name: str | None = None) -> dict[str, Any]:
        players, bots, recent = await asyncio.to_thread(
            _stats, store_of(request), _asked_name(name), ratings_kept
        )
        return {"players": players, "bots": bots, "recent": [_summary(g) for g in recent]}

    # -- play ------------------------------------------------------------------------

    #: open websockets per client address: each costs the server a task, an outbox and a
    #: copy of every change at its table, and nothing limited how many one machine opened
    connected: Counter[str] = Counter()

    @app.websocket("/ws/{code}")
    async def play(websocket: WebSocket, code: str) -> None:
        await websocket.accept()
        address = _address(websocket)
        if connected[address] >= settings.connections_per_address:
            await _send_error(websocket, "too_many_connections", "too many connections from here")
            await websocket.close(1008)
            return
        connected[address] += 1
        try:
            await seated(websocket, code)
        finally:
            connected[address] -= 1
            if not connected[address]:
                del connected[address]

    async def not_read(websocket: WebSocket, code: str) -> None:
        """A table the database would not read back (held by another program past
        SQLite's wait, a disk error): the connection is told so (``not_read``), and
        closed as one to try again later (1013); the page connects
        again. Nothing of the table was kept in memory (`TableManager.get`). The socket
        had closed with no word (the error unhandled), or a table whose log could not
        be read was taken for a broken one: "no such table" for the life of the server."""
        log.exception("table %s could not be read for a connection", code)
        with contextlib.suppress(Exception):
            await _send_error(websocket, "not_read", "the server could not read that: try again")
            await websocket.close(1013)

    async def seated(websocket: WebSocket, code: str) -> None:
        """A connection, accepted: its hello, then its messages until it goes."""
        refused = guessing(websocket)
        if refused is not None:
            detail: dict[str, str] = refused.detail  # type: ignore[assignment]
            await _send_error(websocket, detail["code"], detail["message"])
            await websocket.close(1008)
            return
        try:
            table = await manager_of(websocket).fetch(code)
        except sqlite3.Error:
            await not_read(websocket, code)
            return
        if table is None:
            missed(websocket)
            await _send_error(websocket, "no_table", "no table with that code")
            await websocket.close(4404)
            return
        try:
            first = await asyncio.wait_for(websocket.receive(), settings.hello_timeout)
            text = _text_of(first, settings.max_message_bytes)
            hello = parse_client_message(text)
            if not isinstance(hello, HelloMessage):
                raise MessageError("hello_first", "the first message must be a hello")
        except (TimeoutError, MessageError, WebSocketDisconnect, RuntimeError) as err:
            with contextlib.suppress(Exception):
                if isinstance(err, MessageError):
                    await _send_error(websocket, err.code, err.detail)
                    await websocket.close(1008)
                elif isinstance(err, TimeoutError):
                    await _send_error(websocket, "hello_timeout", "say hello first")
                    await websocket.close(1008)
            return
        seat = table.seat_of_token(hello.token)
        if hello.token and seat is None:
            await _send_error(websocket, "bad_token", "that seat token is not valid here")
            await websocket.close(1008)
            return
        lang = normalise_language(hello.lang) or "en"
        client = Client(seat, lang, settings.max_queue, hello.token if seat is not None else None)
        # the table as it is now: a finished one may have left memory during the hello,
        # and everyone connected to it must share one object (one "play again")
        try:
            table = await manager_of(websocket).fetch(code, hold=True) or table
        except sqlite3.Error:
            await not_read(websocket, code)
            return
        client.send({"type": "welcome", "seat": seat, "code": table.code})
        sender = asyncio.create_task(_pump(websocket, client))
        table.connect(client)
        limiter = RateLimiter(settings.messages_per_second, settings.burst)
        strikes = 0
        cut_off = False
        # the hint being worked out for this connection: it thinks for up to a second or
        # so, while the connection goes on reading (a move sent meanwhile is not held up)
        hinting: asyncio.Task[None] | None = None

        async def answer_hint(job: asyncio.Future[dict[str, Any]], version: int) -> None:
            seat = client.seat
            try:
                answer = await asyncio.shield(job)
            except Exception:
                log.exception("table %s: a hint could not be worked out", table.code)
                client.send(_error("hint_failed", "no hint could be worked out: try again"))
                return
            # once the table has moved on, or the seat was given up, it answers nothing
            if table.version == version and client.seat == seat:
                client.send(answer)

        try:
            while not client.closed:
                raw = await websocket.receive()
                if raw["type"] == "websocket.disconnect":
                    break
                if not limiter.allow():
                    # a client that keeps sending through ``burst`` refusals in a row is
                    # cut off; one that slows down starts afresh
                    strikes += 1
                    client.send(_error("rate", "too many messages: slow down"))
                    if strikes > settings.burst:
                        cut_off = True
                        break
                    continue
                strikes = 0
                try:
                    message = parse_client_message(_text_of(raw, settings.max_message_bytes))
                    if isinstance(message, HintMessage):
                        # checked now, in the order the messages came (a refusal at once)
                        job = table.hint(client, message.version)
                        if hinting is not None:  # (a newer question replaces it)
                            hinting.cancel()
                        hinting = asyncio.create_task(answer_hint(job, message.version))
                    elif isinstance(message, RematchMessage):
                        client.send(await manager_of(websocket).rematch(table, client))
                    else:
                        _handle(table, client, message)
                except MessageError as err:
                    client.send(_error(err.code, err.detail))
                except TableError as err:
                    client.send(_error(err.code, err.message, err.said))
                    client.refusal = err.reword
                except sqlite3.Error:
                    # the database would not keep it (locked past SQLite's wait, a full
                    # disk): the log is written first, so nothing changed; say so, and
                    # keep the connection
                    log.exception("table %s: a message could not be kept", table.code)
                    client.send(_error("not_kept", "the server could not keep that: try again"))
        except WebSocketDisconnect:
            pass
        finally:
            if hinting is not None:
                hinting.cancel()  # (the analysis itself is shared, and runs to its end)
            table.disconnect(client)
            sender.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await sender
            with contextlib.suppress(Exception):
                # a flood is cut off as a breach of the rules (1008), not a normal close
                await websocket.close(1008 if cut_off else 1000)

    return app


def _handle(table: Table, client: Client, message: Any) -> None:
    if isinstance(message, ActionMessage):
        table.act(client, message.move, message.version)
    elif isinstance(message, StartMessage):
        if client.seat is None:
            raise TableError("spectator", "spectators cannot start the game")
        table.start()
    elif isinstance(message, PingMessage):
        client.send({"type": "pong"})
    elif isinstance(message, LeaveMessage):
        table.leave(client)
    elif isinstance(message, NewSeatLinkMessage):
        table.new_seat_token(client)
    elif isinstance(message, UndoMessage):
        table.undo(client, message.version)
    elif isinstance(message, BackMessage):
        table.back(client)
    elif isinstance(message, ChatMessage):
        table.say(client, message.text, message.phrase)
    elif isinstance(message, LangMessage):
        before, client.lang = client.lang, normalise_language(message.lang) or client.lang
        reword = client.refusal
        if client.lang != before:  # (its state's words, then the error on show, if any)
            table.word_again(client)
        if reword is not None and client.lang != before:  # the rule error on show, in
            # the page's new language (it shows it until the next state or error)
            client.send(_error("illegal", *reword(client.lang)))
            client.refusal = reword
    elif isinstance(message, HelloMessage):
        raise MessageError("hello_again", "this connection has already said hello")


def _text_of(raw: MutableMapping[str, Any], limit: int) -> str:
    if raw.get("type") == "websocket.disconnect":
        raise WebSocketDisconnect(raw.get("code", 1000))
    text = raw.get("text")
    if text is None:
        data = raw.get("bytes") or b""
        if len(data) > limit:
            raise MessageError("too_large", f"messages are limited to {limit} bytes")
        try:
            text = data.decode()
        except UnicodeDecodeError:
            raise MessageError("malformed", "messages are UTF-8 JSON text") from None
    if len(text.encode()) > limit:
        raise MessageError("too_large", f"messages are limited to {limit} bytes")
    return str(text)


def _rule_fault(err: RulesError) -> dict[str, Any]:
    """An invalid rule set's fault for the page to word (``game.rules_error.CODE``): its
    ``code``, ``option`` and ``params``, and, for a value the rules quote shortened (a text
    of thousands of characters, `Shortened`: English in ``params``), ``shortened``: the
    part shown, the length and its unit, for the page to say the length in its player's
    language, as the terminal does."""
    fault: dict[str, Any] = {"code": err.code, "option": err.option, "params": err.params}
    shortened = {
        name: {"head": value.head, "length": value.length, "unit": value.unit}
        for name, value in err.params.items()
        if isinstance(value, Shortened)
    }
    if shortened:
        fault["shortened"] = shortened
    return fault


def _outside_the_api(request: Request) -> bool:
    """Whether ``request`` is a GET or HEAD of an address outside the API (whose
    refusals are JSON, whatever the asker accepts)."""
    path = request.url.path
    api = path == "/api" or path.startswith("/api/")
    return not api and request.method in ("GET", "HEAD")


def _html_accepted(request: Request) -> bool:
    """Whether ``request`` accepts HTML (``Accept: text/html``, not at ``q=0``: the
    weights read as `accepted_values` reads the languages'): a browser opening an
    address, not a script fetching it (``*/*`` and ``text/*`` name no page)."""
    return any(
        media.lower() == "text/html" and weight > 0
        for media, weight in accepted_values(request.headers.get("accept"))
    )


#: the cookie the page sets when its reader chooses a language (``static/app.js``), which
#: the page keeps in the browser: the one way a page of the server's own (`_not_found_page`)
#: knows it; one of our language codes, or it is not read
LANGUAGE_COOKIE = "mextrain_lang"

#: an address of no page answers a browser with a page, a script with JSON: a cache
#: must keep the two apart (and the page's language, by the browser's or the one chosen)
NOT_FOUND_VARY = {"Vary": "Accept, Accept-Language, Cookie"}


#: the page for an address of no page (`_not_found_page`): the page's look, no script
NOT_FOUND_PAGE = """<!doctype html>
<html lang="{lang}">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta name="color-scheme" content="light dark">
  <title>{title} – {game}</title>
  <link rel="stylesheet" href="/static/style.css">
  <link rel="icon" href="/static/icon.svg" type="image/svg+xml">
</head>
<body>
  <header class="topbar"><a href="/" class="brand">{game}</a></header>
  <main><section>
    <h1>{title}</h1>
    <p>{text}</p>
    <p><a href="/">{back}</a></p>
  </section></main>
</body>
</html>
"""


def _not_found_page(request: Request, headers: Mapping[str, str] | None = None) -> Response:
    """A 404 for a browser: a small page in the language its reader chose on the page
    (`LANGUAGE_COOKIE`), else the one the browser asks for (its ``Accept-Language``, as
    the page picks one from the browser's languages), with a link to the lobby, not the
    API's JSON."""
    t = Translator(_chosen_language(request))
    words = {
        "lang": t.lang,
        "game": t("game.name"),
        "title": t("web.not_found.title"),
        "text": t("web.not_found.text"),
        "back": t("web.not_found.back"),
    }
    body = NOT_FOUND_PAGE.format(**{key: html.escape(value) for key, value in words.items()})
    return HTMLResponse(body, 404, headers={**(headers or {}), **NOT_FOUND_VARY})


def _chosen_language(request: Request) -> str:
    """The language a page of the server's own is in: the reader's choice on the page, if
    its cookie holds one of our codes exactly (anything else is not read), else the first
    of ours the browser asks for."""
    chosen = request.cookies.get(LANGUAGE_COOKIE)
    if chosen in LANGUAGES:
        return str(chosen)
    return accepted_language(request.headers.get("accept-language"))


def _record_fault_said(err: IllegalRecordError, lang: str) -> str | None:
    """The rule a record breaks, in ``lang`` (its seats by the record's names), where the
    engine refused one of its actions; None where the fault is the record's own (scores
    that do not add up, a round past the game's end): ``reason`` says that in English."""
    if err.cause is None:
        return None
    # (a seat the record leaves nameless by the default name: "Seat 4")
    names = {seat: name for seat, name in enumerate(err.players) if name.strip()} or None
    return shorten_numbers(error_text(err.cause, lang, names), Translator(lang).count_words)


def _refuse(status: int, code: str, message: str, **more: object) -> HTTPException:
    """An HTTP refusal the browser can show in its player's language: ``detail`` holds a
    stable ``code`` (its text is in the web catalogue), the English ``message`` and any
    ``more`` details (``rule``: an invalid rule set's fault, ``game.rules_error.CODE``)."""
    return HTTPException(status, {"code": code, "message": message, **more})


def _not_kept() -> HTTPException:
    """The refusal of a request whose change the database could not keep (held by another
    program past SQLite's wait, a full disk): nothing changed, and trying again may work
    (503: the server, not the request, is at fault)."""
    return _refuse(503, "not_kept", "the server could not keep that: try again")


def _not_read() -> HTTPException:
    """The refusal of a request for something the database would not read (held by
    another program past SQLite's wait, a disk error): asking again may work (503), as
    with `_not_kept`, whose words speak of a change kept."""
    return _refuse(503, "not_read", "the server could not read that: try again")


def _error(code: str, message: str, said: str | None = None) -> dict[str, Any]:
    """An ``error`` message; ``said``: its words for a screen reader, where they differ
    (a rule error names a tile in words)."""
    error: dict[str, Any] = {"type": "error", "code": code, "message": message}
    if said is not None:
        error["said"] = said
    return error


async def _send_error(websocket: WebSocket, code: str, message: str) -> None:
    await websocket.send_text(json.dumps(_error(code, message)))


async def _pump(websocket: WebSocket, client: Client) -> None:
    """Send the client's queued messages in order until it is closed."""
    try:
        while True:
            message = await client.next_message()
            if message is None:
                break
            await websocket.send_text(json.dumps(message, separators=(",", ":")))
    except Exception:  # the connection went away; the reader notices and cleans up
        client.closed = True
    with contextlib.suppress(Exception):
        await websocket.close()


def _bots(players: Sequence[str], humans: Sequence[bool]) -> list[str | None]:
    """Per seat, the level of a bot (its name is the server's English one: pages say it
    in their reader's language), None for a person."""
    people = list(humans) or [False] * len(players)
    return [
        None if human else bot_level_of(name, seat)
        for seat, (name, human) in enumerate(zip(players, people, strict=True))
    ]


def _address(conn: HTTPConnection) -> str:
    """The client's address, by which tables made, seats taken and codes of no table
    asked about are counted."""
    return conn.client.host if conn.client else ""


def _asked_name(name: str | None) -> str | None:
    """The person a list is asked for: as a seat's name is kept (no space around it);
    an empty one (``?name=``, a cleared search field) asks for everyone, as no name does."""
    if name is None or not name.strip():
        return None
    return name.strip()


def _stats(
    store: Store, name: str | None, kept: RatingsKept
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[GameSummary]]:
    """``/api/stats``' reading of the store, on a worker thread (it reads every result
    kept): every person's (or ``name``'s) statistics, the bot levels' ratings, and the
    recent games. A rating reads every game, whoever is asked for (it counts whom each
    played): some 100 microseconds a game, worked out again once another game is kept."""
    ratings = kept.of(store)
    players = []
    for p in store.player_stats(name):
        row = p.to_dict()
        # a win shared on equal lowest totals counts as a win, as in the terminal's; a
        # person whose only games are games they left has no rate to give
        row["win_rate"], row["win_interval"] = None, None
        if p.games:
            lo, hi = wilson_interval(p.wins, p.games)
            row["win_rate"] = round(p.wins / p.games, 4)
            row["win_interval"] = [round(lo, 4), round(hi, 4)]
        # (none for a person whose every game was one they left, or a game of one)
        rating = ratings.get(("person", person_key(p.name)))
        row["rating"] = None if rating is None else round(rating.shown, 2)
        row["rated_games"] = 0 if rating is None else rating.games
        players.append(row)
    bots = [
        {"level": level, "rating": round(rating.shown, 2), "games": rating.games}
        for level in bot_levels()
        if (rating := ratings.get(("bot", level))) is not None
    ]
    return players, bots, store.recent_games(10, name)


def _described(store: Store, codes: list[str]) -> dict[str, tuple[StoredTable, int | None] | None]:
    """The lobby's reading of the store for tables not in memory, on a worker thread:
    per code, its table as kept and the number of its game if it was kept (None: no
    such table)."""
    out: dict[str, tuple[StoredTable, int | None] | None] = {}
    for code in codes:
        stored = store.table(code)
        if stored is None:
            out[code] = None
            continue
        game = store.game_of_table(stored.id) if stored.finished is not None else None
        out[code] = (stored, None if game is None else game.id)
    return out


def _summary(game: GameSummary) -> dict[str, Any]:
    return {**game.to_dict(), "bots": _bots(game.players, game.humans)}


def _replay_frames(
    rounds: list[RoundState], players: list[str], totals: list[int], winners: list[int]
) -> dict[str, Any]:
    """Each round from its deal, one frame per action, every hand face up."""
    out = []
    for played in rounds:
        state = played.as_dealt()
        frames = [_frame(state, None)]
        for seat, action in played.history:
            state.apply(action, seat)
            frames.append(_frame(state, action.notation(seat)))
        out.append(
            {
                "engine": state.engine,
                "scores": state.scores(),
                # (by seat: the points that are not the pips left, `score_extras`)
                "extra": score_extras(state),
                "frames": frames,
            }
        )
    return {"players": players, "rounds": out, "totals": totals, "winners": winners}


#: analyses of replays' positions that may think at once (`create_app`)
ANALYSES_AT_ONCE = 2
#: kept games' positions whose analysis is kept, the latest asked
ANALYSES_KEPT = 512


def _analysis(result: ReplayResult, k: int, step: int, settings: Settings) -> dict[str, Any]:
    """The search bot's analysis of round ``k`` of a replayed record after ``step`` of its
    actions, from the seat to move's view (its own tiles only): its best moves, up to
    three, each with its chance to win the round and expected points; the move the record
    made there (``played``) and its chance where the search tried it; ``forced`` where
    there was one legal move. Refused (``no_position``) past the record's rounds or
    actions, and at a round's end."""
    rounds = result.match.rounds
    if not (0 <= k < len(rounds) and 0 <= step <= len(rounds[k].history)):
        raise _refuse(422, "no_position", "the record has no such position")
    history = rounds[k].history
    state = rounds[k].position_before(step)
    if state.is_over:
        raise _refuse(422, "no_position", "the round is over there: nothing to analyse")
    seat = state.current_seat
    view = state.view(seat)
    played = history[step][1] if step < len(history) else None
    answer: dict[str, Any] = {
        "round": k,
        "step": step,
        "seat": seat,
        "played": None if played is None else page_move(played),
        "played_win_probability": None,
        "forced": len(view.legal_actions) == 1,
        "moves": [],
    }
    if answer["forced"]:
        answer["moves"] = [{"move": page_move(view.legal_actions[0])}]
        return answer
    ranked = analyze(
        view,
        random.Random(f"analysis:{k}:{step}"),  # (the same position, the same analysis)
        iterations=settings.hint_iterations,
        time_ms=settings.hint_time_ms or None,
    )
    tried = [a for a in ranked if a.win_probability is not None and a.expected_score is not None]
    answer["moves"] = [
        {
            "move": page_move(a.action),
            "win_probability": round(a.win_probability or 0.0, 3),
            "expected_score": round(a.expected_score or 0.0, 1),
        }
        for a in tried[:3]
    ]
    chance = next((a.win_probability for a in tried if a.action == played), None)
    answer["played_win_probability"] = None if chance is None else round(chance, 3)
    return answer


def _sent_frames(result: ReplayResult) -> dict[str, Any]:
    """A record sent to be replayed, as the viewer shows a kept game (no seat known for
    a bot's, none left before the end), and whether its game is ``complete``: one in
    progress stops where the record does."""
    players = list(result.players)
    frames = _replay_frames(result.match.rounds, players, result.totals, result.winners)
    frames["bots"] = [None] * len(players)
    frames["left"] = [False] * len(players)
    frames["open_doubles_block"] = result.record.rules.open_doubles_block
    frames["complete"] = result.complete
    return frames


def _frame(state: RoundState, action: str | None) -> dict[str, Any]:
    view = state.view(0).to_dict()
    return {
        "action": action,
        "hands": [[str(t) for t in state.hand(seat)] for seat in range(state.n)],
        "trains": view["trains"],
        "open_doubles": view["open_doubles"],
        "hand_sizes": view["hand_sizes"],
        "boneyard_size": view["boneyard_size"],
        "current_seat": view["current_seat"],
        "ended": view["ended"],
        "mexican": MEXICAN,
    }
