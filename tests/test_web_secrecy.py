"""The web server under scrutiny: (1) a connection is never sent anything its seat may not see;
(2) bad input gets a clear error, changes nothing, and the table keeps serving others."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import test_web
from mextrain.records import load_record, replay_record
from mextrain.rules import RoundState
from mextrain.rules.view import SeatView
from mextrain.web import create_app
from test_web import Conn, create, is_state, keys_in, my_turn, play_out, settings, tiles_in

SECRET_KEYS = {"boneyard", "seed", "hands", "deal", "token", "token_hash", "initial", "drawn"}


# test_web's fixtures: a fresh database file, and a client of an app on it
db = test_web.db
client = test_web.client


def norm(tile: Any) -> str:
    a, b = sorted(int(x) for x in str(tile).split("-"))
    return f"{a}-{b}"


def table_of(tc: TestClient, code: str) -> Any:
    return tc.app.state.manager.get(code)  # type: ignore[attr-defined]


def snapshot(tc: TestClient, code: str) -> tuple[Any, ...]:
    """The server-side truth of a table: version, every hand, boneyard position, history."""
    table = table_of(tc, code)
    if table.match is None:
        return (table.version, table.status)
    s = table.match.current
    return (
        table.version,
        table.status,
        len(table.match.rounds),
        tuple(s.hands),
        s.bone_pos,
        tuple(s.history),
        s.seat,
    )


class Oracle:
    """Replays the finished game's record to know, for any position a message shows, every
    hand and the boneyard's remaining contents."""

    def __init__(self, record_json: str) -> None:
        self.rounds = replay_record(load_record(record_json)).match.rounds

    def position(self, round_index: int, actions: int) -> RoundState:
        played = self.rounds[round_index]
        state = played.as_dealt()
        for seat, action in played.history[:actions]:
            state.apply(action, seat)
        return state


def check_payloads(conn: Conn, seat: int | None, oracle: Oracle) -> int:
    """Every payload ``conn`` received shows, of the hidden tiles, only its own hand.

    For each state message the exact position is rebuilt from the record; the hand must
    be exactly the seat's hand, the public counts exact, and no tile held by another seat
    or lying in the boneyard may appear anywhere else in any message."""
    checked = 0
    last_hidden: set[str] = set()
    for m in conn.seen:
        assert not keys_in(m) & SECRET_KEYS, m
        if m["type"] != "state" or m["round"] is None:
            # errors, hints, pongs, welcome: no hidden tile of the current position
            assert not tiles_in(m) & last_hidden, (m, tiles_in(m) & last_hidden)
            continue
        r = m["round"]
        state = oracle.position(r["round"], len(r["history"]))
        n = state.n
        own = set() if seat is None else {str(t) for t in state.hand(seat)}
        hidden = {str(t) for s in range(n) if s != seat for t in state.hand(s)}
        if state.ended is not None:
            # a round over: the hands are laid down to be counted, exactly as they are
            # (`hands_left`); only the boneyard stays hidden
            shown = r["hands_left"]
            assert [{norm(t) for t in h} for h in shown] == [
                {str(t) for t in state.hand(s)} for s in range(n)
            ]
            hidden = set()
            r = {k: v for k, v in r.items() if k != "hands_left"}
        else:
            assert "hands_left" not in r  # (never while the round is in play)
        hidden |= {str(state.ts.tiles[i]) for i in state.boneyard[state.bone_pos :]}
        assert {norm(t) for t in r["hand"]} == {norm(t) for t in own}, (seat, r["hand"], own)
        assert r["hand_sizes"] == state.hand_sizes
        assert r["boneyard_size"] == len(state.boneyard) - state.bone_pos
        rest = {k: v for k, v in m.items() if k != "round"}
        rest_round = {k: v for k, v in r.items() if k != "hand"}
        if seat is not None and r["current_seat"] == seat and state.ended is None:
            assert {norm(x.split("@")[0]) for x in r["legal_moves"] if "@" in x} <= own
        leaked = (tiles_in(rest) | tiles_in(rest_round)) & hidden
        assert not leaked, (seat, leaked, m)
        last_hidden = hidden
        checked += 1
    return checked


