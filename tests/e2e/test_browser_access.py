"""The game as a player meets it with the keyboard alone or a screen reader: the focus
kept and seen, and controls big enough to hit on a desktop and on a phone."""

from __future__ import annotations

import re
import time
import urllib.request
from typing import Any

import pytest
from browser_kit import create_via_api, join_via_api, seat_page

pytestmark = pytest.mark.browser

ACTIVE = (
    "() => { const a = document.activeElement; return a === document.body ? 'BODY'"
    " : a.tagName + (a.className ? '.' + String(a.className).trim().split(/ +/).join('.') : ''); }"
)


def test_the_keyboard_stays_at_the_table_when_the_game_starts(server: str, page: Any) -> None:
    """The waiting room gives way to the table: Start, pressed from the keyboard, is gone,
    and so is the waiting room's talk field; the keyboard goes on to the hand, or to the
    table's talk field, never back to the top of the page."""
    from playwright.sync_api import expect

    made = create_via_api(server, {"name": "Ana", "seats": ["open"], "options": {"rounds": 1}})
    seat_page(page, server, made)
    start = page.get_by_role("button", name="Start")
    start.focus()
    page.keyboard.press("Enter")
    expect(page.locator(".hand-tile").first).to_be_visible(timeout=15_000)
    page.wait_for_function("() => document.activeElement !== document.body", timeout=5_000)
    assert page.evaluate(ACTIVE).startswith("BUTTON.hand-tile"), page.evaluate(ACTIVE)

    # typing a line in the waiting room as the last seat is taken and the game starts
    made = create_via_api(server, {"name": "Ana", "seats": ["open"], "options": {"rounds": 1}})
    seat_page(page, server, made)
    page.get_by_role("textbox", name="Say something").focus()
    page.keyboard.type("Ready wh")  # (half a line when the game starts)
    join_via_api(server, made["code"], "Ben")
    expect(page.locator(".hand-tile").first).to_be_visible(timeout=15_000)
    page.wait_for_function("() => document.activeElement !== document.body", timeout=5_000)
    assert page.evaluate(ACTIVE) == "INPUT", page.evaluate(ACTIVE)
    assert page.evaluate("() => !!document.activeElement.closest('.table-page .chat-say')")
    # what was typed goes on in the table's talk field (it was lost with the waiting room)
    expect(page.get_by_role("textbox", name="Say something")).to_have_value("Ready wh")
    page.keyboard.type("en you are")
    page.keyboard.press("Enter")
    expect(page.locator(".chat-lines li").last).to_contain_text("Ready when you are")
    expect(page.get_by_role("textbox", name="Say something")).to_have_value("")


RING = (
    "() => { const s = getComputedStyle(document.activeElement);"
    " return {outline: s.outlineStyle + ' ' + s.outlineColor, shadow: s.boxShadow}; }"
)
HALO = "rgb(255, 204, 51)"  # the focus's yellow halo, seen on the board's dark felt


def test_the_focus_shows_on_a_train_a_tile_may_go_on_and_on_the_hints_tile(
    server: str, page: Any
) -> None:
    """A chosen tile's trains all glow; the one that has the keyboard keeps the focus's
    yellow halo on top (the dark ring alone hardly shows on the felt), as an open
    double's train does; the hint's tile, framed dashed, shows the focus's solid ring."""
    from browser_kit import wait_for_a_playable_tile
    from playwright.sync_api import expect

    made = create_via_api(
        server, {"name": "Ana", "seats": ["bot:greedy"], "options": {"rounds": 1}}
    )
    seat_page(page, server, made)
    assert wait_for_a_playable_tile(page)
    page.locator(".train").first.focus()
    page.keyboard.press("h")  # the hint's tile, when it has the keyboard
    hinted = page.locator(".hand-tile.hinted")
    expect(hinted).to_have_count(1, timeout=15_000)
    hinted.focus()
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Tab")  # (a ring drawn for the keyboard)
    ring = page.evaluate(RING)
    assert ring["outline"] == "solid rgb(27, 27, 27)", ring
    assert HALO in ring["shadow"], ring
    # a playable tile chosen: the keyboard is on the first of its trains, which all glow
    playable = page.locator(".hand-tile.playable").first
    playable.focus()
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.activeElement.matches('.train.target')")
    ring = page.evaluate(RING)
    assert HALO in ring["shadow"], ring
    # the others glow, without the halo: the halo tells which has the keyboard
    assert page.evaluate(
        "halo => [...document.querySelectorAll('.train.target')]"
        ".filter((el) => el !== document.activeElement)"
        ".every((el) => !getComputedStyle(el).boxShadow.includes(halo))",
        HALO,
    )


#: the train that has the keyboard ("M" or the seat), else null
ON_TRAIN = (
    "() => { const a = document.activeElement; return a.dataset ? a.dataset.train ?? null : null; }"
)


def _tab_through_trains(page: Any, key: str) -> list[str]:
    """The trains the keyboard stops on, ``key`` (Tab or Shift+Tab) pressed from where it
    is until it leaves them (the train it starts on counted)."""
    visited = []
    at = page.evaluate(ON_TRAIN)
    for _ in range(20):
        if at is not None:
            visited.append(at)
        page.keyboard.press(key)
        at = page.evaluate(ON_TRAIN)
        if at is None and visited:
            return visited
    raise AssertionError(f"the keyboard stayed on the trains: {visited}")


