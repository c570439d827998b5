"""The page's colours in the light and the dark scheme the system asks for: every word
read against what is behind it, and a dark page that really is dark."""

from __future__ import annotations

import re
from typing import Any

import pytest
from browser_kit import WCAG_JS, replay_to_the_end, seat_page, shot

from stored_tables import table_at

pytestmark = pytest.mark.browser

#: every word seen in ``root`` (the page's body when null) that does not reach WCAG AA
#: against what is behind it: 4.5:1, 3:1 for large text (24 px, or 18.66 px bold) and for
#: a pictogram of no letter or digit (the marker's ⚑, a graphic to WCAG). What
#: is behind a word is its element's background laid over its ancestors' ones, down to
#: the first opaque one (a train's veil over the felt). Words hidden, or clipped for a
#: screen reader alone, and the tiles' own drawing (an SVG) are left out; a field's value
#: is a word too. With how many words were read.
READ_ALL = (
    """(root) => {
  const rgba = (c) => {
    const v = (c.match(/[\\d.]+/g) || []).map(Number);
    return v.length < 3 ? [0, 0, 0, 0] : [v[0], v[1], v[2], v.length > 3 ? v[3] : 1];
  };
  const over = (top, below) => top.slice(0, 3).map((v, i) => v * top[3] + below[i] * (1 - top[3]));
"""
    + WCAG_JS
    + """  const behind = (el) => {
    const layers = [];
    for (; el; el = el.parentElement) {
      const c = rgba(getComputedStyle(el).backgroundColor);
      if (c[3] > 0) layers.push(c);
      if (c[3] >= 1) break;
    }
    let colour = [255, 255, 255];
    for (const layer of layers.reverse()) colour = over(layer, colour);
    return colour;
  };
  const hidden = (el) => {
    if (!el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) return true;
    const box = el.getBoundingClientRect();
    if (box.width < 2 || box.height < 2) return true;
    for (let a = el; a; a = a.parentElement) {
      if (getComputedStyle(a).clip !== "auto") return true;
    }
    return false;
  };
  const fields = "input:not([type=checkbox]):not([type=radio]):not([type=range]), select, textarea";
  const words = (el) => el.matches(fields)
    ? (el.tagName === "SELECT" ? el.selectedOptions[0]?.textContent : el.value) || ""
    : [...el.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent).join("");
  const bad = [];
  let read = 0;
  for (const el of (root || document.body).querySelectorAll("*")) {
    if (el.closest("svg, script, style, noscript, option")) continue;
    const text = words(el).trim();
    if (!text && !el.matches(fields)) continue;
    if (hidden(el)) continue;
    const style = getComputedStyle(el);
    const back = behind(el);
    const fore = over(rgba(style.color), back);
    const size = parseFloat(style.fontSize);
    const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
    const symbol = !/[\\p{L}\\p{N}]/u.test(text);  // (a pictogram, as the marker's ⚑)
    const need = large || symbol ? 3 : 4.5;
    const got = ratio(fore, back);
    read += 1;
    if (got < need) {
      bad.push({ text: text.slice(0, 40), where: el.tagName.toLowerCase() + "."
        + String(el.className.baseVal ?? el.className).trim().split(/ +/).join("."),
        ratio: Math.round(got * 100) / 100, need,
        colour: fore.map(Math.round), behind: back.map(Math.round) });
    }
  }
  return { bad, read };
}"""
)

