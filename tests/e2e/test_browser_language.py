"""The page's language changed, or picked as the page opens, where its words (the
catalogue the server sends, `/api/i18n/LANG`) come late, out of order, or not at all:
the page always ends in one language, the one its list shows, and is never lost."""

from __future__ import annotations

from typing import Any

import pytest
from browser_kit import create_via_api, seat_page

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


def language_cookie(page: Any) -> str | None:
    kept = [c["value"] for c in page.context.cookies() if c["name"] == "mextrain_lang"]
    return kept[0] if kept else None


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