def http_payloads(tc: TestClient, code: str) -> list[Any]:
    """Everything a stranger can fetch over HTTP about tables and games."""
    out: list[Any] = []
    for path in (
        f"/api/tables/{code}",
        f"/api/tables/{code.lower()}",
        "/api/games",
        "/api/games?limit=100",
        "/api/stats",
        "/api/options",
    ):
        res = tc.get(path)
        assert res.status_code == 200, (path, res.text)
        out.append(res.json())
    for game_id in range(0, 4):
        for kind in ("record", "replay"):
            res = tc.get(f"/api/games/{game_id}/{kind}")
            out.append({"path": f"{game_id}/{kind}", "status": res.status_code, "body": res.text})
    return out


def hidden_now(tc: TestClient, code: str) -> set[str]:
    s = table_of(tc, code).match.current
    hidden = {str(t) for seat in range(s.n) for t in s.hand(seat)}
    return hidden | {str(s.ts.tiles[i]) for i in s.boneyard[s.bone_pos :]}


# -- property 1: nothing hidden is ever sent ------------------------------------------------


def test_every_payload_of_a_whole_game_shows_only_what_each_seat_may_see(
    client: TestClient,
) -> None:
    made = create(client, ["bot:greedy", "open", "bot:random"])
    code = made["code"]
    ben = client.post(f"/api/tables/{code}/join", json={"name": "Ben"}).json()
    ana = Conn(client, code, made["token"])
    bconn = Conn(client, code, ben["token"])
    watcher = Conn(client, code, None)
    during: list[Any] = []
    try:
        ana.until(lambda m: is_state(m) and m["round"] is not None)
        # in the middle of round 1: the HTTP side shows nothing hidden and no record yet
        during = http_payloads(client, code)
        hidden = hidden_now(client, code)
        for payload in during:
            if isinstance(payload, dict) and "status" in payload and "body" in payload:
                assert payload["status"] == 404, payload  # no record/replay before the end
            assert not tiles_in(payload) & hidden, payload
            assert not keys_in(payload) & SECRET_KEYS, payload
        final = play_out({0: ana, 2: bconn}, random.Random(3))
        watcher.until(lambda m: is_state(m) and m["sheet"].get("complete"))
        time.sleep(0.1)
        for c in (ana, bconn, watcher):
            c.drain()
    finally:
        for c in (ana, bconn, watcher):
            c.close()
    game_id = final["table"]["game_id"]
    record = client.get(f"/api/games/{game_id}/record")
    assert record.status_code == 200
    oracle = Oracle(record.text)
    assert check_payloads(ana, 0, oracle) > 10
    assert check_payloads(bconn, 2, oracle) > 10
    assert check_payloads(watcher, None, oracle) > 5
    # the spectator's round view is not seat 0's view with the hand blanked but left over
    for m in watcher.seen:
        if is_state(m) and m["round"]:
            assert m["round"]["hand"] == []
            assert m["round"]["legal_moves"] == []
            assert m["round"]["seat"] is None