def test_tab_stops_only_on_the_trains_a_tile_may_go_on(server: str, page: Any) -> None:
    """Tab stopped on every train, those the chosen tile cannot go on too. It stops on
    the trains the chosen tile may go on only, and with no tile chosen, on those a tile of
    the hand may go on; every train is still read by a screen reader, and still a button
    to click."""
    from browser_kit import wait_for_a_playable_tile

    # (the Mexican train only after one's own: on Ana's first tile it is no place to go,
    # while her train has no tile; if she had none to play at first and a bot played on
    # her train under her marker, it is started and the Mexican train open to her: a new
    # table then: a rare deal)
    for _ in range(6):
        made = create_via_api(
            server,
            {
                "name": "Ana",
                "seats": ["bot:easy", "bot:easy"],
                "options": {"rounds": 1, "mexican_after_own_train": True},
            },
        )
        seat_page(page, server, made)
        assert wait_for_a_playable_tile(page)
        if not page.locator(".train.own .train-tiles .tile").count():
            break
    else:
        raise AssertionError("Ana's train was started before her first tile at six tables")
    trains = page.evaluate(
        "() => [...document.querySelectorAll('.train')].map((t) => t.dataset.train)"
    )
    assert len(trains) == 4, trains
    # the trains each playable tile may go on, as the page shows them once it is chosen;
    # the keyboard goes to the first of them, and Tab goes through them only
    reach: set[str] = set()
    tiles = page.locator(".hand-tile.playable")
    for k in range(tiles.count()):
        tiles.nth(k).focus()
        page.keyboard.press("Enter")
        page.wait_for_function("() => document.activeElement.matches('.train.target')")
        targets = page.evaluate(
            "() => [...document.querySelectorAll('.train.target')].map((t) => t.dataset.train)"
        )
        assert "M" not in targets, targets
        reach.update(targets)
        assert _tab_through_trains(page, "Tab") == targets
        page.keyboard.press("Shift+Tab")  # back onto the last of them, and past the first
        assert _tab_through_trains(page, "Shift+Tab") == targets[::-1]
        page.keyboard.press("Tab")  # (before the trains: the top bar's language list)
        assert page.evaluate(ON_TRAIN) == targets[0]
        page.keyboard.press("Escape")  # the tile put back, the keyboard with it
        page.wait_for_function("() => document.activeElement.matches('.hand-tile.playable')")
    # no tile chosen: Tab stops on the trains some tile of the hand may go on
    page.locator(".actions button").first.focus()
    page.keyboard.press("Shift+Tab")
    assert _tab_through_trains(page, "Shift+Tab") == [x for x in trains if x in reach][::-1]
    # every train is still there to a screen reader, the Mexican one included
    # (counted by role: the snapshot's text quotes a name with a colon in it, a marked
    # train's "Marker up: ...", so its "- button " lines cannot be counted)
    buttons = page.locator(".trains").get_by_role("button")
    assert buttons.count() == 4, page.locator(".trains").aria_snapshot()
    assert buttons.filter(has_text="Mexican train").count() == 1
    assert page.locator(".trains").get_by_role("button", name="Mexican train").count() == 1
    assert page.evaluate(
        "() => [...document.querySelectorAll('.train')].every((t) => t.tagName === 'BUTTON'"
        " && !t.disabled)"
    )


# the controls smaller than 24 by 24 pixels, but a link within a sentence, which is as
# big as its words (the rule's own exception): a link in a paragraph that has words of
# its own besides its links ("Share this link: ..."), not one among links alone
# ("Download the record · Replay") nor a list's item
SMALL = (
    "() => { const worded = (p) => { const copy = p.cloneNode(true);"
    " copy.querySelectorAll('a, button, input, select, .sr-only').forEach((x) => x.remove());"
    " return /\\p{L}{2,}/u.test(copy.textContent); };"
    " const inSentence = (el) => el.tagName === 'A' && !el.matches('.small')"
    " && el.parentElement.closest('p') && worded(el.parentElement.closest('p'));"
    " return [...document.querySelectorAll('button, a[href], input, select, summary')]"
    ".filter((el) => { const r = el.getBoundingClientRect(); return r.width && r.height"
    " && (r.width < 24 || r.height < 24) && !inSentence(el); })"
    ".map((el) => { const r = el.getBoundingClientRect();"
    " const name = (el.getAttribute('aria-label') || el.textContent || el.type).trim();"
    " return `${el.tagName} ${name} ${Math.round(r.width)}x${Math.round(r.height)}`; }); }"
)
SCREENS = {"desktop": (1280, 860), "phone": (390, 844)}


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("screen", ["desktop", "phone"])
def test_every_control_is_big_enough_to_hit(
    server: str, tmp_path: Any, screen: str, lang: str
) -> None:
    """On a desktop (1280 by 860) and on a phone (390 by 844) every control of the
    lobby (its house rules' checkboxes, the tables this browser sits at), the help, the
    waiting room, the table, its talk, the round's result, a finished table, the replay
    and the statistics is at least 24 by 24 pixels: the top bar's links (19 pixels high on
    a desktop) and its checkbox, the mute's checkboxes, the replay's download link (22),
    a finished table's "Download the record · Replay" (19) and a spectator's link to the
    next game."""
    from browser_kit import ARGS, CHROMIUM, need_browser, play_until_over
    from playwright.sync_api import expect, sync_playwright

    need_browser()
    width, height = SCREENS[screen]
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            context = browser.new_context(viewport={"width": width, "height": height}, locale=lang)
            page = context.new_page()
            small = {"rounds": 1, "max_pip": 4, "hand_size": {"2": 4}}
            made = create_via_api(server, {"name": "Ana", "seats": ["open"], "options": small})
            seat_page(page, server, made, lang)  # the waiting room
            expect(page.locator(".waiting")).to_be_visible()
            assert page.evaluate("document.documentElement.lang") == lang
            assert page.evaluate(SMALL) == [], "waiting room"
            page.goto(server + "/")  # the lobby lists the table Ana sits at
            expect(page.locator("fieldset input[type=checkbox]").first).to_be_visible()
            expect(page.locator(".your-tables a")).to_have_count(1)
            assert page.evaluate(SMALL) == [], "lobby"
            page.goto(server + "/help")
            expect(page.locator(".help")).to_be_visible()
            assert page.evaluate(SMALL) == [], "help"
            ben = join_via_api(server, made["code"], "Ben")
            # Ben says hello from his own page: Ana's talk offers to mute him
            other = context.new_page()
            seat_page(other, server, {"code": made["code"], "token": ben["token"]}, lang)
            # (seated as Ben before Ana's page puts her token where his was read from)
            expect(other.locator(".hand-tile").first).to_be_visible(timeout=15_000)
            seat_page(page, server, made, lang)
            expect(page.locator(".hand-tile").first).to_be_visible(timeout=15_000)
            other.locator("button[data-phrase=hello]").click()
            expect(page.locator(".chat-mute summary")).to_be_visible()
            page.locator(".chat-mute summary").click()
            expect(page.locator(".chat-mute input[type=checkbox]")).to_be_visible()
            assert page.evaluate(SMALL) == [], "table"
            # and leaves the table: a bot plays his seat at once
            other.on("dialog", lambda dialog: dialog.accept())
            other.locator(".leave button").click()
            expect(other.locator(".lobby")).to_be_visible()
            other.close()
            play_until_over(page)
            assert page.evaluate(SMALL) == [], "the round's result"
            page.keyboard.press("Escape")
            replay = page.locator(".result a[href^='/replay/']")
            expect(replay).to_be_visible()
            assert page.evaluate(SMALL) == [], "a finished table"
            replay_path = str(replay.get_attribute("href"))
            # Ana plays again; a spectator of the finished table has a link to watch
            page.locator(".again button").click()
            expect(page.locator(".waiting")).to_be_visible(timeout=15_000)
            watcher = browser.new_context(viewport={"width": width, "height": height}).new_page()
            watcher.goto(server + "/")
            watcher.evaluate("lang => localStorage.setItem('mextrain.lang', lang)", lang)
            watcher.goto(f"{server}/t/{made['code']}")
            expect(watcher.locator(".again a")).to_be_visible(timeout=15_000)
            assert watcher.evaluate(SMALL) == [], "a spectator of a finished table"
            page.goto(server + replay_path)
            expect(page.locator(".replay")).to_be_visible()
            assert page.evaluate(SMALL) == [], "replay"
            page.goto(server + "/stats")
            expect(page.locator(".recent a").first).to_be_visible()
            assert page.evaluate(SMALL) == [], "statistics"
            # a record file opened to replay: its file chooser, then the replay
            page.locator(".open-record a").click()
            chooser = page.locator(".record-open input[type=file]")
            expect(chooser).to_be_visible()
            assert page.evaluate(SMALL) == [], "a record file to open"
            record = tmp_path / "opened.json"
            with urllib.request.urlopen(
                server + replay_path.replace("/replay/", "/api/games/") + "/record"
            ) as res:
                record.write_bytes(res.read())
            chooser.set_input_files(str(record))
            expect(page.locator(".replay-view")).to_be_visible()
            assert page.evaluate(SMALL) == [], "a record file replayed"
        finally:
            browser.close()


