"""What the browser tests share: where Chromium is, how it is started, screenshots,
tables made through the HTTP API, and playing a round by clicking like a person."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = os.environ.get("MEXTRAIN_CHROMIUM", "/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts" / "e2e"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


#: WCAG's relative luminance of a colour (``[r, g, b]``, 0 to 255; an alpha after them is
#: not read) and the contrast ratio of two, as JavaScript functions ``lum`` and ``ratio``
#: for the pages' contrast checks to start with
WCAG_JS = """
  const lum = ([r, g, b]) => [r, g, b].map((v) => v / 255)
    .map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4))
    .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
  const ratio = (a, b) => {
    const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
    return (x + 0.05) / (y + 0.05);
  };
"""


def need_browser() -> None:
    if not Path(CHROMIUM).exists():
        if os.environ.get("MEXTRAIN_REQUIRE_BROWSER") == "1":
            pytest.fail(f"Chromium is required here and missing at {CHROMIUM}")
        pytest.skip(f"no Chromium at {CHROMIUM}")


@contextlib.contextmanager
def touch_phone(width: int, height: int) -> Iterator[tuple[Any, Any]]:
    """A headless Chromium and a page in it on a phone's touch screen of ``width`` by
    ``height`` pixels (the browser, for more pages; the page); closed after."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            context = browser.new_context(
                viewport={"width": width, "height": height}, has_touch=True, is_mobile=True
            )
            yield browser, context.new_page()
        finally:
            browser.close()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def shot(page: Any, name: str, full_page: bool = True) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=full_page)


