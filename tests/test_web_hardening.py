"""The web server as an attacker, or an unlucky player, would use it: the headers every
answer carries, files that stay in their folder, messages of every odd shape, and the
things one seat's connection must never receive."""

from __future__ import annotations

import json
import re
import socket
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import WebSocketDisconnect
from fastapi.testclient import TestClient

import test_web
from mextrain.i18n import LANGUAGES, Translator
from mextrain.web import create_app
from test_web import Conn, create, errors_of, is_state, my_turn, refusal, settings

# test_web's fixtures: a fresh database file, and a client of an app on it
db = test_web.db
client = test_web.client


def directives(policy: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for part in policy.split(";"):
        name, *values = part.split()
        out[name] = values
    return out


@pytest.mark.parametrize(
    ("method", "path", "status"),
    [
        ("GET", "/", 200),
        ("GET", "/t/ABCDEF", 200),
        ("GET", "/replay/1", 200),
        ("GET", "/static/app.js", 200),
        ("GET", "/static/vendor/preact.mjs", 200),
        ("GET", "/static/style.css", 200),
        ("HEAD", "/", 200),
        ("HEAD", "/t/ABCDEF", 200),
        ("HEAD", "/static/app.js", 200),
        ("GET", "/api/options", 200),
        ("GET", "/api/i18n/fr", 200),
        ("GET", "/api/tables/NOPE42", 404),
        ("GET", "/static/nothing.js", 404),
        ("DELETE", "/api/options", 405),
        ("POST", "/api/tables", 422),
    ],
)
def test_every_answer_carries_the_security_headers(
    client: TestClient, method: str, path: str, status: int
) -> None:
    res = client.request(method, path)
    assert res.status_code == status
    assert res.headers["x-content-type-options"] == "nosniff"
    assert res.headers["x-frame-options"] == "DENY"
    assert res.headers["referrer-policy"] == "same-origin"  # (a table's code is in its address)
    policy = directives(res.headers["content-security-policy"])
    # the front end is files of its own: no inline script or style, no eval, no plug-in,
    # nothing from elsewhere, and no other site may frame it
    assert policy["default-src"] == ["'self'"]
    assert policy["script-src"] == ["'self'"]
    assert policy["style-src"] == ["'self'"]
    assert policy["connect-src"] == ["'self'"]
    assert policy["img-src"] == ["'self'"]  # (the tab's icon is a file of its own)
    assert policy["object-src"] == ["'none'"]
    assert policy["base-uri"] == ["'none'"]
    assert policy["frame-ancestors"] == ["'none'"]


@pytest.mark.parametrize(
    "path", ["/", "/t/ABCDEF", "/t/", "/replay/1", "/replay/", "/replay", "/stats", "/help"]
)
def test_every_page_answers_a_head_request_as_its_get_without_the_body(
    client: TestClient, path: str
) -> None:
    """What a link checker or an uptime monitor asks (``curl -I``): the pages were refused
    with "405 Method Not Allowed"."""
    got, head = client.get(path), client.head(path)
    assert head.status_code == got.status_code == 200
    assert head.content == b""
    assert head.headers["content-type"] == got.headers["content-type"]
    assert head.headers["content-length"] == got.headers["content-length"]


def test_a_body_refused_before_it_is_read_carries_them_too(client: TestClient) -> None:
    res = client.post("/api/tables", content=b"x" * (65 * 1024))
    assert res.status_code == 413
    assert res.headers["x-content-type-options"] == "nosniff"
    assert "frame-ancestors 'none'" in res.headers["content-security-policy"]


def test_the_page_has_no_inline_script_or_style_the_policy_would_block() -> None:
    from mextrain.web.app import STATIC

    page = (STATIC / "index.html").read_text(encoding="utf-8")
    assert "<style" not in page
    assert " style=" not in page
    assert not re.search(r"\son[a-z]+\s*=", page)  # (no inline handler either)
    scripts = page.split("<script")[1:]
    assert scripts
    assert all(' src="/static/' in s.split(">")[0] for s in scripts)
    for path in STATIC.rglob("*js"):
        source = path.read_text(encoding="utf-8")
        assert "eval(" not in source, path
        assert "new Function" not in source, path
        assert "innerHTML" not in source or path.parent.name == "vendor", path


# -- table codes guessed --------------------------------------------------------------


def test_codes_of_no_table_asked_in_a_loop_are_refused_and_tell_nothing(db: Path) -> None:
    """A code is all it takes to watch a table and take an open seat: a loop asking 50
    codes a request found live tables among the billion codes in minutes. One address may
    ask about ``lookups_per_minute`` codes of no table (in bursts); past that every lookup
    is refused, of a live table too (refusing the misses alone would still tell the hits),
    over HTTP and over the websocket."""
    with TestClient(create_app(db, settings(lookups_per_minute=5))) as tc:
        live = create(tc, ["open"])["code"]
        assert tc.get(f"/api/tables/{live}").status_code == 200  # (a hit costs nothing)
        listed = tc.get(f"/api/tables?codes=AAAAAA,{live},BBBBBB").json()["tables"]
        assert listed["AAAAAA"] is None
        assert listed[live]["code"] == live
        assert tc.get("/api/tables/CCCCCC").status_code == 404
        assert tc.post("/api/tables/DDDDDD/join", json={"name": "Eve"}).status_code == 404
        with tc.websocket_connect("/ws/EEEEEE") as ws:
            assert json.loads(ws.receive_text())["code"] == "no_table"
        # five misses: every lookup is refused now, the live table's too
        for res in (
            tc.get(f"/api/tables/{live}"),
            tc.get(f"/api/tables?codes={live}"),
            tc.post(f"/api/tables/{live}/join", json={"name": "Eve"}),
        ):
            assert res.status_code == 429
            assert refusal(res) == "too_many_lookups"
        with tc.websocket_connect(f"/ws/{live}") as ws:
            told = json.loads(ws.receive_text())
            assert told["type"] == "error"
            assert told["code"] == "too_many_lookups"
        table = tc.app.state.manager.get(live)  # type: ignore[attr-defined]
        assert [s["kind"] for s in table.public()["seats"]] == ["human", "open"]  # (nobody joined)
        for lang in LANGUAGES:
            assert Translator(lang).has("web.error.too_many_lookups")
        # making a table is counted apart
        assert tc.post("/api/tables", json={"name": "Ana", "seats": ["open"]}).status_code == 201


def test_a_listing_past_the_limit_answers_nothing_of_what_it_found(db: Path) -> None:
    """A list of 50 codes that runs out of lookups half way is refused whole: an answer
    for the codes before would still tell which of them are live."""
    with TestClient(create_app(db, settings(lookups_per_minute=3))) as tc:
        live = create(tc, ["open"])["code"]
        codes = ",".join(["AAAAA1", "AAAAA2", live, "AAAAA3", "AAAAA4", "AAAAA5"])
        res = tc.get(f"/api/tables?codes={codes}")
        assert res.status_code == 429
        assert refusal(res) == "too_many_lookups"
        assert live not in res.text


def test_a_browsers_own_tables_and_a_mistyped_code_or_two_are_answered(db: Path) -> None:
    """The limit is for loops: the lobby asking for a browser's tables, which all exist,
    and a player mistyping a code now and then are answered as before."""
    with TestClient(create_app(db, settings())) as tc:
        codes = [create(tc, ["open"])["code"] for _ in range(20)]
        for _ in range(5):
            res = tc.get(f"/api/tables?codes={','.join(codes)}")
            assert res.status_code == 200
            assert all(res.json()["tables"].values())
        for typo in ("ABCDEF", "ABCDEG", "ABCDEH"):
            assert refusal(tc.post(f"/api/tables/{typo}/join", json={"name": "Eve"})) == "no_table"
        assert tc.post(f"/api/tables/{codes[0]}/join", json={"name": "Eve"}).status_code == 200


# -- many connections from one machine --------------------------------------------------


def test_one_address_holds_only_so_many_connections_open(db: Path) -> None:
    """Every websocket costs the server a task, an outbox and a copy of every change at
    its table: one machine opening thousands held the others up. One address may hold
    ``connections_per_address`` open (before their hello too); the next is told why and
    closed, and once one closes another may come. The seats play on meanwhile."""
    with TestClient(create_app(db, settings(connections_per_address=3))) as tc:
        made = create(tc, ["bot:greedy"])
        ana = Conn(tc, made["code"], made["token"])
        watchers = [Conn(tc, made["code"], None) for _ in range(2)]
        try:
            for conn in (ana, *watchers):
                conn.until(is_state)
            with tc.websocket_connect(f"/ws/{made['code']}") as ws:  # (no hello needed)
                told = json.loads(ws.receive_text())
                assert told["type"] == "error"
                assert told["code"] == "too_many_connections"
                with pytest.raises(WebSocketDisconnect) as closed:
                    ws.receive_text()
                assert closed.value.code == 1008
            for lang in LANGUAGES:
                assert Translator(lang).has("web.error.too_many_connections")
            # the seat is still served
            ana.send({"type": "ping"})
            assert ana.until(lambda m: m["type"] == "pong")
            watchers.pop().close()
            again = None
            for _ in range(50):  # (the server notices the close as it reads)
                again = Conn(tc, made["code"], None)
                first = again.get()
                if first["type"] == "welcome":
                    break
                again.close()
                again = None
                time.sleep(0.05)
            assert again is not None, "no room after a connection closed"
            watchers.append(again)
        finally:
            ana.close()
            for conn in watchers:
                conn.close()


def test_connections_refused_before_their_hello_are_counted_too(db: Path) -> None:
    """A connection that never says hello holds its place for `hello_timeout` seconds,
    and one that is refused (no such table, a bad token) gives it back at once."""
    with TestClient(create_app(db, settings(connections_per_address=2))) as tc:
        code = create(tc, ["bot:greedy"])["code"]
        for _ in range(5):  # refused at once: nothing kept open
            with tc.websocket_connect(f"/ws/{code}") as ws:
                ws.send_text(json.dumps({"type": "hello", "token": "x" * 32}))
                assert json.loads(ws.receive_text())["code"] == "bad_token"
        with tc.websocket_connect(f"/ws/{code}") as one, tc.websocket_connect(f"/ws/{code}"):
            with tc.websocket_connect(f"/ws/{code}") as three:
                assert json.loads(three.receive_text())["code"] == "too_many_connections"
            one.send_text(json.dumps({"type": "hello"}))
            assert json.loads(one.receive_text())["type"] == "welcome"


# -- odd input ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["\ud800", "Ana\udfff", "\udbff\udbff"])
def test_a_name_with_half_a_surrogate_pair_is_refused_in_plain_words(
    client: TestClient, name: str
) -> None:
    # JSON can write a lone half of a pair ("\ud800"), which no text holds: refused in
    # our words, not the validator's ("Input should be a valid string, unable to parse")
    body = json.dumps({"name": name, "seats": ["open"]})  # (escaped: \ud800)
    res = client.post("/api/tables", content=body, headers={"content-type": "application/json"})
    assert res.status_code == 422
    assert res.json()["detail"] == {
        "code": "invalid",
        "message": "name: not text: half a surrogate pair, which no text holds",
    }
    assert client.get("/api/tables?codes=").status_code == 200  # (the server goes on)


@pytest.mark.parametrize(
    ("frame", "code"),
    [
        # nesting deeper than the parser goes: refused, not a crash
        ('{"type":"ping","x":' + "[" * 1500 + "]" * 1500 + "}", "malformed"),
        # a type said twice: the last one counts, and it is checked as a whole
        ('{"type":"ping","type":"hello"}', "hello_again"),
        ('{"type":"hint","version":NaN}', "malformed"),
        ('{"type":"hint","version":1e400}', "malformed"),
        # a lone half of a surrogate pair is no text: nothing is said
        ('{"type":"chat","text":"\\ud800"}', "malformed"),
        ('{"type":"chat","text":"a\\u0000b"}', "chat_text"),
        ('{"type":"chat","text":"a\\u202eb"}', "chat_text"),
        (b"\xff\xfe{}", "malformed"),  # (bytes that are no UTF-8)
    ],
)
def test_odd_frames_get_a_clear_error_and_lose_nothing(
    client: TestClient, frame: str | bytes, code: str
) -> None:
    made = create(client, ["bot:greedy"])
    conn = Conn(client, made["code"], made["token"])
    try:
        # our turn: the bot waits for us, so nothing but the frame could change the table
        # (the first state may come while the bot still thinks, its move landing later)
        before = conn.until(my_turn(0))
        if isinstance(frame, bytes):
            conn.ws.send_bytes(frame)
        else:
            conn.send(frame)
        assert errors_of(conn)["code"] == code
        conn.send({"type": "ping"})
        assert conn.until(lambda m: m["type"] in ("pong", "chat"))["type"] == "pong"
        table = client.app.state.manager.get(made["code"])  # type: ignore[attr-defined]
        assert table.version == before["version"]
        assert not table.chat  # (nothing was said)
    finally:
        conn.close()


def test_a_huge_position_number_or_json_in_a_binary_frame_is_taken_as_any_other(
    client: TestClient,
) -> None:
    made = create(client, ["bot:greedy"])
    conn = Conn(client, made["code"], made["token"])
    try:
        state = conn.until(my_turn(0))
        conn.send('{"type":"action","move":"draw","version":' + "9" * 3000 + "}")
        assert errors_of(conn)["code"] == "stale"
        move = state["round"]["legal_moves"][0]
        message = {"type": "action", "move": move, "version": state["version"]}
        conn.ws.send_bytes(json.dumps(message).encode())  # (UTF-8 JSON, in bytes)
        conn.until(lambda m: is_state(m) and m["version"] == state["version"] + 1)
    finally:
        conn.close()


def test_a_hint_goes_to_the_seat_that_asked_and_to_nobody_else(client: TestClient) -> None:
    """One seat's hint names tiles of its hand: another seat's connection and a spectator
    never receive it, even asking for one themselves in the same position."""
    made = create(client, ["open"])
    ana = Conn(client, made["code"], made["token"])
    bob_token = client.post(f"/api/tables/{made['code']}/join", json={"name": "Bob"}).json()
    bob = Conn(client, made["code"], bob_token["token"])
    watcher = Conn(client, made["code"], None)
    try:
        state = ana.until(lambda m: is_state(m) and m["round"] is not None)
        mover, other = (ana, bob) if state["round"]["current_seat"] == 0 else (bob, ana)
        state = mover.until(lambda m: is_state(m) and m["round"] is not None)
        for conn in (other, watcher):  # (not their turn, or no seat: refused)
            conn.send({"type": "hint", "version": state["version"]})
            assert errors_of(conn)["code"] in ("not_your_turn", "not_playing")
        mover.send({"type": "hint", "version": state["version"]})
        hint = mover.until(lambda m: m["type"] == "hint")
        assert hint["move"] in state["round"]["legal_moves"]
        for conn in (other, watcher):
            conn.send({"type": "ping"})
            conn.until(lambda m: m["type"] == "pong")
            conn.drain()
            assert not [m for m in conn.seen if m["type"] == "hint"]
    finally:
        for conn in (ana, bob, watcher):
            conn.close()


# -- a real server: what the framework in front of the app does --------------------------


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``mextrain serve`` on a free port, as deployed (its own limits on frames)."""
    from test_web_restart import Server, _free_port

    server = Server(tmp_path_factory.mktemp("served") / "web.sqlite3", _free_port())
    try:
        yield server.base
    finally:
        server.kill()


def raw_get(base: str, target: str) -> tuple[int, bytes]:
    """GET ``target`` exactly as written (no client tidies its dots or slashes)."""
    host, port = base.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as s:
        s.sendall(f"GET {target} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n".encode())
        answer = b""
        while chunk := s.recv(65536):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    return int(head.split()[1]), body


@pytest.mark.parametrize(
    "target",
    [
        "/static/../app.py",
        "/static/../../mextrain/web/app.py",
        "/static/..%2fapp.py",
        "/static/%2e%2e/app.py",
        "/static/%2e%2e%2fapp.py",
        "/static/vendor/../../app.py",
        "/static/vendor/..%2f..%2fapp.py",
        "/static/..%5capp.py",
        "/static/..\\app.py",
        "/static//etc/passwd",
        "/static/%2fetc%2fpasswd",
        "/static/%00app.js",
    ],
)
def test_static_files_never_leave_their_folder(served: str, target: str) -> None:
    status, body = raw_get(served, target)
    assert status in (400, 404), (status, body[:200])
    assert b"create_app" not in body
    assert b"root:" not in body
    assert raw_get(served, "/static/app.js")[0] == 200  # (the files themselves are served)


def read_until_closed(ws: Any) -> None:
    while True:
        ws.recv(10)


def test_a_frame_over_64_kib_is_not_read_and_the_server_goes_on(served: str) -> None:
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    made = json.loads(
        urllib.request.urlopen(
            urllib.request.Request(
                served + "/api/tables",
                data=json.dumps({"name": "Ana", "seats": ["bot:greedy"]}).encode(),
                headers={"Content-Type": "application/json"},
            ),
            timeout=10,
        ).read()
    )
    ws_base = served.replace("http://", "ws://")
    with connect(f"{ws_base}/ws/{made['code']}", max_size=None) as ws:
        ws.send(json.dumps({"type": "hello", "token": made["token"]}))
        assert json.loads(ws.recv(10))["type"] == "welcome"
        ws.send(json.dumps({"type": "ping", "pad": "x" * 70_000}))
        with pytest.raises(ConnectionClosed) as closed:
            read_until_closed(ws)
        assert closed.value.rcvd is not None
        assert closed.value.rcvd.code == 1009  # (message too big)
    # the seat is as it was, and the server answers the next connection
    with connect(f"{ws_base}/ws/{made['code']}") as ws:
        ws.send(json.dumps({"type": "hello", "token": made["token"]}))
        assert json.loads(ws.recv(10)) == {"type": "welcome", "seat": 0, "code": made["code"]}


def test_a_failure_of_the_servers_own_carries_the_security_headers(db: Path) -> None:
    """An answer to an error of the server's own is made outside every middleware: it
    went out without the headers every other answer carries. It has them, and says what
    happened in the refusals' shape."""
    app = create_app(db, settings())

    @app.get("/api/boom")
    async def boom() -> None:
        raise RuntimeError("a bug")

    with TestClient(app, raise_server_exceptions=False) as failing:
        res = failing.get("/api/boom")
    assert res.status_code == 500
    assert res.headers["x-content-type-options"] == "nosniff"
    assert res.headers["x-frame-options"] == "DENY"
    assert res.headers["referrer-policy"] == "same-origin"
    assert "frame-ancestors 'none'" in res.headers["content-security-policy"]
    assert res.json()["detail"]["code"] == "server"
    # the page says it in the player's language, as it said the plain-text failure before
    # (the code's English words are not for players)
    js = (Path(create_app.__code__.co_filename).parent / "static" / "app.js").read_text("utf-8")
    generic = re.search(
        r'if \((\[[^\]]*\])\.includes\(err\.code\)\) return t\("web\.error\.request"\)', js
    )
    assert generic is not None
    assert "server" in json.loads(generic.group(1))


@pytest.mark.parametrize(
    "path",
    ["/static/app.js", "/static/style.css", "/static/vendor/preact.mjs", "/static/icon.svg"],
)
def test_the_pages_files_are_asked_again_at_every_use(client: TestClient, path: str) -> None:
    """A browser kept the page's files as long as it liked (no Cache-Control: a share of
    the file's age), so after an upgrade it went on with the old script or look. Each
    is asked again at every use now, and costs a 304 while it is unchanged."""
    first = client.get(path)
    assert first.status_code == 200
    assert first.headers["cache-control"] == "no-cache"
    again = client.get(path, headers={"If-None-Match": first.headers["etag"]})
    assert again.status_code == 304
    assert again.headers["cache-control"] == "no-cache"


def test_a_languages_words_are_asked_again_at_every_use(client: TestClient) -> None:
    """The page's words were kept five minutes (``max-age=300``) while its script is asked
    again at every use: after an upgrade the new script met the old words, and showed
    its new words' keys. They are asked again at every use too, a 304 while unchanged."""
    first = client.get("/api/i18n/fr")
    assert first.status_code == 200
    assert first.headers["cache-control"] == "no-cache"
    assert first.headers["content-type"].startswith("application/json")
    assert first.json()["lang"] == "fr"
    assert first.json()["strings"]["game.draw"] == "Piocher"
    tag = first.headers["etag"]
    again = client.get("/api/i18n/fr", headers={"If-None-Match": tag})
    assert again.status_code == 304
    assert again.headers["cache-control"] == "no-cache"
    assert again.headers["etag"] == tag
    assert not again.content
    # (a browser may send several tags, or a weak one)
    assert client.get("/api/i18n/fr", headers={"If-None-Match": f'"x", W/{tag}'}).status_code == 304
    # another language's words are not those: they come whole
    other = client.get("/api/i18n/fi", headers={"If-None-Match": tag})
    assert other.status_code == 200
    assert other.headers["etag"] != tag
    assert other.json()["strings"]["web.your_turn"] == "Sinun vuorosi"
    # a language the server does not have: English, as before
    assert client.get("/api/i18n/xx").json()["lang"] == "en"