# the game's controls on a touch screen narrower than a finger's 44 px either way
UNDER_A_FINGER = (
    "(sel) => [...document.querySelectorAll(sel)].filter((el) => {"
    " const r = el.getBoundingClientRect(); return r.width && r.height"
    " && (r.width < 44 || r.height < 44); }).map((el) => { const r = el.getBoundingClientRect();"
    " const name = (el.getAttribute('aria-label') || el.textContent || el.type).trim();"
    " return `${name} ${Math.round(r.width)}x${Math.round(r.height)}`; })"
)
FINGER_CONTROLS = (
    ".hand-tile, .actions button, .board .train, .chat-phrases button, .chat-say button,"
    " .chat-say input, .overlay button"
)
# the top bar's: its links, the "Large numbers" box (its whole label) and the languages
TOP_BAR_CONTROLS = ".topbar a, .topbar label.switch, .topbar select"
# the talk's "Mute a player" and, opened, a box for each player (its whole label)
MUTE_CONTROLS = ".chat-mute summary, .chat-mute label"


def test_the_games_controls_take_a_finger_on_a_touch_screen(server: str) -> None:
    """On a phone held upright (375 by 740, a touch screen) the controls a player taps all
    game long were smaller than a finger: the hand's tiles 42 pixels wide, Draw, Pass and
    Hint 35 high, a train whose name fits one line 38, the stock phrases 24, the talk's
    field and Send 32, the round's result's Continue 35; the top bar's links, its "Large
    numbers" box and its languages 24 to 28 high, the talk's "Mute a player" and its boxes
    28 and 24. Each is at least 44 by 44 pixels, and seven tiles still share a row of the
    hand."""
    from browser_kit import need_browser, play_all_until_over, touch_phone
    from playwright.sync_api import expect

    need_browser()
    made = create_via_api(
        server,
        {"name": "Ana", "seats": ["open", "bot:greedy", "bot:greedy"], "options": {"rounds": 1}},
    )
    ben = join_via_api(server, made["code"], "Ben")  # (every seat taken: it starts)
    with touch_phone(375, 740) as (browser, page):
        seat_page(page, server, made)
        ben_page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
        seat_page(ben_page, server, {"code": made["code"], "token": ben["token"]})
        expect(ben_page.locator(".hand-tile").first).to_be_visible(timeout=15_000)
        # Draw, Pass, Hint and the way to the talk (under the hand on a phone)
        expect(page.locator(".actions button")).to_have_count(4)
        expect(page.locator(".hand-tile")).to_have_count(15)
        expect(page.locator(".train")).to_have_count(5)
        # Ben, a person, has a train whose name fits one line (a bot's level is a second)
        expect(page.locator(".chat-phrases button")).to_have_count(7)
        assert page.evaluate(UNDER_A_FINGER, FINGER_CONTROLS) == [], "the table"
        tops = page.locator(".hand-tile").evaluate_all(
            "ts => ts.map((t) => Math.round(t.getBoundingClientRect().top))"
        )
        assert tops.count(tops[0]) == 7, tops  # (seven a row, as before)
        assert page.evaluate(UNDER_A_FINGER, TOP_BAR_CONTROLS) == [], "the top bar"
        expect(page.locator(".topbar a")).to_have_count(3)
        # Ben says hello: Ana's talk offers to mute him, a box for him once opened
        ben_page.locator("button[data-phrase=hello]").click()
        page.locator(".chat-mute summary").tap()
        expect(page.locator(".chat-mute input[type=checkbox]")).to_have_count(1)
        assert page.evaluate(UNDER_A_FINGER, MUTE_CONTROLS) == [], "the talk's mute"
        play_all_until_over([page, ben_page])
        expect(page.locator(".overlay button").first).to_be_visible()
        assert page.evaluate(UNDER_A_FINGER, ".overlay button") == [], "the result"


# every control a finger taps, on the whole page: a checkbox's target is its label
# (the box itself is 24 px), each of the others its own box
EVERY_CONTROL_UNDER_A_FINGER = (
    "() => [...document.querySelectorAll('button, a[href], input, select, summary')]"
    ".map((el) => (el.type === 'checkbox' && el.closest('label')) || el)"
    ".filter((el) => { const r = el.getBoundingClientRect(); return r.width && r.height"
    " && (r.width < 44 || r.height < 44); }).map((el) => { const r = el.getBoundingClientRect();"
    " const name = (el.getAttribute('aria-label') || el.textContent || el.type).trim();"
    " return `${el.tagName} ${name} ${Math.round(r.width)}x${Math.round(r.height)}`; })"
)