#: the page's own background, its relative luminance (0 black, 1 white), and every box
#: of ``root`` (the page's body when null) larger than a few words whose own background
#: is light (luminance over 0.4): on a dark page, a white card, sheet or dialog left
#: over; the tiles (pictures of real, paper-coloured tiles) are not boxes
LIGHT_BOXES = (
    """(root) => {
  const rgba = (c) => {
    const v = (c.match(/[\\d.]+/g) || []).map(Number);
    return v.length < 3 ? [0, 0, 0, 0] : [v[0], v[1], v[2], v.length > 3 ? v[3] : 1];
  };"""
    + WCAG_JS
    + """  const boxes = [];
  for (const el of (root || document.body).querySelectorAll("*")) {
    if (el.closest("svg")) continue;
    const c = rgba(getComputedStyle(el).backgroundColor);
    if (c[3] < 0.5 || lum(c) <= 0.4) continue;
    if (!el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) continue;
    const box = el.getBoundingClientRect();
    if (box.width * box.height < 4000) continue;
    boxes.push(el.tagName.toLowerCase() + "." + String(el.className).trim().split(/ +/).join("."));
  }
  const page = rgba(getComputedStyle(document.documentElement).backgroundColor);
  return { page: page[3] < 1 ? null : lum(page), boxes };
}"""
)

#: how a mark on a tile of the hand (``[selector, property]``: its frame, its outline)
#: stands out from what is behind the hand (3:1 for a graphic, to WCAG)
MARK = (
    """([selector, side]) => {
  const rgb = (c) => (c.match(/[\\d.]+/g) || []).map(Number).slice(0, 3);"""
    + WCAG_JS
    + """  return ratio(rgb(getComputedStyle(document.querySelector(selector))[side]),
    rgb(getComputedStyle(document.querySelector(".hand-area")).backgroundColor));
}"""
)


#: how a tile's frame stands out from its own fill (``selector``: the tile)
FRAME_ON_FILL = (
    """(selector) => {
  const rgb = (c) => (c.match(/[\\d.]+/g) || []).map(Number).slice(0, 3);"""
    + WCAG_JS
    + """  const style = getComputedStyle(document.querySelector(selector));
  return ratio(rgb(style.borderTopColor), rgb(style.backgroundColor));
}"""
)

#: the start of a script about the element that has the keyboard: colours read as
#: ``rgba``, laid ``over`` one another, the WCAG ratio, and the ``surface`` around the
#: element (its parent's background laid over theirs, down to the first opaque one)
FOCUS_SURFACE_JS = (
    """() => {
  const rgba = (c) => {
    const v = (c.match(/[\\d.]+/g) || []).map(Number);
    return v.length < 3 ? [0, 0, 0, 0] : [v[0], v[1], v[2], v.length > 3 ? v[3] : 1];
  };
  const over = (top, below) => top.slice(0, 3).map((v, i) => v * top[3] + below[i] * (1 - top[3]));
"""
    + WCAG_JS
    + """  const layers = [];
  for (let el = document.activeElement.parentElement; el; el = el.parentElement) {
    const c = rgba(getComputedStyle(el).backgroundColor);
    if (c[3] > 0) layers.push(c);
    if (c[3] >= 1) break;
  }
  let surface = [255, 255, 255];
  for (const layer of layers.reverse()) surface = over(layer, surface);
"""
)


#: the focus's ring on the element that has the keyboard: whether it is drawn for the
#: keyboard, its style, and how it stands out from the surface around the element
RING_ON_SURFACE = (
    FOCUS_SURFACE_JS
    + """  const style = getComputedStyle(document.activeElement);
  return { keyboard: document.activeElement.matches(":focus-visible"),
           style: style.outlineStyle, ratio: ratio(rgba(style.outlineColor), surface) };
}"""
)


