"""The page where the browser's local storage cannot be had: site data blocked (reading
`window.localStorage` throws), or a storage that is full (every write throws). The page
works all the same, holding what it could not keep for its own life; and a table it has
no more to do with is forgotten whole (token, mutes, talk read, game seen over)."""

from __future__ import annotations

from typing import Any

import pytest
from browser_kit import create_via_api, make_a_move_and_wait, seat_page, told_when_added

pytestmark = pytest.mark.browser

#: site data blocked, as a browser does when told to keep none for any site
BLOCKED = """
Object.defineProperty(window, "localStorage", {
  configurable: true,
  get() { throw new DOMException("The operation is insecure.", "SecurityError"); },
});
"""

#: a full storage (or a private window's that takes nothing): every write refused
FULL = """
Storage.prototype.setItem = function () {
  throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
};
"""

#: the site's cookies refused, as a browser that keeps no data for the site refuses them:
#: the page reads none and writes none, and is told nothing
COOKIES_REFUSED = """
Object.defineProperty(Document.prototype, "cookie", {
  configurable: true,
  get() { return ""; },
  set(value) {},
});
"""

#: a document of no origin of its own (a sandboxed frame's): its cookies throw
COOKIES_THROW = """
Object.defineProperty(Document.prototype, "cookie", {
  configurable: true,
  get() { throw new DOMException("Access is denied for this document.", "SecurityError"); },
  set(value) { throw new DOMException("Access is denied for this document.", "SecurityError"); },
});
"""

#: the page's connections, each counting the positions it was sent, so that a test may
#: drop one and see the next one's first
SOCKETS = """
window.__sockets = [];
window.WebSocket = class extends window.WebSocket {
  constructor(...args) {
    super(...args);
    this.states = 0;
    window.__sockets.push(this);
    this.addEventListener("message", (e) => {
      if (JSON.parse(e.data).type === "state") this.states += 1;
    });
  }
};
"""

NOT_KEPT = "This browser does not let the page remember your seat"


def create_and_move(page: Any, server: str) -> str:
    """Ana makes a table of one round with bots from the lobby and plays a move; its
    code."""
    from playwright.sync_api import expect

    page.goto(server + "/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Mexican Train")
    page.get_by_label("Your name").fill("Ana")
    page.get_by_label("Rounds").fill("1")
    page.get_by_role("button", name="Create the table").click()
    expect(page.locator(".hand-tile").first).to_be_visible(timeout=15_000)
    page.wait_for_function(
        "() => document.querySelector('.turn.mine') || document.querySelector('.overlay')",
        timeout=15_000,
    )
    if page.locator(".turn.mine").count():
        make_a_move_and_wait(page)
    return str(page.url.rstrip("/").rsplit("/", 1)[1])


def drop_the_connection(page: Any) -> None:
    """Close the page's connection; wait until the next one has had its first position."""
    count = page.evaluate("() => { window.__sockets.at(-1).close(); return __sockets.length; }")
    page.wait_for_function(
        "count => __sockets.length > count && __sockets.at(-1).states > 0",
        arg=count,
        timeout=15_000,
    )


def test_a_browser_that_blocks_site_data_still_plays(server: str, page: Any) -> None:
    """Reading `window.localStorage` threw, and the page was blank. It works now: a
    table with bots is made and played from the lobby, the seat held by the page (its
    connection dropped, the next one finds the seat again), and the player is told that
    a reload would lose it; a choice made (the language) holds for the page's life."""
    from playwright.sync_api import expect

    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.add_init_script(BLOCKED + SOCKETS)
    code = create_and_move(page, server)
    expect(page.locator(".seat-not-kept")).to_contain_text(NOT_KEPT)
    drop_the_connection(page)
    expect(page.locator(".hand-area")).to_be_visible()  # (a spectator has no hand)
    page.wait_for_function(
        "() => document.querySelector('.turn.mine') || document.querySelector('.overlay')",
        timeout=15_000,
    )
    if page.locator(".turn.mine").count():
        make_a_move_and_wait(page)  # the seat's moves are still taken

    # back to the lobby (no reload): the table is listed, as a seat of this browser's
    page.locator("a.brand").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Mexican Train")
    expect(page.locator(".your-tables")).to_contain_text(code, timeout=10_000)
    page.get_by_role("combobox", name="Language").select_option("fr")
    expect(page.get_by_role("heading", level=1)).to_have_text("Train mexicain")
    assert not errors, errors