@pytest.mark.parametrize("lang", ["en", "fr", "it", "fi"])
@pytest.mark.parametrize("screen", [(390, 844), (360, 740)], ids=["390x844", "360x740"])
def test_the_lobbys_controls_take_a_finger_on_a_touch_screen(
    server: str, screen: tuple[int, int], lang: str
) -> None:
    """On a phone (390 by 844 and 360 by 740, a touch screen), in each language (Finnish
    has the longest words), every control of the lobby was smaller than a finger: the house
    rules' boxes 24 pixels (their labels 38 high at most), the name, the rounds and the
    code 34 high, the rules', the turn time's and the seats' lists 34, a seat's ✕ 29 by
    24, Add a seat 24, Create the table, Join and Watch 35, the tables this browser sits
    at 24. Each is at least 44 by 44 pixels (a box's whole label), the top bar's too, and
    nothing reaches past the screen's edge."""
    from browser_kit import need_browser, shot, touch_phone
    from playwright.sync_api import expect

    need_browser()
    width, height = screen
    made = create_via_api(server, {"name": "Ana", "seats": ["open"], "options": {"rounds": 1}})
    with touch_phone(width, height) as (_, page):
        seat_page(page, server, made, lang)  # (this browser sits at a table)
        expect(page.locator(".waiting")).to_be_visible()
        page.goto(server + "/")
        # every part of it shown: the table this browser sits at, the house rules,
        # a seat added (and its ✕), a code typed (Join and Watch enabled)
        expect(page.locator(".your-tables a")).to_have_count(1)
        expect(page.locator("fieldset input[type=checkbox]")).to_have_count(4)
        expect(page.locator(".seat-row select")).to_have_count(3)
        page.locator("fieldset > button.small").tap()  # Add a seat
        expect(page.locator(".seat-row select")).to_have_count(4)
        page.locator("input[name=name]").fill("Ana")
        page.locator("input[name=code]").fill(made["code"])
        expect(page.locator(".lobby button:disabled")).to_have_count(0)
        assert page.evaluate(EVERY_CONTROL_UNDER_A_FINGER) == [], "the lobby"
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        # (a shot of the whole page is taken as if without a touch screen: the
        # window's, from its top, at the house rules and at its end)
        page.evaluate("window.scrollTo(0, 0)")
        shot(page, f"lobby-touch-{width}x{height}-{lang}-1", full_page=False)
        page.locator("fieldset").first.scroll_into_view_if_needed()
        shot(page, f"lobby-touch-{width}x{height}-{lang}-2", full_page=False)
        page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
        shot(page, f"lobby-touch-{width}x{height}-{lang}-3", full_page=False)
        # the label takes the tap: its words check the box
        rule = page.locator("fieldset label.check").last
        rule.tap()
        expect(rule.locator("input")).to_be_checked()


@pytest.mark.parametrize("screen", [(390, 844), (360, 740)], ids=["390x844", "360x740"])
def test_a_tap_anywhere_in_a_house_rules_label_ticks_its_own_box(
    server: str, screen: tuple[int, int]
) -> None:
    """On a phone (a touch screen) each house rule's whole label is a 44 pixel target,
    but a tap at its left corners, by its box, ticked the rule above or below instead
    (the browser moves a finger's tap onto the small target nearest it: the next rule's
    box). A tap a couple of pixels inside each corner of each label ticks its own box,
    and no other, and a second tap there takes the tick off."""
    from browser_kit import need_browser, touch_phone
    from playwright.sync_api import expect

    need_browser()
    width, height = screen
    with touch_phone(width, height) as (_, page):
        page.goto(server + "/")
        boxes = page.locator("fieldset input[type=checkbox]")
        expect(boxes).to_have_count(4)
        page.locator("fieldset").first.evaluate("e => e.scrollIntoView({block: 'center'})")
        labels = page.locator("fieldset label.check").evaluate_all(
            "ls => ls.map((l) => { const r = l.getBoundingClientRect();"
            " return [r.left, r.top, r.right, r.bottom]; })"
        )
        ticked = [False] * 4
        for k, (left, top, right, bottom) in enumerate(labels):
            assert bottom - top >= 44, (k, top, bottom)
            for x, y in ((left, top), (right, top), (left, bottom), (right, bottom)):
                x += 2 if x == left else -2
                y += 2 if y == top else -2
                page.touchscreen.tap(x, y)
                ticked[k] = not ticked[k]
                for j, on in enumerate(ticked):
                    expect(boxes.nth(j)).to_be_checked(checked=on)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_language_list_sits_in_the_top_bar_on_a_touch_screen(server: str, scheme: str) -> None:
    """On a touch screen the top bar's language list, 44 pixels high for a finger, was a
    tall white (in the dark scheme, grey) box on the green bar. It takes the bar's own
    colours, as its links do: the bar's green behind its words, white words at AA
    contrast (4.5:1), still 44 pixels high; and the bar still takes two lines at most of
    a phone held upright (360 pixels), in every language, in the light scheme and the
    dark."""
    from browser_kit import ARGS, CHROMIUM, WCAG_JS, need_browser, shot
    from playwright.sync_api import expect, sync_playwright

    need_browser()
    colours = (
        """() => {
  const rgba = (c) => (c.match(/[\\d.]+/g) || []).map(Number);"""
        + WCAG_JS
        + """  const list = getComputedStyle(document.querySelector(".topbar select"));
  const bar = getComputedStyle(document.querySelector(".topbar"));
  const back = rgba(list.backgroundColor);
  const seen = back.length > 3 && back[3] === 0 ? rgba(bar.backgroundColor) : back;
  return { list: list.backgroundColor, bar: bar.backgroundColor,
    ratio: ratio(rgba(list.color), seen), height: parseFloat(list.height) };
}"""
    )
    # the rows the bar's parts stand on: their middles (a flex line's centre), to 4 px
    rows = (
        "() => new Set([...document.querySelectorAll('.topbar .brand, .topbar nav > *')]"
        ".map((e) => { const r = e.getBoundingClientRect();"
        " return Math.round((r.top + r.bottom) / 2 / 4); })).size"
    )
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            for width, height in ((390, 844), (360, 740)):
                context = browser.new_context(
                    viewport={"width": width, "height": height},
                    has_touch=True,
                    is_mobile=True,
                    color_scheme=scheme,
                )
                page = context.new_page()
                page.goto(server + "/")
                for lang, name in LANGS.items():
                    page.locator(".topbar select").select_option(lang)
                    expect(page.get_by_label(name, exact=True)).to_have_value(lang)
                    got = page.evaluate(colours)
                    assert got["list"] == got["bar"], (width, lang, got)
                    assert got["ratio"] >= 4.5, (width, lang, got)
                    assert got["height"] >= 44, (width, lang, got)
                    assert page.evaluate(rows) <= 2, (width, lang)
                    bar = page.evaluate("() => document.querySelector('.topbar').offsetHeight")
                    assert bar <= 2 * 44, (width, lang, bar)
                    if width == 390 and lang == "en":
                        shot(page, f"topbar-touch-{scheme}", full_page=False)
                context.close()
        finally:
            browser.close()


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_screen_reader_hears_the_game_start(server: str, page: Any, lang: str) -> None:
    """The page's spoken lines (two live regions, used in turn) are there in the waiting
    room and stay the same elements at the table (a live region that comes with its words
    is not read out), and say that the game has started and whose turn it is."""
    from playwright.sync_api import expect

    made = create_via_api(server, {"name": "Ana", "seats": ["open"], "options": {"rounds": 1}})
    seat_page(page, server, made, lang)
    region = page.locator("section > .move-said[role=status]")
    expect(region).to_have_count(2)
    page.evaluate(
        "() => { window.heard = []; for (const el of document.querySelectorAll('.move-said')) {"
        " el.dataset.before = '1'; new MutationObserver(() => window.heard.push(el.textContent))"
        ".observe(el, {subtree: true, childList: true, characterData: true}); } }"
    )
    page.locator(".waiting button.primary").focus()
    page.keyboard.press("Enter")
    expect(page.locator(".hand-tile").first).to_be_visible(timeout=15_000)
    # the same elements, still the page's only spoken lines of the game
    expect(page.locator(".table-page > .move-said[data-before='1']")).to_have_count(2)
    expect(page.locator(".move-said")).to_have_count(2)
    started = {"en": "The game has started. ", "fr": "La partie a commencé. "}[lang]
    page.wait_for_function(
        "s => window.heard.some((text) => text.startsWith(s))", arg=started, timeout=5_000
    )
    line = next(text for text in page.evaluate("window.heard") if text.startswith(started))
    turns = {
        "en": ("Your turn.", "\u2068Bot 2\u2069's turn."),
        "fr": ("À vous de jouer.", "À \u2068Robot 2\u2069 de jouer."),
    }[lang]
    assert line[len(started) :] in turns, line


