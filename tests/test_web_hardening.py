"""The web server as an attacker, or an unlucky player, would use it: the headers every
answer carries, files that stay in their folder, messages of every odd shape, and the
things one seat's connection must never receive."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest
from fastapi import WebSocketDisconnect
from fastapi.testclient import TestClient

import test_web
from mextrain.i18n import LANGUAGES, Translator
from mextrain.web import create_app
from test_web import Conn, create, is_state, refusal, settings

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
    assert policy["object-src"] == ["'none'"]
    assert policy["base-uri"] == ["'none'"]
    assert policy["frame-ancestors"] == ["'none'"]


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