def test_a_full_storage_still_plays_and_a_reload_watches(server: str, page: Any) -> None:
    """A full storage threw on every write: a table made from the lobby was made, but the
    page stayed in the lobby with the storage's error. It goes to the table now, the
    token held by the page (its connection dropped, the next one finds the seat); a
    reload (the page's memory gone) finds no seat, and shows the table as a spectator
    sees it."""
    from playwright.sync_api import expect

    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.add_init_script(FULL + SOCKETS)
    create_and_move(page, server)
    expect(page.locator(".seat-not-kept")).to_contain_text(NOT_KEPT)
    drop_the_connection(page)
    expect(page.locator(".hand-area")).to_be_visible()
    page.reload()
    expect(page.locator(".train").first).to_be_visible(timeout=15_000)
    expect(page.get_by_text("watching")).to_be_visible()
    expect(page.locator(".hand-area")).to_have_count(0)
    expect(page.locator(".seat-not-kept")).to_have_count(0)
    page.locator("a.brand").click()  # (and the lobby has no table of this browser's)
    expect(page.get_by_role("heading", level=1)).to_have_text("Mexican Train")
    page.wait_for_timeout(500)
    expect(page.locator(".your-tables")).to_have_count(0)
    assert not errors, errors


def test_a_full_storage_seats_a_player_who_joins_at_the_tables_page(server: str, page: Any) -> None:
    """Joined at a table's own page (a spectator there), a player with a full storage
    was not seated: the page said the storage's error. The page takes the seat now,
    without the reload it makes where the token is kept, and says a reload would lose
    it."""
    from playwright.sync_api import expect

    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.add_init_script(FULL)
    made = create_via_api(server, {"name": "Cleo", "seats": ["open", "open"]})
    page.goto(f"{server}/t/{made['code']}")
    page.get_by_label("Your name").fill("Ben")
    page.get_by_role("button", name="Join").click()
    expect(page.locator(".seat-list")).to_contain_text("Ben (you)", timeout=15_000)
    expect(page.get_by_role("button", name="Start the game")).to_be_visible()
    expect(page.locator(".seat-not-kept")).to_contain_text(NOT_KEPT)
    assert not errors, errors


#: the note that a reload loses the seat, each time it comes: in a live region?
NOTE_TOLD = told_when_added(".seat-not-kept")


@pytest.mark.parametrize("how", ["created_in_the_lobby", "joined_at_the_tables_page"])
def test_a_screen_reader_is_told_that_a_reload_loses_the_seat(
    server: str, page: Any, how: str
) -> None:
    """The note that the browser would not keep the seat was plain text, on the page with
    the table or the seat taken: a screen reader read it only with the rest of the page.
    It comes into a polite live region now, there before it (a region that comes with
    its words is not read out), and is told once: the waiting room's note, shown again
    at the table once the game starts, is not read out again."""
    from playwright.sync_api import expect

    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    if how == "created_in_the_lobby":
        page.add_init_script(BLOCKED + NOTE_TOLD)
        create_and_move(page, server)
    else:
        page.add_init_script(FULL + NOTE_TOLD)
        made = create_via_api(server, {"name": "Cleo", "seats": ["open", "open"]})
        page.goto(f"{server}/t/{made['code']}")
        page.get_by_label("Your name").fill("Ben")
        page.get_by_role("button", name="Join").click()
        expect(page.locator(".seat-not-kept")).to_contain_text(NOT_KEPT, timeout=15_000)
        assert page.evaluate("window.noteTold") == ["polite"]
        page.get_by_role("button", name="Start the game").click()
        expect(page.locator(".hand-tile").first).to_be_visible(timeout=15_000)
    expect(page.locator(".seat-not-kept")).to_contain_text(NOT_KEPT)
    expect(page.locator("[role=status][aria-live=polite] > .seat-not-kept")).to_have_count(1)
    told = page.evaluate("window.noteTold")
    assert told[0] == "polite", told
    assert [t for t in told if t is not None] == ["polite"], told
    assert not errors, errors


