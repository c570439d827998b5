"""The page under the server's Content-Security-Policy: everything it does (the lobby,
a table played by clicking and dragging, the result, a replay, the statistics, the help)
needs nothing the policy blocks."""

from __future__ import annotations

from typing import Any

import pytest
from browser_kit import create_via_api, make_a_move_and_wait, seat_page, wait_for_a_playable_tile

pytestmark = pytest.mark.browser

#: every report of the policy, kept by the page from its first script on
WATCH = """
window.__blocked = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__blocked.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`);
});
"""


def blocked(page: Any) -> list[str]:
    found: list[str] = page.evaluate("() => window.__blocked || []")
    return found


def test_nothing_the_page_does_is_blocked_by_its_policy(server: str, page: Any) -> None:
    from playwright.sync_api import expect

    page.add_init_script(WATCH)
    told: list[str] = []
    page.on("console", lambda m: told.append(m.text) if "Content Security" in m.text else None)
    page.goto(server + "/")
    expect(page.get_by_label("Your name")).to_be_visible()
    assert not blocked(page)
    tiny = {"max_pip": 3, "rounds": 1, "hand_size": {"2": 3, "3": 3, "4": 2}}
    made = create_via_api(
        server, {"name": "Ana", "options": tiny, "seats": ["bot:greedy"], "preset": "classic"}
    )
    seat_page(page, server, made)
    expect(page.locator(".hand-tile").first).to_be_visible(timeout=15_000)
    if wait_for_a_playable_tile(page):  # a drag: its ghost is placed by a style
        tile = page.locator(".hand-tile.playable").first
        box = tile.bounding_box()
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        page.mouse.move(x, y)
        page.mouse.down()
        page.mouse.move(x + 20, y - 20, steps=4)
        expect(page.locator(".drag-ghost")).to_be_visible()
        hand = page.locator(".hand-tile").count()
        target = page.locator(".train.target").first.bounding_box()
        page.mouse.move(
            target["x"] + target["width"] / 2, target["y"] + target["height"] / 2, steps=4
        )
        page.mouse.up()
        # (the tile dropped is played: the hand is one shorter once the server says so)
        page.wait_for_function(
            "(hand) => document.querySelectorAll('.hand-tile').length !== hand"
            " || document.querySelector('.overlay')",
            arg=hand,
            timeout=15_000,
        )
    while not page.locator(".overlay").is_visible():
        if page.locator(".turn.mine").is_visible():
            make_a_move_and_wait(page)
        else:
            page.wait_for_timeout(50)
    assert not blocked(page), blocked(page)
    game = page.evaluate(
        "async (code) => (await (await fetch(`/api/tables/${code}`)).json()).game_id",
        made["code"],
    )
    for path in (f"/replay/{game}", "/stats", "/help"):
        page.goto(server + path)
        page.wait_for_load_state("networkidle")
        expect(page.locator("h1, h2").first).to_be_visible()
        assert not blocked(page), (path, blocked(page))
    assert not told, told
