"""The page's language changed, or picked as the page opens, where its words (the
catalogue the server sends, `/api/i18n/LANG`) come late, out of order, or not at all:
the page always ends in one language, the one its list shows, and is never lost."""

from __future__ import annotations

import time
from functools import partial
from typing import Any

import pytest
from browser_kit import create_via_api, seat_page, told_when_added

pytestmark = pytest.mark.browser

#: each way the words of a language may fail to come: no answer at all (the connection
#: lost), a refusal (404, 500), an answer cut short, an answer that is no catalogue
FAILURES: dict[str, dict[str, Any] | None] = {
    "network": None,
    "404": {"status": 404, "content_type": "application/json", "body": '{"detail": "no"}'},
    "500": {"status": 500, "content_type": "text/plain", "body": "Internal Server Error"},
    "broken": {"status": 200, "content_type": "application/json", "body": '{"lang": "fr", "st'},
    "no_catalogue": {"status": 200, "content_type": "application/json", "body": '{"ok": true}'},
}

#: the catalogues the page has read (each one's address, once its JSON is read, or
#: failed to be), for a test to know that words held back have come and were dealt with
READ_WORDS = """
window.__wordsRead = [];
const json = Response.prototype.json;
Response.prototype.json = function () {
  const url = this.url;
  const done = () => setTimeout(() => {
    if (url.includes("/api/i18n/")) window.__wordsRead.push(url.split("/").pop());
  }, 0);
  return json.call(this).finally(done);
};
"""

FAILED = {
    "fr": "The language “Français” could not be loaded: try again in a moment.",
    "fi": "The language “Suomi” could not be loaded: try again in a moment.",
}


def fail(how: str, route: Any, request: Any = None) -> None:
    answer = FAILURES[how]
    if answer is None:
        route.abort("internetdisconnected")
    else:
        route.fulfill(**answer)


def hold(held: dict[str, Any], code: str, route: Any, request: Any = None) -> None:
    """Hold back the words of language ``code`` (its route, in ``held``, to let them on)."""
    held[code] = route


def language_cookie(page: Any) -> str | None:
    kept = [c["value"] for c in page.context.cookies() if c["name"] == "mextrain_lang"]
    return kept[0] if kept else None


def settled(page: Any) -> None:
    """Wait for what the page does after words it has read: its next frame."""
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0)))")


@pytest.mark.parametrize("how", list(FAILURES))
def test_a_language_whose_words_fail_leaves_the_page_as_it_was(
    server: str, page: Any, how: str
) -> None:
    """French's words failed to come: the list showed French, the page stayed in
    English, with an error the page never caught, and French was kept (in the storage
    and its cookie: a reload opened in a language whose words never came, or nothing at
    all). Now the list goes back to English, a note in English (a polite live region)
    says that French could not be loaded, and nothing else changes: the seat, its game,
    the tile chosen, the large numbers. French chosen again, once its words come, is
    the page's language."""
    from playwright.sync_api import expect

    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    made = create_via_api(
        server, {"name": "Ana", "seats": ["bot:greedy"], "options": {"rounds": 1}}
    )
    seat_page(page, server, made)
    expect(page.locator(".hand-tile").first).to_be_visible(timeout=15_000)
    page.get_by_label("Large numbers").check()
    page.wait_for_function(
        "() => document.querySelector('.turn.mine') || document.querySelector('.overlay')",
        timeout=15_000,
    )
    chosen = bool(
        page.locator(".turn.mine").count() and page.locator(".hand-tile.playable").count()
    )
    if chosen:  # (a tile that fits, on the seat's first turn: the deal may have none)
        page.locator(".hand-tile.playable").first.click()
        expect(page.locator(".hand-tile.selected")).to_have_count(1)
    hand = page.locator(".hand-tile").count()

    page.route("**/api/i18n/fr", lambda route: fail(how, route))
    page.get_by_role("combobox", name="Language").select_option("fr")
    note = page.locator("[role=status][aria-live=polite] > .lang-note")
    expect(page.get_by_role("combobox", name="Language")).to_have_value("en")
    expect(note).to_have_text(FAILED["fr"])
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.locator(".status")).to_contain_text("Round")
    expect(page.locator(".hand-tile")).to_have_count(hand)
    expect(page.get_by_label("Large numbers")).to_be_checked()
    if chosen:
        expect(page.locator(".hand-tile.selected")).to_have_count(1)
    assert page.evaluate("() => localStorage.getItem('mextrain.lang')") == "en"
    assert language_cookie(page) == "en"
    assert (
        page.evaluate("code => localStorage.getItem('mextrain.token.' + code)", made["code"])
        == made["token"]
    )

    page.unroute("**/api/i18n/fr")
    page.get_by_role("combobox", name="Language").select_option("fr")
    expect(page.locator(".status")).to_contain_text("Manche")
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.get_by_role("combobox", name="Langue")).to_have_value("fr")
    expect(note).to_have_count(0)
    expect(page.locator(".hand-tile")).to_have_count(hand)
    assert page.evaluate("() => localStorage.getItem('mextrain.lang')") == "fr"
    assert language_cookie(page) == "fr"
    assert not errors, errors