#: the focus's two bands on the element that has the keyboard, and what is around them:
#: its ring (the outline), its halo (the box shadow of no blur that spreads past the
#: ring, as the felt's glow and an open double's red edge are not) and the surface around
#: the element (as above); the contrast of each pair of them
FOCUS_BANDS = (
    FOCUS_SURFACE_JS
    + """  const style = getComputedStyle(document.activeElement);
  const ring = over(rgba(style.outlineColor), surface);
  const reach = parseFloat(style.outlineOffset) + parseFloat(style.outlineWidth);
  const halo = style.boxShadow.split(/,(?![^(]*\\))/).filter((s) => !s.includes("inset"))
    .map((s) => ({ colour: rgba(s.match(/rgba?\\([^)]*\\)/)?.[0] || ""),
      px: (s.replace(/rgba?\\([^)]*\\)/, "").match(/-?[\\d.]+px/g) || []).map(parseFloat) }))
    .find((s) => s.px.length === 4 && s.px[2] === 0 && s.px[3] > reach);
  if (!halo) return { keyboard: document.activeElement.matches(":focus-visible"), halo: null };
  const band = over(halo.colour, surface);
  const round = (x) => Math.round(x * 100) / 100;
  return { keyboard: document.activeElement.matches(":focus-visible"),
    ring: ring.map(Math.round), halo: band.map(Math.round), surface: surface.map(Math.round),
    ringHalo: round(ratio(ring, band)), haloSurface: round(ratio(band, surface)),
    ringSurface: round(ratio(ring, surface)) };
}"""
)


def by_keyboard(page: Any, target: Any) -> None:
    """Give ``target`` the keyboard's focus (Tab from the control before it), for a ring
    drawn for the keyboard."""
    from playwright.sync_api import expect

    target.focus()
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Tab")
    expect(target).to_be_focused()


def assert_the_bands_stand_out(page: Any, scheme: str, name: str) -> None:
    """The focus's ring and halo on the focused element are of clearly other lightness,
    9:1 apart at least (in the dark look a white ring and a yellow halo read as one light
    band, 1.5:1), so that one of them stands out 3:1 from any colour: where the halo is
    lost on the surface around (the yellow halo on the light page), the ring meets it and
    stands out 3:1 from it; where the ring would not (the dark ring on the felt, 2:1), the
    halo does."""
    bands = page.evaluate(FOCUS_BANDS)
    assert bands["keyboard"], (scheme, name, bands)
    assert bands["halo"] is not None, (scheme, name, bands)
    assert bands["ringHalo"] >= 9, (scheme, name, bands)
    assert max(bands["haloSurface"], bands["ringSurface"]) >= 3, (scheme, name, bands)


def assert_the_ring_shows(page: Any, target: Any, scheme: str, name: str) -> None:
    """``target``, given the keyboard (Tab from the control before it), has the focus's
    inner ring at 3:1 at least against the surface it stands on (the dark ring hardly
    showed on the dark page), in a halo of clearly other lightness."""
    by_keyboard(page, target)
    ring = page.evaluate(RING_ON_SURFACE)
    shot(page, f"61-{scheme}-focus-{name}", full_page=False)
    assert ring["keyboard"], (scheme, ring)
    assert ring["style"] == "solid", (scheme, ring)
    assert ring["ratio"] >= 3, (scheme, ring)
    assert_the_bands_stand_out(page, scheme, name)


SCREENS = {"desktop": (1280, 800), "phone": (375, 740)}


def check(page: Any, scheme: str, name: str, within: str | None = None) -> None:
    """Every word of the page (or of ``within``) reads, at a desktop's and a phone's
    size, and the page is as light or as dark as ``scheme``, with no light box left over
    on a dark one; a screenshot of each."""
    for screen, (width, height) in SCREENS.items():
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(100)  # (laid out again at the new size)
        root = page.locator(within).first.element_handle() if within else None
        shot(page, f"60-{scheme}-{name}-{screen}", full_page=False)
        read = page.evaluate(READ_ALL, root)
        assert read["read"] > 3, (name, screen, read)
        assert not read["bad"], (scheme, name, screen, read["bad"])
        look = page.evaluate(LIGHT_BOXES, root)
        assert look["page"] is not None, (name, screen, look)
        if scheme == "dark":
            assert look["page"] < 0.03, (name, screen, look)
            assert not look["boxes"], (name, screen, look)
        else:
            assert look["page"] > 0.5, (name, screen, look)
    page.set_viewport_size({"width": 1280, "height": 800})