def test_the_replays_heading_is_its_name_alone(server: str, page: Any) -> None:
    """The replay's heading says which game it is ("Replay #3"), as a screen reader's
    list of headings reads it; the record's download is a link of its own beside it."""
    from browser_kit import play_until_over
    from playwright.sync_api import expect

    small = {"rounds": 1, "max_pip": 4, "hand_size": {"2": 4}}
    made = create_via_api(server, {"name": "Ana", "seats": ["bot:greedy"], "options": small})
    seat_page(page, server, made)
    play_until_over(page)
    page.keyboard.press("Escape")
    page.locator(".result a[href^='/replay/']").click()
    heading = page.get_by_role("heading", level=1)
    expect(heading).to_have_text(re.compile(r"^Replay #\d+$"))
    expect(heading).to_be_focused()
    expect(heading.get_by_role("link")).to_have_count(0)
    expect(page.get_by_role("link", name="Download the record")).to_be_visible()
    # each hand and each train is summed up in words, as at the table (they were a name,
    # a bare number and tiles one by one)
    page.get_by_role("button", name="First step").click()
    mexican = page.get_by_role("group", name="Mexican train. 0 tiles on the train. Open end 4")
    expect(mexican).to_have_count(1)
    expect(page.get_by_role("group", name=re.compile(r"^Ana: 4 tiles in hand"))).to_have_count(1)
    expect(page.get_by_role("group", name=re.compile(r"'s turn$"))).to_have_count(1)


def test_the_statistics_links_to_each_game_are_big_enough_to_hit(server: str, page: Any) -> None:
    """The recent games' links ("#12", a replay each) are at least 24 by 24 pixels on a
    desktop and on a phone (they were 24 by 19: a link of their own, not words in a
    sentence)."""
    from browser_kit import play_until_over
    from playwright.sync_api import expect

    small = {"rounds": 1, "max_pip": 4, "hand_size": {"2": 4}}
    made = create_via_api(server, {"name": "Ana", "seats": ["bot:greedy"], "options": small})
    seat_page(page, server, made)
    play_until_over(page)
    sizes = (
        "() => [...document.querySelectorAll('.recent a')].map((el) => {"
        " const r = el.getBoundingClientRect(); return [el.textContent, r.width, r.height]; })"
    )

    def too_small(at: Any) -> list[Any]:
        at.goto(server + "/stats")
        expect(at.locator(".recent a").first).to_be_visible()
        found = at.evaluate(sizes)
        assert found, "no game listed"
        return [(text, w, h) for text, w, h in found if w < 24 or h < 24]

    assert too_small(page) == []  # a desktop's window
    page.set_viewport_size({"width": 390, "height": 844})  # a phone's
    assert too_small(page) == []


LANGS = {"en": "Language", "fr": "Langue", "it": "Lingua", "fi": "Kieli"}


def _lower_sentences(page: Any, selector: str) -> list[str]:
    """The labels of the elements ``selector`` finds that have a sentence beginning with
    a small letter ("... on the train. open end 4")."""
    labels = page.evaluate(
        "s => [...document.querySelectorAll(s)].map((el) => el.getAttribute('aria-label'))",
        selector,
    )
    assert labels, selector
    return [x for x in labels if any(part[:1].islower() for part in x.split(". "))]


def _language(page: Any, now: str, lang: str) -> None:
    page.get_by_label(LANGS[now]).select_option(lang)
    page.wait_for_function("lang => document.documentElement.lang === lang", arg=lang)


def test_every_sentence_of_a_trains_label_begins_with_a_capital(server: str, page: Any) -> None:
    """A train's label is put together from several pieces ("Mexican train. 3 tiles on
    the train. Open end 7. Marker up: ..."): each sentence begins with a capital letter
    in every language, at the table (a tile's label, and a chosen tile's trains, "Play
    here", too) and in the replay (it was "... on the train. open end 7")."""
    from browser_kit import play_until_over, wait_for_a_playable_tile
    from playwright.sync_api import expect

    small = {"rounds": 1, "max_pip": 4, "hand_size": {"2": 4}}
    for _ in range(5):  # (in so small a set the bot may go out before Ana has a play)
        made = create_via_api(server, {"name": "Ana", "seats": ["bot:greedy"], "options": small})
        seat_page(page, server, made)
        if wait_for_a_playable_tile(page):
            break
    else:
        raise AssertionError("five rounds ended before Ana had a tile to play")
    page.locator(".hand-tile.playable").first.click()  # its trains say "Play here"
    expect(page.locator(".train.target").first).to_be_visible()
    now = "en"
    for lang in ["fr", "it", "fi", "en"]:
        _language(page, now, lang)
        now = lang
        expect(page.locator(".hand-tile.selected")).to_have_count(1)
        assert _lower_sentences(page, ".board .train") == [], lang
        assert _lower_sentences(page, ".hand-tile") == [], lang
    page.keyboard.press("Escape")
    play_until_over(page)
    page.keyboard.press("Escape")
    page.locator(".result a[href^='/replay/']").click()
    slider = page.locator(".controls input[type=range]")  # ("Step", "Étape", ...)
    expect(slider).to_be_visible(timeout=10_000)
    last = int(str(slider.get_attribute("max")))
    for lang in ["fr", "it", "fi", "en"]:
        _language(page, now, lang)
        now = lang
        for step in range(last + 1):  # (a marker comes up, a double opens, as they come)
            slider.fill(str(step))
            assert _lower_sentences(page, ".replay .train[role=group]") == [], (lang, step)
            assert _lower_sentences(page, ".replay-hand") == [], (lang, step)