@pytest.mark.parametrize("last", ["fr", "it"])
def test_the_last_language_chosen_wins_whatever_order_its_words_come_in(
    server: str, page: Any, last: str
) -> None:
    """French chosen, then Italian before French's words came: the page was in the
    language whose words came last (French, the list and the page, while Italian was
    kept for the next page), and words that came early showed a language already left
    (French, the list on it, Italian still to come). The last choice wins now, whatever
    order the words come in: Italian, the list, the page and the choice kept."""
    from playwright.sync_api import expect

    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.add_init_script(READ_WORDS)
    held: dict[str, Any] = {}
    for code in ("fr", "it"):
        page.route(f"**/api/i18n/{code}", partial(hold, held, code))
    page.goto(server + "/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Mexican Train")
    languages = page.get_by_role("combobox", name="Language")
    languages.select_option("fr")
    languages.select_option("it")
    deadline = time.monotonic() + 15
    while len(held) < 2:
        assert time.monotonic() < deadline, f"the page asked only for {sorted(held)}"
        page.wait_for_timeout(20)
    expect(languages).to_have_value("it")  # (asked for, its words not come yet)

    first = "it" if last == "fr" else "fr"
    held[first].continue_()
    page.wait_for_function("code => window.__wordsRead.includes(code)", arg=first)
    settled(page)
    if first == "fr":  # (Italian's words still to come: the page as it was, the list on it)
        expect(page.locator("html")).to_have_attribute("lang", "en")
        expect(languages).to_have_value("it")
    held[last].continue_()
    page.wait_for_function("code => window.__wordsRead.includes(code)", arg=last)
    settled(page)

    expect(page.get_by_role("heading", level=1)).to_have_text("Treno messicano")
    expect(page.locator("html")).to_have_attribute("lang", "it")
    expect(page.get_by_role("combobox", name="Lingua")).to_have_value("it")
    assert page.evaluate("() => localStorage.getItem('mextrain.lang')") == "it"
    assert language_cookie(page) == "it"
    assert not errors, errors


def test_a_page_opened_before_the_chosen_languages_words_came_opens_in_it(
    server: str, page: Any
) -> None:
    """French chosen, and a page opened before its words came (a link followed at once):
    the choice was kept only once the words had come, so the new page opened in the
    language left. It is kept at once now, and the new page opens in French."""
    from playwright.sync_api import expect

    held: dict[str, Any] = {}

    def first_held(route: Any, request: Any = None) -> None:
        """The first page's ask held back for good; the next page's let through."""
        if "fr" in held:
            route.continue_()
        else:
            hold(held, "fr", route)

    page.route("**/api/i18n/fr", first_held)
    page.goto(server + "/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Mexican Train")
    page.get_by_role("combobox", name="Language").select_option("fr")
    deadline = time.monotonic() + 15
    while "fr" not in held:
        assert time.monotonic() < deadline, "the page did not ask for French's words"
        page.wait_for_timeout(20)
    page.goto(server + "/stats")
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.get_by_role("combobox", name="Langue")).to_have_value("fr")
    assert page.evaluate("() => localStorage.getItem('mextrain.lang')") == "fr"
    assert language_cookie(page) == "fr"


#: the note that a language could not be loaded, each time it comes: in a live region?
NOTE_TOLD = told_when_added(".lang-note")

#: a browser whose first language is Finnish
FINNISH_BROWSER = """
Object.defineProperty(Navigator.prototype, "languages", { get: () => ["fi-FI", "fi"] });
Object.defineProperty(Navigator.prototype, "language", { get: () => "fi-FI" });
"""


@pytest.mark.parametrize("picked", ["storage", "cookie", "browser"])
def test_a_page_whose_language_has_no_words_opens_in_english(
    server: str, page: Any, picked: str
) -> None:
    """The page opens in Finnish (chosen before, in the storage or in its cookie only, or
    the browser's language) and Finnish's words fail to come: the page was blank, an
    error it never caught. It opens in English now, its list on English, and says that
    Finnish could not be loaded (told politely: the note comes into a live region there
    before it); a choice kept is kept (its words came before, and come again: the next
    page is in Finnish)."""
    from playwright.sync_api import expect

    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.add_init_script(NOTE_TOLD)
    if picked == "storage":
        page.goto(server + "/help")
        page.evaluate("() => localStorage.setItem('mextrain.lang', 'fi')")
    elif picked == "cookie":
        page.context.add_cookies([{"name": "mextrain_lang", "value": "fi", "url": server}])
    else:
        page.add_init_script(FINNISH_BROWSER)
    page.route("**/api/i18n/fi", lambda route: fail("network", route))
    page.goto(server + "/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Mexican Train")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.get_by_role("combobox", name="Language")).to_have_value("en")
    expect(page.locator(".lang-note")).to_have_text(FAILED["fi"])
    assert page.evaluate("window.noteTold") == ["polite"]
    expect(page.get_by_role("button", name="Create the table")).to_be_visible()
    assert not errors, errors

    page.unroute("**/api/i18n/fi")
    page.reload()
    expect(page.get_by_role("heading", level=1)).to_have_text("Meksikon juna")
    expect(page.get_by_role("combobox", name="Kieli")).to_have_value("fi")
    expect(page.locator(".lang-note")).to_have_count(0)
    assert not errors, errors
