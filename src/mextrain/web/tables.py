"""Tables: the server's authority over games. Every action goes through the engine, is
appended to the store before anyone hears of it, and each connection is sent only what
its seat may see.

A table is rebuilt from its log by replaying it: the deals come from a seed kept on the
server, so the log holds joins, starts, actions and deals, never tiles dealt; and the
turns out of time (``time_up``) and the ``back`` that undoes them, so that a seat a bot
plays since its time ran out is still played by one after a restart.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import hmac
import logging
import random
import secrets
import sqlite3
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Literal

from mextrain.bots import Bot, bot_names, make_bot
from mextrain.i18n import Translator, error_text, length_key, name_key, same_name
from mextrain.records import GameRecord, shorten_numbers
from mextrain.rules import (
    MEXICAN,
    Action,
    ActionFormatError,
    IllegalActionError,
    Match,
    RoundState,
    Rules,
    SeatView,
    TileFormatError,
    parse_action,
)
from mextrain.search import BY_STRENGTH, analyze, cap_think_time
from mextrain.store import ChatLine, Event, Store, StoredTable

__all__ = [
    "BOT_LEVELS",
    "Client",
    "RateLimiter",
    "RateLimits",
    "Settings",
    "Table",
    "TableError",
    "TableManager",
    "bot_levels",
]

#: bots offered in the lobby, strongest last (as measured: `mextrain.search.BY_STRENGTH`);
#: levels missing from the registry are skipped
BOT_LEVELS = BY_STRENGTH
log = logging.getLogger(__name__)
_CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
#: lines of table talk a table keeps and sends to whoever arrives (all stay in the store)
CHAT_KEPT = 50
#: a table's bots' pace (`Table.bot_pace`): the factor of the server's pause before a
#: bot's move (`Settings.bot_delay`; 0.6 s by default: 1.2, 0.6 and 0.15 s). One person
#: against bots wants them quick; a beginner, or friends following every move, slow.
BOT_PACES = {"slow": 2.0, "normal": 1.0, "fast": 0.25}

#: the longest clock a table may give a move, in seconds (`Table.turn_time`)
MAX_TURN_TIME = 3600
#: seconds after the deal of a round after the first before any clock starts (a person
#: to move then has them on top of the table's time per move, `Table.turn_time`), to read
#: the last round's result first
ROUND_GRACE = 15.0
#: turns in a row whose time ran out, after which a bot plays the seat without waiting
#: for its clock, until its player says they are back (`Table.back`) or moves; a turn a
#: bot played because its player was away (not connected) ends the row, as one in time does
STRIKES_AWAY = 2
#: the events of the log that move the game's position on: the start, a move, a move taken
#: back (``undo``), a deal (`Table.version` counts them). The others change no position --
#: the clock's strikes (``time_up``, ``back``), people taking or giving up a seat (``join``,
#: ``leave``), the next game's table (``rematch``) -- and leave the number as it is: a move
#: sent in the position before them is not stale, and a player's chosen tile and hint stay
POSITION_EVENTS = frozenset({"start", "action", "deal", "undo"})
#: new seat links a seat may make at once (`Settings.new_links_per_minute`)
NEW_LINKS_BURST = 3
#: names whose talk limit a table keeps (`Table._chat_limits`): the most recent ones
CHAT_NAMES_KEPT = 64


def bot_levels() -> list[str]:
    known = set(bot_names())
    return [name for name in BOT_LEVELS if name in known]


def _default_bot(prefer: tuple[str, ...] | None = None) -> str:
    levels = bot_levels()
    for name in prefer or ("medium", "planner", "greedy"):
        if name in levels:
            return name
    return levels[-1]


@dataclass
class Settings:
    """How the server paces and protects games (all times in seconds)."""

    bot_delay: float = 0.6  # pause before a bot's move, so people can follow
    takeover_after: float = 30.0  # an empty human seat is played by a bot after this
    round_pause: float = 4.0  # between a round's end and the next deal
    takeover_bot: str = ""  # bot spec for absent humans ("" = a medium-strength default)
    start_bot: str = ""  # bot spec for open seats filled at the start
    hint_iterations: int = 300  # search iterations behind a hint (the player waits for it)
    #: and the most time it may think, whatever the rules (huge hands under
    #: draw_until_playable made 300 iterations take half a minute); 0: no limit
    hint_time_ms: int = 2000
    #: the most a bot's move may think (a search bot: `cap_think_time`), for the same
    #: reason: the levels' iteration budgets took 7 s on a 2-seat move against a hand of
    #: 21 tiles, 45 s under draw_until_playable, while the table waited; 0: no limit
    bot_time_ms: int = 3000
    max_message_bytes: int = 4096
    hello_timeout: float = 10.0  # a connection must say hello within this time
    messages_per_second: float = 20.0
    burst: int = 40
    max_queue: int = 256  # outgoing messages waiting for one slow client
    chat_burst: int = 5  # lines of table talk a seat may say at once, then one a
    chat_window: float = 10.0  # ``chat_window / chat_burst`` seconds
    #: records one address may send to be replayed a minute (in bursts: each is read and
    #: replayed through the engine), and the most bytes one may hold
    replays_per_minute: float = 30.0
    #: analyses of replays' positions a client address may ask for a minute (each makes
    #: the search bot think, as a hint does)
    analyses_per_minute: float = 20.0
    max_record_bytes: int = 1_000_000
    #: new links a seat may make a minute, in bursts of `NEW_LINKS_BURST` (each is kept in
    #: the table's log: a loop of asking for one grew it without end)
    new_links_per_minute: float = 2.0
    tables_per_minute: float = 20.0  # new tables one address may make a minute (in bursts)
    #: seats one address may take a minute (in bursts): each is kept in the table's log, and
    #: a loop of joining and leaving grew it without end
    joins_per_minute: float = 30.0
    #: table codes one address may ask about a minute that name no table (in bursts): a
    #: code is all it takes to watch a table and take an open seat there, and a loop asking
    #: 50 codes a request found live tables among the billion codes in minutes. Once they
    #: are used up, every lookup from the address is refused, a table found or not
    lookups_per_minute: float = 60.0
    #: websockets one address may hold open at once (every table, seat and spectator
    #: together): a family's phones and tabs behind one router, not a loop of thousands
    connections_per_address: int = 32
    min_turn_time: float = 10.0  # the shortest clock a table may give a move (`turn_time`)
    #: a bot's move, a deal or a time-up the database could not keep (held by another
    #: program past SQLite's wait, a full disk) is tried again after this
    store_retry: float = 1.0
    #: an unfinished table nobody has been connected to for this long, with nothing to do
    #: of its own (no bot's move, deal or clock on its way: in practice a table still
    #: waiting for its players, since bots play on a game everyone has left), leaves
    #: memory; `TableManager.get` reads it back from its log when someone asks for it
    #: again (0: never)
    idle_after: float = 1800.0

    def bot_spec(self, which: str) -> str:
        spec: str = getattr(self, which)
        return spec or _default_bot()


class RateLimiter:
    """A token bucket: ``rate`` messages a second, bursts up to ``burst``."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.last = time.monotonic()

    def ready(self) -> bool:
        """Whether `allow` would let one through now (nothing is used up)."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        return self.tokens >= 1.0

    def allow(self) -> bool:
        if self.ready():
            self.tokens -= 1.0
            return True
        return False


class RateLimits:
    """A `RateLimiter` per key (a client address, a name), made as keys come: only the
    ``most`` keys used last are kept, so that the count stays small however many come."""

    def __init__(self, rate: float, burst: int, most: int) -> None:
        self.rate = rate
        self.burst = burst
        self.most = most
        self._limits: OrderedDict[str, RateLimiter] = OrderedDict()

    def allow(self, key: str) -> bool:
        limit = self._limits.pop(key, None) or RateLimiter(self.rate, self.burst)
        self._limits[key] = limit  # (the newest last)
        while len(self._limits) > self.most:
            self._limits.popitem(last=False)
        return limit.allow()

    def ready(self, key: str) -> bool:
        """Whether `allow` would let ``key`` through now (nothing is used up)."""
        limit = self._limits.get(key)
        return limit is None or limit.ready()


class TableError(Exception):
    """A request the table refuses; ``code`` is a stable name, the message is English
    (a rule error's is in the player's language, and ``said`` is the same words for a
    screen reader, a tile in words: "tile 0 and 1", never "0-1", which may be read "0
    minus 1")."""

    def __init__(
        self,
        code: str,
        message: str,
        said: str | None = None,
        reword: Reword | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.said = said
        #: the same refusal in another language (a rule error: shown and said)
        self.reword = reword


#: a rule error's words in a language: (shown, said)
Reword = Callable[[str], tuple[str, str]]


class Client:
    """One connection to a table: its seat (None for a spectator), language and outbox.

    The table only ever calls `send`, which queues without waiting; the transport drains
    the queue (`next_message`). A client too slow to drain it is cut off.
    """

    def __init__(
        self, seat: int | None, lang: str, max_queue: int = 256, token: str | None = None
    ) -> None:
        self.seat = seat
        self.lang = lang
        #: the seat token it said hello with (a rematch derives the next table's from it)
        self.token = token
        self.queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue(max_queue)
        self.closed = False
        #: the rule error the page shows now, to word again when its language changes
        #: (a page drops its error with the next state or error it is sent)
        self.refusal: Reword | None = None

    def send(self, message: dict[str, Any]) -> None:
        if self.closed:
            return
        if message.get("type") in ("state", "error"):
            self.refusal = None
        try:
            self.queue.put_nowait(message)
        except asyncio.QueueFull:
            self.close()

    def close(self) -> None:
        """Stop the client: the transport sends what is queued, then ends at the ``None``
        marker. Closed because its queue is full, it loses the oldest queued messages to
        make room for the marker (it is being cut off), so the transport always ends."""
        if not self.closed:
            self.closed = True
            while True:
                try:
                    self.queue.put_nowait(None)
                    break
                except asyncio.QueueFull:
                    self.queue.get_nowait()

    async def next_message(self) -> dict[str, Any] | None:
        return await self.queue.get()


@dataclass
class Seat:
    kind: Literal["open", "human", "bot"]
    name: str = ""
    bot: str = ""  # for bot seats
    token_hash: str = ""
    clients: set[Client] = field(default_factory=set)
    away_since: float | None = None  # a human with no connection, since when


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


#: a seat's token by its index (a rematch's derived tokens)
TokenFor = Callable[[int], str]


def _derive(table: Table, old: str, index: int) -> str:
    return table.rematch_token(index, old)


class Table:
    """One game table. All changes happen on the event loop, one at a time."""

    def __init__(
        self,
        store: Store,
        stored: StoredTable,
        settings: Settings,
        clock: Callable[[], float] = time.monotonic,
        chat: Sequence[ChatLine] | None = None,
    ) -> None:
        """``chat``: the table talk's latest lines, read from the store already (by
        `read_log`, off the event loop); None: read here."""
        self.store = store
        self.settings = settings
        self.id = stored.id
        self.code = stored.code
        self.config = stored.config
        self.rules = Rules.from_spec(_spec_from_json(stored.config["rules"]))
        #: the seconds a person has for each decision before a bot makes it for them, and
        #: finishes their turn (0: no clock; tables from before the clock have none)
        self.turn_time: float = stored.config.get("turn_time") or 0
        #: how quickly its bots move (`BOT_PACES`; tables from before the pace: normal)
        pace = stored.config.get("bot_pace")
        self.bot_pace: str = pace if pace in BOT_PACES else "normal"
        self._rng = random.Random(stored.seed)  # deals only; never leaves the server
        self._secret = hashlib.sha256(f"tokens:{stored.seed}".encode()).digest()
        #: per seat, how many times someone left it (a rematch's derived token changes)
        self.left: dict[int, int] = {}
        self.seats = [
            Seat("bot", name=_bot_name(spec[4:], i), bot=spec[4:])
            if spec.startswith("bot:")
            else Seat("open")
            for i, spec in enumerate(stored.config["seats"])
        ]
        #: seats a rematch keeps for the people of the game before, by name, until they
        #: take them (before the start, or from the bot that keeps them warm after it):
        #: nobody else may ("held:Eve" in the table's config)
        self.held = {
            i: spec[5:] for i, spec in enumerate(stored.config["seats"]) if spec.startswith("held:")
        }
        self.match: Match | None = None
        #: the position's number: the `POSITION_EVENTS` in the log (a move must name it,
        #: so that a move made on a table that has moved on since is refused)
        self.version = 0
        self._seq = 0  # the number of events in the log
        self.status: Literal["waiting", "playing", "finished"] = "waiting"
        self.game_id: int | None = None
        self.spectators: set[Client] = set()
        #: the table of the game played next by the same people ("play again"), and the
        #: lock its askers take in turn (`TableManager.rematch`): the first makes it, off
        #: the event loop, and those who ask meanwhile wait for it and join it
        self.next_code: str | None = None
        self.rematching = asyncio.Lock()
        #: the seats whose own player made a move of this game (not a bot for them)
        self.moved: set[int] = set()
        #: the seats whose latest move a bot made (for a bot seat, or for a person away:
        #: their page gone, or their time out turn after turn): a person's game is theirs
        #: in the statistics only if they made their seat's last move themselves, or a bot
        #: made it for them on a turn their time ran out with their page there (`finish`)
        self.bot_moved_last: set[int] = set()
        self._bots: dict[int, Bot] = {}
        self._bot_rng = random.Random()
        self._bot_task: asyncio.Task[None] | None = None
        self._timer: asyncio.TimerHandle | None = None
        self._hints: dict[tuple[int, int], asyncio.Future[dict[str, Any]]] = {}
        #: the timer is the pause before the next deal: comings and goings leave it running
        self._timer_deals = False
        self._tasks: set[asyncio.Task[None]] = set()
        #: the finished game being kept (`_keep`), and the set of such tasks the server
        #: waits for before it stops (the manager's, shared by its tables)
        self._keeping: asyncio.Task[None] | None = None
        self.keeping: set[asyncio.Task[None]] = set()
        #: the turn clock: turns are counted (a new one when another seat is to move or a
        #: round is dealt), each decision's clock starts at `_decision_since`, and a turn
        #: whose clock ran out (`_timed_out`) is the takeover bot's to finish
        self._turn = 0
        self._decision_since = time.monotonic()
        self._timed_out: int | None = None
        #: no clock runs before this (the first moments of a round after the first)
        self._grace_until = 0.0
        #: per seat, its turns in a row whose time ran out (`STRIKES_AWAY`)
        self.strikes: dict[int, int] = {}
        #: seats taken whose player's page has not connected since: no clock runs for
        #: them yet (a table of bots started at once, before its creator's page was there)
        self._unseen: set[int] = set()
        #: who made each move of the round in play: the name of the person who held the
        #: seat then (a bot's move for them included), None for a bot's seat -- the last
        #: moves keep their player's name after a seat changes hands
        self.movers: list[str | None] = []
        #: called when a finished table has nobody left watching (the manager unloads it)
        self.on_idle: Callable[[Table], None] | None = None
        #: the clock `idle_since` is read on (the manager's: a test's may be a fake one)
        self.clock = clock
        #: since when nobody has been connected to the table (None: someone is); an
        #: unfinished table idle for `Settings.idle_after` may leave memory (`busy`)
        self.idle_since: float | None = clock()
        #: the table talk's latest lines, oldest first (kept in the store, not in the log:
        #: a line said is no event of the game and moves no position on)
        lines = store.chat(self.id, CHAT_KEPT) if chat is None else chat
        self.chat: deque[ChatLine] = deque(lines, maxlen=CHAT_KEPT)
        self._chat_next = self.chat[-1].id + 1 if self.chat else 0
        #: per name (`name_key`): how fast its player may talk (``chat_burst``,
        #: ``chat_window``); a newcomer to a seat talks afresh, one who leaves and comes
        #: back under the same name goes on where they were (a loop of joining, talking
        #: and leaving said as much as one liked); the most recent names only
        burst = settings.chat_burst
        self._chat_limits = RateLimits(burst / settings.chat_window, burst, CHAT_NAMES_KEPT)
        #: the last undo point worked out (`undo_point`), by position and seat
        self._undo_point: tuple[tuple[int, int], int | None] | None = None
        #: how many times a move was taken back in this game (its log's ``undo`` events):
        #: the game, once kept, is nobody's rating
        self.taken_back = 0
        #: per seat: how often its player may make a new link (`new_seat_token`)
        links = settings.new_links_per_minute / 60
        self._link_limits = RateLimits(links, NEW_LINKS_BURST, max(1, len(self.seats)))

    # -- the log ----------------------------------------------------------------------

    def restore(self, events: Sequence[Event] | None = None, game_id: int | None = None) -> None:
        """Replay this table's log (server start, or a table read back): ``events``, and
        ``game_id``, the number of its game if it was kept, as `read_log` read them off
        the event loop (None: the log is read here)."""
        for event in self.store.events(self.id) if events is None else events:
            if event.seq != self._seq:
                raise RuntimeError(f"table {self.code}: event {event.seq} out of order")
            self._seq += 1
            self._apply_event(event.kind, event.data)
        now = time.monotonic()
        for seat in self.seats:
            if seat.kind == "human":
                seat.away_since = now
        # no page is connected yet: no clock runs for a person before theirs is back (and
        # a full one then), a seat whose page never comes is played after the takeover
        self._unseen = {i for i, seat in enumerate(self.seats) if seat.kind == "human"}
        self._decision_since = now
        self._grace_until = 0.0
        if self.status == "finished":
            self.game_id = game_id  # (None: it is looked for, and kept, now)
            # a game finished but not kept (the server stopped first): kept on a worker
            # thread, as at play (`_keep`), where its log was read on one (`read_log`) and
            # there is an event loop to wait on it; else here, as its log was read
            if self.game_id is None and (events is None or not self._start_keeping()):
                try:
                    self.finish()
                except Exception:  # as in `broadcast`: the next change tries again
                    log.exception("table %s: the finished game could not be saved", self.code)

    def _log(self, kind: str, data: dict[str, Any]) -> None:
        """Append an event, then apply it: the log is written before anyone is told."""
        self.store.append(self.id, self._seq, kind, data)
        self._seq += 1
        self._apply_event(kind, data)

    def _apply_event(self, kind: str, data: dict[str, Any]) -> None:
        if kind in POSITION_EVENTS:
            self.version += 1
        if kind == "join":
            seat = self.seats[data["seat"]]
            seat.kind, seat.name, seat.token_hash = "human", data["name"], data["token"]
            seat.bot = ""
            self.held.pop(data["seat"], None)  # a kept seat is kept no more once taken
            self._bots.pop(data["seat"], None)
            self.moved.discard(data["seat"])  # the newcomer has made no move yet
            self.bot_moved_last.discard(data["seat"])
            self.strikes.pop(data["seat"], None)
            if self._to_move() == data["seat"]:  # a late joiner on turn: a full clock
                self._new_turn()
        elif kind == "start":
            for index, spec in data["bots"].items():
                seat = self.seats[int(index)]
                seat.kind, seat.bot, seat.name = "bot", spec, _bot_name(spec, int(index))
            self.match = Match.new(self.rules, len(self.seats), self._rng)
            self.movers = []
            self.status = "playing"
            self._new_turn()
        elif kind == "action":
            assert self.match is not None
            seat_no, action = parse_action(data["action"])
            self.match.current.apply(action, seat_no)
            mover = self.seats[seat_no]
            self.movers.append(self.person(seat_no))
            if data.get("bot") and not self._slow_turn(seat_no):  # (the seat's last move
                self.bot_moved_last.add(seat_no)  # so far: `finish`)
            else:
                self.bot_moved_last.discard(seat_no)
            if not data.get("bot"):  # logs from before the mark count every move as theirs
                self.moved.add(seat_no)
                # a move of their own, even one that beats the bot thinking for them after
                # their time ran out: they are back, and the rest of the turn is theirs
                self._timed_out = None
                self.strikes.pop(seat_no, None)
            elif (
                mover.kind == "human"
                and self._timed_out != self._turn
                and self.strikes.get(seat_no, 0) < STRIKES_AWAY
            ):
                # a bot's move for a person who was away (not slow): a turn that did not
                # run out of time, so it breaks a row of turns out of time (worked out from
                # the log alone, so a restarted server counts the same)
                self.strikes.pop(seat_no, None)
            if self._to_move() == seat_no:  # the same turn goes on (after a draw): a new
                self._decision_since = time.monotonic()  # decision, a fresh clock
            else:
                self._new_turn()
        elif kind == "undo":  # the round back to before its person's latest decision
            assert self.match is not None
            keep = int(data["keep"])
            self.taken_back += 1
            self.match.rounds[-1] = self.match.current.position_before(keep)
            self.movers = self.movers[:keep]
            self._new_turn()
        elif kind == "deal":
            assert self.match is not None
            self.match.next_round(self._rng)
            self.movers = []
            self._new_turn()
            # the last round's result is likely still on the players' screens: no clock
            # runs in the round's first moments, whoever is to move (bots first, often)
            self._grace_until = time.monotonic() + ROUND_GRACE
        elif kind == "rematch":
            self.next_code = data["code"]
        elif kind == "time_up":  # the clock of the seat to move ran out: a bot finishes
            self._timed_out = self._turn  # the turn, and after `STRIKES_AWAY` in a row,
            index = data["seat"]  # plays on until its player is back
            if data.get("away"):  # (their page had gone: away, not slow -- a turn played
                self.strikes.pop(index, None)  # for someone gone ends the row)
            else:
                self.strikes[index] = self.strikes.get(index, 0) + 1
        elif kind == "back":
            index = data["seat"]
            self.strikes.pop(index, None)
            self._full_clock(index)
        elif kind == "new_token":  # the seat's token renewed: the old one (and every
            self.seats[data["seat"]].token_hash = data["token"]  # link with it) is void
        elif kind == "leave":
            index = data["seat"]
            seat = self.seats[index]
            seat.token_hash = ""
            self.strikes.pop(index, None)
            self.left[index] = self.left.get(index, 0) + 1
            self.held.pop(index, None)  # a player who leaves gives up the seat kept for them
            self.moved.discard(index)  # (their moves are not whoever sits here next)
            self.bot_moved_last.discard(index)
            if data.get("bot"):  # in play: a bot keeps the seat warm for a late joiner
                seat.kind, seat.bot, seat.name = "bot", data["bot"], _bot_name(data["bot"], index)
            else:  # before the start: the seat is open again
                seat.kind, seat.bot, seat.name = "open", "", ""
        else:
            raise RuntimeError(f"table {self.code}: unknown event {kind!r}")
        if self.match is not None and self.match.is_complete:
            self.status = "finished"
            self.strikes.clear()  # (nobody plays for anyone any more)
            self._timed_out = None

    def _new_turn(self) -> None:
        self._turn += 1
        self._timed_out = None
        self._decision_since = time.monotonic()

    def _to_move(self) -> int | None:
        """The seat whose move the round waits for (None between rounds or out of play)."""
        if self.match is None or self.match.current.is_over:
            return None
        return self.match.current.current_seat

    @property
    def bot_delay(self) -> float:
        """The seconds a bot waits before its move at this table: the server's pause, at
        the table's pace."""
        return self.settings.bot_delay * BOT_PACES[self.bot_pace]

    def clock_left(self) -> float | None:
        """The seconds the person to move has left for this decision, if the table has a
        clock and a person (not a bot) is to decide; may be negative once it has run out,
        until the bot's move lands."""
        index = self._to_move()
        if not self.turn_time or index is None or self.status != "playing":
            return None
        if self.seats[index].kind != "human" or self.bot_plays(index):
            return None
        if index in self._unseen:
            return None  # (their page has not come yet: the clock starts when it does)
        started = max(self._decision_since, self._grace_until)
        return started + self.turn_time - time.monotonic()

    # -- seats ------------------------------------------------------------------------

    def join(self, name: str, token_for: TokenFor | None = None) -> tuple[int, str]:
        """Take the first open seat; return it and the seat's secret token.

        Before the start that is a seat nobody holds. Once the game is in play it is a seat
        a bot was given at the start (a stand-in): the late joiner plays it from the next
        move on, with the hand and the score the bot leaves. Seats created as bot seats
        stay bots.
        """
        if self.status == "finished":
            raise TableError("finished", "the game is over")
        self._check_name_free(name)
        waiting = self.status == "waiting"
        for index, seat in enumerate(self.seats):
            if index in self.held:
                continue  # kept for someone from the game before
            if seat.kind == "open" if waiting else self.stand_in(index):
                return index, self._seat(index, name, token_for)
        raise TableError("full", "every seat is taken")

    def join_held(self, name: str, token_for: TokenFor | None = None) -> tuple[int, str]:
        """``name``, from the game before, takes the seat this rematch kept for them (the
        stand-in bot's, once the game has started without them); if there is none any
        more, the first seat `join` finds."""
        # a kept seat is open before the start, a stand-in bot's after it, until taken
        kept = [i for i, held in self.held.items() if name_key(held) == name_key(name)]
        if not kept or self.status == "finished":
            return self.join(name, token_for)
        self._check_name_free(name, keeping=kept[0])
        return kept[0], self._seat(kept[0], name, token_for)

    def rematch_token(self, index: int, old: str) -> str:
        """The token of seat ``index`` here for whoever held the seat token ``old`` at the
        game before: derived, not drawn, so that each device holding ``old`` (a phone and a
        laptop) gets the same seat here when it asks. It is keyed with this table's secret,
        which never leaves the server, and with the times someone left the seat: once they
        leave, the token they had is void for good."""
        message = f"{index}:{self.left.get(index, 0)}:{hash_token(old)}".encode()
        digest = hmac.new(self._secret, message, hashlib.sha256).digest()
        return base64.urlsafe_b64encode(digest[:24]).decode()

    def kept_for(self, index: int) -> str | None:
        """The person from the game before whose seat ``index`` is, kept for them by a
        rematch, while a stand-in bot keeps it warm (the game started without them)."""
        return self.held.get(index) if self.seats[index].kind == "bot" else None

    def person(self, index: int) -> str | None:
        """The person whose seat ``index`` is, as everyone is shown it: whoever sits there,
        or the one a stand-in bot keeps it for (a bot plays for them, as for someone away);
        None for a bot's seat or an open one."""
        seat = self.seats[index]
        return seat.name if seat.kind == "human" else self.kept_for(index)

    def person_seat(self, name: str) -> int | None:
        """The seat a person called ``name`` sits in, if any."""
        key = name_key(name)
        for index, seat in enumerate(self.seats):
            if seat.kind == "human" and name_key(seat.name) == key:
                return index
        return None

    def _check_name_free(self, name: str, keeping: int | None = None) -> None:
        """Refuse ``name`` if someone here has it, or a seat is kept for it (but the seat
        ``keeping``, which its holder is taking)."""
        taken = any(s.kind != "open" and same_name(s.name, name) for s in self.seats)
        kept = any(same_name(held, name) and i != keeping for i, held in self.held.items())
        if taken or kept:
            raise TableError("name_taken", f"someone at this table is already called {name}")

    def _seat(self, index: int, name: str, token_for: TokenFor | None = None) -> str:
        """``name`` takes seat ``index``; the seat's secret token (a new one, unless
        ``token_for`` gives the seat's)."""
        token = token_for(index) if token_for else secrets.token_urlsafe(24)
        self._log("join", {"seat": index, "name": name, "token": hash_token(token)})
        self.seats[index].away_since = time.monotonic()
        self._unseen.add(index)  # (their clock waits for their page)
        if self.status != "waiting":
            self.changed()
        elif self._full():
            if not self._try_start():
                # the seat is taken (its join is kept) and its token is the joiner's: the
                # start the database could not keep is tried again shortly (`_schedule`)
                self.changed()
        else:
            self.broadcast()
        return token

    def _full(self) -> bool:
        """Every seat is taken (by a person or a bot)."""
        return all(s.kind != "open" for s in self.seats)

    def leave(self, client: Client) -> None:
        """The person at ``client``'s seat leaves the table for good: before the start their
        seat is open again; in play a bot plays it from now on, and anyone arriving late
        may take it over. Their token is void, and their connections go on as spectators
        (after a ``left`` message, on which the page goes back to the lobby)."""
        if client.seat is None:
            raise TableError("spectator", "spectators hold no seat")
        if self.status == "finished":
            raise TableError("finished", "the game is over")
        index = client.seat
        bot = self.settings.bot_spec("takeover_bot") if self.status == "playing" else None
        self._log("leave", {"seat": index, "bot": bot})
        self._unseen.discard(index)
        for other in list(self.seats[index].clients):
            self.seats[index].clients.discard(other)
            other.seat = None
            self.spectators.add(other)
            other.send({"type": "left", "code": self.code})
        self.seats[index].away_since = None
        self.changed()

    def new_seat_token(self, client: Client) -> None:
        """The seat at ``client`` gets a new token, for a link to it given to the wrong
        person, or a device lost: the old token, and every link with it, opens the seat no
        more. ``client`` keeps the seat and is told the new token (``seat_token``); every
        other connection that held the seat with the old one goes on as a spectator (after
        a ``seat_moved`` message, on which the page forgets the old token)."""
        if client.seat is None:
            raise TableError("spectator", "spectators hold no seat")
        if self.status == "finished":
            raise TableError("finished", "the game is over")
        index = client.seat
        if not self._link_limits.allow(str(index)):
            raise TableError("link_rate", "you have asked for new links too often: wait a minute")
        token = secrets.token_urlsafe(24)
        self._log("new_token", {"seat": index, "token": hash_token(token)})
        client.token = token
        client.send({"type": "seat_token", "code": self.code, "token": token})
        for other in list(self.seats[index].clients):
            if other is client:
                continue
            self.seats[index].clients.discard(other)
            other.seat = None
            other.token = None
            self.spectators.add(other)
            other.send({"type": "seat_moved", "code": self.code})
        self.changed()

    def say(self, client: Client, text: str | None, phrase: str | None) -> None:
        """The person at ``client``'s seat says ``text`` or a stock ``phrase`` (checked by
        `ChatMessage`): kept, then sent to everyone at the table, spectators too. A name
        may say ``chat_burst`` lines at once, then one every ``chat_window / chat_burst``
        seconds, in whichever seat and however often it leaves and comes back."""
        if client.seat is None:
            raise TableError("spectator_talk", "spectators cannot talk at the table")
        index = client.seat
        if not self._chat_limits.allow(name_key(self.seats[index].name)):
            raise TableError("chat_rate", "you are talking too fast: wait a moment")
        line = self.store.add_chat(
            self.id, self._chat_next, index, self.seats[index].name, text, phrase
        )
        self._chat_next += 1
        self.chat.append(line)
        said = {"type": "chat", "line": line.to_dict()}
        for other in self.clients():
            other.send(said)
            if other.closed:  # too slow to read: cut off, as `broadcast` does
                self.disconnect(other)

    def stand_in(self, index: int) -> bool:
        """A bot holds the seat only because nobody had taken it at the start: a late
        joiner may take it."""
        spec = self.config["seats"][index]
        return self.seats[index].kind == "bot" and (spec == "open" or spec.startswith("held:"))

    def seat_of_token(self, token: str | None) -> int | None:
        if not token:
            return None
        digest = hash_token(token)
        for index, seat in enumerate(self.seats):
            if seat.kind == "human" and hmac.compare_digest(seat.token_hash, digest):
                return index
        return None

    def start(self) -> None:
        if self.status != "waiting":
            raise TableError("started", "the game has already started")
        spec = self.settings.bot_spec("start_bot")
        bots = {str(i): spec for i, seat in enumerate(self.seats) if seat.kind == "open"}
        self._log("start", {"bots": bots})
        self.changed()

    def connect(self, client: Client) -> None:
        client.send({"type": "chat_log", "lines": [line.to_dict() for line in self.chat]})
        self.idle_since = None
        if client.seat is None:
            self.spectators.add(client)
        else:
            seat = self.seats[client.seat]
            seat.clients.add(client)
            seat.away_since = None
            if client.seat in self._unseen:  # their page's first coming: if they are to
                self._unseen.discard(client.seat)  # move, their clock starts now, full
                self._full_clock(client.seat)
        self.changed()

    def _full_clock(self, index: int) -> None:
        """If ``index`` is to move, their clock starts afresh, full -- not in a turn whose
        time has run out, which stays the bot's to finish."""
        if self._to_move() == index and self._timed_out != self._turn:
            self._decision_since = time.monotonic()

    def disconnect(self, client: Client) -> None:
        """``client`` is gone (or cut off); its seat counts as away once it has no other
        connection. Calling it again for the same client changes nothing."""
        client.close()
        if client.seat is None:
            self.spectators.discard(client)
            self._note_idle()
            self._check_idle()
            return
        seat = self.seats[client.seat]
        if client not in seat.clients:
            return
        seat.clients.discard(client)
        self._note_idle()
        if not seat.clients and seat.kind == "human":
            seat.away_since = time.monotonic()
        self.changed()

    def _note_idle(self) -> None:
        """The last connection has gone: the table is idle from now."""
        if self.idle_since is None and not self.clients():
            self.idle_since = self.clock()

    def busy(self) -> bool:
        """Whether the table has something to do of its own, with nobody connected: a bot
        thinking or about to move, a timer (the next deal, a seat's takeover or clock, a
        write tried again) or a hint being worked out. A table in play with nobody there
        always has (its bots play on, `Settings.takeover_after`); one waiting for its
        players never has."""
        bot = self._bot_task is not None and not self._bot_task.done()
        hint = any(not job.done() for job in self._hints.values())
        return bot or hint or self._timer is not None

    def _slow_turn(self, index: int) -> bool:
        """Whether a bot moving for the person at seat ``index`` now finishes a turn that
        ran out of time with their page there, not one of several in a row (`STRIKES_AWAY`):
        they were slow, not gone, and a game whose last move of theirs is such a move is
        still a game they played to its end. Worked out from the log alone (the clock's
        ``time_up`` before it), so a restarted server decides it alike."""
        seat = self.seats[index]
        return (
            seat.kind == "human"
            and self._timed_out == self._turn
            and 0 < self.strikes.get(index, 0) < STRIKES_AWAY
        )

    def bot_plays(self, index: int) -> bool:
        """A bot moves for this seat now: a bot seat, or a human away long enough."""
        seat = self.seats[index]
        if seat.kind == "bot":
            return True
        if seat.kind == "human" and self._timed_out == self._turn and index == self._to_move():
            return True  # their clock ran out: a bot finishes this turn for them
        if seat.kind == "human" and self.strikes.get(index, 0) >= STRIKES_AWAY:
            return True  # it ran out turn after turn: a bot plays on until they are back
        if seat.kind != "human" or seat.clients or seat.away_since is None:
            return False
        return time.monotonic() - seat.away_since >= self.settings.takeover_after

    def _bot(self, index: int) -> Bot:
        seat = self.seats[index]
        spec = seat.bot if seat.kind == "bot" else self.settings.bot_spec("takeover_bot")
        bot = self._bots.get(index)
        if bot is None or seat.kind == "human":
            bot = make_bot(spec)
            if self.settings.bot_time_ms:
                bot = cap_think_time(bot, self.settings.bot_time_ms)
            self._bots[index] = bot
        return bot

    # -- play -------------------------------------------------------------------------

    def act(self, client: Client, move: str, version: int) -> None:
        """A human's move. Raises `TableError` (nothing changes) when it is refused."""
        if client.seat is None:
            raise TableError("spectator", "spectators cannot play")
        if self.status != "playing" or self.match is None:
            raise TableError("not_playing", "the game is not in play")
        if version != self.version:
            raise TableError("stale", "the table has moved on since: look again")
        try:
            seat_no, action = parse_action(f"{client.seat}:{move}")
        except (ActionFormatError, TileFormatError) as err:
            raise TableError("malformed", str(err)) from None
        state = self.match.current
        if state.is_over:
            raise TableError("not_playing", "the round is over")
        try:
            state.copy().apply(action, seat_no)
        except IllegalActionError as err:
            refused = err

            def reword(lang: str) -> tuple[str, str]:
                return self.refusal_words(refused, lang, seat_no)

            raise TableError("illegal", *reword(client.lang), reword=reword) from None
        self._record_action(seat_no, action)  # (they are back: `_apply_event`)

    def back(self, client: Client) -> None:
        """The person at ``client``'s seat is back: a seat a bot plays because its time ran
        out turn after turn is theirs again, with a full clock if it is their turn. A turn
        whose time has just run out stays the bot's to finish (or a saying "back" to every
        ``time_up`` would hold the game up for ever); a move of their own still counts."""
        if client.seat is None:
            raise TableError("spectator", "spectators hold no seat")
        index = client.seat
        if self.strikes.get(index, 0) >= STRIKES_AWAY:  # (a first strike stays: only a
            self._log("back", {"seat": index})  # move of their own makes a turn in time)
            self.changed()

    def alone_with_bots(self, index: int) -> bool:
        """Whether the person at seat ``index`` plays alone against bots: every other seat
        a bot from the table's making (not one keeping a seat warm for a person who left,
        or for someone who may yet come), so that taking a move back wrongs nobody."""
        return self.seats[index].kind == "human" and all(
            i == index or str(spec).startswith("bot:")
            for i, spec in enumerate(self.config["seats"])
        )

    def undo_point(self, index: int) -> int | None:
        """How many actions of the round stay if the person at seat ``index`` takes their
        move back: those before their latest decision in it (a forced one -- the pass
        after a draw that found nothing, the one legal action -- goes with the choice
        before it), the bots' replies after it going too. None where nothing can be taken
        back: other people at the table, a game not in play, no move of theirs in this
        round yet (the next round dealt, a move of an earlier one stays)."""
        if self.status != "playing" or self.match is None or not self.alone_with_bots(index):
            return None
        # (worked out once a position: every state message to the seat's pages asks it)
        key = (self.version, index)
        if self._undo_point is None or self._undo_point[0] != key:
            self._undo_point = (key, self.match.current.latest_decision(index))
        return self._undo_point[1]

    def undo(self, client: Client, version: int) -> None:
        """Take back the move of ``client``'s seat, alone against bots: the round goes
        back to before its latest decision, and it is that seat's move again. Raises
        `TableError` (nothing changes) where it cannot."""
        if client.seat is None:
            raise TableError("spectator", "spectators cannot play")
        if version != self.version:
            raise TableError("stale", "the table has moved on since: look again")
        if self.status != "playing" or self.match is None:
            raise TableError("not_playing", "the game is not in play")
        if not self.alone_with_bots(client.seat):
            raise TableError("undo_people", "a move is taken back only alone against bots")
        keep = self.undo_point(client.seat)
        if keep is None:
            raise TableError("undo_none", "no move of yours in this round to take back")
        self._log("undo", {"seat": client.seat, "keep": keep})
        self.changed()

    def _record_action(self, seat: int, action: Action, bot: bool = False) -> None:
        """Log a move: ``bot`` when a bot made it (for a bot seat, or for a person away)."""
        data: dict[str, Any] = {"action": action.notation(seat)}
        if bot:
            data["bot"] = True
        self._log("action", data)
        self.changed()

    def hint(self, client: Client, version: int) -> asyncio.Future[dict[str, Any]]:
        """The search bot's best moves here, with their chances, from the player's own view
        only: the analysis (a future, shared by every connection of the seat), or a
        `TableError` at once when there is no hint to give."""
        if client.seat is None or self.match is None or self.status != "playing":
            raise TableError("not_playing", "no hint now")
        if version != self.version:
            raise TableError("stale", "the table has moved on since: look again")
        view = self.match.current.view(client.seat)
        if not view.is_my_turn:
            raise TableError("not_your_turn", "hints are for your own turn")
        # one analysis per seat and position, however many connections ask (a hint is the
        # same for the same view and version): shared while it runs, kept until the table
        # moves on
        key = (client.seat, version)
        job = self._hints.get(key)
        if job is None or (job.done() and (job.cancelled() or job.exception() is not None)):
            # (a search that failed is tried again, not answered from its failure)
            self._hints = {k: j for k, j in self._hints.items() if k[1] == version}
            job = self._hints[key] = asyncio.ensure_future(self._analyse(view, version))
        return job

    async def _analyse(self, view: SeatView, version: int) -> dict[str, Any]:
        # the search bot's analysis, from the player's own view: it thinks for a while, so
        # not on the event loop (the view is a frozen snapshot)
        ranked = await asyncio.to_thread(
            analyze,
            view,
            random.Random(version),
            iterations=self.settings.hint_iterations,
            time_ms=self.settings.hint_time_ms or None,
        )
        moves = []
        for a in ranked[:5]:
            if a.win_probability is None or a.expected_score is None:
                continue  # (one the search never tried has no estimate to show)
            moves.append(
                {
                    "move": page_move(a.action),
                    "win_probability": round(a.win_probability, 3),
                    "expected_score": round(a.expected_score, 1),
                }
            )
        best = moves[0]
        return {"type": "hint", "version": version, **best, "moves": moves}

    def changed(self) -> None:
        """After any change: tell everyone, then let bots, timers and deals move on."""
        self.broadcast()
        self._schedule()
        self._check_idle()

    def _check_idle(self) -> None:
        """A finished table nobody is at leaves memory (``on_idle``), once its game is
        kept: until then its game's number is not known, and a table read back from the
        store before it is kept would keep the game a second time."""
        saving = self._keeping is not None and not self._keeping.done()
        finished = self.status == "finished" and not saving
        if finished and not self.clients() and self.on_idle is not None:
            self.on_idle(self)

    def _cancel_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._timer_deals = False

    def _schedule(self) -> None:
        match = self.match
        between_rounds = (
            self.status == "playing"
            and match is not None
            and match.current.is_over
            and not match.is_complete
        )
        if between_rounds and self._timer_deals:
            return  # the next deal is already on its way: a join or a reconnect does not delay it
        self._cancel_timer()
        if self.status == "waiting" and self._full():
            # every seat is taken and the game has not started: its start could not be
            # kept (`_seat`); it is tried again shortly
            loop = asyncio.get_running_loop()
            self._timer = loop.call_later(self.settings.store_retry, self._start_again)
            return
        if self.status != "playing" or match is None:
            return
        loop = asyncio.get_running_loop()
        state = match.current
        if state.is_over:
            if match.is_complete:
                return
            self._timer = loop.call_later(self.settings.round_pause, self._deal)
            self._timer_deals = True
            return
        seat = state.current_seat
        if self.bot_plays(seat):
            if self._bot_task is None or self._bot_task.done():
                self._bot_task = loop.create_task(self._bot_turn(seat, self.version))
            return
        if self.seats[seat].kind != "human":
            return
        # a person's move: wait for it, until they have been away too long or their
        # clock runs out, whichever comes first
        waits = []
        away = self.seats[seat].away_since
        if not self.seats[seat].clients and away is not None:
            waits.append(away + self.settings.takeover_after - time.monotonic())
        left = self.clock_left()
        if left is not None:
            waits.append(left)
        if waits:
            self._timer = loop.call_later(max(min(waits), 0.0), self._wake, self._turn)

    def _wake(self, turn: int) -> None:
        """A timer of the turn ``turn`` is due: a person away long enough or out of time
        has their move made by a bot."""
        self._timer = None
        left = self.clock_left()
        if turn == self._turn and left is not None and left <= 0:
            index = self._to_move()
            assert index is not None
            event: dict[str, Any] = {"seat": index}  # (kept: a restart remembers it)
            if not self.seats[index].clients:
                event["away"] = True  # (gone before their time ran out: no strike)
            try:
                self._log("time_up", event)
            except sqlite3.Error:
                self._try_again(f"seat {index + 1}'s time-up")
                return
            for client in list(self.seats[index].clients):
                client.send({"type": "time_up", "version": self.version})
            self.changed()  # (everyone sees the bot at the seat; it moves)
        else:
            self._schedule()

    def _deal(self) -> None:
        self._timer = None
        self._timer_deals = False
        if self.match is not None and self.match.current.is_over and not self.match.is_complete:
            try:
                self._log("deal", {"round": len(self.match.rounds)})
            except sqlite3.Error:
                self._try_again("the next deal")
                return
            self.changed()

    def _start_again(self) -> None:
        """The start of a table whose seats are all taken, tried again (`_seat`)."""
        self._timer = None
        if self.status == "waiting" and self._full() and not self._try_start():
            self._schedule()  # (the next try)

    def _try_start(self) -> bool:
        """Start the game; False if the database could not keep the start (logged: it is
        tried again shortly)."""
        try:
            self.start()
        except sqlite3.Error:
            log.exception(
                "table %s: the start could not be kept; trying again in %g s",
                self.code,
                self.settings.store_retry,
            )
            return False
        return True

    def _try_again(self, what: str) -> None:
        """``what`` -- a change nobody's message asked for: a bot's move, a deal, a
        time-up -- could not be logged (`_log` writes first: nothing changed). Nobody
        would ask again, and the table would wait for ever: it tries again shortly."""
        log.exception(
            "table %s: %s could not be kept; trying again in %g s",
            self.code,
            what,
            self.settings.store_retry,
        )
        self._cancel_timer()
        loop = asyncio.get_running_loop()
        self._timer = loop.call_later(self.settings.store_retry, self._schedule)

    async def _bot_turn(self, seat: int, version: int) -> None:
        try:
            if self.bot_delay > 0:
                await asyncio.sleep(self.bot_delay)
            action: Action | None = None
            if version == self.version and self.match is not None and self.bot_plays(seat):
                view = self.match.view(seat)
                bot = self._bot(seat)
                rng = random.Random(self._bot_rng.getrandbits(64))
                try:
                    action = await asyncio.to_thread(bot.act, view, rng)
                except Exception:
                    log.exception(
                        "table %s: bot %s failed; it plays its first legal action",
                        self.code,
                        bot.name,
                    )
                    action = view.legal_actions[0]
        finally:
            self._bot_task = None
        # the world may have changed while the bot thought (a player came back and moved)
        if action is not None and version == self.version and self.bot_plays(seat):
            try:
                self._record_action(seat, action, bot=True)
            except sqlite3.Error:
                self._try_again(f"the move of seat {seat + 1}")
        else:
            self._schedule()

    def finish(self) -> int | None:
        """Keep the finished game as a record with its results (once), now: where there
        is no event loop (a table read back by `TableManager.get` outside one). On the
        event loop the game is kept off it (`_keep`)."""
        if self.match is None or not self.match.is_complete:
            return None
        if self.game_id is None:
            self.game_id = _keep_game(self.store, self._game_to_keep())
        return self.game_id

    def _game_to_keep(self) -> GameToKeep:
        """What `Store.save_game` is given for the finished game (worked out on the event
        loop, which owns the table)."""
        assert self.match is not None
        names = self.names_list()
        record = GameRecord.from_match(self.match, names)
        # a person counts as one who played if they made a move: a game a bot played
        # through for someone who never came is not theirs
        humans = self._played_by_people()
        return GameToKeep(
            self.id,
            record.to_json(),
            names,
            humans,
            self.match.totals,
            self.match.winners,
            self._left_by_people(humans),
            self.taken_back,
        )

    def _played_by_people(self) -> list[bool]:
        """Per seat: a person played it (made a move of the game)."""
        return [s.kind == "human" and i in self.moved for i, s in enumerate(self.seats)]

    def _left_by_people(self, humans: Sequence[bool] | None = None) -> list[bool]:
        """Per seat: its person left the game before its end. A game counts in their
        statistics only if they made its last move of their seat (or a bot made it on a
        turn whose time ran out with their page there, `_slow_turn`): one a bot finished
        for them (away: their page gone, or out of time turn after turn) is a game they
        left, whatever they played before it."""
        humans = self._played_by_people() if humans is None else humans
        return [human and i in self.bot_moved_last for i, human in enumerate(humans)]

    def _start_keeping(self) -> bool:
        """Start keeping the finished game on a worker thread (`_keep`), unless it is on
        its way already; False where there is no event loop to wait on it (the caller
        keeps it itself)."""
        if self._keeping is not None and not self._keeping.done():
            return True
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return False
        self._keeping = task = loop.create_task(self._keep())
        # (the manager waits for it before the server stops: `TableManager.close`)
        self.keeping.add(task)
        task.add_done_callback(self.keeping.discard)
        return True

    async def _keep(self) -> None:
        """Keep the finished game, the database's write (a transaction waiting on the
        disk) on a worker thread, not the event loop; then tell everyone the result, its
        game's number with it. If it cannot be kept, they are told the result all the
        same, and the next change at the table tries again (`broadcast`)."""
        try:
            if self.game_id is None:
                to_keep = self._game_to_keep()
                self.game_id = await asyncio.to_thread(_keep_game, self.store, to_keep)
        except Exception:
            log.exception("table %s: the finished game could not be saved", self.code)
        finally:
            self._keeping = None  # (done: `close` has nothing to wait for, and it may leave)
        self.broadcast(keep=False)
        self._check_idle()  # (kept, or not this time: nobody there, it may leave memory)

    async def close(self) -> None:
        self._cancel_timer()
        if self._bot_task is not None:
            self._bot_task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._bot_task
        for client in self.clients():
            client.close()
        if self._keeping is not None:  # a game finished just now is kept before the end
            with contextlib.suppress(Exception):
                await self._keeping

    # -- what each connection sees ---------------------------------------------------

    def names_list(self) -> list[str]:
        """Each seat's name in the record: a seat kept for a person who never came to take
        it is theirs (a bot played it through for them, as for one who took a seat and
        never came: they made no move, so it is not in their statistics)."""
        return [self.person(i) or s.name or f"Seat {i + 1}" for i, s in enumerate(self.seats)]

    def refusal_words(self, err: IllegalActionError, lang: str, seat: int) -> tuple[str, str]:
        """A rule's refusal of a move, said to ``seat``, which tried it ("You have a tile
        that fits..."), in ``lang``: shown and said (a tile in words). A number of more
        than 40 digits is shortened, as replay shortens one, its count in the reader's
        words."""
        names = self.shown_names(lang)
        words = Translator(lang).count_words
        return (
            shorten_numbers(error_text(err, lang, names, seat), words),
            shorten_numbers(error_text(err, lang, names, seat, spoken=True), words),
        )

    def shown_names(self, lang: str) -> dict[int, str]:
        """Seat → name as a page in ``lang`` shows it: people by their own names, bots as
        "Robot 2" (the records' "Bot 2 (beginner)" is English); an empty seat is left out,
        for the words "seat 3" to stand in."""
        t = Translator(lang)
        shown: dict[int, str] = {}
        for i, seat in enumerate(self.seats):
            person = self.person(i)
            if person:
                shown[i] = person
            elif seat.kind == "bot":
                shown[i] = t("web.bot_short", number=i + 1)
        return shown

    def clients(self) -> list[Client]:
        out = list(self.spectators)
        for seat in self.seats:
            out.extend(seat.clients)
        return out

    def public(self) -> dict[str, Any]:
        """The table as the lobby shows it."""
        return {
            "code": self.code,
            "status": self.status,
            "rules": self.config["rules"],
            "round_count": self.rules.round_count,
            "max_pip": self.rules.max_pip,
            # the game's rounds and engines in words, for the help's rules in short (which
            # say the preset's full game: ``full``), as the page's language says them
            "length": _length_of(self.rules),
            # whether an open double must be covered before anything else (the page
            # marks it so only then)
            "open_doubles_block": self.rules.open_doubles_block,
            # the seconds a person has for a move (null: no clock)
            "turn_time": self.turn_time or None,
            # how quickly its bots move: "slow", "normal" or "fast"
            "bot_pace": self.bot_pace,
            "seats": [self._seat_shown(i) for i in range(len(self.seats))],
            "game_id": self.game_id,
            "next": self.next_code,
        }

    def _seat_shown(self, i: int) -> dict[str, Any]:
        """Seat ``i`` as every connection sees it. A seat a rematch kept for someone the
        game started without is theirs to everyone: their name, a person away whom the
        stand-in bot plays for (the seat is its own person's, not one more bot)."""
        seat = self.seats[i]
        person = self.person(i)
        return {
            "name": person or seat.name,
            "kind": "human" if person else seat.kind,
            "bot": seat.bot if seat.kind == "bot" and not person else None,
            "connected": bool(seat.clients),
            # (a finished game has nobody to play for: no stand-in shows)
            "bot_playing": self.status == "playing" and person is not None and self.bot_plays(i),
            # a bot plays it since its time ran out turn after turn, until its player is back
            "timed_out": self.strikes.get(i, 0) >= STRIKES_AWAY,
            # a stand-in anyone may take over (not one kept for a player)
            "joinable": self.stand_in(i) and i not in self.held,
            "held": self.held.get(i),
            # a finished game a bot finished for the seat's person, who had left it (away,
            # or out of time): not their result (`Store.save_game`), and the result says so
            "left": self.status == "finished" and self._left_by_people()[i],
        }

    def rematch_seats(self, first: int) -> list[str]:
        """The other seats of a new game started from this one by seat ``first`` (who takes
        the new table's seat 0; the others follow in turn order): people's seats and the
        seats bots only kept warm are open again, bot seats stay bots, and people's seats
        are kept for them (``held:NAME``) until they take them."""
        n = len(self.seats)
        out = []
        for step in range(1, n):
            index = (first + step) % n
            seat = self.seats[index]
            if seat.kind == "human":
                out.append(f"held:{seat.name}")
            elif seat.kind == "bot" and not self.stand_in(index):
                out.append(f"bot:{seat.bot}")
            else:
                out.append("open")
        return out

    def point_to(self, code: str) -> None:
        """Log the table of the next game and tell everyone here."""
        self._log("rematch", {"code": code})
        self.broadcast()

    def message_for(self, seat: int | None, lang: str = "en") -> dict[str, Any]:
        """The state message for one seat (None: a spectator, who sees no hand), its
        words in ``lang``."""
        round_view: dict[str, Any] | None = None
        sheet: dict[str, Any] = {"engines": list(self.rules.rounds), "rounds": [], "totals": []}
        if self.match is not None:
            state = self.match.current
            view = state.view(0 if seat is None else seat)
            round_view = view.to_dict()
            if seat is None:
                round_view["seat"] = None
                round_view["hand"] = []
                round_view["legal_actions"] = []
            elif state.current_seat == seat and not state.is_over:
                if state.drawn >= 0:
                    # which tile of its hand this seat has just drawn (the others see a
                    # draw, no tile): the hand is in order, where a drawn tile is lost
                    # among the rest (its place in the hand: no tile is written anywhere
                    # but there)
                    drawn = str(state.ts.tiles[state.drawn])
                    round_view["you_drew_at"] = round_view["hand"].index(drawn)
                # what the turn asks of it beyond a tile that fits, as the terminal's
                # prompt says it: to answer the oldest open double first, or that it is on
                # its first-turn run (a double owed is the view's `owes_follow_up`)
                first = answer_first(state, view)
                if first is not None:
                    round_view["answer_first"] = "M" if first == MEXICAN else first
                if state.turn_state().run:
                    round_view["first_turn_run"] = True
                # why each tile of its hand that cannot be played now cannot, where a
                # rule keeps it off a train it matches, in the engine's words
                why_not = []
                for at, err in kept_off(state, view):
                    shown, said = self.refusal_words(err, lang, seat)
                    why_not.append({"at": at, "message": shown, "said": said})
                round_view["why_not"] = why_not
            round_view["legal_moves"] = [page_move(a) for a in self._legal(seat)]
            del round_view["legal_actions"]
            # by move of `history`: the person whose seat moved, as they were named then
            # (null: a bot's seat); only while the round's history is this round's
            if len(self.movers) == len(state.history):
                round_view["movers"] = list(self.movers)
            if state.is_over:  # the hands are laid down to be counted: everyone sees them
                round_view["hands_left"] = [
                    [str(tile) for tile in state.hand(i)] for i in range(state.n)
                ]
            sheet = {
                "engines": list(self.rules.rounds),
                "rounds": self.match.round_scores(),
                # by finished round and seat, the points of its score that are not the
                # pips of the tiles left: a 0-0 left (``double_blank_points``), doubles it
                # left open (``unsatisfied_double_penalty``), as the engine scores them
                "extra": [
                    extra
                    for extra in (score_extras(played) for played in self.match.rounds)
                    if extra is not None
                ],
                "totals": self.match.totals,
                "winners": self.match.winners if self.match.is_complete else [],
                "complete": self.match.is_complete,
            }
        left = self.clock_left()
        return {
            "type": "state",
            "version": self.version,
            "you": seat,
            "table": self.public(),
            "round": round_view,
            "sheet": sheet,
            # whose clock runs, and its seconds left as the message leaves (a page counts
            # down from when it arrives: clocks of two machines never agree)
            "clock": None
            if left is None
            else {"seat": self._to_move(), "left": round(max(left, 0.0), 1)},
            # alone against bots, whether a move of this round may be taken back ("undo");
            # null at a table of people (or for a spectator), where none ever may
            "can_undo": None
            if seat is None or not self.alone_with_bots(seat)
            else self.undo_point(seat) is not None,
        }

    def word_again(self, client: Client) -> None:
        """``client``'s page reads in another language now: the words its state carries
        (why a tile of its hand cannot be played) are sent again in it, if it has any."""
        message = self.message_for(client.seat, client.lang)
        if message["round"] is not None and message["round"].get("why_not"):
            client.send(message)

    def _legal(self, seat: int | None) -> list[Action]:
        if seat is None or self.match is None:
            return []
        state = self.match.current
        if state.is_over or state.current_seat != seat:
            return []
        return state.legal_actions()

    def broadcast(self, keep: bool = True) -> None:
        """Send every connection its state. A game just finished is kept first (``keep``:
        `_keep`, which then tells everyone): its end is told with its number, for the
        page's links to its record and replay."""
        if keep and self.status == "finished" and self.game_id is None:
            if self._start_keeping():
                return
            try:  # (no event loop: kept here and now)
                self.finish()
            except Exception:
                # the game could not be kept (the disk, the database): everyone is still
                # told the result, and the next broadcast tries again
                log.exception("table %s: the finished game could not be saved", self.code)
        cache: dict[tuple[int | None, str], dict[str, Any]] = {}
        cut = []
        for client in self.clients():
            key = (client.seat, client.lang)
            if key not in cache:
                cache[key] = self.message_for(*key)
            client.send(cache[key])
            if client.closed:
                cut.append(client)
        # a connection too slow to read its messages has been cut off: it no longer holds
        # its seat (a bot takes over in time), whatever its transport is still waiting on
        for client in cut:
            self.disconnect(client)


@dataclass(frozen=True)
class GameToKeep:
    """A finished game as `Store.save_game` keeps it."""

    table_id: int
    record_json: str
    players: list[str]
    humans: list[bool]
    totals: list[int]
    winners: list[int]
    left: list[bool]
    #: how many times a move was taken back (`Table.undo`)
    taken_back: int = 0


def _keep_game(store: Store, game: GameToKeep) -> int:
    """Keep a finished game in ``store`` unless it is there already (a table read back
    whose game was kept); its number. Any thread."""
    existing = store.game_of_table(game.table_id)
    if existing is not None:
        return existing.id
    return store.save_game(
        game.table_id,
        game.record_json,
        game.players,
        game.humans,
        game.totals,
        game.winners,
        left=game.left,
        taken_back=game.taken_back,
    )


def _new_row(store: Store, config: dict[str, Any], in_memory: frozenset[str]) -> StoredTable:
    """A new table's row in ``store``, under a code no table has (none of the codes
    ``in_memory``, none the store keeps), as the store then reads it: the store's work of
    making a table (any thread). A code taken meanwhile by a table made at the same time
    on another thread (the store refuses a second row of a code) gives way to another."""
    while True:
        code = _random_code()
        if code in in_memory or store.code_taken(code):
            continue
        try:
            table_id = store.create_table(code, config, secrets.token_hex(16))
        except sqlite3.IntegrityError:
            if store.code_taken(code):
                continue
            raise
        stored = store.table(code)
        assert stored is not None
        assert stored.id == table_id
        return stored


def _random_code() -> str:
    """A table's code: six letters and digits none of which reads as another."""
    return "".join(secrets.choice(_CODE_ALPHABET) for _ in range(6))


@dataclass(frozen=True)
class StoredLog:
    """What a table is read back from (`TableManager.fetch`): its row, its log, its
    talk's latest lines and the number of its game if that was kept, read at once from
    the store (`read_log`, on a worker thread)."""

    table: StoredTable
    events: list[Event]
    chat: list[ChatLine]
    game_id: int | None


def read_log(store: Store, code: str) -> StoredLog | None:
    """The table ``code`` as the store keeps it, None if there is none: the store's
    reads alone, nothing of the manager's (any thread)."""
    stored = store.table(code)
    return None if stored is None else _read_stored(store, stored)


def read_logs_in_play(store: Store) -> list[tuple[StoredTable, StoredLog | None]]:
    """Every game in play (started, not kept as finished) as the store keeps it, for
    `TableManager.restore`: the store's reads alone (any thread). A table the database
    would not read is logged and given None (it is read back when someone asks for it)."""
    out: list[tuple[StoredTable, StoredLog | None]] = []
    for stored in store.tables(unfinished=True, started=True):
        try:
            out.append((stored, _read_stored(store, stored)))
        except sqlite3.Error:
            log.exception("table %s could not be read; it is read back when asked", stored.code)
            out.append((stored, None))
    return out


def _read_stored(store: Store, stored: StoredTable) -> StoredLog:
    """The log, talk and game's number of the table ``stored`` (any thread)."""
    game = store.game_of_table(stored.id)
    return StoredLog(
        stored,
        store.events(stored.id),
        store.chat(stored.id, CHAT_KEPT),
        None if game is None else game.id,
    )


def score_extras(state: RoundState) -> list[dict[str, int]] | None:
    """By seat, the points of its score for a round over that are not the pips of the
    tiles left, as the engine scores them: ``double_blank`` (a 0-0 left, under
    ``double_blank_points``), ``penalty`` for its ``open_doubles`` left open (under
    ``unsatisfied_double_penalty``); None while the round is in play."""
    parts = state.score_parts()
    if parts is None:
        return None
    return [
        {
            "double_blank": part.double_blank,
            "penalty": part.penalty,
            "open_doubles": part.open_doubles,
        }
        for part in parts
    ]


def kept_off(state: RoundState, view: SeatView) -> list[tuple[int, IllegalActionError]]:
    """The tiles of the hand of the seat to move (``view``'s) that cannot be played now,
    by their place in the hand, each with the rule that keeps it off a train it matches
    (the engine's `RoundState.why_not`, as the terminal tells a tile picked: a tile that
    matches the Mexican train is told that it must go on its own train first, or that an
    open double must be answered first, not only that its own train's end is another).
    A tile that nothing but open ends keeps off (it matches no train) has no reason here:
    no train takes it."""
    out = []
    for at, tile in enumerate(view.hand):
        reason = state.why_not(tile)
        if reason is not None and reason.code != "wrong_end":
            out.append((at, reason))
    return out


def answer_first(state: RoundState, view: SeatView) -> int | None:
    """The train whose open double the seat to move (``view``'s) must answer before any
    other play now, if one must be: the engine's `RoundState.answer_first` (the rules say
    when: the oldest open double, once the turn that played it has ended, under
    ``open_doubles_block``); None for any other seat."""
    if view.seat != state.current_seat:
        return None
    return state.answer_first()


def page_move(action: Action) -> str:
    """An action as a browser sends it: ``5-12@M``, ``5-12@2``, ``draw``, ``pass``."""
    if action.kind != "play":
        return action.kind
    assert action.tile is not None
    assert action.train is not None
    train = "M" if action.train == MEXICAN else str(action.train)
    return f"{action.tile}@{train}"


def bot_level_of(name: str, seat: int) -> str | None:
    """The level of the bot that ``name`` names at ``seat`` ("Bot 2 (beginner)":
    ``greedy``), for pages that show it in their reader's language; None for a name
    that is no bot's."""
    return next((level for level in bot_levels() if _bot_name(level, seat) == name), None)


def _bot_name(level: str, seat: int) -> str:
    """A bot seat's name in records and statistics: "Bot 2 (beginner)", with the level as
    the lobby calls it (pages show it in each player's language)."""
    english = Translator("en")
    return english("web.bot_name", number=seat + 1, level=english(f"web.bot.{level}"))


def _spec_from_json(spec: Any) -> Any:
    """JSON turns ``hand_size`` keys into strings; the rules want seat counts."""
    if isinstance(spec, dict) and isinstance(spec.get("hand_size"), dict):
        spec = dict(spec)
        spec["hand_size"] = {int(k): v for k, v in spec["hand_size"].items()}
    return spec


#: finished tables kept in memory after their last visitor left (`TableManager.recent`)
RECENT_FINISHED = 32


class TableManager:
    """The tables of a server in memory: every game in play, restored from the store at
    start; a table waiting for its players while someone has been at it lately
    (`Settings.idle_after`), and a finished one while someone has it open; any other is
    read back from the store when asked for (`get`).

    ``clock`` is what idle times are measured on (a test's may be a fake one)."""

    def __init__(
        self, store: Store, settings: Settings, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.store = store
        self.settings = settings
        self.clock = clock
        self.tables: dict[str, Table] = {}
        self.broken: set[str] = set()  # tables whose logs could not be replayed
        #: finished tables read back lately and held by nobody, newest last: a finished
        #: table's page asked for again is not rebuilt from its log each time
        self.recent: OrderedDict[str, Table] = OrderedDict()
        self._sweeper: asyncio.Task[None] | None = None
        #: finished games being kept by its tables (`Table._keep`): waited for at `close`,
        #: so that a game that ends as the server stops is kept all the same
        self.keeping: set[asyncio.Task[None]] = set()
        #: how many tables were made or read back into memory: `fetch` tells by it that
        #: none was while it read one off the event loop (if one was, it reads again,
        #: holding this lock)
        self.built = 0
        self._reading_again = asyncio.Lock()

    async def restore(self) -> None:
        """Rebuild every game in play (started, not finished): its bots, deals and clocks
        go on by themselves. A table still waiting for its players has nothing to do
        until someone comes, and is read back then (`get`): a server that ran for months
        kept every table ever made and never started. A table whose log cannot be
        replayed is left out (and logged), so that one damaged table never keeps the
        server down; one the database would not read then is read back when asked for.
        The store is read on a worker thread (`read_logs_in_play`), and a game found
        finished but not kept (the server stopped first) is kept on one (`Table._keep`),
        before the server answers anyone; the tables are rebuilt here, on the event
        loop, which alone touches the manager and its tables."""
        reads = await asyncio.to_thread(read_logs_in_play, self.store)
        for stored, read in reads:
            if read is not None:  # (None: read back when someone asks for it, `get`)
                self._load(stored, read=read)
        await self._kept()

    async def _kept(self) -> None:
        """Wait for the games being kept (`keeping`)."""
        while self.keeping:
            await asyncio.gather(*self.keeping, return_exceptions=True)

    def _load(
        self, stored: StoredTable, hold: bool = False, read: StoredLog | None = None
    ) -> Table | None:
        """The table ``stored``, rebuilt from its log (``read``: as read off the event
        loop already, else read here) and kept in memory."""
        if stored.code in self.broken:
            return None
        chat = None if read is None else read.chat
        table = Table(self.store, stored, self.settings, self.clock, chat)
        table.on_idle = self._unload
        table.keeping = self.keeping
        try:
            if read is None:
                table.restore()
            else:
                table.restore(read.events, read.game_id)
        except sqlite3.Error:
            # the database would not be read (held by another program past SQLite's
            # wait, a disk error), which says nothing of the log: the error is raised,
            # nothing of the table is kept, and asking again reads it back. (It was taken
            # for a log that cannot be replayed: "no such table" until a restart.)
            raise
        except Exception:
            log.exception("table %s: its log cannot be replayed; it is left out", stored.code)
            self.broken.add(stored.code)
            return None
        self.built += 1
        if table.status != "finished" or hold:
            # a finished table is read-only: it is kept only while someone is connected
            # to it (`hold`), so that everyone at it shares one object (and one "play
            # again"); it leaves when the last of them goes (`_unload`)
            self.tables[table.code] = table
        else:
            self._remember(table)
        return table

    def _remember(self, table: Table) -> None:
        self.recent[table.code] = table
        self.recent.move_to_end(table.code)
        while len(self.recent) > RECENT_FINISHED:
            self.recent.popitem(last=False)

    def resume(self) -> None:
        """Start bots and timers of restored tables, and the look for idle tables every
        little while (needs the running loop)."""
        for table in list(self.tables.values()):
            table.changed()
        if self.settings.idle_after > 0 and self._sweeper is None:
            self._sweeper = asyncio.get_running_loop().create_task(self._sweep_now_and_then())

    async def _sweep_now_and_then(self) -> None:
        # (a quarter of the idle time, so a table leaves at most a quarter late; a minute
        # at the most)
        every = min(max(self.settings.idle_after / 4, 0.01), 60.0)
        while True:
            await asyncio.sleep(every)
            try:
                self.sweep()
            except Exception:  # (the next look tries again; the server goes on)
                log.exception("the look for idle tables failed")

    def sweep(self) -> list[str]:
        """Unfinished tables nobody has been connected to for `Settings.idle_after`, with
        nothing to do of their own (`Table.busy`), leave memory: everything of theirs is
        in the store already (the log is written before anything changes), and `get`
        rebuilds them from it when someone comes back. Their codes."""
        limit = self.settings.idle_after
        if limit <= 0:
            return []
        now = self.clock()
        gone = []
        for code, table in list(self.tables.items()):
            since = table.idle_since
            if table.status == "finished" or since is None or now - since < limit:
                continue
            if table.clients() or table.busy():
                continue
            del self.tables[code]
            gone.append(code)
        if gone:
            log.info("tables idle for %g s left memory: %s", limit, ", ".join(gone))
        return gone

    async def create(
        self,
        rules_spec: Any,
        seats: list[str],
        name: str,
        token_from: str | None = None,
        turn_time: float = 0,
        bot_pace: str = "normal",
    ) -> tuple[Table, str]:
        """A new table with ``name`` in seat 0; ``seats`` describes seats 1, 2, … (with
        ``token_from``, a rematch: seat 0's token is `Table.rematch_token` of it);
        ``turn_time``: the seconds a person has for a move (0: no clock); ``bot_pace``:
        how quickly its bots move (`BOT_PACES`). Its row is
        written and read back on a worker thread (`_open`). If the database cannot keep
        the seat taken, the table is dropped (nobody knows of it) and the error raised:
        nothing is made that anyone could use."""
        table = await self._open(rules_spec, ["open", *seats], turn_time, bot_pace)
        derive = None if token_from is None else partial(_derive, table, token_from)
        try:
            seat, token = table.join(name, derive)
        except Exception:
            self._drop(table)
            raise
        assert seat == 0
        return table, token

    async def _open(
        self, rules_spec: Any, seats: list[str], turn_time: float, bot_pace: str = "normal"
    ) -> Table:
        """A new table with ``seats`` (seat 0's included), waiting for its players, in
        memory; refused (`TableError`, `RulesError`) before anything is kept. Its code is
        chosen, its row written and read back by the store on a worker thread (`_new_row`:
        a look-up of the code, a write and a read, on the event loop, held up every table
        meanwhile); the table is made from it here, on the event loop, which alone
        touches the manager and its tables."""
        rules = Rules.from_spec(rules_spec)
        rules.check_players(len(seats))
        known = set(bot_levels())
        for spec in seats:
            if spec.startswith("bot:") and spec[4:] not in known:
                raise TableError("bot", f"unknown bot level {spec[4:]!r}")
        if turn_time and not self.settings.min_turn_time <= turn_time <= MAX_TURN_TIME:
            low, high = self.settings.min_turn_time, MAX_TURN_TIME
            raise TableError("turn_time", f"a move's time is {low:g} to {high:g} seconds, or none")
        if bot_pace not in BOT_PACES:
            raise TableError("bot_pace", f"a bots' pace is one of {', '.join(BOT_PACES)}")
        config: dict[str, Any] = {"rules": _json_ready(rules.to_spec()), "seats": seats}
        if turn_time:
            config["turn_time"] = turn_time
        if bot_pace != "normal":
            config["bot_pace"] = bot_pace
        stored = await asyncio.to_thread(_new_row, self.store, config, frozenset(self.tables))
        # (read back meanwhile by someone who had its code already: that is the table, as
        # it was just made, and everyone shares one object)
        found = self._held(stored.code, hold=True)
        if found is not None:
            return found
        # (a new table has said nothing yet: its talk is not read)
        table = Table(self.store, stored, self.settings, self.clock, chat=())
        table.on_idle = self._unload
        table.keeping = self.keeping
        self.built += 1
        self.tables[stored.code] = table
        return table

    def _drop(self, table: Table) -> None:
        """A new table nobody was told of leaves memory (its row in the store, no game in
        play, is never read back: nobody has its code)."""
        if self.tables.get(table.code) is table:
            del self.tables[table.code]

    async def rematch(self, table: Table, client: Client) -> dict[str, Any]:
        """Play again: the first seated player to ask opens a new table with the same rules
        and bots, and every later one joins it. Returns the message for ``client``: the
        new table's code, its seat there and its token. The next table, out of memory
        (nobody was at it for a while), is read back from the store on a worker thread
        (`fetch`).

        The new table is made with every person's seat kept for them (the asker's, seat
        0, too), then this table points to it, then the asker takes their seat: if the
        database cannot keep one of these steps (`sqlite3.Error`, raised), nothing is
        lost -- a table made but not pointed to is dropped, and once it is pointed to,
        asking again takes the seat kept there.

        The new table is made on a worker thread (`_open`): those who ask meanwhile wait
        for it (`Table.rematching`) and join it, as they would had they asked after."""
        async with table.rematching:
            return await self._rematch(table, client)

    async def _rematch(self, table: Table, client: Client) -> dict[str, Any]:
        """`rematch`, its askers one at a time."""
        if client.seat is None:
            raise TableError("spectator", "spectators cannot start a new game")
        if table.status != "finished":
            raise TableError("not_finished", "the game is not over yet")
        name = table.seats[client.seat].name
        if table.next_code is None:
            spec = table.rules.to_spec()
            seats = [f"held:{name}", *table.rematch_seats(client.seat)]
            # (the time this table was given, within what the server allows now)
            turn_time = table.turn_time and min(
                max(table.turn_time, self.settings.min_turn_time), MAX_TURN_TIME
            )
            nxt = await self._open(spec, seats, turn_time, table.bot_pace)
            try:
                table.point_to(nxt.code)
            except Exception:
                self._drop(nxt)  # (nobody knows of it: asking again makes another)
                raise
        else:
            found = await self.fetch(table.next_code)
            if found is None:
                raise TableError("no_table", "the next game's table is gone")
            nxt = found
            there = nxt.person_seat(name)
            if there is not None and client.token is not None:
                derived = nxt.rematch_token(there, client.token)
                if nxt.seat_of_token(derived) == there:
                    # this person took their seat there already, from another device (or
                    # asks twice): the same seat and token
                    return {"type": "rematch", "code": nxt.code, "seat": there, "token": derived}
        derive = None if client.token is None else partial(_derive, nxt, client.token)
        seat, token = nxt.join_held(name, derive)
        return {"type": "rematch", "code": nxt.code, "seat": seat, "token": token}

    def _unload(self, table: Table) -> None:
        """A finished table nobody watches leaves memory; `get` reads it back on demand."""
        if self.tables.get(table.code) is table:
            del self.tables[table.code]
            self._remember(table)

    def in_memory(self, code: str) -> Table | None:
        """A table by code if it is in memory (every game in play is), never read back
        from the store: for listings, which must stay cheap however many codes they ask."""
        code = code.upper()
        return self.tables.get(code) or self.recent.get(code)

    def get(self, code: str, hold: bool = False) -> Table | None:
        """A table by code, read back from the store if it is not in memory: an unfinished
        one (idle for a while, `sweep`) is kept in memory again and goes on where it
        stopped; a finished one is kept with ``hold`` (for a connection about to join
        it). If the database will not read it (`sqlite3.Error`: held by another program
        past SQLite's wait, a disk error), the error is raised and nothing of the table is
        kept: asking again reads it back. (`fetch` reads it off the event loop.)"""
        code = code.upper()
        table = self._held(code, hold)
        if table is None:
            stored = self.store.table(code)
            if stored is not None:
                table = self._read_back(stored, hold)
        return table

    async def fetch(self, code: str, hold: bool = False) -> Table | None:
        """`get`, the store's reading of a table not in memory (its log, on the server's
        event loop, held up every table while it was read) done on a worker thread; the
        table is rebuilt from it here, on the event loop, which alone touches the
        manager and its tables. If a table was made or read back meanwhile, this one may
        have been too, played on and left memory again, its log longer than was read: it
        is read again, on a worker thread too (a rare race, for a table's log is only
        written while the table is in memory; `get` read it on the event loop)."""
        code = code.upper()
        table = self._held(code, hold)
        if table is not None or code in self.broken:
            return table
        built = self.built
        read = await asyncio.to_thread(read_log, self.store, code)
        table = self._held(code, hold)  # (read back meanwhile: one object for everyone)
        if table is not None:
            return table
        if self.built != built:
            async with self._reading_again:
                table = await self._read_again(code, hold)
        else:
            table = None if read is None else self._read_back(read.table, hold, read)
        keeping = None if table is None else table._keeping
        if keeping is not None:
            # a game found finished but not kept (the server stopped first), being kept
            # on a worker thread: the table is answered with its game's number, as before
            with contextlib.suppress(Exception):
                await asyncio.shield(keeping)
        return table

    async def _read_again(self, code: str, hold: bool) -> Table | None:
        """`fetch`'s reading of the table ``code`` made again, on a worker thread, until
        no table came into memory during it; the table rebuilt from it. One such reading
        at a time (`_reading_again`, a rare race): a second reader of the same table,
        raced as the first, finds it read back by the first instead of reading it again."""
        while True:
            table = self._held(code, hold)
            if table is not None or code in self.broken:
                return table
            built = self.built
            read = await asyncio.to_thread(read_log, self.store, code)
            if self._held(code, hold) is None and self.built == built:
                return None if read is None else self._read_back(read.table, hold, read)

    def _held(self, code: str, hold: bool) -> Table | None:
        """The table ``code`` if it is in memory (``hold``: a finished one is kept for a
        connection about to join it)."""
        table = self.tables.get(code)
        if table is None and code in self.recent:
            table = self.recent[code]
            if hold:  # one object for everyone at the table, as when it was loaded
                del self.recent[code]
                self.tables[code] = table
            else:
                self.recent.move_to_end(code)
        return table

    def _read_back(
        self, stored: StoredTable, hold: bool, read: StoredLog | None = None
    ) -> Table | None:
        table = self._load(stored, hold, read)
        if table is not None and table.status == "playing":
            table.changed()  # (its bots and clocks go on, as after a restart)
        return table

    async def close(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
            self._sweeper = None
        for table in list(self.tables.values()):
            await table.close()
        # (a finished table that left the list, its last visitor gone, may still be
        # keeping its game; and a game may have ended while the tables were closed)
        await self._kept()


def _length_of(rules: Rules) -> dict[str, Any]:
    """The words for a game's rounds (`mextrain.i18n.length_key`) as the page is sent them:
    the catalogue key and the game's engines as numbers, the key's count and parameters
    being theirs (never "6-6" written as a tile, which no payload shows unless it lies on
    the table or in the seat's hand), with those of its preset's full game (``full``),
    which the rules in short start with."""
    full = Rules.preset(rules.preset_name)
    return {
        "key": length_key(rules)[0],
        "engines": list(rules.rounds),
        "full": {"key": length_key(full)[0], "engines": list(full.rounds)},
    }


def _json_ready(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _json_ready(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_json_ready(v) for v in value]
    return value