def create_via_api(server: str, body: dict[str, object]) -> dict[str, str]:
    req = urllib.request.Request(
        server + "/api/tables",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(req) as res:
        data: dict[str, str] = json.load(res)
        return data


def join_via_api(server: str, code: str, name: str) -> dict[str, str]:
    req = urllib.request.Request(
        f"{server}/api/tables/{code}/join",
        data=json.dumps({"name": name}).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(req) as res:
        data: dict[str, str] = json.load(res)
        return data


def game_of(server: str, code: str, within: float = 90.0) -> int:
    """The number of table ``code``'s game, once it is over and kept: the table's own
    (the newest kept may be another's: a table another test left to its bots may end
    meanwhile). Waits ``within`` seconds at most."""
    deadline = time.monotonic() + within
    while True:
        with urllib.request.urlopen(f"{server}/api/tables/{code}") as res:
            game = json.load(res)["game_id"]
        if game is not None:
            return int(game)
        assert time.monotonic() < deadline, "the bots never finished the round"
        time.sleep(0.5)


def seat_page(page: Any, server: str, made: dict[str, str], lang: str = "en") -> None:
    """Open a table made through the API as its creator (seat 1), in ``lang``."""
    page.goto(server + "/stats")
    page.evaluate(
        "([code, token, lang]) => { localStorage.setItem('mextrain.token.' + code, token);"
        " localStorage.setItem('mextrain.lang', lang); }",
        [made["code"], made["token"], lang],
    )
    page.goto(f"{server}/t/{made['code']}")


def make_a_move(page: Any, click: str = "click") -> None:
    """One move of the seat to play on ``page``, by clicking: its first playable tile on
    the first train it fits, else Draw, else Pass (``click``: "dblclick" on the train and
    the buttons, as an impatient player does)."""
    playable = page.locator(".hand-tile.playable")
    if playable.count():
        playable.first.click()
        getattr(page.locator(".train.target").first, click)()
    elif page.locator(".actions button").nth(0).is_enabled():
        getattr(page.locator(".actions button").nth(0), click)()  # draw
    else:
        getattr(page.locator(".actions button").nth(1), click)()  # pass


def make_a_move_and_wait(page: Any, click: str = "click") -> None:
    """`make_a_move`, then wait until the page shows it (`shown_after`)."""
    shown_after(page, lambda: make_a_move(page, click))


#: the page's list of the last moves, as one text (a JavaScript expression)
LOG_TEXT = "[...document.querySelectorAll('.move-log li')].map((li) => li.textContent).join('\\n')"


def shown_after(page: Any, move: Callable[[], object]) -> None:
    """Make the seat's ``move`` on ``page`` (clicks or taps), then wait until the page shows
    it: the last moves or the hand changed, the turn passed on, or the round's result came.
    The page puts the chosen tile back as it sends the move, but the position it shows is
    the one before the move until the server's answer arrives, still the seat's turn with
    the tiles it had: a test that read the turn and the tiles then would act on a position
    already gone. (The list of last moves is read whole, not counted: it keeps the latest
    eight, so once full a pass left its count as it was, and where the bot's reply came
    before the page was looked at again, the turn back too: the wait ran out.)"""
    before = page.evaluate(f"() => {LOG_TEXT}"), page.locator(".hand-tile").count()
    move()
    page.wait_for_function(
        f"([log, hand]) => {LOG_TEXT} !== log"
        " || document.querySelectorAll('.hand-tile').length !== hand"
        " || !document.querySelector('.turn.mine') || document.querySelector('.overlay')",
        arg=list(before),
        timeout=15_000,
    )


def wait_for_a_playable_tile(page: Any, tries: int = 12) -> bool:
    """Wait for the seat's turn with a tile that fits somewhere: the deal is random, so a
    hand may have none yet; draw or pass (`make_a_move_and_wait`) until it has, at most
    ``tries`` turns. False if the round ended first (a small set's round may)."""
    for _ in range(tries):
        page.wait_for_function(
            "() => document.querySelector('.turn.mine') || document.querySelector('.overlay')",
            timeout=15_000,
        )
        if not page.locator(".turn.mine").count():
            return False
        if page.locator(".hand-tile.playable").count():
            return True
        make_a_move_and_wait(page)  # a draw, or a pass
    raise AssertionError(f"no tile to play in {tries} turns")


def play_until_over(page: Any, seconds: float = 120, double_click: bool = False) -> None:
    """Play the seat's turns by clicking (a playable tile, then its first train; else
    draw or pass) until the round's result shows; ``double_click``: as an impatient
    player does, on the train and on Draw and Pass."""
    click = "dblclick" if double_click else "click"
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if page.locator(".overlay").is_visible():
            return
        if not page.locator(".turn.mine").is_visible():
            page.wait_for_timeout(50)
            continue
        make_a_move_and_wait(page, click)
    shot(page, "99-play-until-over-timeout")
    pytest.fail("the round did not end in time")


def play_all_until_over(pages: list[Any], seconds: float = 120) -> None:
    """`play_until_over` for several seats at one table, each on its own page: whoever's
    turn it is moves, until every page shows the round's result."""
    deadline = time.monotonic() + seconds
    while not all(page.locator(".overlay").is_visible() for page in pages):
        assert time.monotonic() < deadline, "the round did not end in time"
        for page in pages:
            if page.locator(".turn.mine").is_visible():
                make_a_move_and_wait(page)
            else:
                page.wait_for_timeout(50)


def replay_to_the_end(page: Any) -> None:
    """Take the replay page's slider to the round's last step (the keyboard's End, as a
    person would), again until it is there: a key pressed while the page is still settling
    after it loaded can be lost (seen once in CI, the replay left at its first step)."""
    slider = page.locator(".replay input[type=range]")
    slider.wait_for(state="visible", timeout=10_000)
    deadline = time.monotonic() + 15
    while True:
        slider.focus()
        page.keyboard.press("End")
        last = slider.get_attribute("max")
        if slider.input_value() == last and last is not None:
            return
        if time.monotonic() > deadline:
            raise AssertionError(f"the replay's slider stays at {slider.input_value()} of {last}")
        time.sleep(0.2)


def told_when_added(selector: str) -> str:
    """An init script: ``window.noteTold`` lists, each time an element matching
    ``selector`` comes on the page, whether it came into a live region already there (a
    screen reader reads it out then: the region's aria-live or role), or None (it came
    with its region, or with none: not read out)."""
    return """
window.noteTold = [];
new MutationObserver((records) => {
  for (const record of records) {
    for (const node of record.addedNodes) {
      if (node.nodeType !== Node.ELEMENT_NODE) continue;
      const notes = node.matches(SELECTOR) ? [node] : node.querySelectorAll(SELECTOR);
      for (const _ of notes) {
        const region = record.target.closest("[role=status], [role=alert], [aria-live]");
        window.noteTold.push(region
          ? region.getAttribute("aria-live") || region.getAttribute("role") : null);
      }
    }
  }
}).observe(document, { subtree: true, childList: true });
""".replace("SELECTOR", json.dumps(selector))