def _tables(db: Any) -> tuple[dict[str, str], dict[str, str], str, Any]:
    """Two tables of Ana and Ben (classic, a double-6 set, one round) written to ``db``:
    one where Ana is to move and an open double must be answered first (the turn's prompt
    says so), a tile of hers fitting somewhere; one where her last tile, played, ends the
    round. Ana's seat at each, Ben's token at the first, and the play that goes out."""
    spec = {"preset": "classic", "max_pip": 6, "rounds": 1, "hand_size": {"2": 7}}

    def plays(state: Any) -> list[Any]:
        return [a for a in state.legal_actions() if a.kind == "play"]

    def answering(state: Any) -> bool:
        return bool(state.open_doubles) and not state.owe and state.drawn < 0 and bool(plays(state))

    def going_out(state: Any) -> bool:
        return len(state.hand(0)) == 1 and not state.owe and bool(plays(state))

    tokens, _ = table_at(db, "DARKA", spec, 2, answering, draws_first=True, tries=500)
    out, state = table_at(db, "DARKB", spec, 2, going_out, draws_first=True, tries=500)
    return (
        {"code": "DARKA", "token": tokens[0]},
        {"code": "DARKB", "token": out[0]},
        tokens[1],
        plays(state)[0],
    )


def _a_game_left(db: Any) -> None:
    """A finished game written to the store at ``db`` that both its people left before
    its end (bots made their seats' last moves): the statistics have a row of no rate and
    no average (Cy's only game) and the recent games a seat marked as left."""
    from mextrain.store import Store

    store = Store(db)
    try:
        table = store.create_table("DARKC", {}, "s")
        store.save_game(table, "{}", ["Cy", "Di"], [True, True], [40, 3], [1], [True, True])
    finally:
        store.close()


