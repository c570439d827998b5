"""End to end in a real headless Chromium: create a table in the lobby, play a round
against bots by clicking and by dragging, check the score sheet, save screenshots.

Runs in its own pytest process (``-m browser``). Without Chromium these tests skip, unless
``MEXTRAIN_REQUIRE_BROWSER=1`` (CI), where a missing browser is a failure.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import pytest
from browser_kit import (
    ARGS,
    ARTIFACTS,
    CHROMIUM,
    create_via_api,
    make_a_move_and_wait,
    need_browser,
    play_until_over,
    seat_page,
    shot,
    shown_after,
)

pytestmark = pytest.mark.browser


def test_create_a_table_and_play_a_round_by_click_and_drag(server: str, page: object) -> None:
    from playwright.sync_api import Page, expect

    assert isinstance(page, Page)
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.goto(server + "/")
    page.get_by_label("Your name").fill("Ana")
    page.get_by_label("Rounds").fill("1")
    shot(page, "01-lobby")
    page.get_by_role("button", name="Create the table").click()
    expect(page.locator(".hand-tile").first).to_be_visible(timeout=15_000)
    shot(page, "02-table")

    clicks = drags = keys = draws = 0
    logged = False
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        if page.locator(".overlay").is_visible():
            break
        if not page.locator(".turn.mine").is_visible():
            page.wait_for_timeout(50)
            continue
        # your turn lasts until you move: the tab's title says so meanwhile
        expect(page).to_have_title(re.compile(r"^Your turn · Table [A-Z0-9]{6} · Mexican Train$"))
        version_before = page.locator(".hand-tile").count()
        playable = page.locator(".hand-tile.playable")
        if playable.count():
            tile = playable.first
            mode = (clicks + drags + keys) % 3
            if mode == 0:
                target = _drag(page, tile)
                drags += 1
            elif mode == 1:
                tile.click()
                target = page.locator(".train.target").first
                expect(target).to_be_visible()
                if clicks == 0:
                    shot(page, "03-selected")
                target.click()
                clicks += 1
            else:
                # keyboard only: focus moves with Tab in a browser; Enter chooses
                tile.focus()
                page.keyboard.press("Enter")
                target = page.locator(".train.target").first
                expect(target).to_be_visible()
                target.focus()
                page.keyboard.press("Enter")
                keys += 1
        elif page.get_by_role("button", name="Draw").is_enabled():
            page.keyboard.press("d")
            draws += 1
        else:
            page.get_by_role("button", name="Pass").click()
        # wait until the table has moved on (a new view arrives)
        page.wait_for_function(
            "n => document.querySelectorAll('.hand-tile').length !== n"
            " || !document.querySelector('.turn.mine') || document.querySelector('.overlay')",
            arg=version_before,
            timeout=15_000,
        )
        if not logged and clicks + drags + keys == 1:
            log = page.locator(".move-log li")
            expect(log.first).to_be_visible()
            expect(page.locator(".move-log")).to_contain_text(re.compile("Ana\u2069?: "))
            assert log.count() <= 8
            logged = True
    else:
        shot(page, "99-timeout")
        pytest.fail("the round did not end in time")

    shot(page, "04-round-end")
    # the game is over: nobody's turn, the tab names the table
    expect(page).to_have_title(re.compile(r"^Table [A-Z0-9]{6} · Mexican Train$"))
    dialog = page.get_by_role("dialog")
    expect(dialog).to_contain_text("The game is over")
    expect(dialog.get_by_role("link", name="Download the record")).to_be_visible()
    assert drags > 0, "no tile was played by dragging"
    assert clicks > 0, "no tile was played by clicking"
    assert keys > 0, "no tile was played with the keyboard"
    assert logged, "the log of moves was not checked"
    log_text = page.locator(".move-log").inner_text()
    assert "on Mexican train" not in log_text  # "on the Mexican train"
    # the score sheet has the round's scores and totals: four numbers in each row
    sheet = page.locator("table.sheet[aria-label='Score sheet']")
    cells = sheet.locator("tbody tr").first.locator("td")
    expect(cells).to_have_count(4)
    scores = [int(cells.nth(i).inner_text()) for i in range(4)]
    totals = sheet.locator("tfoot td")
    assert [int(totals.nth(i).inner_text()) for i in range(4)] == scores
    assert min(scores) >= 0

    # the replay viewer steps through the game with every hand shown
    finished = page.url
    dialog.get_by_role("link", name="Replay").click()
    expect(page.locator(".replay-hand")).to_have_count(4, timeout=10_000)
    page.get_by_role("button", name="Forward one step").click()
    # the step's move in words, not record notation ("Ana: 5-12 on their own train", then
    # what a screen reader hears, "tile 5 and 12")
    expect(page.locator(".replay-move")).to_have_text(
        re.compile(r"^\u2068?(Ana|Bot \d \(medium\))\u2069?: (\d+-\d+ on .*train|draws$|passes$)")
    )
    shot(page, "05-replay")

    # back at the finished table: play again, at a new table with the same bots
    page.goto(finished)
    page.locator(".again").get_by_role("button", name="Play again").click()
    page.wait_for_url(lambda url: url != finished and "/t/" in url, timeout=10_000)
    expect(page.locator(".hand-tile").first).to_be_visible(timeout=15_000)
    expect(page.locator(".again")).to_have_count(0)
    shot(page, "09-play-again")
    assert not errors, errors


def _drag(page: object, tile: object) -> object:
    """Drag with real pointer events: press on the tile, move until the legal trains light
    up, carry it to the first one in steps, release there."""
    src = tile.bounding_box()  # type: ignore[attr-defined]
    assert src is not None
    mouse = page.mouse  # type: ignore[attr-defined]
    x, y = src["x"] + src["width"] / 2, src["y"] + src["height"] / 2
    mouse.move(x, y)
    mouse.down()
    mouse.move(x + 15, y - 15, steps=3)
    target = page.locator(".train.target").first  # type: ignore[attr-defined]
    target.wait_for(timeout=5_000)
    dst = target.bounding_box()
    assert dst is not None
    mouse.move(dst["x"] + dst["width"] / 2, dst["y"] + dst["height"] / 2, steps=8)
    page.screenshot(path=str(ARTIFACTS / "03b-dragging.png"))  # type: ignore[attr-defined]
    mouse.up()
    return target


def test_an_address_of_no_page_is_in_the_language_chosen_on_the_page(
    server: str, page: Any
) -> None:
    """A reader of an English browser who chose Finnish on the page was shown an address
    of no page in English: the choice was kept where the server never sees it. Choosing
    a language tells the server too, in a cookie of this site's alone, kept a year; a
    choice made before, kept in the browser, reaches it when the page next opens."""
    from playwright.sync_api import expect

    page.goto(server + "/help")
    expect(page.get_by_label("Language")).to_be_visible()
    assert not page.context.cookies(), page.context.cookies()
    page.get_by_label("Language").select_option("fi")
    expect(page.locator("html")).to_have_attribute("lang", "fi")
    (cookie,) = page.context.cookies()
    assert (cookie["name"], cookie["value"], cookie["path"]) == ("mextrain_lang", "fi", "/")
    assert cookie["sameSite"] == "Lax", cookie
    year = 365 * 24 * 3600
    assert year - 60 < cookie["expires"] - time.time() <= year, cookie
    page.goto(server + "/no/such/page")
    expect(page.locator("html")).to_have_attribute("lang", "fi")
    expect(page.locator("h1")).not_to_have_text("Page not found")
    shot(page, "00-not-found-chosen-fi", full_page=False)
    # a choice kept from before the cookie: told when the page next opens
    page.context.clear_cookies()
    page.goto(server + "/help")
    page.evaluate("() => localStorage.setItem('mextrain.lang', 'it')")
    page.goto(server + "/help")
    expect(page.locator("html")).to_have_attribute("lang", "it")
    page.goto(server + "/nope")
    expect(page.locator("html")).to_have_attribute("lang", "it")


def test_french_lobby_and_spectator_sees_no_hand(server: str, page: object) -> None:
    from playwright.sync_api import Page, expect

    assert isinstance(page, Page)
    page.goto(server + "/")
    page.get_by_label("Language").select_option("fr")
    expect(page.get_by_role("button", name="Créer la table")).to_be_visible()
    made = create_via_api(
        server, {"name": "Bea", "seats": ["bot:random"], "options": {"rounds": 1}}
    )
    code = made["code"]
    page.goto(f"{server}/t/{code}")
    expect(page.get_by_text("spectateur")).to_be_visible(timeout=10_000)
    expect(page.locator(".train").first).to_be_visible()
    assert page.locator(".hand-tile").count() == 0
    shot(page, "06-spectator-fr")


def test_a_phone_plays_by_tapping_with_large_numbers(server: str, tmp_path: Path) -> None:
    need_browser()
    from playwright.sync_api import expect, sync_playwright

    made = create_via_api(
        server, {"name": "Cy", "seats": ["bot:greedy", "bot:greedy"], "options": {"rounds": 1}}
    )
    with sync_playwright() as pw:
        context = pw.chromium.launch_persistent_context(
            str(tmp_path / "phone"),
            executable_path=CHROMIUM,
            args=ARGS,
            headless=True,
            viewport={"width": 390, "height": 844},
            has_touch=True,
            is_mobile=True,
            locale="it-IT",
        )
        try:
            page = context.pages[0] if context.pages else context.new_page()
            page.goto(server + "/stats")
            page.evaluate(
                "([code, token]) => { localStorage.setItem('mextrain.token.' + code, token);"
                " localStorage.setItem('mextrain.big', '1'); }",
                [made["code"], made["token"]],
            )
            page.goto(f"{server}/t/{made['code']}")
            expect(page.get_by_role("group", name="La tua mano")).to_be_visible()
            tapped = 0
            deadline = time.monotonic() + 60
            while tapped < 2 and time.monotonic() < deadline:
                if not page.locator(".turn.mine").is_visible():
                    page.wait_for_timeout(50)
                    continue
                before = page.locator(".hand-tile").count()
                playable = page.locator(".hand-tile.playable")
                if playable.count():
                    playable.first.tap()
                    page.locator(".train.target").first.tap()
                    tapped += 1
                elif page.get_by_role("button", name="Pesca").is_enabled():
                    page.get_by_role("button", name="Pesca").tap()
                else:
                    page.get_by_role("button", name="Passa").tap()
                page.wait_for_function(
                    "n => document.querySelectorAll('.hand-tile').length !== n"
                    " || !document.querySelector('.turn.mine')",
                    arg=before,
                    timeout=15_000,
                )
            assert tapped == 2, "no tile could be tapped onto a train"
            # large-number mode draws digits, not pips
            assert page.locator(".hand svg text").count() > 0
            assert page.locator(".hand svg circle").count() == 0
            # the last moves, in Italian, three of them on a phone
            log = page.get_by_role("region", name="Ultime mosse")
            expect(log).to_contain_text(re.compile("Cy\u2069?: "))
            assert "su il" not in log.inner_text()  # Italian says "sul treno"
            assert log.locator("li:visible").count() <= 3
            shot(page, "07-phone-it-large-numbers")
        finally:
            context.close()


@pytest.mark.parametrize("lang", ["fr", "fi"])
def test_a_house_rule_value_refused_shortened_says_its_length_in_the_pages_language(
    server: str, page: object, lang: str
) -> None:
    """A house rule's value of thousands of characters (a request the lobby's boxes do not
    make: changed on its way) is refused quoted shortened; the page said its length in
    English ("(5,000 characters)") in every language. It says it as the terminal does."""
    from playwright.sync_api import Page, Route, expect

    from mextrain.i18n import Translator, rules_error_text
    from mextrain.rules import Rules, RulesError

    assert isinstance(page, Page)
    long = "x" * 5000

    def lengthen(route: Route) -> None:
        body = json.loads(route.request.post_data or "{}")
        body.setdefault("options", {})["draw_until_playable"] = long
        route.continue_(post_data=json.dumps(body))

    t = Translator(lang)
    page.route("**/api/tables", lengthen)
    page.goto(server + "/")
    page.get_by_label("Language").select_option(lang)
    page.locator("input[name=name]").fill("Ben")
    page.get_by_role("button", name=t("web.lobby.create_button")).click()
    with pytest.raises(RulesError) as caught:
        Rules.preset("classic").with_options(draw_until_playable=long)
    said = t("web.error.options", detail=rules_error_text(caught.value, lang))
    assert t.count_words("characters", 5000) in said
    expect(page.get_by_role("alert")).to_have_text(said)
    assert "5,000" not in page.get_by_role("alert").inner_text()


def test_a_late_joiner_takes_a_bots_seat_and_lobby_errors_are_translated(
    server: str, page: object
) -> None:
    from playwright.sync_api import Page, expect

    assert isinstance(page, Page)
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    # a refusal from the lobby's HTTP API comes in the player's language
    page.goto(server + "/")
    page.get_by_label("Language").select_option("fr")
    page.get_by_label("Votre nom").fill("Ben")
    page.get_by_label("Code de la table").fill("NOSUCH")
    page.get_by_role("button", name="Rejoindre").click()
    expect(page.get_by_role("alert")).to_have_text("Aucune table n'a ce code.")
    page.get_by_label("Votre nom").fill("<Ben>")
    page.get_by_role("button", name="Rejoindre").click()
    expect(page.get_by_role("alert")).to_have_text(
        "Ce nom n'est pas accepté\u00a0: de 1 à 24 caractères visibles, sans < ni >."
    )
    # so does a rule set the rules refuse, fault and all (a browser that lets 14 rounds
    # through the box's own limit)
    page.get_by_label("Votre nom").fill("Ben")
    page.locator("input[name=rounds]").evaluate("box => box.removeAttribute('max')")
    page.locator("input[name=rounds]").fill("14")
    page.get_by_role("button", name="Créer la table").click()
    expect(page.get_by_role("alert")).to_have_text(
        "Ces réglages ne sont pas jouables\u00a0: rounds\u00a0: un jeu double-12 n'a que 13 moyeux"
    )
    page.get_by_label("Langue").select_option("en")

    # Ana starts at once: the open seat goes to a bot that keeps it warm
    made = create_via_api(server, {"name": "Ana", "seats": ["open"], "options": {"rounds": 1}})
    page.evaluate(
        "([code, token]) => localStorage.setItem('mextrain.token.' + code, token)",
        [made["code"], made["token"]],
    )
    page.goto(f"{server}/t/{made['code']}")
    # the waiting room says what is played, and copies its link
    expect(page.locator(".waiting")).to_contain_text(re.compile(r"Rules: Classic.*; 1 round\."))
    expect(page.get_by_role("button", name="Copy the link")).to_be_visible()
    page.get_by_role("button", name="Start the game").click()
    expect(page.get_by_role("group", name="Your hand")).to_be_visible()
    # the same browser, without Ana's token, is a spectator who may take the bot's seat
    page.evaluate("code => localStorage.removeItem('mextrain.token.' + code)", made["code"])
    page.reload()
    expect(page.get_by_text("watching")).to_be_visible()
    banner = page.locator(".late-join")
    expect(banner).to_contain_text("Bot 2")
    shot(page, "08-late-join")
    banner.get_by_label("Your name").fill("Ben")
    banner.get_by_role("button", name="Join").click()
    expect(page.get_by_role("group", name="Your hand")).to_be_visible()
    expect(page.locator(".late-join")).to_have_count(0)
    expect(page.get_by_text("watching")).to_have_count(0)
    assert page.locator(".hand-tile").count() > 0
    # the statistics page: games, wins with their interval, average score (of a game
    # finished here, whatever the other tests did)
    tiny = {"rounds": 1, "max_pip": 4, "hand_size": {"2": 4}}
    seat_page(
        page,
        server,
        create_via_api(server, {"name": "Ben", "seats": ["bot:greedy"], "options": tiny}),
    )
    play_until_over(page)
    page.goto(server + "/stats")
    head = page.get_by_role("columnheader", name="Win rate (95% interval)")
    expect(head).to_be_visible()
    assert head.evaluate("e => e.scrollWidth <= e.clientWidth")  # its title whole, not cut
    recent = page.locator(".recent li").first.inner_text()
    assert re.match(r"#\d+ \S", recent), recent  # words kept apart
    # one winner is "Winner", a tie (both at 0, say) "Winners" and both names
    name = "\u2068[^\u2069]+\u2069"  # (names come isolated)
    assert re.search(f" — (Winner: {name}$|Winners: {name}, {name}$)", recent), recent
    shot(page, "10-stats")
    assert not errors, errors


def test_the_page_contracts_words_as_the_server_does(server: str, page: object) -> None:
    """The browser fills templates itself: its Italian "sul" and French "d'Émile" must
    come out as mextrain.i18n writes them."""
    from playwright.sync_api import Page

    from mextrain.i18n import _fill

    assert isinstance(page, Page)
    cases = [
        ("fr", "le train de Émile"),
        ("fr", "le train de \u2068Anna\u2069"),
        ("fr", "le train de Hugo, pas de Yannick"),
        ("fr", "Reprise de /tmp/a.json"),
        ("fr", "C'est à Ana de jouer, pas à Ben."),
        ("it", "1-2 su il treno messicano"),
        ("it", "Su il treno di Anna"),
        ("en", "seat de Anna"),
    ]
    page.goto(server)
    shown = page.evaluate(
        "cases => import('/static/words.js').then(m => cases.map(([l, t]) => m.contract(t, l)))",
        cases,
    )
    assert shown == [_fill(text, {}, lang) for lang, text in cases]
    assert shown[0] == "le train d'Émile"
    assert shown[5] == "1-2 sul treno messicano"
    # filled templates: words meet where the template meets a value, never inside one
    # (a player's words and names stay as written)
    filled = [
        ("fr", "le train de {name}", {"name": "\u2068Émile\u2069"}),
        ("fr", "le train de {name}", {"name": "Hugo"}),
        ("fr", "{name} : {text}", {"name": "Ana", "text": "le train de Anna"}),
        ("fr", "{name} : {text}", {"name": "De Anna", "text": "x"}),
        ("it", "gioca {tile} su {train}", {"tile": "1-2", "train": "il treno messicano"}),
        ("it", "{name}: {text}", {"name": "Il Divo", "text": "vado su il treno"}),
        ("it", "su {name}", {"name": "Ilaria"}),
        ("it", "{missing} su il treno", {}),
        ("en", "{name}: {text}", {"name": "Ana", "text": "de Anna"}),
        ("it", "Passa la tastiera a {name}", {"name": "Anna"}),
        ("it", "Passa la tastiera a {name}", {"name": "Ben"}),
        ("fr", "le train de {name}", {"name": "Åsa"}),
    ]
    page_fills = page.evaluate(
        "cases => import('/static/words.js').then(m => cases.map(([l, t, p]) => m.fill(t, p, l)))",
        filled,
    )
    assert page_fills == [_fill(template, params, lang) for lang, template, params in filled]
    assert page_fills[0] == "le train d'\u2068Émile\u2069"
    assert page_fills[2] == "Ana : le train de Anna"
    assert page_fills[4] == "gioca 1-2 sul treno messicano"
    assert page_fills[5] == "Il Divo: vado su il treno"
    assert page_fills[6] == "su Ilaria"
    assert page_fills[-3:] == [
        "Passa la tastiera ad Anna",
        "Passa la tastiera a Ben",
        "le train d'Åsa",
    ]


def test_a_move_on_its_way_shows_so_until_the_servers_answer_comes(
    server: str, page: object
) -> None:
    """On a slow connection the page showed the position before a move until the server
    answered: the tile played still in the hand, still playable, Draw and Pass still
    there to press, and nothing said the move was on its way (a second tap did nothing, in
    silence). The tile played now waits in the hand, dimmed, with nothing else to play or
    ask for until the answer comes; a move the server refuses gives the position back."""
    from browser_kit import wait_for_a_playable_tile
    from playwright.sync_api import Page, WebSocketRoute, expect

    assert isinstance(page, Page)
    held: list[str | bytes] = []
    went: list[str | bytes] = []  # what the page sent
    hold = {"answers": False, "stale": False}
    routes: list[WebSocketRoute] = []

    def route(ws: WebSocketRoute) -> None:
        to_server = ws.connect_to_server()
        routes.append(ws)

        def up(message: str | bytes) -> None:
            went.append(message)
            if hold["stale"] and isinstance(message, str) and '"action"' in message:
                sent = json.loads(message)  # (made in a position the table is not in)
                message = json.dumps({**sent, "version": sent["version"] + 1})
            to_server.send(message)

        def down(message: str | bytes) -> None:
            if hold["answers"]:
                held.append(message)
            else:
                ws.send(message)

        ws.on_message(up)
        to_server.on_message(down)

    page.route_web_socket(re.compile(r"/ws/"), route)
    made = create_via_api(
        server, {"name": "Ana", "seats": ["bot:greedy"], "options": {"rounds": 1}}
    )
    seat_page(page, server, made)
    assert wait_for_a_playable_tile(page)
    assert routes, "the page's connection did not come through the route"
    hand = page.locator(".hand-tile")
    count = hand.count()
    tile = page.locator(".hand-tile.playable").first.get_attribute("data-tile")
    assert tile

    # a move the server refuses (the position it was made in has moved on, it says): the
    # position comes back, to move again
    hold["stale"] = True
    page.locator(f'.hand-tile[data-tile="{tile}"]').click()
    page.locator(".train.target").first.click()
    expect(page.locator(".error").first).to_contain_text("moved on", timeout=10_000)
    expect(page.locator(".hand-tile.sending")).to_have_count(0)
    expect(page.locator(".hand-tile.playable").first).to_be_visible()
    assert page.get_by_role("button", name="Hint").is_enabled()
    hold["stale"] = False

    # the answer held back: the move shows as on its way
    prompt = page.locator(".turn-prompt").inner_text()
    hold["answers"] = True
    page.locator(f'.hand-tile[data-tile="{tile}"]').click()
    page.locator(".train.target").first.click()
    going = page.locator(f'.hand-tile[data-tile="{tile}"]')
    expect(going).to_have_class(re.compile(r"\bsending\b"))
    expect(going).to_have_attribute("aria-disabled", "true")
    assert float(going.evaluate("(el) => getComputedStyle(el).opacity")) < 0.6
    expect(page.locator(".hand")).to_have_attribute("aria-busy", "true")
    assert hand.count() == count  # (the position before the move, still)
    expect(page.locator(".turn.mine")).to_be_visible()
    expect(page.locator(".hand-tile.playable")).to_have_count(0)
    expect(page.locator(".train.target")).to_have_count(0)
    for name in ("Draw", "Pass", "Hint"):
        expect(page.get_by_role("button", name=name)).to_be_disabled()
    # what the turn asks is the position's, as before (unchanged, it is not said again)
    assert page.locator(".turn-prompt").inner_text() == prompt
    shot(page, "51-move-on-its-way")
    # another tile chosen meanwhile: nothing to choose it for
    others = page.locator(f'.hand-tile:not([data-tile="{tile}"])')
    if others.count():
        others.first.click()
        expect(page.locator(".hand-tile.selected")).to_have_count(0)
        expect(page.locator(".tile-note")).to_have_count(0)
    asked = len(went)
    page.keyboard.press("h")  # (nor a hint, by its key)
    page.wait_for_timeout(300)
    assert went[asked:] == []

    # the answer comes: the move made, the hand a tile shorter
    hold["answers"] = False
    for message in held:
        routes[-1].send(message)
    expect(hand).to_have_count(count - 1)
    expect(page.locator(f'.hand-tile[data-tile="{tile}"]')).to_have_count(0)
    expect(page.locator(".hand-tile.sending")).to_have_count(0)
    expect(page.locator(".hand")).to_have_attribute("aria-busy", "false")


def test_the_trains_a_tile_may_go_on_come_out_from_under_the_hand(
    server: str, page: object
) -> None:
    """How far the page scrolls to show the targets above the pinned hand (its top at 600
    here): all of them when they fit; when they cannot, as many as fit from the topmost if
    that brings one out from under the hand, else the nearest one under it (it scrolled
    not at all, and the trains under the hand stayed hidden)."""
    from playwright.sync_api import Page

    assert isinstance(page, Page)

    def box(top: float, bottom: float) -> dict[str, float]:
        return {"top": top, "bottom": bottom}

    cases = [
        ([box(100, 200), box(300, 400)], 0),  # all above the hand: no scrolling
        ([box(100, 200), box(550, 650)], 58),  # the lowest brought above it, with 8 to spare
        # they cannot all fit: the topmost to the top, which brings the next one out
        ([box(150, 250), box(610, 700), box(900, 1000)], 142),
        # ... unless that brings none out: then the nearest one under the hand
        ([box(100, 200), box(700, 800)], 208),
        ([box(4, 100), box(650, 750), box(900, 1000)], 158),  # (the topmost at the top)
        ([box(-50, 50), box(620, 700)], 108),  # (one out at the top already)
    ]
    page.goto(server)
    seen = page.evaluate(
        "cases => import('/static/reveal.js').then(m => cases.map(c => m.revealBy(c, 600)))",
        [c for c, _ in cases],
    )
    assert seen == [want for _, want in cases]


def test_a_hint_whose_runner_up_looks_as_good_says_the_call_is_close(
    server: str, page: object
) -> None:
    from playwright.sync_api import Page

    assert isinstance(page, Page)

    def hint(best: float, *others: float | None) -> dict[str, object]:
        moves = [{"move": "draw", "win_probability": best}]
        moves += [{"move": f"{i}-1@M", "win_probability": p} for i, p in enumerate(others)]
        return {"move": "draw", "win_probability": best, "moves": moves}

    cases = [
        (hint(0.47, 0.48), True),  # the page would say 47% then "Also: ... 48%"
        (hint(0.47, 0.466), True),  # both 47% as shown
        (hint(0.47, 0.40, 0.30), False),
        (hint(0.47), False),
        (hint(0.47, None), False),  # a move without an estimate
        (hint(0.47, 0.1, 0.2, 0.3, 0.9), False),  # the fifth is not shown
        # both 15% as shown (Math.round(100 * 0.145), 14.499…, had the runner-up at 14)
        (hint(0.15, 0.145), True),
    ]
    page.goto(server)
    seen = page.evaluate(
        "cases => import('/static/hint.js').then(m => cases.map(c => m.closeCall(c)))",
        [c for c, _ in cases],
    )
    assert seen == [want for _, want in cases]


#: shares whose percentage is rounded at a half (0.145: the binary 0.14499…), and others
#: (tests/test_i18n.py's PAGE_PERCENT: the terminal writes them as the page does)
SHARES = [0.145, 0.125, 0.285, 0.005, 0.015, 0.575, 0.995, 0.0, 0.4, 1.0]


def test_every_percentage_is_written_as_the_languages_intl_and_the_terminal_write_it(
    server: str, page: object
) -> None:
    """The page's percentages (a hint's chances, the statistics' win rates) are written by
    one helper, as ``Intl.NumberFormat`` writes a percentage in the page's language, and
    as the terminal's ``Translator.percent`` does. The hint's chances were
    ``Math.round(100 * share)``: 0.145 showed 14% where the statistics and the terminal
    said 15%."""
    from playwright.sync_api import Page

    from mextrain.i18n import LANGUAGES, Translator

    assert isinstance(page, Page)
    page.goto(server)
    for lang in LANGUAGES:
        shown = page.evaluate(
            "([shares, lang]) => import('/static/percent.js').then(m => shares.map(x =>"
            " [m.percent(x, lang), new Intl.NumberFormat(lang, { style: 'percent' }).format(x),"
            " m.wholePercent(x)]))",
            [SHARES, lang],
        )
        assert [s[0] for s in shown] == [s[1] for s in shown], lang
        assert [s[0] for s in shown] == [Translator(lang).percent(x) for x in SHARES], lang
        assert [s[2] for s in shown] == [15, 13, 29, 1, 2, 58, 100, 0, 40, 100], lang
    assert Translator("en").percent(0.145) == Translator("it").percent(0.145) == "15%"
    # French and Finnish set the sign apart with a no-break space
    assert Translator("fr").percent(0.145) == Translator("fi").percent(0.145) == "15\u00a0%"


def test_a_hints_chances_are_written_as_the_languages_intl_writes_them(
    server: str, page: object
) -> None:
    """A hint of a 0.145 chance (every move's, as the server might send it) says 15% in
    each language ("15 %" in French and Finnish, a no-break space before the sign), as
    the statistics and the terminal write it: the page said 14%."""
    from playwright.sync_api import Page, WebSocketRoute, expect

    from mextrain.i18n import LANGUAGES, Translator

    assert isinstance(page, Page)

    def chances_of(ws: WebSocketRoute) -> None:
        to_server = ws.connect_to_server()

        def told(message: str | bytes) -> None:
            m = json.loads(message)
            if m.get("type") == "hint":
                m["win_probability"] = 0.145
                for h in m.get("moves") or []:
                    h["win_probability"] = 0.145
            ws.send(json.dumps(m))

        to_server.on_message(told)

    page.route_web_socket(re.compile(r"/ws/"), chances_of)
    made = create_via_api(server, {"name": "Ana", "seats": ["bot:greedy"]})
    for lang in LANGUAGES:
        t = Translator(lang)
        seat_page(page, server, made, lang)
        expect(page.locator(".turn.mine")).to_be_visible(timeout=15_000)
        page.keyboard.press("h")
        hint = page.locator(".hint")
        chance = t("web.hint.chance", move="", chance=t.percent(0.145)).strip()
        expect(hint).to_contain_text(chance, timeout=30_000)
        assert chance.startswith("(15\u00a0%" if lang in ("fr", "fi") else "(15%"), chance


def test_a_phone_brings_the_trains_a_tile_may_go_on_out_from_under_the_hand(
    server: str, tmp_path: Path
) -> None:
    """Eight seats on an upright phone: the hand, pinned to the bottom of the screen, with
    a hint showing covers the last trains (the Mexican train among them). Choosing a tile
    scrolls the trains it may go on into sight above the hand, so they can be tapped (or
    a tile dropped there)."""
    need_browser()
    from playwright.sync_api import expect, sync_playwright

    made = create_via_api(
        server, {"name": "Cy", "seats": ["bot:greedy"] * 7, "options": {"rounds": 2}}
    )  # (two rounds: a round may end before a second tile of Cy's fits the Mexican train)
    with sync_playwright() as pw:
        context = pw.chromium.launch_persistent_context(
            str(tmp_path / "phone"),
            executable_path=CHROMIUM,
            args=ARGS,
            headless=True,
            viewport={"width": 390, "height": 844},
            has_touch=True,
            is_mobile=True,
            locale="en-GB",
        )
        try:
            page = context.pages[0] if context.pages else context.new_page()
            page.goto(server + "/stats")
            page.evaluate(
                "([code, token]) => localStorage.setItem('mextrain.token.' + code, token)",
                [made["code"], made["token"]],
            )
            page.goto(f"{server}/t/{made['code']}")
            expect(page.locator(".hand-tile").first).to_be_visible(timeout=15_000)
            checked = 0
            deadline = time.monotonic() + 120
            while checked < 2 and time.monotonic() < deadline:
                if page.locator(".overlay").is_visible():  # the round's result: on to the next
                    page.keyboard.press("Escape")
                    continue
                if not page.locator(".turn.mine").is_visible():
                    page.wait_for_timeout(50)
                    continue
                playable = page.locator(".hand-tile.playable")
                # the hint's line makes the pinned hand taller: the Mexican train goes under it
                # (the second time the hint comes after the tile is chosen)
                hint_first = checked == 0
                if (
                    hint_first
                    and playable.count()
                    and not page.locator(".hint").inner_text().strip()
                ):
                    page.get_by_role("button", name="Hint").tap()
                    expect(page.locator(".hint")).not_to_be_empty(timeout=15_000)
                mexican = None
                for k in range(playable.count()):  # a tile that may go on the Mexican train
                    page.evaluate("() => window.scrollTo(0, 0)")  # the board's top in sight
                    playable.nth(k).tap()
                    expect(page.locator(".train.target").first).to_be_visible()
                    if page.locator('.train.target[data-train="M"]').count():
                        mexican = k
                        break
                if mexican is None:
                    page.keyboard.press("Escape")  # the chosen tile put back
                    make_a_move_and_wait(page)
                    continue
                if not hint_first:
                    page.get_by_role("button", name="Hint").tap()
                    expect(page.locator(".hint")).not_to_be_empty(timeout=15_000)
                    expect(page.locator(".hand-tile.selected")).to_have_count(1)
                page.wait_for_timeout(200)
                seen = page.evaluate(
                    "() => { const hand = document.querySelector('.hand-area')"
                    ".getBoundingClientRect().top;"
                    " return [...document.querySelectorAll('.train.target')].map((t) => {"
                    " const r = t.getBoundingClientRect();"
                    " return {train: t.dataset.train, top: r.top, bottom: r.bottom, hand}; }); }"
                )
                lowest = max(r["bottom"] for r in seen)
                assert lowest <= seen[0]["hand"], seen  # above the hand, not under it
                assert min(r["top"] for r in seen) >= 0, seen  # and none out at the top
                # it takes the tile (and until the page shows it, the position before it is
                # still on the page: the turn Cy's, the tile played still in the hand)
                shown_after(page, page.locator('.train.target[data-train="M"]').tap)
                checked += 1
            assert checked == 2, "no tile was played on the Mexican train at eight seats"
            shot(page, "08-phone-8-seats-targets", full_page=False)
        finally:
            context.close()