@pytest.mark.parametrize("cookies", ["refused", "throw"])
def test_a_language_chosen_where_nothing_is_kept_holds_for_the_pages_life(
    server: str, page: Any, cookies: str
) -> None:
    """Site data blocked, cookies too: a language chosen changes the page, on every page
    it goes to, for its life; a reload, which finds no choice, shows the browser's
    language, and the server's page for an address of no page is in it too. Cookies that
    throw (a document of no origin of its own) left the page in its language, the list
    showing the one chosen: the choice is made all the same now."""
    from playwright.sync_api import expect

    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.add_init_script(BLOCKED + (COOKIES_REFUSED if cookies == "refused" else COOKIES_THROW))
    page.goto(server + "/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Mexican Train")
    page.get_by_role("combobox", name="Language").select_option("fr")
    expect(page.get_by_role("heading", level=1)).to_have_text("Train mexicain")
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    page.get_by_role("link", name="Statistiques").click()  # (the page's own, no reload)
    expect(page.get_by_role("heading", level=1)).to_have_text("Statistiques")
    expect(page.get_by_role("combobox", name="Langue")).to_have_value("fr")
    assert not page.context.cookies(), page.context.cookies()
    page.reload()
    expect(page.get_by_role("heading", level=1)).to_have_text("Statistics")
    expect(page.get_by_role("combobox", name="Language")).to_have_value("en")
    page.goto(server + "/no/such/page")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    assert not errors, errors


def test_a_language_chosen_where_the_storage_is_full_is_kept_by_the_cookie(
    server: str, page: Any
) -> None:
    """A full storage keeps no new choice; the language's cookie is kept. A reload showed
    the language chosen before (Italian, still in the storage, and told to the server
    again), or the browser's, while the server's page for an address of no page was in
    the one chosen (French): the page shows the language it told the server now, kept
    by the cookie, and the storage's older choice is gone."""
    from playwright.sync_api import expect

    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.goto(server + "/help")
    page.evaluate("() => localStorage.setItem('mextrain.lang', 'it')")
    page.add_init_script(FULL)
    page.goto(server + "/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Treno messicano")
    page.get_by_role("combobox", name="Lingua").select_option("fr")
    expect(page.get_by_role("heading", level=1)).to_have_text("Train mexicain")
    page.reload()
    expect(page.get_by_role("heading", level=1)).to_have_text("Train mexicain")
    expect(page.get_by_role("combobox", name="Langue")).to_have_value("fr")
    assert page.evaluate("() => localStorage.getItem('mextrain.lang')") is None
    page.goto(server + "/no/such/page")
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    assert not errors, errors


def kept_for(page: Any, code: str) -> dict[str, str | None]:
    keys = [f"mextrain.{kind}.{code}" for kind in ("token", "mute", "talk_seen", "done")]
    found: dict[str, str | None] = page.evaluate(
        "keys => Object.fromEntries(keys.map((k) => [k, localStorage.getItem(k)]))", keys
    )
    return found


def keep_for(page: Any, code: str) -> None:
    page.evaluate(
        "code => { localStorage.setItem('mextrain.mute.' + code, '[\"Ben\"]');"
        " localStorage.setItem('mextrain.talk_seen.' + code, '{\"seat\": 0, \"line\": 3}');"
        " localStorage.setItem('mextrain.done.' + code, '1'); }",
        code,
    )


@pytest.mark.parametrize("how", ["no_table", "left"])
def test_a_table_forgotten_is_forgotten_whole(server: str, page: Any, how: str) -> None:
    """A table's own page refused as no table kept all it had in the browser, and a seat
    left kept its mutes and whether its game was seen over; the lobby's list forgot the
    token, the mutes and the talk read. Each forgets the same now: all four."""
    from playwright.sync_api import expect

    if how == "no_table":
        made = {"code": "ZZ9NONE", "token": "not-a-token"}
        seat_page(page, server, made)
        keep_for(page, made["code"])
        page.reload()
        expect(page.get_by_text("There is no table with that code")).to_be_visible(timeout=15_000)
    else:
        made = create_via_api(server, {"name": "Ana", "seats": ["open"]})
        seat_page(page, server, made)
        expect(page.get_by_role("button", name="Start the game")).to_be_visible(timeout=15_000)
        keep_for(page, made["code"])
        page.on("dialog", lambda dialog: dialog.accept())
        page.get_by_role("button", name="Leave the table").click()
        expect(page.get_by_role("heading", level=1)).to_have_text("Mexican Train")
    page.wait_for_function(
        "code => localStorage.getItem('mextrain.token.' + code) === null", arg=made["code"]
    )
    assert set(kept_for(page, made["code"]).values()) == {None}
