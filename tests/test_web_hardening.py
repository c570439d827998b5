"""The web server as an attacker, or an unlucky player, would use it: the headers every
answer carries, files that stay in their folder, messages of every odd shape, and the
things one seat's connection must never receive."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

import test_web

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