#: Ben, at the table of the page, says ``text`` (from a connection of his own)
BEN_SAYS = """([code, token, text]) => new Promise((done) => {
  const ws = new WebSocket(`ws://${location.host}/ws/${code}`);
  ws.onopen = () => ws.send(JSON.stringify({ type: "hello", token, lang: "en" }));
  ws.onmessage = (ev) => {
    const m = JSON.parse(ev.data);
    if (m.type === "state") ws.send(JSON.stringify({ type: "chat", text }));
    if (m.type === "chat") { ws.close(); done(); }
  };
})"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_page_reads_in_the_light_and_the_dark_scheme(
    tmp_path: Any, page: Any, scheme: str
) -> None:
    """The page had a light look only: a player whose system asks for a dark one got a
    bright page at night. It follows the system's scheme: in each, the lobby, a table in
    play (a hint, a tile chosen, the turn's prompt, a line said and its toast, the score
    sheet), a round's result, the game over, its replay, the help, the statistics and the
    page for an address of no page have every word at AA contrast with what is behind
    it, and the dark page is dark, with no white box left over (the tiles stay
    paper-coloured, as real ones)."""
    from playwright.sync_api import expect

    from conftest import running_server

    page.emulate_media(color_scheme=scheme)
    db = tmp_path / "colours.sqlite3"
    playing, going_out, ben, last = _tables(db)
    _a_game_left(db)
    with running_server(db, 1) as base:
        page.goto(base + "/")
        expect(page.locator(".lobby .card").first).to_be_visible(timeout=10_000)
        check(page, scheme, "lobby")
        # the focus's ring on the page (the name) and on a card (the code to join)
        assert_the_ring_shows(page, page.locator(".lobby > .field input"), scheme, "name")
        assert_the_ring_shows(
            page, page.locator(".lobby .card").nth(1).locator("input"), scheme, "code"
        )

        seat_page(page, base, playing)
        expect(page.locator(".turn.mine")).to_be_visible(timeout=15_000)
        expect(page.locator(".hand-area .turn-prompt")).not_to_be_empty()
        page.get_by_role("button", name="Hint").click()
        expect(page.locator(".hand-area .hint")).not_to_be_empty(timeout=15_000)
        expect(page.locator(".hand-tile.hinted")).to_have_count(1)
        # the marks stand out from the page: the playable tiles' frame, the hint's
        # dashed one, and (below) the chosen tile's
        assert page.evaluate(MARK, [".hand-tile.playable", "borderTopColor"]) >= 3
        assert page.evaluate(MARK, [".hand-tile.hinted", "outlineColor"]) >= 3
        page.locator(".hand-tile.playable").first.click()
        expect(page.locator(".hand-tile.selected")).to_have_count(1)
        expect(page.locator(".train.target").first).to_be_visible()
        # (the page hands the keyboard on to the first train the chosen tile may go on,
        # in a moment: a busy machine had it land between the Shift+Tab and the Tab below,
        # which then went on past the train)
        expect(page.locator(".train.target").first).to_be_focused()
        # the focus on the board: on a train that glows (a tile chosen), on the felt
        by_keyboard(page, page.locator(".train.target").first)
        shot(page, f"61-{scheme}-focus-train", full_page=False)
        assert_the_bands_stand_out(page, scheme, "a train")
        page.evaluate(BEN_SAYS, [playing["code"], ben, "Good luck, Ana!"])
        expect(page.locator(".chat-toast")).to_be_visible()
        expect(page.locator(".chat-lines li")).to_have_count(1)
        expect(page.locator("aside table.sheet")).to_be_visible()
        check(page, scheme, "table")
        assert_the_ring_shows(page, page.get_by_role("button", name="Hint"), scheme, "hint")
        # the chosen tile's frame, against the page around it (its amber was 2.4:1 on the
        # light one) and against its own fill
        assert page.evaluate(MARK, [".hand-tile.selected", "borderTopColor"]) >= 3
        assert page.evaluate(FRAME_ON_FILL, ".hand-tile.selected") >= 3
        # Windows' high-contrast mode still has its say over either scheme
        page.emulate_media(color_scheme=scheme, forced_colors="active")
        framed = page.locator(".hand-tile.playable").first.evaluate(
            "e => getComputedStyle(e).borderTopStyle + ' ' + getComputedStyle(e).borderTopWidth"
        )
        assert framed == "solid 3px", framed
        page.emulate_media(color_scheme=scheme, forced_colors="none")

        seat_page(page, base, going_out)
        expect(page.locator(".turn.mine")).to_be_visible(timeout=15_000)
        page.locator(f'.hand-tile[data-tile="{last.tile}"]').click()
        train = "M" if last.train < 0 else str(last.train)
        page.locator(f'.train.target[data-train="{train}"]').click()
        dialog = page.get_by_role("dialog")
        expect(dialog.locator(".sheet")).to_be_visible(timeout=15_000)
        check(page, scheme, "result", ".dialog")
        replay = dialog.locator("a[href^='/replay/']").get_attribute("href")
        dialog.get_by_role("button", name="Continue").click()
        expect(dialog).to_have_count(0)
        expect(page.locator(".again")).to_be_visible()
        check(page, scheme, "game-over")

        page.goto(base + str(replay))
        replay_to_the_end(page)
        expect(page.locator(".replay-scores")).to_be_visible()
        check(page, scheme, "replay")
        page.goto(base + "/help")
        expect(page.locator(".help p").first).to_be_visible(timeout=10_000)
        check(page, scheme, "help")
        page.goto(base + "/stats")
        expect(page.locator(".stats table.sheet")).to_be_visible(timeout=10_000)
        # (a row of a person whose only game is one he left, and a seat marked as left)
        expect(page.locator(".stats td.none")).to_have_count(4)
        expect(page.locator(".recent")).to_contain_text(
            re.compile("Cy\u2069? 40 \\(left before the end\\)")
        )
        check(page, scheme, "stats")
        # an address of no page: a page of the page's look that says so, not JSON
        answer = page.goto(base + "/nope")
        assert answer is not None
        assert answer.status == 404
        expect(page.get_by_role("heading", name="Page not found")).to_be_visible()
        back = page.get_by_role("link", name="Back to the home page")
        expect(back).to_have_attribute("href", "/")
        check(page, scheme, "not-found")