def test_hints_are_computed_from_the_seat_view_only_and_leak_nothing(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    import mextrain.web.tables as tables

    seen_args: list[Any] = []
    real = tables.analyze

    def spy(view: Any, *args: Any, **kwargs: Any) -> Any:
        seen_args.append((view, args, kwargs))
        return real(view, *args, **kwargs)

    monkeypatch.setattr(tables, "analyze", spy)
    made = create(client, ["bot:greedy"])
    ana = Conn(client, made["code"], made["token"])
    try:
        final = play_out({0: ana}, random.Random(5), hints=True)
        ana.drain()
    finally:
        ana.close()
    assert seen_args
    for view, args, kwargs in seen_args:
        assert isinstance(view, SeatView)
        assert view.seat == 0
        # nothing but the view and an rng goes in: no state, deal or boneyard
        assert all(isinstance(a, random.Random) for a in args), args
        assert set(kwargs) <= {"iterations", "time_ms", "policy", "own"}
        assert not hasattr(view, "boneyard")
    oracle = Oracle(client.get(f"/api/games/{final['table']['game_id']}/record").text)
    assert check_payloads(ana, 0, oracle) > 5
    assert any(m["type"] == "hint" for m in ana.seen)


def test_illegal_move_errors_name_no_hidden_tile(client: TestClient) -> None:
    """Probing with every tile of the set on every train gets errors, never a hidden tile."""
    made = create(client, ["bot:greedy", "bot:greedy"])
    code = made["code"]
    ana = Conn(client, code, made["token"])
    try:
        state = ana.until(my_turn(0))
        legal = set(state["round"]["legal_moves"])
        hidden = hidden_now(client, code) - {norm(t) for t in state["round"]["hand"]}
        before = snapshot(client, code)
        probes = [
            f"{a}-{b}@{t}"
            for a in range(7)
            for b in range(a, 7)
            for t in ("M", "0", "1", "2", "7")
            if f"{a}-{b}@{t}" not in legal
        ][:35]  # under the rate limit's burst
        for move in probes:
            ana.send({"type": "action", "move": move, "version": state["version"]})
            err = ana.until(lambda m: m["type"] == "error")
            assert err["code"] == "illegal", err
            assert err["message"]
            # the tile the player named may be echoed; no other hidden tile may appear
            assert not (tiles_in(err) - {norm(move.split("@")[0])}) & hidden, (move, err)
        assert snapshot(client, code) == before
    finally:
        ana.close()


# -- property 2: bad input -------------------------------------------------------------


@pytest.fixture
def two_humans(client: TestClient) -> Iterator[tuple[TestClient, str, Conn, Conn, dict[str, Any]]]:
    made = create(client, ["open"])
    code = made["code"]
    ben = client.post(f"/api/tables/{code}/join", json={"name": "Ben"}).json()
    ana = Conn(client, code, made["token"])
    bconn = Conn(client, code, ben["token"])
    try:
        state = ana.until(lambda m: is_state(m) and m["round"] is not None)
        yield client, code, ana, bconn, state
    finally:
        ana.close()
        bconn.close()


NESTED = "[" * 1500 + "]" * 1500
BAD_MESSAGES: list[tuple[str, str | bytes]] = [
    ("not_json", "{nope"),
    ("json_null", "null"),
    ("json_number", "12"),
    ("json_string", '"action"'),
    ("empty", ""),
    ("nested", NESTED),
    ("nested_obj", '{"type":"ping","x":' * 300 + "1" + "}" * 300),
    ("unknown_type", json.dumps({"type": "resign"})),
    ("type_not_string", json.dumps({"type": 5})),
    ("no_type", json.dumps({"move": "draw", "version": 0})),
    ("version_string", json.dumps({"type": "action", "move": "draw", "version": "x"})),
    ("version_negative", json.dumps({"type": "action", "move": "draw", "version": -1})),
    ("version_huge", json.dumps({"type": "action", "move": "draw", "version": 10**30})),
    ("version_float", json.dumps({"type": "action", "move": "draw", "version": 1.5})),
    ("move_list", json.dumps({"type": "action", "move": ["draw"], "version": 0})),
    ("move_null", json.dumps({"type": "action", "move": None, "version": 0})),
    ("move_other_seat", json.dumps({"type": "action", "move": "1:draw", "version": 0})),
    ("extra_seat_field", json.dumps({"type": "action", "move": "draw", "version": 0, "seat": 1})),
    ("unicode_digits", json.dumps({"type": "action", "move": "\u0665-\u0666@M", "version": 0})),
    ("start_extra", json.dumps({"type": "start", "force": True})),
    ("hint_no_version", json.dumps({"type": "hint"})),
    ("oversized_text", json.dumps({"type": "ping", "pad": "x" * 10_000})),
    ("oversized_bytes", json.dumps({"type": "ping", "pad": "x" * 10_000}).encode()),
    ("bad_utf8_bytes", b"\xff\xfe\x00garbage"),
    ("hello_again", json.dumps({"type": "hello"})),
]


@pytest.mark.parametrize(("label", "raw"), BAD_MESSAGES, ids=[b[0] for b in BAD_MESSAGES])
def test_bad_messages_get_a_clear_error_and_change_nothing(
    two_humans: tuple[TestClient, str, Conn, Conn, dict[str, Any]], label: str, raw: str | bytes
) -> None:
    tc, code, ana, bconn, _ = two_humans
    time.sleep(0.05)
    before = snapshot(tc, code)
    if isinstance(raw, bytes):
        ana.ws.send_bytes(raw)
    else:
        ana.send(raw)
    err = ana.until(lambda m: m["type"] in ("error", "pong", "hint"))
    assert err["type"] == "error", (label, err)
    assert err["code"], err
    assert isinstance(err["message"], str), err
    assert err["message"], err
    assert len(json.dumps(err)) < 2000, "errors stay short"
    assert snapshot(tc, code) == before
    # the same connection is still served, and so is the other player
    ana.send({"type": "ping"})
    assert ana.until(lambda m: m["type"] in ("pong", "error"))["type"] == "pong"
    bconn.send({"type": "ping"})
    assert bconn.until(lambda m: m["type"] in ("pong", "error"))["type"] == "pong"


def test_illegal_out_of_turn_and_strange_moves_are_refused_and_the_game_goes_on(
    two_humans: tuple[TestClient, str, Conn, Conn, dict[str, Any]],
) -> None:
    tc, code, ana, bconn, _state = two_humans
    time.sleep(0.05)
    ana.drain()
    bconn.drain()
    assert ana.last is not None
    version = ana.last["version"]
    mover = ana.last["round"]["current_seat"]
    movers = {0: ana, 1: bconn}
    waiter = movers[1 - mover]
    before = snapshot(tc, code)
    # out of turn: the waiting seat tries every kind of move in the current position
    for move in ("draw", "pass", "6-6@M", "0-0@0", "0-0@1"):
        waiter.send({"type": "action", "move": move, "version": version})
        err = waiter.until(lambda m: m["type"] == "error")
        assert err["code"] == "illegal", err
    # strange moves by the seat to move: no such train, tile outside the set, huge numbers
    mine = movers[mover]
    for move in ("0-0@9", "0-0@99", "7-7@M", "99999-1@M", "1-99999@0", "6-6@99999"):
        mine.send({"type": "action", "move": move, "version": version})
        err = mine.until(lambda m: m["type"] == "error", timeout=3)
        assert err["code"] in ("illegal", "malformed"), (move, err)
    # a hint out of turn, a spectator-free start after the start
    waiter.send({"type": "hint", "version": version})
    assert waiter.until(lambda m: m["type"] == "error")["code"] == "not_your_turn"
    mine.send({"type": "start"})
    assert mine.until(lambda m: m["type"] == "error")["code"] == "started"
    assert snapshot(tc, code) == before
    # nothing broke: the seat to move still moves, and both hear of it
    legal = mine.last["round"]["legal_moves"] if mine.last else []
    mine.send({"type": "action", "move": legal[0], "version": version})
    for conn in (ana, bconn):
        after = conn.until(lambda m: is_state(m) and m["version"] > version)
        assert after["version"] == version + 1


def test_a_disconnect_mid_game_loses_nothing_and_the_others_keep_playing(
    client: TestClient,
) -> None:
    made = create(client, ["open", "bot:greedy"])
    code = made["code"]
    ben_join = client.post(f"/api/tables/{code}/join", json={"name": "Ben"}).json()
    ana = Conn(client, code, made["token"])
    ben = Conn(client, code, ben_join["token"])
    watcher = Conn(client, code, None)
    try:
        # Ana drops in the middle of the first round, maybe on her own turn
        first = ana.until(lambda m: is_state(m) and m["round"] is not None)
        hand_before = first["round"]["hand"]
        ana.close()
        time.sleep(0.05)
        snap = snapshot(client, code)
        table = table_of(client, code)
        assert table.seats[0].kind == "human"
        # Ben and the watcher are still served
        ben.send({"type": "ping"})
        assert ben.until(lambda m: m["type"] == "pong")
        watcher.send({"type": "ping"})
        assert watcher.until(lambda m: m["type"] == "pong")
        # Ana comes back with her token: her seat, her hand, the same position
        again = Conn(client, code, made["token"])
        try:
            assert again.get() == {"type": "welcome", "seat": 0, "code": code}
            resumed = again.until(is_state)
            assert resumed["you"] == 0
            if snapshot(client, code) == snap and snap[0] == first["version"]:
                assert resumed["round"]["hand"] == hand_before
            assert resumed["version"] >= first["version"]
            # the game can be finished by everyone, nothing lost
            final = play_out({0: again, 1: ben}, random.Random(11))
            assert final["sheet"]["complete"]
            watcher.until(lambda m: is_state(m) and m["sheet"].get("complete"))
            again.drain()
            ben.drain()
            watcher.drain()
        finally:
            again.close()
        oracle = Oracle(client.get(f"/api/games/{final['table']['game_id']}/record").text)
        check_payloads(again, 0, oracle)
        check_payloads(ben, 1, oracle)
        check_payloads(watcher, None, oracle)
    finally:
        ben.close()
        watcher.close()


def test_a_spectator_and_a_stranger_token_cannot_act_and_see_no_hand(client: TestClient) -> None:
    made = create(client, ["bot:greedy"])
    other = create(client, ["bot:greedy"], name="Zed")
    code = made["code"]
    # another table's token is not valid here
    with client.websocket_connect(f"/ws/{code}") as ws:
        ws.send_text(json.dumps({"type": "hello", "token": other["token"]}))
        assert json.loads(ws.receive_text())["code"] == "bad_token"
    watcher = Conn(client, code, None)
    try:
        state = watcher.until(lambda m: is_state(m) and m["round"] is not None)
        hidden = hidden_now(client, code)
        assert not tiles_in(state["table"]) & hidden
        assert state["round"]["hand"] == []
        for msg in (
            {"type": "action", "move": "draw", "version": state["version"]},
            {"type": "hint", "version": state["version"]},
            {"type": "start"},
        ):
            watcher.send(msg)
            err = watcher.until(lambda m: m["type"] == "error")
            assert err["code"] in ("spectator", "not_playing"), err
            assert not tiles_in(err) & hidden
    finally:
        watcher.close()


def test_two_tabs_on_one_seat_race_the_same_move_once_and_both_stay_served(
    client: TestClient,
) -> None:
    made = create(client, ["bot:greedy"])
    code = made["code"]
    tab1 = Conn(client, code, made["token"])
    tab2 = Conn(client, code, made["token"])
    try:
        state = tab1.until(my_turn(0))
        tab2.until(lambda m: is_state(m) and m["version"] == state["version"])
        move = state["round"]["legal_moves"][0]
        for tab in (tab1, tab2):
            tab.send({"type": "action", "move": move, "version": state["version"]})
        after = tab1.until(lambda m: is_state(m) and m["version"] > state["version"])
        time.sleep(0.2)
        tab1.drain()
        tab2.drain()
        errors = [m for t in (tab1, tab2) for m in t.seen if m["type"] == "error"]
        assert [e["code"] for e in errors] == ["stale"], errors
        assert after["round"]["history"].count(f"0:{move}") == 1
        tab1.close()
        tab2.send({"type": "ping"})
        assert tab2.until(lambda m: m["type"] == "pong")
        assert table_of(client, code).seats[0].clients  # still connected: no takeover
    finally:
        tab2.close()


def test_spaced_out_bursts_do_not_add_up_to_a_disconnect(db: Path) -> None:
    """Each burst is cut back by the limiter; after a pause the connection is fresh."""
    with TestClient(create_app(db, settings(messages_per_second=50.0, burst=10))) as tc:
        made = create(tc, ["bot:greedy"])
        conn = Conn(tc, made["code"], made["token"])
        try:
            conn.until(is_state)
            for _ in range(4):
                for _ in range(15):  # 5 over the burst each time
                    conn.send({"type": "ping"})
                time.sleep(0.6)  # the bucket refills completely
                conn.drain()
                assert [m["type"] for m in conn.seen].count("error") <= 20
            conn.send({"type": "ping"})
            time.sleep(0.2)
            conn.drain()
            # refusals count only in a row: 4 spaced bursts of 5 extra messages (20 in all,
            # more than burst 10) do not cut off a connection that slowed down in between
            assert not conn.closed, "cut off after spaced-out bursts"
            assert conn.seen[-1]["type"] == "pong"
        finally:
            conn.close()


def test_a_client_too_slow_to_drain_its_queue_is_really_cut_off() -> None:
    """`Client.send` closes a client whose queue is full; the transport's pump must then
    learn that it is closed (it waits on `next_message` for the ``None`` sentinel)."""
    import asyncio

    from mextrain.web.tables import Client

    async def scenario() -> list[Any]:
        client = Client(0, "en", max_queue=2)
        for i in range(3):  # the third does not fit: the client is closed
            client.send({"type": "state", "version": i})
        assert client.closed
        got: list[Any] = []
        for _ in range(3):
            try:
                got.append(await asyncio.wait_for(client.next_message(), 0.5))
            except TimeoutError:
                got.append("waits forever")
                break
            if got[-1] is None:  # the transport stops here
                break
        return got

    got = asyncio.run(scenario())
    # closed *because* its queue is full, the client still gets the ``None`` marker (the
    # oldest queued message makes room), so the pump ends and the socket is closed
    assert got[-1] is None, got
    assert got[:-1] == [{"type": "state", "version": 1}]


@pytest.mark.parametrize(
    "hello",
    [
        "{nope",
        json.dumps({"type": "hello", "token": "short"}),
        json.dumps({"type": "hello", "token": 12345678901234567890}),
        json.dumps({"type": "hello", "lang": "x" * 100}),
        json.dumps({"type": "ping"}),
        json.dumps({"type": "hello", "pad": "x" * 10_000}),
    ],
)
def test_a_bad_hello_gets_a_clear_error_and_the_table_plays_on(
    client: TestClient, hello: str
) -> None:
    made = create(client, ["bot:greedy"])
    ana = Conn(client, made["code"], made["token"])
    try:
        ana.until(my_turn(0))
        before = snapshot(client, made["code"])
        with client.websocket_connect(f"/ws/{made['code']}") as ws:
            ws.send_text(hello)
            err = json.loads(ws.receive_text())
            assert err["type"] == "error", err
            assert err["code"], err
            assert err["message"], err
        assert snapshot(client, made["code"]) == before
        ana.send({"type": "ping"})
        assert ana.until(lambda m: m["type"] == "pong")
    finally:
        ana.close()


@pytest.mark.parametrize(
    "options",
    [
        {"rounds": True},
        {"rounds": 0},
        {"rounds": 10**9},
        {"max_pip": 100000},
        {"max_pip": 2**70},
        {"max_pip": [3]},
        {"hand_size": {"2": 1000}},
        {"hand_size": [1, 2]},
        {"hand_size": 3},
        {"hand_size": {"2": 0}},
        {"double_blank_points": [1]},
        {"first_turn_run": 5},
        {"no_such_option": 1},
    ],
)
def test_bad_table_options_get_a_clear_4xx(client: TestClient, options: dict[str, Any]) -> None:
    res = client.post(
        "/api/tables", json={"name": "Ana", "options": options, "seats": ["bot:greedy"]}
    )
    assert res.status_code in (400, 422), res.text
    assert res.json()["detail"]
