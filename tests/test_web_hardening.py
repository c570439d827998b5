"""The web server as an attacker, or an unlucky player, would use it: the headers every
answer carries, files that stay in their folder, messages of every odd shape, and the
things one seat's connection must never receive."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

import test_web
from mextrain.i18n import LANGUAGES, Translator
from mextrain.web import create_app
from test_web import create, refusal, settings

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