# every live region's words as a screen reader gets them (what is hidden from it left
# out), each time they change
HEAR_LIVE = (
    "() => { window.heard = []; const last = new Map();"
    " const spoken = (el) => { const copy = el.cloneNode(true);"
    " copy.querySelectorAll('[aria-hidden=true]').forEach((x) => x.remove());"
    " return copy.textContent.trim(); };"
    " new MutationObserver(() => { for (const el of document.querySelectorAll("
    "'[role=status], [role=alert], [role=log], [aria-live]')) { const text = spoken(el);"
    " if (text && text !== last.get(el)) window.heard.push(text); last.set(el, text); } })"
    ".observe(document.body, {subtree: true, childList: true, characterData: true}); }"
)
MINUS = re.compile(r"\d\s*[-\u2212\u2013]\s*\d")  # "5-9", which may be read "5 minus 9"


def _told(snapshot: str) -> list[str]:
    """What a screen reader is told of each thing in a Playwright ARIA snapshot: its name
    where it has one (a button's or an option's words inside it are not read), else its
    text."""
    told = []
    for line in snapshot.splitlines():
        item = line.strip().removeprefix("- ").strip("'")
        named = re.match(r'[a-z]+ "(.*?)"(?: \[[^\]]*\])*(?::|$)', item)
        told.append(named.group(1) if named else item)
    return told


def test_a_screen_reader_hears_a_tile_in_words_never_as_a_subtraction(
    server: str, page: Any
) -> None:
    """A tile written "5-9" may be read "5 minus 9": what a screen reader is told names
    it in words ("Tile 5 and 9"): the hand's tiles, the tiles on the trains and the
    engine, the moves announced and in the last moves, the hint, the score sheet's
    engines, the round's result and the replay's hands, trains, steps and rounds."""
    from browser_kit import make_a_move_and_wait
    from playwright.sync_api import expect

    small = {"rounds": 1, "max_pip": 4, "hand_size": {"2": 4}}
    made = create_via_api(server, {"name": "Ana", "seats": ["bot:greedy"], "options": small})
    seat_page(page, server, made)
    expect(page.locator(".hand-tile").first).to_be_visible(timeout=15_000)
    page.evaluate(HEAR_LIVE)
    labels = page.locator(".hand-tile").evaluate_all("els => els.map((el) => el.ariaLabel)")
    for label in labels:
        assert re.fullmatch(r"Tile \d+ and \d+(\. Can be played)?", label), label
    deadline = time.monotonic() + 120
    while not page.locator(".overlay").is_visible():
        assert time.monotonic() < deadline, "the round did not end in time"
        if not page.locator(".turn.mine").is_visible():
            page.wait_for_timeout(50)
            continue
        page.keyboard.press("h")  # the hint, said as it comes
        expect(page.locator(".hint")).not_to_be_empty(timeout=15_000)
        stuck = page.locator(".hand-tile:not(.playable)")
        if stuck.count():  # "No train takes tile 0 and 3 now."
            stuck.first.click()
            stuck.first.click()
        told = _told(page.locator("main").aria_snapshot())
        assert [x for x in told if MINUS.search(x)] == [], told
        make_a_move_and_wait(page)
    heard = page.evaluate("window.heard")
    assert any(re.search(r"\btile \d+ and \d+\b", x) for x in heard), heard
    assert [x for x in heard if MINUS.search(x)] == [], heard
    told = _told(page.get_by_role("dialog").aria_snapshot())  # the tiles left in hand
    assert [x for x in told if MINUS.search(x)] == [], told
    # the moves' and the clock's live regions are inside the round's result while it is
    # open (a modal dialog makes the rest of the page inert: a move made meanwhile, the
    # next round's, was told to no one), and back on the page once it is closed
    regions = (
        "() => [...document.querySelectorAll('.move-said, .clock-said')]"
        ".map((el) => Boolean(el.closest('dialog[open]')))"
    )
    assert page.evaluate(regions) == [True, True, True]
    page.keyboard.press("Escape")
    expect(page.locator("dialog")).to_have_count(0)
    assert page.evaluate(regions) == [False, False, False]
    # back on the page they start empty: what they said was there to hear in the result
    empty = "() => [...document.querySelectorAll('.move-said')].map((el) => el.textContent)"
    assert page.evaluate(empty) == ["", ""]
    page.locator(".result a[href^='/replay/']").click()
    slider = page.get_by_role("slider", name="Step")
    expect(slider).to_be_visible(timeout=10_000)
    for step in range(int(str(slider.get_attribute("max"))) + 1):
        slider.fill(str(step))
        told = _told(page.locator("main").aria_snapshot())
        assert [x for x in told if MINUS.search(x)] == [], (step, told)
        assert not MINUS.search(str(slider.get_attribute("aria-valuetext")))
    # in the other languages too
    tiles = {"fr": "Domino 4 et 4", "it": "Tessera 4 e 4", "fi": "Domino 4 ja 4"}
    for lang, engine in tiles.items():
        page.evaluate("lang => localStorage.setItem('mextrain.lang', lang)", lang)
        page.reload()
        expect(page.locator(".replay-engine [role=img]")).to_have_attribute("aria-label", engine)
        told = _told(page.locator("main").aria_snapshot())
        assert [x for x in told if MINUS.search(x)] == [], (lang, told)


def test_the_same_words_twice_in_a_row_are_told_twice(server: str, page: Any) -> None:
    """A live region whose words do not change is not read out again: two draws in a row
    ("Bot 2: draws"), or the same tile that fits no train chosen twice, were told once.
    The page says them in two regions in turn, the other one emptied, so that each time
    the region that gets the words had none before."""
    from playwright.sync_api import expect

    page.goto(server + "/")
    words = ["Bot 2: draws", "Bot 2: draws", "Bot 2: draws", "Ana: passes"]
    steps = page.evaluate(
        "words => import('/static/said.js').then((m) => { let now = m.SILENT; const out = [];"
        " for (const w of words) { const before = now.texts; now = m.say(now, w);"
        " out.push([before, now.texts]); } return out; })",
        words,
    )
    for said, (before, after) in zip(words, steps, strict=True):
        assert sorted(after) == ["", said], after  # said once, the other region silent
        into = after.index(said)
        assert before[into] == "", (before, after)  # in a region that said nothing

    # at the table: a tile that fits no train, chosen, put back and chosen again
    made = create_via_api(server, {"name": "Ana", "seats": ["open"], "options": {"rounds": 1}})
    join_via_api(server, made["code"], "Ben")  # Ben never comes: nothing moves meanwhile
    seat_page(page, server, made)
    expect(page.locator(".hand-tile").first).to_be_visible(timeout=15_000)
    page.evaluate(HEAR_LIVE)
    stuck = page.locator(".hand-tile:not(.playable)").first  # (a double-12 hand has some)
    a, b = str(stuck.get_attribute("data-tile")).split("-")
    told = f"No train takes tile {a} and {b} now."
    stuck.click()
    page.wait_for_function("w => window.heard.includes(w)", arg=told, timeout=5_000)
    stuck.click()
    expect(page.locator(".tile-note")).to_have_count(0)
    stuck.click()
    expect(page.locator(".tile-note")).to_have_count(1)
    page.wait_for_function(
        "w => window.heard.filter((x) => x === w).length === 2", arg=told, timeout=5_000
    )


def test_each_move_is_told_with_whose_turn_it_is_in_one_message(server: str, page: Any) -> None:
    """A bot's move was told, then whose turn it was, as two messages of two live regions
    (the second cutting the first short, or lost behind it): each move is told in one
    message that says both ("Bot 2: tile 4 and 3 on the Mexican train. Your turn."), and
    whose turn it is is told on its own only when a round is dealt, before any move."""
    from browser_kit import play_until_over
    from playwright.sync_api import expect

    small = {"rounds": 2, "max_pip": 4, "hand_size": {"2": 4}}
    made = create_via_api(server, {"name": "Ana", "seats": ["bot:greedy"], "options": small})
    seat_page(page, server, made)
    expect(page.locator(".hand-tile").first).to_be_visible(timeout=15_000)
    page.evaluate(HEAR_LIVE)
    play_until_over(page)  # (the first round)
    heard = page.evaluate("window.heard")
    bot, ana = "\u2068Bot 2\u2069", "\u2068Ana\u2069"
    turns = ("Your turn", f"{bot}'s turn", "Round over", "The game is over")
    moves = [x for x in heard if x.startswith((f"{bot}: ", f"{ana}: ", "You drew "))]
    assert any(x.startswith(f"{bot}: ") for x in moves), heard
    for said in moves:
        assert said.endswith(tuple(f". {turn}." for turn in turns)), said
    assert [x for x in heard if x.rstrip(".") in turns] == [], heard  # no turn alone
    # the next round is dealt: whose turn it is, with no move to tell (beside it, the
    # turn's own prompt, "No tile fits: draw.", which its own region says)
    from mextrain.i18n import catalog

    prompts = [text for key, text in catalog("web", "en").items() if key.startswith("web.prompt.")]
    page.keyboard.press("Escape")
    # (the deal comes `round_pause`, 4 s, after the round's end; 15 s to hear it ran out
    # once on a machine running two suites at once: the wait, not the claim, is longer)
    page.wait_for_function(
        "([n, prompts]) => window.heard.slice(n).some((x) => !prompts.includes(x))",
        arg=[len(heard), prompts],
        timeout=30_000,
    )
    dealt = [x for x in page.evaluate("window.heard")[len(heard) :] if x not in prompts]
    assert dealt[0] in (f"{turns[0]}.", f"{turns[1]}."), (heard, dealt)


# the table's connection, kept where a test can send on it as the page would (a move the
# page itself never sends: it offers the legal ones only)
KEEP_SOCKET = (
    "(() => { const Real = window.WebSocket;"
    " window.WebSocket = function (...args) { const ws = new Real(...args);"
    " window.tableSocket = ws; ws.addEventListener('message', (e) => {"
    " const m = JSON.parse(e.data); if (m.type === 'state') window.lastState = m; });"
    " return ws; };"
    " window.WebSocket.prototype = Real.prototype; })();"
)


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "You can't play tile {a} and {b} on your train"),
        ("fi", "Et voi pelata dominoa {a} ja {b}:"),
    ],
)
def test_a_rule_error_names_its_tile_in_words(server: str, page: Any, lang: str, said: str) -> None:
    """A move the rules refuse is shown, and told at once, in the server's words, which
    name a tile as the table writes it ("You can't play 0-1 on your train: its open end
    is 12."), read "0 minus 1": a screen reader is told the tile in words ("tile 0 and
    1"), what shows is still "0-1"."""
    from playwright.sync_api import expect

    page.add_init_script(KEEP_SOCKET)
    made = create_via_api(
        server,
        {"name": "Ana", "preset": "relaxed", "seats": ["bot:greedy"], "options": {"rounds": 1}},
    )
    seat_page(page, server, made, lang)
    expect(page.locator(".turn.mine")).to_be_visible(timeout=15_000)
    page.evaluate(HEAR_LIVE)
    state = page.evaluate("window.lastState")
    end = next(tr["open_end"] for tr in state["round"]["trains"] if tr["owner"] == 0)
    tile = next(x for x in state["round"]["hand"] if str(end) not in x.split("-"))
    a, b = tile.split("-")
    page.evaluate(
        "([move, version]) => window.tableSocket.send(JSON.stringify("
        "{type: 'action', move, version}))",
        [f"{tile}@0", state["version"]],
    )
    alert = page.get_by_role("alert")
    expect(alert).to_be_visible(timeout=5_000)
    expect(alert).to_contain_text(tile)  # (as the table writes it, where it shows)
    told = _told(alert.aria_snapshot())
    assert [x for x in told if MINUS.search(x)] == [], told
    assert any(said.format(a=a, b=b) in x for x in told), told
    heard = page.evaluate("window.heard")
    assert any(said.format(a=a, b=b) in x for x in heard), heard
    assert [x for x in heard if MINUS.search(x)] == [], heard


def test_finnish_says_where_a_tile_goes_in_words_not_with_an_arrow(server: str, page: Any) -> None:
    """Finnish wrote a move and a hint "Botti 2: 5-9 → Meksikon juna", which a screen
    reader reads "... right arrow ...": where a tile goes is said in words, a train as a
    destination ("Botti 2: 5-9 Meksikon junaan", "omaan junaasi", "omaan junaansa",
    "pelaajan Ana junaan"), shown and said."""
    from browser_kit import make_a_move_and_wait
    from playwright.sync_api import expect

    small = {"rounds": 1, "max_pip": 4, "hand_size": {"2": 4}}
    made = create_via_api(server, {"name": "Ana", "seats": ["bot:greedy"], "options": small})
    seat_page(page, server, made, "fi")
    expect(page.locator(".hand-tile").first).to_be_visible(timeout=15_000)
    page.evaluate(HEAR_LIVE)
    ana, bot = "\u2068Ana\u2069", "\u2068Botti 2\u2069"
    into = f"(Meksikon junaan|pelaajan ({ana}|{bot}) junaan)"
    hints = []
    deadline = time.monotonic() + 120
    while not page.locator(".overlay").is_visible():
        assert time.monotonic() < deadline, "the round did not end in time"
        if not page.locator(".turn.mine").is_visible():
            page.wait_for_timeout(50)
            continue
        page.keyboard.press("h")
        expect(page.locator(".hint")).not_to_be_empty(timeout=15_000)
        hints.append(page.locator(".hint").inner_text())  # (what shows)
        told = _told(page.locator("main").aria_snapshot())
        assert [x for x in told if "\u2192" in x] == [], told
        make_a_move_and_wait(page)
    heard = page.evaluate("window.heard")
    assert [x for x in heard if "\u2192" in x] == [], heard
    # said: "Botti 2: 4 ja 3 Meksikon junaan. Sinun vuorosi." (a tile on the mover's own
    # train "omaan junaansa"), a hint "Vinkki: 4 ja 3 omaan junaasi (...)"
    played = [x for x in heard if re.match(rf"({ana}|{bot}): \d+ ja \d+ ", x)]
    assert played, heard
    for said in played:
        assert re.match(rf"({ana}|{bot}): \d+ ja \d+ ({into}|omaan junaansa)\. ", said), said
    tiles = [x for x in heard if re.match(r"Vinkki: \d+ ja", x)]
    assert bool(tiles) == any(re.search(r"\d-\d", x) for x in hints), (heard, hints)
    for said in tiles:
        assert re.match(rf"Vinkki: \d+ ja \d+ ({into}|omaan junaasi) \(", said), said
    # shown: "Botti 2: 4-3 Meksikon junaan"
    page.keyboard.press("Escape")
    log = page.locator(".move-log li [aria-hidden=true]").all_inner_texts()
    shown = [x for x in log if re.search(r"\d-\d", x)]
    assert shown, log
    for text in shown:
        assert re.fullmatch(rf"({ana}|{bot}): \d+-\d+ ({into}|omaan junaansa)", text), text


def test_the_win_rates_interval_is_said_in_words(server: str, page: Any) -> None:
    """The statistics' win rate comes with its interval, "(9%–91%)", which a screen reader
    may read "9% minus 91%": it is said in words ("9% to 91%") in the four languages, and
    shows as it did."""
    from browser_kit import play_until_over
    from playwright.sync_api import expect

    small = {"rounds": 1, "max_pip": 4, "hand_size": {"2": 4}}
    made = create_via_api(server, {"name": "Ana", "seats": ["bot:greedy"], "options": small})
    seat_page(page, server, made)
    play_until_over(page)
    dash = re.compile(r"\d\s*%?\s*[-\u2212\u2013]\s*\d")  # "9%–91%", "9 %–91 %"
    words = {
        "en": r"\d+% to \d+%",
        "fr": r"de \d+\s%\sà \d+\s%",
        "it": r"da \d+% a \d+%",
        "fi": r"vähintään \d+\s%, enintään \d+\s%",
    }
    for lang, said in words.items():
        page.evaluate("lang => localStorage.setItem('mextrain.lang', lang)", lang)
        page.goto(server + "/stats")
        rows = page.locator(".stats tbody tr")
        expect(rows.first).to_be_visible()
        told = _told(page.locator(".stats table").aria_snapshot())
        assert [x for x in told if dash.search(x)] == [], (lang, told)
        cells = page.locator(".stats tbody td:nth-child(4)")  # (the win rate's column)
        for cell in _told(cells.first.aria_snapshot()):
            assert re.search(rf"\(\s*{said}\s*\)", cell), (lang, cell)
        assert dash.search(page.locator(".ival").first.inner_text())  # (what shows)


@pytest.mark.parametrize("lang", ["en", "fr", "it", "fi"])
def test_no_page_scrolls_sideways_on_a_small_phone(server: str, lang: str) -> None:
    """On a 360-pixel phone no page is wider than the screen, in any language: a word
    longer than the room left for it (Italian's "Libero per un giocatore" in a seat's list)
    took the lobby 14 pixels past the screen, to be scrolled sideways. Every page a player
    meets: the lobby (a seat added), the waiting room, a table of four in play, its
    replay once it is over, the statistics, the help and the page of a table there is
    not. At the table the hand's row of buttons stays on one line."""
    from browser_kit import game_of, need_browser, shot, touch_phone
    from playwright.sync_api import expect

    need_browser()
    waiting = create_via_api(server, {"name": "Ana", "seats": ["open"], "options": {"rounds": 1}})
    playing = create_via_api(
        server, {"name": "Ana", "seats": ["bot:greedy"] * 3, "options": {"rounds": 1}}
    )
    with touch_phone(360, 740) as (_, page):

        def fits(what: str) -> None:
            wide = page.evaluate(
                "() => [document.documentElement.scrollWidth, [...document.querySelectorAll("
                "'body *')].filter((el) => el.getBoundingClientRect().right > 361)"
                ".map((el) => `${el.tagName}.${el.className}`).slice(0, 5)]"
            )
            if wide[0] > 360:
                shot(page, f"sideways-{what}-{lang}")
            assert wide[0] <= 360, (what, lang, wide)

        seat_page(page, server, waiting, lang)
        expect(page.locator(".waiting")).to_be_visible(timeout=15_000)
        fits("waiting-room")
        page.goto(server + "/")
        expect(page.locator("fieldset input[type=checkbox]")).to_have_count(4)
        page.locator("fieldset > button.small").tap()  # Add a seat
        expect(page.locator(".seat-row select")).to_have_count(4)
        fits("lobby")
        seat_page(page, server, playing, lang)
        expect(page.locator(".hand-tile").first).to_be_visible(timeout=15_000)
        fits("table")
        # the hand's row of buttons (Draw, Pass, Hint, Undo -- alone against bots, an
        # arrow -- and the way to the talk) on one line: on two, the taller hand covered
        # the Mexican train
        tops = page.locator(".actions button:visible").evaluate_all(
            "buttons => buttons.map((b) => Math.round(b.getBoundingClientRect().top))"
        )
        assert len(tops) == 5, tops
        assert max(tops) - min(tops) <= 2, (lang, tops)
        for path, ready in (("/stats", "h1"), ("/help", "h1"), ("/t/NOSUCH1", "h1")):
            page.goto(server + path)
            expect(page.locator(ready).first).to_be_visible(timeout=10_000)
            fits(path.strip("/").replace("/", "-"))
        # the replay of the table's game, once the bots have played it out
        page.goto(f"{server}/t/{playing['code']}")
        page.on("dialog", lambda dialog: dialog.accept())
        page.locator("p.leave button").tap()
        page.goto(f"{server}/replay/{game_of(server, playing['code'])}")
        expect(page.locator(".replay input[type=range]")).to_be_visible(timeout=10_000)
        fits("replay")
