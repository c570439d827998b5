"""The table page as players meet it: room for the board on every screen, shortcuts
that only fire when meant, one table per click, the round's end in words, hints with
their runners-up, a language change that keeps the game in hand, and the replay."""

from __future__ import annotations

import contextlib
import json
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_kit import (
    ARGS,
    CHROMIUM,
    WCAG_JS,
    create_via_api,
    game_of,
    join_via_api,
    make_a_move,
    make_a_move_and_wait,
    need_browser,
    play_all_until_over,
    play_until_over,
    replay_to_the_end,
    seat_page,
    shot,
    touch_phone,
)

from qr_reading import read_qr_modules
from stored_tables import NAMES, refused_on, store_table, table_at

pytestmark = pytest.mark.browser

# (label, viewport, seats after the creator's, language)
SCREENS = [
    ("desktop-8-seats", (1280, 860), 7, "en"),
    ("laptop-6-seats", (1024, 768), 5, "fr"),
    ("desktop-4-seats", (1280, 860), 3, "fi"),
    ("phone-6-seats", (390, 844), 5, "en"),
    ("phone-sideways-4-seats", (844, 390), 3, "it"),
]


def at_table(
    browser: Any, server: str, made: dict[str, str], viewport: tuple[int, int], lang: str
) -> tuple[Any, Any]:
    """A new browser context at ``viewport``, seated at the table ``made`` as its creator,
    once the hand shows."""
    from playwright.sync_api import expect

    width, height = viewport
    context = browser.new_context(viewport={"width": width, "height": height}, locale=lang)
    page = context.new_page()
    seat_page(page, server, made, lang)
    expect(page.locator(".hand-tile").first).to_be_visible(timeout=15_000)
    return context, page


def test_the_board_keeps_its_room_on_every_screen(server: str, tmp_path: Any) -> None:
    need_browser()
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            for label, (width, height), others, lang in SCREENS:
                made = create_via_api(
                    server,
                    {"name": "Bartholomew Longname", "seats": ["bot:greedy"] * others},
                )
                context, page = at_table(browser, server, made, (width, height), lang)
                size = page.evaluate(
                    "() => ({board: document.querySelector('.board').offsetWidth,"
                    " tiles: Math.min(...[...document.querySelectorAll('.train-tiles')]"
                    ".map(e => e.offsetWidth)),"
                    " page: document.scrollingElement.scrollWidth, view: innerWidth,"
                    " hand: getComputedStyle(document.querySelector('.hand-area')).position})"
                )
                shot(page, f"11-{label}", full_page=False)
                # no sideways scrolling of the page; the board has most of the width
                assert size["page"] <= size["view"], (label, size)
                share = 0.6 if others <= 3 and width >= 1200 else 0.9
                assert size["board"] >= share * (width - 40), (label, size)
                assert size["tiles"] >= 200, (label, size)  # room for a train's tiles
                # a phone on its side: the hand does not stay over the trains
                assert (size["hand"] == "static") == (height < 500), (label, size)
                # bots by seat in the reader's language, their level on their train
                bot = {"en": "Bot 2", "fr": "Robot 2", "fi": "Botti 2", "it": "Bot 2"}[lang]
                expect(page.locator(".train").nth(1)).to_contain_text(bot)
                expect(page.locator(".train").nth(1).locator(".level")).to_be_visible()
                if width < 800:  # the statistics page fits a phone too
                    page.goto(server + "/stats")
                    # (its tables, or, before any game has finished here, that there is none)
                    page.wait_for_selector(".stats table, .stats-none")
                    wide = page.evaluate("() => document.scrollingElement.scrollWidth")
                    assert wide <= width, (label, wide)
                context.close()

            # four people with long names: every total of the score sheet in sight, no
            # name running over its train, the hand right under the board
            made = create_via_api(server, {"name": "Grandma Rosemary", "seats": ["open"] * 3})
            for name in ("Uncle Robert Junior", "Wolfeschlegelsteinhause", "Cousin Ellie May"):
                join_via_api(server, made["code"], name)
            context, page = at_table(browser, server, made, (1280, 860), "en")
            fit = page.evaluate(
                "() => ({totals: [...document.querySelectorAll('.layout .sheet tfoot td')]"
                ".map(td => td.getBoundingClientRect().right),"
                " side: [document.querySelector('.side').scrollWidth,"
                " document.querySelector('.side').clientWidth],"
                " owners: [...document.querySelectorAll('.train-owner')]"
                ".filter(e => e.scrollWidth > e.clientWidth + 1).length,"
                " broken: [...document.querySelectorAll('.train-owner .who')]"
                ".filter(e => !e.textContent.includes(' ')"
                " && e.offsetHeight > 1.6 * parseFloat(getComputedStyle(e).fontSize))"
                ".map(e => e.textContent),"
                " lines: [...document.querySelectorAll('.train-owner .who')]"
                ".map(e => Math.round(e.offsetHeight / parseFloat(getComputedStyle(e).lineHeight)"
                " || e.offsetHeight / (1.2 * parseFloat(getComputedStyle(e).fontSize)))),"
                " titles: [...document.querySelectorAll('.train-owner .who')].map(e => e.title),"
                " board: document.querySelector('.board').getBoundingClientRect().bottom,"
                " hand: document.querySelector('.hand-area').getBoundingClientRect().top})"
            )
            shot(page, "11-desktop-4-people", full_page=False)
            assert len(fit["totals"]) == 4
            assert max(fit["totals"]) <= 1280, fit
            assert fit["side"][0] <= fit["side"][1], fit  # nothing hidden sideways
            assert fit["owners"] == 0, fit
            # a long name is cut short with "…", never broken across lines inside a word,
            # and the whole of it is there on hover
            assert fit["broken"] == [], fit
            assert max(fit["lines"]) <= 2, fit
            assert "Wolfeschlegelsteinhause" in fit["titles"], fit
            assert 0 <= fit["hand"] - fit["board"] <= 20, fit
            context.close()
        finally:
            browser.close()


def test_one_click_one_table_and_shortcuts_only_when_meant(server: str, page: Any) -> None:
    from playwright.sync_api import expect

    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    posts: list[str] = []

    def count(request: Any) -> None:
        if request.method == "POST" and request.url.endswith("/api/tables"):
            posts.append(request.url)

    page.on("request", count)
    page.goto(server + "/")
    page.get_by_label("Your name").fill("Ana")
    rounds = page.get_by_label("Rounds")
    rounds.click()
    rounds.press("End")
    rounds.press("Backspace")
    rounds.press("Backspace")
    rounds.type("1")  # an empty box is not 13 again: "1", not "131"
    expect(rounds).to_have_value("1")
    page.get_by_role("button", name="Create the table").dblclick()
    expect(page.locator(".hand-tile").first).to_be_visible(timeout=15_000)
    page.wait_for_timeout(300)
    assert len(posts) == 1, posts  # a double click creates one table, not two

    # the status line's words come from the catalogue, capitalised where they start
    status = re.compile(r"Round 1 / 1.*Engine.*Boneyard: \d+")
    expect(page.locator(".status")).to_contain_text(status)
    expect(page.locator(".turn.mine")).to_be_visible(timeout=15_000)
    log_before = page.locator(".move-log li").count()
    hand_before = page.locator(".hand-tile").count()
    # Ctrl+D is the browser's bookmark, Ctrl+P its print: never a draw or a pass
    page.keyboard.press("Control+d")
    page.keyboard.press("Control+p")
    page.keyboard.press("Alt+d")
    page.wait_for_timeout(400)
    expect(page.locator(".turn.mine")).to_be_visible()
    assert page.locator(".move-log li").count() == log_before
    assert page.locator(".hand-tile").count() == hand_before

    # the hint names the best move and the next ones, with their chances
    page.keyboard.press("h")
    hint = page.locator(".hint")
    expect(hint).to_contain_text(re.compile(r"^Hint: .*\(\d+% to win the round\)"), timeout=30_000)
    if page.locator(".hand-tile.playable").count() >= 2:
        expect(hint.locator(".hint-more")).to_contain_text(re.compile(r"Also: .+ \d+%"))
    assert " on Mexican train" not in hint.inner_text()  # "on the Mexican train"

    # a tile that matches no train's open end says no train takes it, for all to see (not
    # only a screen reader); one that matches a train a rule keeps it off (a marker down)
    # says that rule instead (test_a_tile_chosen_that_cannot_be_played_says_the_rule...)
    labels = page.locator("button.train[data-train]").evaluate_all(
        "trains => trains.map((train) => train.getAttribute('aria-label'))"
    )
    ends = {pip for label in labels for pip in re.findall(r"Open end (\d+)", label)}
    assert ends, labels
    stuck = [
        tile
        for tile in page.locator(".hand-tile:not(.playable)").all()
        if not set((tile.get_attribute("data-tile") or "").split("-")) & ends
    ]
    if stuck:
        tile = stuck[0].get_attribute("data-tile")
        stuck[0].click()
        if page.locator(".turn-prompt").inner_text().startswith("Open double to answer first"):
            # (a double the bots left open keeps every other tile off: that rule is the why)
            expect(page.locator(".tile-note")).to_have_text(
                re.compile(r"^The open double \d+-\d+ on .+ must be answered first\.")
            )
        else:
            expect(page.locator(".tile-note")).to_have_text(f"No train takes {tile} now.")
        stuck[0].click()  # (put back: the words go with it)
        expect(page.locator(".tile-note")).to_have_count(0)

    # a language change keeps the chosen tile and the game: the page is not rebuilt, nor
    # the connection (others would see the player go offline for a moment)
    sockets: list[Any] = []
    page.on("websocket", lambda ws: sockets.append(ws))
    playable = page.locator(".hand-tile.playable")
    if playable.count():
        playable.first.click()
        expect(page.locator(".hand-tile.selected")).to_have_count(1)
        page.get_by_label("Language").select_option("fr")
        expect(page.locator(".status")).to_contain_text("Pioche\u00a0: ")
        expect(page.locator(".hand-tile.selected")).to_have_count(1)
        expect(page.get_by_role("button", name="Piocher")).to_be_visible()
        page.keyboard.press("Escape")
        page.get_by_label("Langue").select_option("en")
    expect(page.get_by_role("button", name="Draw")).to_be_visible()
    page.wait_for_timeout(300)
    assert sockets == [], "a language switch connected again"
    assert not errors, errors


def _a_short_game(page: Any, server: str, rounds: int) -> None:
    """Ana's table against a greedy bot, ``rounds`` short rounds of a double-4 set with
    hands of 4, opened on ``page`` and dealt (her hand in sight)."""
    from playwright.sync_api import expect

    made = create_via_api(
        server,
        {
            "name": "Ana",
            "seats": ["bot:greedy"],
            "options": {"rounds": rounds, "max_pip": 4, "hand_size": {"2": 4}},
        },
    )
    seat_page(page, server, made)
    expect(page.locator(".hand-tile").first).to_be_visible(timeout=15_000)


#: one winner is "Winner", a tie "Winners"
WINNERS = re.compile(r"^(Winner: (Ana|Bot 2)|Winners: \u2068?Ana\u2069?, \u2068?Bot 2)")


def test_the_round_ends_in_words_and_the_replay_steps_once(server: str, page: Any) -> None:
    from playwright.sync_api import expect

    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    _a_short_game(page, server, rounds=1)
    play_until_over(page, double_click=True)  # a second click is never a stale move
    assert page.locator(".error").count() == 0
    log = page.locator(".move-log li").first.inner_text()
    assert log.startswith("\u2068"), log  # names isolated from what follows them
    dialog = page.get_by_role("dialog")
    # how the round ended, who went out or that it is blocked, with the points
    expect(dialog.locator(".how-ended")).to_have_text(
        re.compile(r"^((Ana|Bot 2) went out|The round is blocked)\.$")
    )
    # the points in a table with its headers: the player, the round's points, the total,
    # and the tiles each was left with, laid down to be counted (none for who went out)
    expect(dialog.get_by_role("columnheader")).to_have_text(
        ["Player", "Round 1", "Total", "Tiles left"]
    )
    expect(dialog.get_by_role("row")).to_have_count(3)
    left = dialog.locator("td.left-tiles")
    expect(left).to_have_count(2)
    shown = [
        sorted(c.get_attribute("data-tile") for c in left.nth(i).locator("[role=img]").all())
        for i in range(2)
    ]
    if "went out" in dialog.locator(".how-ended").inner_text():
        assert [] in shown, shown
        expect(left.filter(has_text="none")).to_have_count(1)
    # each seat's tiles, and the points they count: the round's points of its row
    rows = dialog.locator("tbody tr")
    for i in range(2):
        pips = sum(int(a) + int(b) for a, b in (x.split("-") for x in shown[i]))
        points = int(rows.nth(i).locator("td").first.inner_text())
        assert points >= pips, (i, shown[i], points)  # (an open double may add a penalty)
    expect(dialog.locator(".winners")).to_have_text(WINNERS)
    links = dialog.locator("p", has=page.get_by_role("link", name="Replay"))
    expect(links).to_have_text("Download the record · Replay")
    shot(page, "12-round-end-in-words")
    # the result stays with the table: after the dialog, and after a reload
    dialog.get_by_role("button", name="Continue").click()
    page.reload()
    result = page.locator(".result")
    expect(result.locator(".winners")).to_have_text(WINNERS)
    expect(page.locator(".status")).to_contain_text("The game is over")
    dialog = result

    dialog.get_by_role("link", name="Replay").click()
    slider = page.get_by_role("slider", name="Step")
    expect(slider).to_be_visible(timeout=10_000)
    steps = page.locator(".controls span").filter(has_text=re.compile(r"^\d+ / \d+$"))
    expect(steps).to_have_text(re.compile(r"^0 / \d+$"))
    slider.focus()
    page.keyboard.press("ArrowRight")  # the slider's own step; the page adds none
    expect(steps).to_have_text(re.compile(r"^1 / \d+$"))
    page.locator("body").click(position={"x": 5, "y": 300})
    page.keyboard.press("ArrowRight")  # off the slider, the page's own key steps
    expect(steps).to_have_text(re.compile(r"^2 / \d+$"))
    last = int(steps.inner_text().split(" / ")[1])
    slider.fill(str(last))
    # the round's end names each score's player
    ended = re.compile("Round over \u2068?Ana\u2069? \\d+ · \u2068?Bot 2 \\(beginner\\)")
    expect(page.locator(".replay")).to_contain_text(ended)
    # in French the bot is the reader's "Robot 2 (débutant)", here and in the statistics
    page.get_by_label("Language").select_option("fr")
    expect(page.locator(".replay")).to_contain_text("Robot 2 (débutant)")
    page.goto(server + "/stats")
    # (other tests' games finish on the same server meanwhile: this one need not be first)
    expect(page.locator(".recent li").filter(has_text="Robot 2 (débutant)")).not_to_have_count(0)
    page.get_by_label("Langue").select_option("en")
    assert not errors, errors


def _a_game_of_two_rounds(server: str, page: Any) -> int:
    """A game of two short rounds of Ana's against a bot, played on ``page`` by clicking
    to its end, where the page is left with the game's result open; its game's id."""
    from playwright.sync_api import expect

    _a_short_game(page, server, rounds=2)
    for _ in range(2):
        expect(page.locator(".hand-tile").first).to_be_visible(timeout=15_000)
        play_until_over(page)
        dialog = page.get_by_role("dialog")
        if page.locator(".result-links").count():
            break
        dialog.get_by_role("button", name="Continue").click()
        expect(dialog).to_have_count(0)
    link = page.get_by_role("dialog").get_by_role("link", name="Replay")
    return int((link.get_attribute("href") or "").rsplit("/", 1)[1])


def test_the_replay_says_at_each_rounds_end_how_it_ended_the_totals_and_the_winners(
    server: str, page: Any
) -> None:
    """The table's result says how a round ended, the totals and, at the game's end, who
    won; the replay's round end gave the round's points alone, so that a game watched
    again never said who won it. Each round's last step says how it ended (who went out,
    or blocked), the totals after it and, after the last round, the winners."""
    import urllib.request

    from playwright.sync_api import expect

    game = _a_game_of_two_rounds(server, page)
    with urllib.request.urlopen(f"{server}/api/games/{game}/replay") as res:
        data = json.load(res)
    names = ["Ana", "Bot 2 (beginner)"]
    page.get_by_role("dialog").get_by_role("link", name="Replay").click()
    totals = [0, 0]
    for k, rnd in enumerate(data["rounds"]):
        page.locator(".replay .controls select").select_option(str(k))
        replay_to_the_end(page)
        end = rnd["frames"][-1]
        if end["ended"] == "out":
            how = f"\u2068{names[end['hand_sizes'].index(0)]}\u2069 went out."
        else:
            how = "The round is blocked."
        expect(page.locator(".replay .how-ended")).to_have_text(how)
        totals = [a + b for a, b in zip(totals, rnd["scores"], strict=True)]
        said = " · ".join(f"\u2068{n}\u2069 {p}" for n, p in zip(names, totals, strict=True))
        expect(page.locator(".replay-totals")).to_have_text(f"Total {said}")
        winners = page.locator(".replay .winners")
        if k < len(data["rounds"]) - 1:
            expect(winners).to_have_count(0)
            # (a step before the end says none of it)
            page.locator(".replay input[type=range]").fill("0")
            expect(page.locator(".replay .how-ended")).to_have_count(0)
            expect(page.locator(".replay-totals")).to_have_count(0)
        else:
            assert totals == data["totals"], (totals, data["totals"])
            won = ", ".join(f"\u2068{names[s]}\u2069" for s in data["winners"])
            expect(winners).to_have_text(
                f"Winner: {won}" if len(data["winners"]) == 1 else f"Winners: {won}"
            )
    shot(page, "13-replay-end-totals-winners")


def test_the_replay_steps_on_from_a_rounds_end_to_the_next_rounds_deal(
    server: str, page: Any
) -> None:
    """At a round's last step the replay's forward button (and the right arrow key) did
    nothing, and at a deal its back button (and the left arrow) did nothing: the round's
    list was the only way on. Forward from a round's end goes to the next round's deal,
    back from a deal to the round before's end."""
    from playwright.sync_api import expect

    game = _a_game_of_two_rounds(server, page)
    page.goto(f"{server}/replay/{game}")
    rounds = page.locator(".replay .controls select")
    slider = page.locator(".replay input[type=range]")
    expect(slider).to_be_visible(timeout=10_000)
    replay_to_the_end(page)
    expect(rounds).to_have_value("0")
    last = slider.get_attribute("max")
    page.get_by_role("button", name="Forward one step").click()
    expect(rounds).to_have_value("1")
    expect(slider).to_have_value("0")
    page.get_by_role("button", name="Back one step").click()
    expect(rounds).to_have_value("0")
    expect(slider).to_have_value(last or "")
    expect(page.locator(".replay-scores")).to_be_visible()  # (the round's end, as shown)
    # the page's own keys, off the slider, go the same way
    page.locator("body").click(position={"x": 5, "y": 300})
    page.keyboard.press("ArrowRight")
    expect(rounds).to_have_value("1")
    expect(slider).to_have_value("0")
    page.keyboard.press("ArrowLeft")
    expect(rounds).to_have_value("0")
    expect(slider).to_have_value(last or "")
    # the game's first step and last step stay where they are
    page.get_by_role("button", name="First step").click()
    page.get_by_role("button", name="Back one step").click()
    expect(rounds).to_have_value("0")
    expect(slider).to_have_value("0")
    rounds.select_option("1")
    replay_to_the_end(page)
    end = slider.input_value()
    page.get_by_role("button", name="Forward one step").click()
    expect(rounds).to_have_value("1")
    expect(slider).to_have_value(end)
    shot(page, "13-replay-steps-across-rounds")
    # two keys at once from a round's end: the deal, then its first move
    rounds.select_option("0")
    replay_to_the_end(page)
    press_at_once(page, "ArrowRight", "ArrowRight")
    expect(rounds).to_have_value("1")
    expect(slider).to_have_value("1")


def press_at_once(page: Any, *keys: str) -> None:
    """Keys pressed before the page renders again (a fast typist, a busy machine): each
    dispatched to the window in one go, with no render between them."""
    page.evaluate(
        """keys => { for (const key of keys)
            window.dispatchEvent(new KeyboardEvent("keydown", { key, bubbles: true })); }""",
        list(keys),
    )


def test_two_steps_taken_before_the_replay_renders_are_two_steps(server: str, page: Any) -> None:
    """Each step went on from the position last rendered: two arrow keys pressed before
    the page rendered again moved one step (seen in CI, where a test pressed two and the
    replay analysed the wrong seat's position). Each step now goes on from the one before."""
    from playwright.sync_api import expect

    page.goto(server + "/replay")
    page.get_by_label("Record file").set_input_files(str(RECORDS / "double6_complete.json"))
    expect(page.get_by_role("heading", level=2)).to_have_text("double6_complete.json")
    slider = page.locator(".replay input[type=range]")
    press_at_once(page, "ArrowRight", "ArrowRight")
    expect(slider).to_have_value("2")
    press_at_once(page, "ArrowRight", "ArrowRight", "ArrowRight")
    expect(slider).to_have_value("5")
    press_at_once(page, "ArrowLeft", "ArrowLeft")
    expect(slider).to_have_value("3")


def test_a_key_pressed_as_soon_as_the_replay_shows_is_not_lost(server: str, page: Any) -> None:
    """The replay listened for its keys only once the page had been painted: a key pressed
    as soon as the replay showed was lost (seen in CI: a test pressed two as the record
    opened, one was lost, and the replay analysed the wrong seat's position). The key is
    pressed here the moment the replay is in the page, before it is painted."""
    from playwright.sync_api import expect

    page.goto(server + "/replay")
    page.evaluate(
        """() => new MutationObserver((_, seen) => {
            if (!document.querySelector(".replay-view")) return;
            seen.disconnect();
            window.dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowRight" }));
        }).observe(document.body, { childList: true, subtree: true })"""
    )
    page.get_by_label("Record file").set_input_files(str(RECORDS / "double6_complete.json"))
    expect(page.get_by_role("heading", level=2)).to_have_text("double6_complete.json")
    expect(page.locator(".replay input[type=range]")).to_have_value("1")


RECORDS = Path(__file__).resolve().parents[1] / "records"


def test_a_record_file_opened_in_the_browser_replays_and_a_broken_one_says_why(
    tmp_path: Any, page: Any
) -> None:
    """A record from elsewhere (a game saved by mextrain play, one downloaded here) could
    be stepped through in a terminal only (`mextrain replay --watch`). The statistics lead
    to a page that opens one from a file, or one dropped on it: checked against its rules
    and replayed as a kept game is, to the winners, a game in progress to where its record
    stops; a file that is no record, or breaks the rules, says why: where, counted from 1
    (the reader's own words had "round 0, action 1", in English whatever the page's
    language), and the rule broken in the page's language. Nothing of it is kept."""
    import urllib.request

    from playwright.sync_api import expect

    from conftest import running_server
    from mextrain.records import replay_record

    complete = RECORDS / "double6_complete.json"
    replayed = replay_record(complete.read_text(encoding="utf-8"))
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "mexican-train-record", ', encoding="utf-8")
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    with running_server(tmp_path / "open.sqlite3", 1) as base:
        page.goto(base + "/stats")
        page.get_by_role("link", name="Replay a record file").click()
        expect(page.get_by_role("heading", level=1)).to_have_text("Replay a game record")
        assert page.url == base + "/replay"
        chooser = page.get_by_label("Record file")
        chooser.set_input_files(str(complete))
        expect(page.get_by_role("heading", level=2)).to_have_text("double6_complete.json")
        expect(page.get_by_role("link", name="Download the record")).to_have_count(0)
        rounds = page.locator(".replay .controls select")
        expect(rounds.locator("option")).to_have_count(len(replayed.rounds))
        rounds.select_option(str(len(replayed.rounds) - 1))
        replay_to_the_end(page)
        names = replayed.players
        won = ", ".join(f"\u2068{names[s]}\u2069" for s in replayed.winners)
        expect(page.locator(".replay .winners")).to_have_text(
            f"Winner: {won}" if len(replayed.winners) == 1 else f"Winners: {won}"
        )
        said = " · ".join(
            f"\u2068{n}\u2069 {p}" for n, p in zip(names, replayed.totals, strict=True)
        )
        expect(page.locator(".replay-totals")).to_have_text(f"Total {said}")
        expect(page.locator(".replay-view")).not_to_contain_text("still in progress")
        shot(page, "56-record-file-replayed")
        # a game in progress: to where its record stops, and said so
        chooser.set_input_files(str(RECORDS / "double6_in_progress.json"))
        expect(page.get_by_role("heading", level=2)).to_have_text("double6_in_progress.json")
        expect(page.locator(".replay-view")).to_contain_text(
            "This game is still in progress: its record stops here."
        )
        expect(page.locator(".replay input[type=range]")).to_have_value("0")  # (afresh)
        # a record that breaks the rules, and a file that is no record: why, in words
        chooser.set_input_files(str(RECORDS / "illegal_draw_with_a_play.json"))
        alert = page.get_by_role("alert")
        expect(alert).to_have_text(
            "This record breaks the rules at round 1, move 2 (1:draw): "
            "Ben has a tile that fits and must play it."
        )
        expect(page.locator(".replay-view")).to_have_count(0)
        chooser.set_input_files(str(broken))
        expect(alert).to_contain_text("This file is not a game record, or it is damaged (not JSON")
        # in French, the reader's words for where in English, as the terminal gives them
        page.evaluate("() => localStorage.setItem('mextrain.lang', 'fr')")
        page.reload()
        expect(page.get_by_role("heading", level=1)).to_have_text("Revoir une partie enregistrée")
        page.get_by_label("Fichier de la partie").set_input_files(str(broken))
        expect(page.get_by_role("alert")).to_contain_text(
            "Ce fichier n'est pas une partie enregistrée, ou il est endommagé (not JSON"
        )
        shot(page, "56-record-file-broken-fr")
        page.get_by_label("Fichier de la partie").set_input_files(
            str(RECORDS / "illegal_draw_with_a_play.json")
        )
        expect(page.get_by_role("alert")).to_have_text(
            "Cette partie enregistrée est contraire aux règles à la manche 1, coup 2 (1:draw)"
            "\u00a0: Ben a un domino qui convient et doit le jouer."
        )
        # a file dropped on the page opens as one chosen
        page.evaluate(
            """(text) => {
              const data = new DataTransfer();
              data.items.add(new File([text], "dropped.json", { type: "application/json" }));
              const where = document.querySelector(".record-open");
              const how = { dataTransfer: data, bubbles: true, cancelable: true };
              where.dispatchEvent(new DragEvent("dragover", how));
              where.dispatchEvent(new DragEvent("drop", how));
            }""",
            complete.read_text(encoding="utf-8"),
        )
        expect(page.get_by_role("heading", level=2)).to_have_text("dropped.json")
        expect(page.get_by_role("alert")).to_have_count(0)
        # nothing of it was kept
        with urllib.request.urlopen(base + "/api/games") as res:
            assert json.load(res) == []
    assert errors == []


@pytest.mark.parametrize("lang", ["fr", "fi"])
def test_the_record_files_button_speaks_the_pages_language(
    server: str, page: Any, lang: str
) -> None:
    """The file input's own button is the browser's: "Choose File" and "No file chosen"
    whatever the page's language. The page's own button stands for it, in its words: a
    click on it chooses a file, which opens; the keyboard still reaches the input, and the
    focus ring is drawn on the page's button; the browser's is not seen, lying over the
    page's button."""
    from playwright.sync_api import expect

    from mextrain.i18n import Translator

    t = Translator(lang)
    page.goto(server + "/help")
    page.evaluate("lang => localStorage.setItem('mextrain.lang', lang)", lang)
    page.goto(server + "/replay")
    button = page.locator(".file-pick .file-button")
    expect(button).to_have_text(t("web.replay.choose_file"))
    expect(button).to_be_visible()
    box = button.bounding_box()
    assert box is not None
    assert box["height"] >= 24
    # the browser's own input lies unseen over the page's button, where a click finds it
    native = page.get_by_label(t("web.replay.open_file"))
    assert native.evaluate("i => getComputedStyle(i).opacity") == "0"
    assert native.bounding_box() == box
    with page.expect_file_chooser() as chosen:  # (where it is when clicked: the page may
        native.click()  # still move as it settles, and a click where it was went nowhere)
    chosen.value.set_files(str(RECORDS / "double6_complete.json"))
    expect(page.get_by_role("heading", level=2)).to_have_text("double6_complete.json")
    page.get_by_role("heading", level=1).click()
    native.focus()
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Tab")
    expect(native).to_be_focused()
    assert button.evaluate("b => getComputedStyle(b).outlineStyle") == "solid"
    # (and not cut off: a clipping box around the button showed only its corners)
    assert button.evaluate("b => getComputedStyle(b.parentElement).overflow") == "visible"
    shot(page, f"62-record-file-button-{lang}")


def test_a_phone_shows_the_replays_trains_before_its_hands(server: str) -> None:
    """On a phone the replay showed the hands first, one above the other, and the trains
    under them: a table of four had its first train at the foot of the first screen and
    its Mexican train under it, a scroll further. On a phone held upright (375 by 740) the
    trains come first, right under the steps: at the deal the first train starts in the
    upper half of the screen and the whole board (the engine, four trains and the Mexican
    train) is in the first screen, the hands after it; at the round's last step too, the
    trains long, the first one starts in that upper half (the steps and the move's line
    take some 250 pixels; half the screen leaves room for the move's line on three lines;
    the hands put it at some 580). On a desktop (1280 by 800) the hands stay above the
    trains, side by side, as they were."""
    need_browser()
    from playwright.sync_api import expect

    made = create_via_api(
        server, {"name": "Ana", "seats": ["bot:greedy"] * 3, "options": {"rounds": 1}}
    )
    errors: list[str] = []
    with touch_phone(375, 740) as (_, page):
        page.on("pageerror", lambda err: errors.append(str(err)))
        seat_page(page, server, made)
        expect(page.locator(".hand-tile").first).to_be_visible(timeout=15_000)
        # Ana leaves the table to a bot: the bots play the round out
        page.on("dialog", lambda dialog: dialog.accept())
        page.get_by_role("button", name="Leave the table").click()
        page.goto(f"{server}/replay/{game_of(server, made['code'])}")
        slider = page.locator(".replay input[type=range]")
        expect(slider).to_be_visible(timeout=10_000)
        trains, hands = page.locator(".replay .train"), page.locator(".replay-hand")
        expect(trains).to_have_count(6)
        expect(hands).to_have_count(4)

        def box(locator: Any) -> dict[str, float]:
            found = locator.bounding_box()
            assert found is not None
            return dict(found)

        page.evaluate("() => window.scrollTo(0, 0)")
        first, mexican = box(trains.first), box(page.locator(".replay .train.mexican"))
        shot(page, "13-replay-phone-deal", full_page=False)
        assert first["y"] <= 740 / 2, first
        assert mexican["y"] + mexican["height"] <= 740, mexican
        assert box(hands.first)["y"] >= mexican["y"] + mexican["height"], "hands first"
        replay_to_the_end(page)
        expect(page.locator(".replay-scores")).to_be_visible()
        page.evaluate("() => window.scrollTo(0, 0)")
        assert box(trains.first)["y"] <= 740 / 2, box(trains.first)
        last_train = box(trains.last)
        assert box(hands.first)["y"] >= last_train["y"] + last_train["height"]
        # (the round's end in words after the hands)
        last_hand = box(hands.last)
        assert box(page.locator(".replay-scores"))["y"] >= last_hand["y"] + last_hand["height"]
        shot(page, "13-replay-phone-end")
        assert page.evaluate("() => document.scrollingElement.scrollWidth") <= 375

        # a desktop: the hands above the trains, two or more abreast
        page.set_viewport_size({"width": 1280, "height": 800})
        page.evaluate("() => window.scrollTo(0, 0)")
        ends = [box(hands.nth(k)) for k in range(4)]
        assert ends[0]["y"] == ends[1]["y"], ends
        assert max(h["y"] + h["height"] for h in ends) <= box(trains.first)["y"]
        shot(page, "13-replay-desktop-end")
    assert not errors, errors


def _laid(page: Any, within: str) -> set[str]:
    """The tiles on the trains as the page draws them ("4-1": laid on a 4)."""
    tiles = page.locator(f"{within} .train-tiles [role=img]")
    return {str(x.get_attribute("data-tile")) for x in tiles.all()}


_PLAYED = re.compile(r"(\d+-\d+) on ")


def test_the_last_moves_write_a_tile_as_it_lies_on_its_train(server: str, page: Any) -> None:
    # the trains showed 4-1 laid on the 4-4 engine, the last moves "1-4"
    from playwright.sync_api import expect

    _a_short_game(page, server, rounds=1)
    high_first = 0
    deadline = time.monotonic() + 120
    while not page.locator(".overlay").is_visible():
        assert time.monotonic() < deadline, "the round did not end in time"
        if not page.locator(".turn.mine").is_visible():
            page.wait_for_timeout(50)
            continue
        laid = _laid(page, ".board")
        for line in page.locator(".move-log li").all_inner_texts():
            for tile in _PLAYED.findall(line):
                assert tile in laid, (line, sorted(laid))
                low, high = map(int, tile.split("-"))
                high_first += low > high
        make_a_move_and_wait(page)
    assert high_first  # (every train's first tile is laid on the 4)
    # the replay says each step's tile as its trains show it
    page.get_by_role("dialog").get_by_role("link", name="Replay").click()
    slider = page.get_by_role("slider", name="Step")
    expect(slider).to_be_visible(timeout=10_000)
    steps = page.locator(".controls span").filter(has_text=re.compile(r"^\d+ / \d+$"))
    last = int(steps.inner_text().split(" / ")[1])
    for step in range(1, last + 1):
        slider.fill(str(step))
        expect(steps).to_have_text(re.compile(f"^{step} / "))
        move = page.locator(".replay-move").inner_text()
        for tile in _PLAYED.findall(move):
            assert tile in _laid(page, ".replay"), (move, step)


def test_the_lobby_offers_only_the_seats_the_rules_are_for(server: str, page: Any) -> None:
    from playwright.sync_api import expect

    page.goto(server + "/")
    page.get_by_label("Language").select_option("fi")
    page.get_by_label("Nimesi").fill("Aino")
    create = page.get_by_role("button", name="Luo pöytä")
    add = page.get_by_role("button", name="Lisää paikka")
    # classic: 2 to 8 players; the creator and three seats to start with
    for _ in range(4):
        add.click()
    expect(page.locator(".seat-row select")).to_have_count(7)
    expect(add).to_be_disabled()
    expect(create).to_be_enabled()
    # cardinal is for 4 to 10: two more seats may come; with three players it cannot start
    page.get_by_label("Säännöt").select_option("cardinal")
    expect(add).to_be_enabled()
    add.click()
    add.click()
    expect(add).to_be_disabled()
    remove = page.get_by_role("button", name=re.compile(r"^Poista paikka \d+$"))
    for _ in range(7):
        remove.first.click()
    expect(page.locator(".seat-row select")).to_have_count(2)
    expect(page.get_by_role("alert")).to_have_text(
        "Nämä säännöt ovat 4–10 pelaajalle; pelaajia on nyt 3."
    )
    expect(create).to_be_disabled()
    shot(page, "lobby-cardinal-three-fi")


def test_the_lobby_keeps_the_name_box_and_its_focus_clear_of_the_cards(
    server: str, page: Any
) -> None:
    """The name box sat on the cards' top edge, and its focus halo (6 px) lay over the
    "New table" card: the box and its halo end above the cards, wide and on a phone."""
    page.goto(server + "/")
    name = page.get_by_label("Your name")
    name.focus()
    for width, height in ((1280, 800), (375, 740)):
        page.set_viewport_size({"width": width, "height": height})
        box = name.bounding_box()
        cards = page.locator(".lobby .cards").bounding_box()
        assert box is not None
        assert cards is not None
        assert box["y"] + box["height"] + 6 <= cards["y"], (width, box, cards)
    shot(page, "lobby-name-clear")


def test_the_lobby_refuses_an_empty_rounds_box_as_it_refuses_a_wrong_number(
    server: str, page: Any
) -> None:
    """An emptied *Rounds* box made a table of 13 rounds without a word: it is refused
    before anything is sent, as 0 or 2.5 are."""
    from playwright.sync_api import expect

    posts: list[str] = []
    page.on(
        "request",
        lambda r: posts.append(r.url) if r.method == "POST" and "/api/tables" in r.url else None,
    )
    page.goto(server + "/")
    page.get_by_label("Your name").fill("Ana")
    rounds = page.get_by_label("Rounds")
    create = page.get_by_role("button", name="Create the table")
    for wrong in ("0", "2.5", ""):
        rounds.fill(wrong)
        create.click()
        page.wait_for_timeout(400)
        assert posts == [], wrong
        assert page.url == server + "/", wrong
        assert not rounds.evaluate("box => box.checkValidity()"), wrong
    assert rounds.evaluate("box => box.validity.valueMissing")
    rounds.fill("2")
    create.click()
    expect(page.locator(".status")).to_contain_text("Round 1 / 2", timeout=15_000)
    assert len(posts) == 1, posts


def test_the_hint_key_waits_for_the_players_turn_like_its_button(server: str, page: Any) -> None:
    from playwright.sync_api import expect

    made = create_via_api(server, {"name": "Ana", "seats": ["open"], "options": {"rounds": 1}})
    join_via_api(server, made["code"], "Ben")  # Ben never comes: his turns wait for him
    sent: list[str] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda frame: sent.append(str(frame))))
    seat_page(page, server, made)
    expect(page.locator(".status")).to_be_visible(timeout=15_000)
    deadline = time.monotonic() + 30
    while page.locator(".turn.mine").is_visible() and time.monotonic() < deadline:
        before = page.locator(".move-log li").count()
        make_a_move(page)
        page.wait_for_function(
            "n => document.querySelectorAll('.move-log li').length !== n", arg=before
        )
    expect(page.locator(".turn.mine")).to_have_count(0)
    expect(page.get_by_role("button", name="Hint")).to_be_disabled()
    page.keyboard.press("h")
    page.wait_for_timeout(500)
    assert not [f for f in sent if '"hint"' in f], sent
    expect(page.locator(".error")).to_have_count(0)


@pytest.mark.parametrize("lang", ["en", "fr", "it", "fi"])
def test_the_hint_writes_its_tile_as_it_would_lie_on_the_train(
    server: str, page: Any, lang: str
) -> None:
    """The hand holds "2-6", the hint plays it on a train whose open end is 6: it writes
    "6-2" (and says "tile 6 and 2"), the matching end first, as the last moves write the
    move once it is played -- not "2-6" as it lies in the hand."""
    from playwright.sync_api import expect

    tile = re.compile(r"(\d+)-(\d+)")
    said = re.compile(r"(\d+)\D+?(\d+)")
    options = {"rounds": 3, "max_pip": 6, "hand_size": {"2": 7}}
    made = create_via_api(server, {"name": "Ana", "seats": ["bot:random"], "options": options})
    hints: list[str] = []  # the hints' best moves, as the server sends them

    def heard(frame: Any) -> None:
        message = json.loads(frame)
        if message.get("type") == "hint":
            hints.append(message["move"])

    page.on("websocket", lambda ws: ws.on("framereceived", heard))
    seat_page(page, server, made, lang)
    expect(page.locator(".status")).to_be_visible(timeout=15_000)
    hint = page.locator(".hint")
    deadline = time.monotonic() + 90
    flipped = 0
    while not flipped:
        assert time.monotonic() < deadline, "no hint played a tile turned round"
        if page.locator(".overlay").is_visible():  # a round's end (3 rounds: not the last)
            page.locator(".dialog").get_by_role("button").first.click()
        if not page.locator(".turn.mine").is_visible():
            page.wait_for_timeout(50)
            continue
        asked = len(hints)
        page.keyboard.press("h")
        expect(hint).not_to_be_empty(timeout=15_000)
        assert len(hints) > asked
        if "@" not in hints[-1]:  # a draw or a pass
            make_a_move_and_wait(page)
            continue
        in_hand, where = hints[-1].split("@")
        words = hint.inner_text()
        shown = tile.search(hint.locator("span[aria-hidden=true]").first.inner_text())
        spoken = said.search(hint.locator(".sr-only").first.inner_text())
        before = page.locator(".hand-tile").count()
        page.locator(f".hand-tile[data-tile='{in_hand}']").click()
        page.locator(f".train[data-train='{where}']").click()
        page.wait_for_function(
            "n => document.querySelectorAll('.hand-tile').length !== n", arg=before
        )
        # Ana's newest move (the bot may have moved since: the newest is then its; her
        # name is set apart from the words around it)
        mine = page.locator(".move-log li").filter(has_text=re.compile(r"Ana\W*:")).first
        logged = tile.search(mine.inner_text())
        assert logged, mine.inner_text()
        assert shown, words
        assert spoken, words
        # the hint's tile is the log's, and said in the same order
        assert shown.group(0) == logged.group(0), (in_hand, words, logged.group(0))
        assert spoken.groups() == logged.groups(), (in_hand, words, logged.group(0))
        flipped = logged.group(0) != in_hand


def test_a_seat_taken_by_someone_else_keeps_the_chosen_tile_the_hint_and_the_move(
    server: str, page: Any
) -> None:
    """Someone joining the table (or leaving it) moves no position on: the tile the player
    had chosen, the trains it may go on and the hint on show stayed only until then, and
    the move played after it went through."""
    from playwright.sync_api import expect

    made = create_via_api(
        server, {"name": "Ana", "seats": ["open", "open"], "options": {"rounds": 1}}
    )
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    seat_page(page, server, made)
    page.get_by_role("button", name="Start the game").click()
    deadline = time.monotonic() + 60
    while True:  # Ana's turn, with a tile to play
        assert time.monotonic() < deadline, "no turn of Ana's with a tile to play"
        expect(page.locator(".turn.mine")).to_be_visible(timeout=15_000)
        if page.locator(".hand-tile.playable").count():
            break
        make_a_move_and_wait(page)
    tile = page.locator(".hand-tile.playable").first
    tile.click()
    expect(page.locator(".hand-tile.selected")).to_have_count(1)
    chosen = page.locator(".hand-tile.selected").get_attribute("data-tile")
    targets = page.locator(".train.target").count()
    assert targets >= 1
    page.get_by_role("button", name="Hint").click()
    hint = page.locator(".hint")
    expect(hint).to_contain_text(re.compile(r"^Hint: "), timeout=30_000)
    said = hint.text_content() or ""

    joined = join_via_api(server, made["code"], "Cy")  # Cy takes a stand-in bot's seat
    expect(page.locator("table.sheet thead")).to_contain_text("Cy")
    page.wait_for_timeout(300)
    expect(page.locator(".hand-tile.selected")).to_have_count(1)
    assert page.locator(".hand-tile.selected").get_attribute("data-tile") == chosen
    expect(page.locator(".train.target")).to_have_count(targets)
    # the same hint, its trains named by their owners now (the seat Cy took was "Bot N")
    bot = f"\u2068Bot {int(joined['seat']) + 1}\u2069"
    expect(hint).to_have_text(said.replace(bot, "\u2068Cy\u2069"))
    # the tile goes where it was meant to, in the position it was chosen in
    page.locator(".train.target").first.click()
    # (played: the tile leaves the hand; the log keeps its last moves only, so its length
    # may not grow)
    page.wait_for_function(
        "tile => !document.querySelector(`.hand-tile[data-tile='${tile}']`)",
        arg=chosen,
        timeout=10_000,
    )
    expect(page.locator(".error")).to_have_count(0)
    assert not errors, errors


def test_the_shortcuts_work_with_caps_lock_or_shift_but_never_with_a_modifier(
    server: str, page: Any
) -> None:
    """d, p and h did nothing with Caps Lock or Shift on (the key is "D" then): a capital
    is the same shortcut, still never with Ctrl, Alt or Cmd, nor typed in a field."""
    from playwright.sync_api import expect

    sent: list[str] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda frame: sent.append(str(frame))))

    def asked(kind: str) -> int:
        return sum(f'"type":"{kind}"' in frame for frame in sent)

    small = {"rounds": 1, "max_pip": 4, "hand_size": {"2": 4}}
    by_key = 0
    for _ in range(5):  # (a deal where Ana never has to draw: another table)
        made = create_via_api(server, {"name": "Ana", "seats": ["bot:greedy"], "options": small})
        seat_page(page, server, made)
        expect(page.locator(".turn.mine")).to_be_visible(timeout=15_000)
        sent.clear()  # (what this table's page sent)
        hand = page.locator(".hand-tile").count()
        page.locator(".hand-tile").first.focus()
        for chord in ("Control+Shift+D", "Alt+Shift+P", "Meta+Shift+H", "Control+H"):
            page.keyboard.press(chord)
        box = page.get_by_role("textbox", name="Say something")
        box.fill("")
        box.type("DPH")  # words, not shortcuts
        page.locator(".hand-tile").first.focus()
        page.wait_for_timeout(400)
        assert asked("hint") == asked("action") == 0, sent
        assert page.locator(".hand-tile").count() == hand
        page.keyboard.press("H")  # Caps Lock on
        expect(page.locator(".hint")).to_contain_text(re.compile(r"^Hint: "), timeout=30_000)
        assert asked("hint") == 1
        deadline = time.monotonic() + 60
        while not page.locator(".overlay").is_visible() and time.monotonic() < deadline:
            if not page.locator(".turn.mine").is_visible():
                page.wait_for_timeout(50)
                continue
            before = page.locator(".hand-tile").count()
            if page.locator(".hand-tile.playable").count():
                make_a_move(page)
            else:  # Caps Lock, then Shift: "D" draws and "P" passes either way
                draw = page.get_by_role("button", name="Draw").is_enabled()
                letter = "D" if draw else "P"
                page.keyboard.press(letter if by_key % 2 == 0 else f"Shift+{letter}")
                by_key += 1  # (the move must come: the wait below fails if it does not)
            page.wait_for_function(
                "n => document.querySelectorAll('.hand-tile').length !== n"
                " || !document.querySelector('.turn.mine') || document.querySelector('.overlay')",
                arg=before,
                timeout=10_000,
            )
        expect(page.locator(".overlay")).to_be_visible()
        if by_key >= 2:
            break
    assert by_key >= 2, "no deal made Ana draw or pass twice"


def _active(page: Any) -> dict[str, Any]:
    """What has the keyboard: its tag, classes, tile or train, and whether it is in the
    end dialog."""
    result: dict[str, Any] = page.evaluate(
        "() => { const a = document.activeElement; return {tag: a.tagName,"
        " cls: a.className || '', tile: a.dataset ? a.dataset.tile || null : null,"
        " inDialog: !!a.closest('dialog')}; }"
    )
    return result


def test_a_round_by_keyboard_with_the_focus_kept_and_moves_announced(
    server: str, page: Any
) -> None:
    from playwright.sync_api import expect

    small = {"rounds": 1, "max_pip": 4, "hand_size": {"2": 4}}
    made = create_via_api(server, {"name": "Ana", "seats": ["bot:greedy"], "options": small})
    seat_page(page, server, made)
    # the page says where it is: a heading and a title naming the table
    expect(page.get_by_role("heading", level=1)).to_have_text(f"Table {made['code']}")
    # (one of two, in turn; inside the round's result while it is open)
    said = page.locator(".table-page .move-said:not(:empty)")
    # whose turn it is is told with each move, in the same message (not as a message of
    # its own); the whole status line (round, engine, boneyard) is not re-read after
    # every draw
    expect(page.locator(".status .turn[role=status], .status .turn[aria-live]")).to_have_count(0)
    expect(page.locator(".status[role=status], .status[aria-live]")).to_have_count(0)
    chose = drew = 0
    deadline = time.monotonic() + 60
    while not page.locator(".overlay").is_visible() and time.monotonic() < deadline:
        if not page.locator(".turn.mine").is_visible():
            page.wait_for_timeout(50)
            continue
        # a move changes the hand (a play, a draw) or ends the turn (a pass); the log
        # keeps its last moves only, so its length may not change
        before = page.locator(".hand-tile").count()
        playable = page.locator(".hand-tile.playable")
        if playable.count():
            tile = playable.first.get_attribute("data-tile")
            playable.first.focus()
            page.keyboard.press("Enter")  # the tile: the keyboard goes on to its trains
            page.wait_for_function("() => document.activeElement.matches('.train.target')")
            page.keyboard.press("Escape")  # put back: the keyboard goes back to the tile
            assert _active(page)["tile"] == tile, _active(page)
            page.keyboard.press("Enter")
            page.wait_for_function("() => document.activeElement.matches('.train.target')")
            page.keyboard.press("Enter")  # on the first train it may go on
            chose += 1
        elif drew % 2:
            button = page.locator(".actions button:enabled").first
            button.focus()
            page.keyboard.press("Enter")
            drew += 1
        else:  # the d or p key, from a train: the keyboard goes back to the hand
            key = "d" if page.get_by_role("button", name="Draw").is_enabled() else "p"
            page.locator(".train").first.focus()
            page.keyboard.press(key)
            drew += 1
        page.wait_for_function(
            "n => document.querySelectorAll('.hand-tile').length !== n"
            " || !document.querySelector('.turn.mine') || document.querySelector('.overlay')",
            arg=before,
        )
        # the move is told to a screen reader, and the keyboard is still on the table: in
        # the hand, where the next move starts (after a tile played on a train too)
        expect(said).to_have_count(1)
        page.wait_for_function(
            "() => document.querySelector('.overlay') || !document.querySelector('.hand-tile')"
            " || document.activeElement.matches('.hand-tile')"
        )
    assert chose + drew > 0
    # the round's end: a modal dialog that keeps the keyboard until it is closed
    expect(page.get_by_role("dialog")).to_be_visible()
    assert page.evaluate("() => document.querySelector('dialog.overlay').matches(':modal')")
    for _ in range(6):
        page.keyboard.press("Tab")
        assert _active(page)["inDialog"], _active(page)
    page.keyboard.press("Escape")
    expect(page.get_by_role("dialog")).to_have_count(0)
    page.wait_for_function("() => document.activeElement !== document.body")


def test_the_end_dialog_is_not_seen_before_it_is_opened_as_a_modal(server: str, page: Any) -> None:
    # the overlay's grid must not show a closed dialog: between being drawn and being
    # opened it was visible without keeping the keyboard
    page.goto(server + "/")
    page.get_by_role("heading", level=1).wait_for()
    shown = page.evaluate(
        """() => {
            const d = document.createElement("dialog");
            d.className = "overlay";
            document.body.append(d);
            const closed = getComputedStyle(d).display;
            d.showModal();
            const open = getComputedStyle(d).display;
            d.close();
            d.remove();
            return [closed, open];
        }"""
    )
    assert shown == ["none", "grid"]


@pytest.mark.parametrize("lang", ["en", "fr", "it", "fi"])
def test_a_trains_badges_wrap_between_words_on_a_phone(server: str, page: Any, lang: str) -> None:
    # on a phone the owner's column is 6rem wide: "a bot is playing" goes on two lines,
    # between its words, as a label (not a round pill broken in two)
    from mextrain.i18n import Translator

    say = Translator(lang)
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(server + "/")
    page.get_by_role("heading", level=1).wait_for()
    broken = page.evaluate(
        """texts => {
            const owner = document.createElement("span");
            owner.className = "train-owner";
            owner.innerHTML =
                '<span class="who">Bartholomew</span> <span class="hand-size">7</span>';
            for (const [cls, text] of texts) {
                const b = document.createElement("span");
                b.className = cls;
                b.textContent = text;
                owner.append(" ", b);
            }
            document.body.append(owner);
            const out = [];
            for (const b of owner.querySelectorAll(".badge")) {
                const node = b.firstChild;
                let at = 0;
                for (const word of node.data.split(" ")) {
                    const r = document.createRange();
                    r.setStart(node, at);
                    r.setEnd(node, at + word.length);
                    if (r.getClientRects().length > 1) out.push(word);
                    at += word.length + 1;
                }
                const style = getComputedStyle(b);
                const lines = b.offsetHeight > 1.6 * parseFloat(style.fontSize);
                if (lines && parseFloat(style.borderTopLeftRadius) > 6) {
                    out.push("a pill on two lines");
                }
            }
            const width = owner.getBoundingClientRect().width;
            owner.remove();
            return {out, width};
        }""",
        [["badge warn", say("game.last_tile")], ["badge", say("web.bot_playing")]],
    )
    assert broken["width"] < 120, broken  # (the phone's narrow column)
    assert broken["out"] == [], broken


def test_nobody_is_marked_to_move_once_the_round_is_over(server: str, page: Any) -> None:
    # the last seat to move kept its underline (the seat to move) under the result, and
    # on the finished table, as if it were still its turn
    from playwright.sync_api import expect

    small = {"rounds": 1, "max_pip": 4, "hand_size": {"2": 4}}
    made = create_via_api(server, {"name": "Ana", "seats": ["bot:greedy"], "options": small})
    seat_page(page, server, made)
    expect(page.locator(".train.current")).to_have_count(1)  # (while it is played)
    play_until_over(page)
    page.keyboard.press("Escape")
    expect(page.get_by_role("dialog")).to_have_count(0)
    expect(page.locator(".result")).to_be_visible()
    expect(page.locator(".train.current")).to_have_count(0)


#: a tile of the hand clicked the moment the page draws the seat's next turn (before the
#: page is painted): once, its tile then in ``window.chosenAt``
CHOOSE_AS_THE_TURN_COMES = """() => {
  window.chosenAt = null;
  let mine = Boolean(document.querySelector(".turn.mine"));
  new MutationObserver((_, seen) => {
    const now = Boolean(document.querySelector(".turn.mine"));
    if (now && !mine) {
      const tile = document.querySelector(".hand-tile");
      seen.disconnect();
      tile.click();
      window.chosenAt = tile.dataset.tile;
    }
    mine = now;
  }).observe(document.body, { childList: true, subtree: true, attributes: true });
}"""


def test_a_tile_chosen_as_the_turn_comes_stays_chosen(server: str, page: Any) -> None:
    """A new position put the chosen tile back only after the page was painted: a tile
    chosen as soon as the turn showed was put back under the click that chose it, and the
    click on its train then did nothing (seen in CI as moves that never went, on a busy
    machine). A tile chosen at once, before the page is even painted, stays chosen."""
    from browser_kit import wait_for_a_playable_tile
    from playwright.sync_api import expect

    made = create_via_api(
        server, {"name": "Ana", "seats": ["bot:greedy"], "options": {"rounds": 1}}
    )
    seat_page(page, server, made)
    expect(page.locator(".hand-tile").first).to_be_visible(timeout=15_000)
    # a tile that is no double, so that the turn passes to the bot, and comes back
    for _ in range(12):
        assert wait_for_a_playable_tile(page)
        tiles = [t for t in page.locator(".hand-tile.playable").all() if not _is_double(t)]
        if tiles:
            break
        make_a_move_and_wait(page)
    else:
        raise AssertionError("no tile but doubles to play")
    page.evaluate(CHOOSE_AS_THE_TURN_COMES)
    tiles[0].click()
    page.locator(".train.target").first.click()
    page.wait_for_function("() => window.chosenAt !== null", timeout=15_000)
    chosen = page.evaluate("window.chosenAt")
    # (the page painted, and its effects run, twice over)
    page.evaluate(
        "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame("
        "() => setTimeout(done, 200))))"
    )
    expect(page.locator(".hand-tile.selected")).to_have_attribute("data-tile", chosen)


def _is_double(tile: Any) -> bool:
    a, b = str(tile.get_attribute("data-tile")).split("-")
    return a == b


def test_another_page_takes_the_focus_to_its_heading(server: str, page: Any) -> None:
    from playwright.sync_api import expect

    page.goto(server + "/")
    page.get_by_role("link", name="Statistics").click()
    heading = page.get_by_role("heading", level=1)
    expect(heading).to_have_text("Statistics")
    expect(heading).to_be_focused()
    expect(page).to_have_title("Statistics · Mexican Train")


def test_leaving_a_game_goes_back_to_the_lobby_and_a_bot_takes_the_seat(
    server: str, page: Any
) -> None:
    from playwright.sync_api import expect

    made = create_via_api(server, {"name": "Ana", "seats": ["open"], "options": {"rounds": 1}})
    join_via_api(server, made["code"], "Ben")
    seat_page(page, server, made)
    expect(page.locator(".hand-tile").first).to_be_visible(timeout=15_000)
    asked: list[str] = []

    def answer(dialog: Any) -> None:
        asked.append(dialog.message)
        dialog.accept()

    page.on("dialog", answer)
    page.get_by_role("button", name="Leave the table").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Mexican Train")  # the lobby
    assert asked, "no question before leaving"
    assert asked[0].startswith("Leave this game? A bot plays your seat"), asked
    token = page.evaluate("code => localStorage.getItem('mextrain.token.' + code)", made["code"])
    assert token is None
    # back at the table's link: a spectator, with Ana's seat a bot anyone may take
    page.goto(f"{server}/t/{made['code']}")
    expect(page.get_by_text("watching")).to_be_visible(timeout=10_000)
    expect(page.locator(".train").first).to_contain_text("Bot 1")


def line(page: Any, k: int) -> Any:
    """The ``k``-th line of the table talk on ``page`` (names come isolated: U+2068/9)."""
    return page.locator(".chat-lines li").nth(k)


def test_friends_talk_at_the_table_each_in_their_own_language(server: str, tmp_path: Any) -> None:
    need_browser()
    from playwright.sync_api import expect, sync_playwright

    # three seats, two people: the table waits for its creator to start it
    made = create_via_api(
        server, {"name": "Ana", "seats": ["open", "open"], "options": {"rounds": 1}}
    )
    ben = join_via_api(server, made["code"], "Ben")
    errors: list[str] = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            ana_context = browser.new_context(viewport={"width": 1280, "height": 860})
            ana = ana_context.new_page()
            ana.on("pageerror", lambda err: errors.append(str(err)))
            seat_page(ana, server, made)
            ben_context = browser.new_context(viewport={"width": 390, "height": 844})
            bob = ben_context.new_page()
            bob.on("pageerror", lambda err: errors.append(str(err)))
            seat_page(bob, server, {"code": made["code"], "token": ben["token"]}, "fr")

            # in the waiting room: Ana types, Enter sends, and the field is emptied
            box = ana.get_by_role("textbox", name="Say something")
            box.fill("Ready, Ben?")
            box.press("Enter")
            expect(bob.locator(".chat-lines li")).to_have_count(1)
            # (French: a no-break space before the colon)
            expect(line(bob, 0)).to_contain_text(re.compile(r"Ana\W*\u00a0: Ready, Ben\?"))
            expect(box).to_have_value("")
            # a stock phrase: each page says it in its own language
            bob.get_by_role("button", name="Bonne chance\u00a0!").click()
            expect(line(bob, 1)).to_contain_text(re.compile(r"Ben\W*\u00a0: Bonne chance\u00a0!"))
            expect(line(ana, 1)).to_contain_text(re.compile(r"Ben\W*: Good luck!"))
            expect(ana.get_by_role("log")).to_be_visible()

            shot(bob, "table-talk-waiting-phone-fr")
            # in play the talk goes on beside the board, and what was said is still there
            ana.get_by_role("button", name="Start the game").click()
            expect(ana.locator(".hand-tile").first).to_be_visible(timeout=15_000)
            expect(ana.locator(".chat-lines li")).to_have_count(2)
            # letters typed into the field are words, not shortcuts (d draws, p passes, h
            # asks for a hint), on Ana's turn (Ben moves until it comes)
            deadline = time.monotonic() + 30
            while not ana.locator(".turn.mine").is_visible():
                assert time.monotonic() < deadline, "Ana's turn never came"
                if bob.locator(".turn.mine").is_visible():
                    make_a_move_and_wait(bob)
                else:
                    bob.wait_for_timeout(50)
            hand = ana.locator(".hand-tile").count()
            box = ana.get_by_role("textbox", name="Say something")
            box.fill("")
            box.type("dp hd")
            box.press("Enter")
            expect(line(bob, 2)).to_contain_text(re.compile(r"Ana\W*\u00a0: dp hd"))
            ana.wait_for_timeout(300)
            expect(ana.locator(".turn.mine")).to_be_visible()
            assert ana.locator(".hand-tile").count() == hand  # no draw
            expect(ana.locator(".hint")).to_be_empty()  # no hint asked for
            # what someone else says shows over the page for a moment; a click goes to the
            # talk, ready for an answer
            bob.get_by_role("button", name="Merci\u00a0!").click()
            toast = ana.locator(".chat-toast")
            expect(toast).to_have_text(re.compile(r"Ben\W*: Thanks!"))
            # not one's own words (Ana's last line may still show there)
            expect(line(bob, 3)).to_contain_text("Merci\u00a0!")
            assert "Merci" not in " ".join(bob.locator(".chat-toast").all_inner_texts())
            shot(ana, "table-talk-desktop")
            toast.click()
            expect(ana.get_by_role("textbox", name="Say something")).to_be_focused()
            expect(toast).to_have_count(0)
            shot(bob, "table-talk-phone-fr")

            # Ana mutes Ben while his last words show over her page: they go at once, his
            # lines go from her page (hers stay), and nothing of his shows over it; Ben's
            # page is as it was
            bob.get_by_role("button", name="Bien joué\u00a0!").click()
            expect(ana.locator(".chat-toast")).to_have_text(re.compile(r"Ben\W*: Nice move!"))
            ana.get_by_text("Mute a player").click()
            ana.get_by_role("checkbox", name="Ben").check()
            expect(ana.locator(".chat-toast")).to_have_count(0, timeout=1_000)
            expect(ana.locator(".chat-lines li")).to_have_count(2)
            expect(ana.locator(".chat-hidden")).to_have_text(
                "3 lines from muted players are hidden."
            )
            assert ana.locator(".chat-lines li").evaluate_all(
                "ls => ls.map(l => l.dataset.seat)"
            ) == [
                "0",
                "0",
            ]
            bob.get_by_role("button", name="Oups\u00a0!").click()
            expect(line(bob, 5)).to_contain_text("Oups\u00a0!")
            expect(ana.locator(".chat-hidden")).to_have_text(
                "4 lines from muted players are hidden."
            )
            expect(ana.locator(".chat-toast")).to_have_count(0)
            expect(bob.locator(".chat-lines li")).to_have_count(6)
            shot(ana, "table-talk-muted")
            # the mute lasts in this browser (a reload keeps it), until Ana hears him again
            ana.reload()
            expect(ana.locator(".chat-hidden")).to_have_text(
                "4 lines from muted players are hidden."
            )
            expect(ana.locator(".chat-lines li")).to_have_count(2)
            ana.get_by_text("Mute a player").click()
            ana.get_by_role("checkbox", name="Ben").uncheck()
            expect(ana.locator(".chat-lines li")).to_have_count(6)
            expect(ana.locator(".chat-hidden")).to_have_count(0)
            assert ana.evaluate(f"localStorage.getItem('mextrain.mute.{made['code']}')") is None
            # Ben's words go from over Ana's page after a few seconds, even when she says
            # something meanwhile (her own line once left his there for good)
            bob.get_by_role("button", name="Merci\u00a0!").click()
            expect(ana.locator(".chat-toast")).to_have_text(re.compile(r"Ben\W*: Thanks!"))
            ana.get_by_role("button", name="Good game!").click()
            expect(line(bob, 7)).to_contain_text("Belle partie")
            expect(ana.locator(".chat-toast")).to_have_count(0, timeout=8_000)
        finally:
            browser.close()
    assert not errors, errors


def test_a_line_the_server_makes_plain_leaves_the_field_once_said(server: str, page: Any) -> None:
    """A line with a no-break space (French typing puts one before "!"), a narrow one, a
    soft hyphen or a pasted tab was said, plain, but stayed in the field, looking unsent
    (Enter said it again); a line refused for talking too fast still stays there."""
    from playwright.sync_api import expect

    made = create_via_api(server, {"name": "Ana", "seats": ["open"], "options": {"rounds": 1}})
    seat_page(page, server, made)
    box = page.get_by_role("textbox", name="Say something")
    typed = ["Bravo\u00a0!", "Merci\u202f!", "su\u00adper", "a\tb"]
    shown = ["Bravo !", "Merci !", "super", "a b"]
    for k, (words, plain) in enumerate(zip(typed, shown, strict=True)):
        box.fill(words)
        box.press("Enter")
        expect(line(page, k)).to_contain_text(re.compile(rf"Ana\W*: {re.escape(plain)}$"))
        expect(box).to_have_value("")
    page.wait_for_timeout(300)
    expect(page.locator(".chat-lines li")).to_have_count(len(typed))  # each said once
    # talking too fast: the line refused stays in the field, to send again
    for k in range(10):
        words = f"Encore\u00a0{k} !"
        box.fill(words)
        box.press("Enter")
        page.wait_for_function(
            "() => document.querySelector('.chat-say input').value === ''"
            " || document.querySelector('.chat .error')"
        )
        if page.locator(".chat .error").count():
            break
    else:
        pytest.fail("ten lines in a row were never refused")
    expect(page.locator(".chat .error")).to_contain_text("too fast")
    expect(box).to_have_value(words)


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    """Whether two bounding boxes share any area."""
    return (
        a["x"] < b["x"] + b["width"]
        and b["x"] < a["x"] + a["width"]
        and a["y"] < b["y"] + b["height"]
        and b["y"] < a["y"] + a["height"]
    )


#: the page scrolled to its foot with room added under it until the hand's top is 20 px
#: from the window's
NEAR_THE_TOP = """() => {
    const foot = () => window.scrollTo(0, document.scrollingElement.scrollHeight);
    foot();
    const top = document.querySelector(".hand-area").getBoundingClientRect().top;
    const room = document.createElement("div");
    room.style.height = `${Math.max(0, top - 20)}px`;
    document.body.append(room);
    foot();
}"""


def test_words_said_on_a_phone_cover_neither_its_top_bar_nor_its_hand(server: str) -> None:
    """On an upright phone what someone else says shows over the table for a moment: it
    covered the top bar (the phone's way to the lobby and the help) for six seconds; it
    shows under the bar, and over none of the hand and its buttons, however far the page
    is scrolled."""
    need_browser()
    from playwright.sync_api import expect, sync_playwright

    made = create_via_api(
        server, {"name": "Ana", "seats": ["open", "bot:greedy"], "options": {"rounds": 1}}
    )
    ben = join_via_api(server, made["code"], "Ben")  # (every seat taken: it starts)
    errors: list[str] = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            ana = browser.new_context(viewport={"width": 1280, "height": 860}).new_page()
            ana.on("pageerror", lambda err: errors.append(str(err)))
            seat_page(ana, server, made)
            phone = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
            phone.on("pageerror", lambda err: errors.append(str(err)))
            seat_page(phone, server, {"code": made["code"], "token": ben["token"]})
            expect(phone.locator(".hand-tile").first).to_be_visible(timeout=15_000)
            expect(ana.locator(".hand-tile").first).to_be_visible(timeout=15_000)
            foot = "document.scrollingElement.scrollHeight"
            scrolls = ("0", "40", foot, "the hand near the top")
            for said, scroll in enumerate(scrolls, start=1):
                if scroll == "the hand near the top":
                    # scrolled to the foot of a page long enough under the hand (the talk,
                    # the score sheet) that the hand stands where the line shows
                    phone.evaluate(NEAR_THE_TOP)
                else:
                    phone.evaluate(f"() => window.scrollTo(0, {scroll})")
                toast = ana_says_thanks(ana, phone, said)  # (still read)
                expect(toast).to_be_in_viewport(ratio=1)
                box = toast.bounding_box()
                assert box is not None
                for covered in (".topbar", ".hand-area", ".actions"):
                    under = phone.locator(covered).bounding_box()
                    assert under is not None
                    assert not overlap(box, under), (scroll, covered, box, under)
                shot(phone, f"table-talk-phone-toast-{said}", full_page=False)
                toast.click()  # (a tap takes it away, to the talk)
                expect(toast).to_have_count(0)
        finally:
            browser.close()
    assert not errors, errors


def test_words_said_cover_neither_the_status_line_nor_the_hand_on_a_phone_or_a_desktop(
    server: str,
) -> None:
    """What someone says showed over the top of the table for six seconds, and on a phone
    that was the status line (the round, whose turn it is, the clock): it shows under the
    status line, over none of it, nor of the hand, its prompt and its buttons, nor of the
    top bar, on a phone (375 by 740) as on a desktop (1280 by 800), the page at its top or
    scrolled a little."""
    need_browser()
    from playwright.sync_api import expect

    with ana_talks_to_ben(server, bots=1) as (ana, bens_page):
        page = bens_page({"width": 375, "height": 740}, False)
        said = 0
        for width, height in ((375, 740), (1280, 800)):
            page.set_viewport_size({"width": width, "height": height})
            for scroll in (0, 40):  # (four lines: a player may say five at once)
                page.evaluate(f"() => window.scrollTo(0, {scroll})")
                said += 1
                toast = ana_says_thanks(ana, page, said)
                expect(toast).to_be_in_viewport(ratio=1)
                box = toast.bounding_box()
                assert box is not None
                for covered in (".topbar", ".status", ".hand-area", ".turn-prompt", ".actions"):
                    under = page.locator(covered).bounding_box()
                    assert under is not None, covered
                    where = (width, scroll, covered, box, under)
                    assert not overlap(box, under), where
                shot(page, f"table-talk-toast-{width}-{scroll}", full_page=False)
                toast.click()
                expect(toast).to_have_count(0)


#: where Ben reads what Ana says: a phone held upright (a touch screen) and a laptop
PHONE_AND_LAPTOP = (
    ("phone", {"width": 375, "height": 740}, True),
    ("laptop", {"width": 1280, "height": 800}, False),
)


@contextlib.contextmanager
def ana_talks_to_ben(server: str, bots: int) -> Iterator[tuple[Any, Callable[..., Any]]]:
    """Ana and Ben at a table of one round with ``bots`` greedy bots, every seat taken (it
    starts): Ana's page on a laptop, her hand shown, and a way to open Ben's page on a
    screen of a size (``viewport``, ``touch`` or not; its page errors kept in ``errors``;
    ``script`` run in it before the page's own, as HOLD_SOCKETS), once his hand shows."""
    from playwright.sync_api import expect, sync_playwright

    seats = ["open", *["bot:greedy"] * bots]
    made = create_via_api(server, {"name": "Ana", "seats": seats, "options": {"rounds": 1}})
    ben = join_via_api(server, made["code"], "Ben")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            ana = browser.new_context(viewport={"width": 1280, "height": 860}).new_page()
            seat_page(ana, server, made)
            expect(ana.locator(".hand-tile").first).to_be_visible(timeout=15_000)

            def bens_page(
                viewport: dict[str, int],
                touch: bool,
                errors: list[str] | None = None,
                script: str | None = None,
            ) -> Any:
                context = browser.new_context(viewport=viewport, has_touch=touch, is_mobile=touch)
                if script is not None:
                    context.add_init_script(script)
                page = context.new_page()
                if errors is not None:
                    page.on("pageerror", lambda err: errors.append(str(err)))
                seat_page(page, server, {"code": made["code"], "token": ben["token"]})
                expect(page.locator(".hand-tile").first).to_be_visible(timeout=15_000)
                return page

            yield ana, bens_page
        finally:
            browser.close()


def ana_says_thanks(ana: Any, page: Any, lines: int | None = None) -> Any:
    """Ana says "Thanks!" (a stock phrase) and the line shows on ``page`` (Ben's) as its
    toast, which is returned; ``lines``: the lines the talk then holds there."""
    from playwright.sync_api import expect

    ana.get_by_role("button", name="Thanks!").click()
    if lines is not None:
        expect(page.locator(".chat-lines li")).to_have_count(lines)
    toast = page.locator(".chat-toast")
    expect(toast).to_have_text(re.compile(r"Ana\W*: Thanks!"))
    return toast


def test_words_said_hide_no_train_and_move_nothing_on_a_phone_or_a_desktop(server: str) -> None:
    """What someone says showed over the top of the board for six seconds: on a phone over
    the top train (the reader's own), its hand's size and its open end, where a tap meant
    for the train went to the talk instead. It shows in one line between the status line
    and the board, in a room kept for it, so that it covers no train, the board does not
    move when it comes, and a tap on the top train's open end reaches the train, on a
    phone held upright (375 by 740, a touch screen) as on a laptop (1280 by 800)."""
    need_browser()
    from playwright.sync_api import expect

    with ana_talks_to_ben(server, bots=2) as (ana, bens_page):
        for said, (label, viewport, touch) in enumerate(PHONE_AND_LAPTOP, start=1):
            page = bens_page(viewport, touch)
            board = page.locator(".board").bounding_box()
            toast = ana_says_thanks(ana, page)
            expect(toast).to_be_in_viewport(ratio=1)
            shot(page, f"table-talk-toast-trains-{label}", full_page=False)
            box = toast.bounding_box()
            assert box is not None
            # nothing moved to make room for it
            assert page.locator(".board").bounding_box() == board, label
            trains = page.locator(".train")
            expect(trains).to_have_count(5)  # (the Mexican train's too)
            for k in range(5):
                under = trains.nth(k).bounding_box()
                assert under is not None
                assert not overlap(box, under), (label, k, box, under)
            # the top train's open end takes a tap, not the words over it
            end = trains.first.locator(".open-end").bounding_box()
            assert end is not None
            hit = page.evaluate(
                "([x, y]) => Boolean(document.elementFromPoint(x, y)?.closest('.train'))",
                [end["x"] + end["width"] / 2, end["y"] + end["height"] / 2],
            )
            assert hit, label
            assert page.locator(".chat-lines li").count() == said
            toast.click()
            expect(toast).to_have_count(0)


def test_a_tap_on_words_said_shows_the_talk_without_opening_the_keyboard(server: str) -> None:
    """A tap on what someone said (over the page for a moment) went to the talk's field,
    and on a phone the field opened the on-screen keyboard over half the page, for a player
    who only wanted to read the talk or put the line away. A tap on a touch screen (375 by
    740) brings the talk into sight, clear of the hand, with the focus on its heading, not
    on the field; a click on a desktop (1280 by 800) still goes to the field, ready for an
    answer."""
    need_browser()
    from playwright.sync_api import expect

    errors: list[str] = []
    with ana_talks_to_ben(server, bots=1) as (ana, bens_page):
        for said, (label, viewport, touch) in enumerate(PHONE_AND_LAPTOP, start=1):
            page = bens_page(viewport, touch, errors)
            toast = ana_says_thanks(ana, page, said)
            field = page.get_by_role("textbox", name="Say something")
            if touch:
                toast.tap()
                expect(toast).to_have_count(0)
                expect(page.get_by_role("heading", name="Table talk")).to_be_focused()
                assert not page.evaluate(
                    "() => document.activeElement.matches('input, textarea, [contenteditable]')"
                ), label
                expect(field).not_to_be_focused()
                # the talk in sight, its last line over none of the pinned hand
                page.wait_for_timeout(300)  # (the scroll settles)
                last = page.locator(".chat-lines li").last
                expect(last).to_be_in_viewport(ratio=1)
                expect(page.locator(".chat h2")).to_be_in_viewport(ratio=1)
                box = last.bounding_box()
                hand = page.locator(".hand-area").bounding_box()
                assert box is not None
                assert hand is not None
                assert not overlap(box, hand), (label, box, hand)
            else:
                toast.click()
                expect(toast).to_have_count(0)
                expect(field).to_be_focused()
                expect(field).to_be_in_viewport()
            shot(page, f"table-talk-toast-tapped-{label}", full_page=False)
            page.context.close()
    assert not errors, errors


def test_a_phone_counts_the_lines_said_out_of_sight_and_goes_to_them(server: str) -> None:
    """On a phone the talk is at the foot of the page, under the hand and the score sheet,
    and a player looking at the board and the hand had no mark that someone spoke but a
    line over the board for a few seconds. A button in the hand's row (a touch screen's
    44 pixels) goes to the talk, saying how many lines others said there since it was
    last in sight ("Table talk, 2 lines unread"); a tap brings the talk into sight, its
    heading focused (not its field: no on-screen keyboard), and the count goes; a line
    said while the talk is in sight, or by a muted player, is not counted. Beside the
    board (a laptop's width) the talk is in sight, and there is no such button."""
    need_browser()
    from playwright.sync_api import expect

    errors: list[str] = []
    with ana_talks_to_ben(server, bots=1) as (ana, bens_page):
        page = bens_page({"width": 390, "height": 844}, True, errors)
        jump = page.locator(".actions .talk-jump")
        count = jump.locator(".unread")
        talk = page.locator(".chat")
        expect(jump).to_be_visible()
        expect(jump).to_have_accessible_name("Table talk")
        size = jump.bounding_box()
        assert size is not None
        assert size["width"] >= 44, size
        assert size["height"] >= 44, size
        page.evaluate("() => window.scrollTo(0, 0)")  # (the board and the hand)
        expect(talk).not_to_be_in_viewport()
        for said in (1, 2):
            ana_says_thanks(ana, page, said)
            expect(count).to_have_text(str(said))
        expect(jump).to_have_accessible_name("Table talk, 2 lines unread")
        expect(jump).to_be_in_viewport(ratio=1)
        shot(page, "table-talk-unread-phone", full_page=False)
        jump.tap()
        expect(page.get_by_role("heading", name="Table talk")).to_be_focused()
        assert not page.evaluate(
            "() => document.activeElement.matches('input, textarea, [contenteditable]')"
        )
        expect(page.locator(".chat h2")).to_be_in_viewport(ratio=1)
        expect(page.locator(".chat-lines li").last).to_be_in_viewport(ratio=1)
        expect(count).to_have_count(0)
        expect(jump).to_have_accessible_name("Table talk")
        shot(page, "table-talk-unread-phone-tapped", full_page=False)
        # said while the talk is in sight: read there, not counted
        ana_says_thanks(ana, page, 3)
        page.wait_for_timeout(300)
        expect(count).to_have_count(0)
        # a muted player's line is not counted either
        page.locator(".chat-mute summary").tap()
        page.locator(".chat-mute label", has_text="Ana").tap()
        expect(page.get_by_role("checkbox", name="Ana")).to_be_checked()
        page.evaluate("() => window.scrollTo(0, 0)")
        expect(talk).not_to_be_in_viewport()
        ana.get_by_role("button", name="Thanks!").click()
        expect(page.locator(".chat-hidden")).to_have_text("4 lines from muted players are hidden.")
        page.wait_for_timeout(300)
        expect(count).to_have_count(0)
        page.context.close()
        # beside the board, on a laptop: no such button
        laptop = bens_page({"width": 1280, "height": 800}, False, errors)
        expect(laptop.locator(".actions button:visible")).to_have_count(3)
        expect(laptop.locator(".talk-jump")).to_be_hidden()
    assert not errors, errors


def test_a_phone_counts_the_lines_said_while_it_was_away(server: str) -> None:
    """The button to the talk counted only the lines heard live: a player whose phone lost
    its connection for a while, or who closed the page and came back, was not told that
    someone had talked to them meanwhile (the page gets the talk again on arrival). The
    lines others said that this seat's page has not had in sight count as those heard
    live do, after a dropped connection as after the page was closed; one's own (said
    from another device) do not; and once the talk has been in sight, a reload counts
    none of them again."""
    need_browser()
    from playwright.sync_api import expect

    errors: list[str] = []
    phone = {"width": 390, "height": 844}
    with ana_talks_to_ben(server, bots=1) as (ana, bens_page):
        page = bens_page(phone, True, errors, HOLD_SOCKETS)

        def at_the_board(lines: int) -> tuple[Any, Any]:
            """Ben's page with the talk's ``lines`` in, scrolled to the board and the hand,
            the talk out of sight: the button to the talk and its count."""
            expect(page.locator(".hand-tile").first).to_be_visible(timeout=15_000)
            expect(page.locator(".chat-lines li")).to_have_count(lines, timeout=15_000)
            page.evaluate("() => window.scrollTo(0, 0)")
            expect(page.locator(".chat")).not_to_be_in_viewport()
            jump = page.locator(".actions .talk-jump")
            return jump, jump.locator(".unread")

        jump, count = at_the_board(0)
        ana_says_thanks(ana, page, 1)  # heard live
        expect(count).to_have_text("1")
        # the connection drops; Ana says two lines meanwhile
        page.context.set_offline(True)
        page.evaluate("window.__sockets.forEach((ws) => ws.close())")
        expect(page.locator(".badge.warn")).to_be_visible(timeout=5_000)  # reconnecting
        for _ in range(2):
            ana.get_by_role("button", name="Thanks!").click()
        expect(ana.locator(".chat-lines li")).to_have_count(3)
        page.context.set_offline(False)
        expect(page.locator(".badge.warn")).to_have_count(0, timeout=20_000)
        jump, count = at_the_board(3)
        expect(count).to_have_text("3")
        expect(jump).to_have_accessible_name("Table talk, 3 lines unread")
        # the page closed: Ana says a line, and Ben one from his laptop (his own: not
        # counted on his phone); his phone opens the table again
        code = page.url.rstrip("/").rsplit("/", 1)[1]
        context = page.context
        page.close()
        ana.get_by_role("button", name="Thanks!").click()
        expect(ana.locator(".chat-lines li")).to_have_count(4)
        laptop = bens_page({"width": 1280, "height": 800}, False, errors)
        laptop.get_by_role("button", name="Hello!").click()
        expect(ana.locator(".chat-lines li")).to_have_count(5)
        laptop.context.close()
        page = context.new_page()
        page.on("pageerror", lambda err: errors.append(str(err)))
        page.goto(f"{server}/t/{code}")
        jump, count = at_the_board(5)
        expect(count).to_have_text("4")
        expect(jump).to_have_accessible_name("Table talk, 4 lines unread")
        shot(page, "table-talk-unread-phone-back", full_page=False)
        # read: none of them counts again after a reload
        jump.tap()
        expect(page.locator(".chat-lines li").last).to_be_in_viewport(ratio=1)
        expect(count).to_have_count(0)
        page.reload()
        jump, count = at_the_board(5)
        page.wait_for_timeout(300)
        expect(count).to_have_count(0)
        expect(jump).to_have_accessible_name("Table talk")
        # a line said since does count
        ana_says_thanks(ana, page, 6)
        expect(count).to_have_text("1")
    assert not errors, errors


def test_a_phone_does_not_count_the_lines_read_in_the_waiting_room(server: str) -> None:
    """A line said in the waiting room while its talk was in sight on Ben's phone was
    counted as unread once the game started, the talk then being under the hand: read
    there, it is not; a line said after the start, out of sight, is."""
    need_browser()
    from playwright.sync_api import expect

    made = create_via_api(server, {"name": "Ana", "seats": ["open", "open"]})
    ben = join_via_api(server, made["code"], "Ben")
    errors: list[str] = []
    with touch_phone(390, 844) as (browser, page):
        ana = browser.new_context(viewport={"width": 1280, "height": 860}).new_page()
        seat_page(ana, server, made)
        page.on("pageerror", lambda err: errors.append(str(err)))
        seat_page(page, server, {"code": made["code"], "token": ben["token"]})
        expect(page.locator(".seat-list")).to_be_visible(timeout=15_000)
        page.locator(".chat").scroll_into_view_if_needed()
        ana.get_by_role("button", name="Thanks!").click()
        expect(page.locator(".chat-lines li")).to_have_count(1)
        expect(page.locator(".chat-lines li").last).to_be_in_viewport(ratio=1)
        page.wait_for_timeout(300)  # (the talk's watch tells it was in sight)
        ana.get_by_role("button", name="Start the game").click()
        expect(page.locator(".hand-tile").first).to_be_visible(timeout=15_000)
        page.evaluate("() => window.scrollTo(0, 0)")
        expect(page.locator(".chat")).not_to_be_in_viewport()
        count = page.locator(".actions .talk-jump .unread")
        page.wait_for_timeout(300)
        expect(count).to_have_count(0)
        ana_says_thanks(ana, page, 2)
        expect(count).to_have_text("1")
    assert not errors, errors


#: every control a tap may reach (but the line said itself) and every train and tile of
#: the hand, as bounding boxes in the window, with what each is
UNDER_A_TAP = """() => [...document.querySelectorAll(
    'button:not(.chat-toast), a[href], input, select, summary, .train, .hand-tile')]
  .map((el) => { const r = el.getBoundingClientRect(); return { x: r.x, y: r.y,
    width: r.width, height: r.height, what: `${el.tagName} ${el.className}`.trim() }; })
  .filter((box) => box.width && box.height)"""


def test_words_said_on_a_phone_scrolled_down_cover_no_control_nor_train(server: str) -> None:
    """On a phone (a touch screen, 390 by 844 and 360 by 740) scrolled past the room kept
    above the board, what someone said stuck to the top of the window for six seconds,
    over the trains there, or further down over the talk's field and buttons. It stays
    in its room and scrolls away with the board's top, over no button, link, field,
    train nor tile of the hand; said while out of sight, it is still there when the player
    comes back to the board, even after the six seconds it shows for."""
    need_browser()
    from playwright.sync_api import expect

    errors: list[str] = []
    with ana_talks_to_ben(server, bots=2) as (ana, bens_page):
        said = 0
        for width, height in ((390, 844), (360, 740)):
            page = bens_page({"width": width, "height": height}, True, errors)
            spot = page.locator(".toast-spot").bounding_box()
            assert spot is not None
            # the trains at the top of the window, then the page's foot (its talk)
            past = round(spot["y"] + spot["height"] + 60)
            for scroll in (str(past), "document.scrollingElement.scrollHeight"):
                page.evaluate(f"() => window.scrollTo(0, {scroll})")
                said += 1
                toast = ana_says_thanks(ana, page, said)
                page.wait_for_timeout(200)  # (placed, if it were to move)
                shot(page, f"table-talk-phone-scrolled-{width}-{said}", full_page=False)
                box = toast.bounding_box()
                assert box is not None
                for under in page.evaluate(UNDER_A_TAP):
                    assert not overlap(box, under), (width, scroll, box, under)
                expect(toast).not_to_be_in_viewport()
                # longer than its six seconds out of sight: there on coming back
                page.wait_for_timeout(6_500)
                page.evaluate("() => window.scrollTo(0, 0)")
                expect(toast).to_have_text(re.compile(r"Ana\W*: Thanks!"))
                expect(toast).to_be_in_viewport(ratio=1)
                toast.tap()
                expect(toast).to_have_count(0)
            page.context.close()
    assert not errors, errors


# the toast's lines of text (top, bottom) and where it stops showing them: its own edge, or
# that of a box inside it that cuts its words off
TOAST_LINES = """() => {
    const toast = document.querySelector('.chat-toast');
    let edge = toast.getBoundingClientRect().bottom;
    for (const box of toast.querySelectorAll('*'))
        if (getComputedStyle(box).overflow !== 'visible')
            edge = Math.min(edge, box.getBoundingClientRect().bottom);
    const lines = [];
    const text = document.createTreeWalker(toast, NodeFilter.SHOW_TEXT);
    while (text.nextNode()) {
        const range = document.createRange();
        range.selectNodeContents(text.currentNode);
        for (const r of range.getClientRects()) if (r.height) lines.push([r.top, r.bottom]);
    }
    return {edge, lines};
}"""


def test_a_long_line_said_shows_over_a_phone_in_whole_lines(server: str) -> None:
    """What someone says shows over the page in one line, cut with "…" (it showed three,
    over the top of the board): a line longer than that showed the top of the next one
    under the "…", half cut off by the toast's edge."""
    need_browser()
    from playwright.sync_api import expect

    with ana_talks_to_ben(server, bots=1) as (ana, bens_page):
        phone = bens_page({"width": 390, "height": 844}, False)
        for said, line in enumerate(("x" * 200, "see " + "ha" * 60 + " and so on"), start=1):
            ana.locator(".chat-say input").fill(line)
            ana.locator(".chat-say input").press("Enter")
            expect(phone.locator(".chat-lines li")).to_have_count(said)
            toast = phone.locator(".chat-toast")
            expect(toast).to_contain_text("Ana")
            fit = phone.evaluate(TOAST_LINES)
            shot(phone, f"table-talk-phone-long-toast-{said}", full_page=False)
            # (the name and the words are pieces of text on one line: a line by its top)
            lines = {round(top): bottom for top, bottom in fit["lines"]}
            shown = [(top, bottom) for top, bottom in lines.items() if top < fit["edge"] - 0.5]
            assert len(lines) > 1, fit  # (longer than the toast shows)
            assert len(shown) == 1, fit
            # every line shown is shown whole: none is cut by the toast's edge
            assert all(bottom <= fit["edge"] + 0.5 for _, bottom in shown), fit
            toast.click()
            expect(toast).to_have_count(0)


def test_the_lobby_takes_a_player_back_to_their_unfinished_tables(server: str, page: Any) -> None:
    from playwright.sync_api import expect

    tiny = {"max_pip": 3, "rounds": 1, "hand_size": {"2": 3}}
    over = create_via_api(server, {"name": "Ana", "seats": ["bot:greedy"], "options": tiny})
    waiting = create_via_api(server, {"name": "Ana", "seats": ["open"], "options": {"rounds": 1}})
    playing = create_via_api(server, {"name": "Ana", "seats": ["bot:greedy"], "options": tiny})
    seat_page(page, server, over)
    expect(page.locator(".hand-tile").first).to_be_visible(timeout=15_000)
    play_until_over(page)
    # this browser holds seats at all three, and a token for a table the server never had
    page.evaluate(
        "tokens => { for (const [code, token] of tokens)"
        " localStorage.setItem('mextrain.token.' + code, token); }",
        [[waiting["code"], waiting["token"]], [playing["code"], playing["token"]], ["ZZZZZZ", "x"]],
    )
    asked: list[str] = []
    page.on(
        "request",
        lambda r: asked.append(r.url) if "/api/tables" in r.url and r.method == "GET" else None,
    )
    page.goto(server + "/")
    yours = page.get_by_role("region", name="Your tables")
    expect(yours.get_by_role("link")).to_have_count(2)
    # (the names of the people and bots seated, not of the open seats)
    expect(yours.locator("li", has_text=waiting["code"])).to_contain_text(
        "Ana · waiting for players"
    )
    expect(yours.locator("li", has_text=playing["code"])).to_contain_text("in play")
    expect(yours.locator("li", has_text=playing["code"])).to_contain_text("Ana, Bot 2")
    assert over["code"] not in yours.inner_text()  # its game is over
    stored = page.evaluate(
        "codes => codes.map(c => [localStorage.getItem('mextrain.token.' + c),"
        " localStorage.getItem('mextrain.done.' + c)])",
        [over["code"], "ZZZZZZ"],
    )
    # the finished table keeps its token (its page still offers to play again) but is not
    # asked about again; the unknown one is forgotten
    assert stored == [[over["token"], "1"], [None, None]]
    assert len(asked) == 1, asked  # one request for them all
    shot(page, "lobby-your-tables")
    yours.get_by_role("link", name=f"Table {playing['code']}").click()
    expect(page.locator(".hand-tile").first).to_be_visible(timeout=15_000)
    assert page.url.endswith(f"/t/{playing['code']}")


def test_how_to_play_in_every_language_and_from_a_table_in_a_new_tab(
    server: str, page: Any
) -> None:
    from playwright.sync_api import expect

    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.goto(server + "/")
    page.get_by_role("link", name="How to play").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("How to play")
    assert page.url.endswith("/help")
    help_page = page.locator(".help")
    expect(help_page).to_contain_text("A full game is 13 rounds")  # the rules in short
    for words in ("Classic (French rules)", "Relaxed (Italian rules)", "Cardinal (Finnish rules)"):
        expect(help_page.locator("dt", has_text=words)).to_have_count(1)
    expect(help_page.locator("dt")).to_have_count(3 + 4)  # the rule sets, the house rules
    expect(help_page).to_contain_text("A double may not be your last tile.")
    expect(help_page).to_contain_text("Keys: d draws, p passes")
    shot(page, "help-en")
    page.get_by_label("Language").select_option("fi")
    expect(page.get_by_role("heading", level=1)).to_have_text("Näin pelaat")
    expect(help_page).to_contain_text("Täysi peli on 13 kierrosta")
    expect(help_page).to_contain_text("Tupla ei saa olla viimeinen dominosi.")
    expect(page).to_have_title(re.compile("^Näin pelaat"))  # (set just after the render)
    page.get_by_label("Kieli").select_option("en")
    # the page has its own address: a reload (or a shared link) opens it again
    page.reload()
    expect(page.get_by_role("heading", level=1)).to_have_text("How to play")

    # at a table: which rules it plays, and help that opens beside the game
    made = create_via_api(
        server,
        {
            "name": "Ana",
            "preset": "relaxed",
            "seats": ["bot:greedy"],
            "options": {"rounds": 1, "draw_until_playable": True},
        },
    )
    seat_page(page, server, made)
    expect(page.locator(".hand-tile").first).to_be_visible(timeout=15_000)
    expect(page.locator(".table-rules")).to_contain_text(
        "Rules of this table: Relaxed (Italian rules) · Draw until a tile fits. How to play"
    )
    for link in (page.locator(".table-rules a"), page.locator("header").get_by_text("How to play")):
        assert link.get_attribute("target") == "_blank"
        # (and says so to a screen reader, which would not know)
        expect(link).to_have_accessible_name("How to play (opens in a new tab)")
    with page.context.expect_page() as opened:
        page.locator(".table-rules a").click()
    other = opened.value
    expect(other.get_by_role("heading", name="The three presets")).to_be_visible(timeout=10_000)
    other.wait_for_function(
        "() => window.scrollY > 100"
    )  # the link's part of the page, not its top
    expect(page.locator(".hand-tile").first).to_be_visible()  # the game is still there
    assert not errors, errors


# A stand-in for the browser's notifications: records what would show, answers the
# permission question as the test sets it, and lets the test say the tab is hidden.
FAKE_NOTIFICATIONS = """
window.__notes = [];
window.__answer = "granted";
window.__hidden = false;
class FakeNotification {
  constructor(title, options) { window.__notes.push([title, options && options.body]); }
  close() { window.__closed = (window.__closed || 0) + 1; }
  static get permission() { return window.__granted || "default"; }
  static requestPermission() {
    if (window.__answer === "granted") window.__granted = "granted";
    return Promise.resolve(window.__answer);
  }
}
window.Notification = FakeNotification;
Object.defineProperty(document, "hidden", { get: () => window.__hidden });
"""


def test_a_player_in_another_tab_is_told_when_their_turn_comes(server: str, page: Any) -> None:
    from playwright.sync_api import expect

    page.add_init_script(FAKE_NOTIFICATIONS)
    body = {"name": "Ana", "seats": ["bot:greedy"], "options": {"rounds": 1}}
    made = create_via_api(server, body)
    seat_page(page, server, made)
    expect(page.locator(".turn.mine")).to_be_visible(timeout=15_000)
    box = page.get_by_label("Tell me when it is my turn")
    # a browser that says no: the box stays off, and the page says why
    page.evaluate("window.__answer = 'denied'")
    box.click()
    expect(page.get_by_text("The browser does not allow notifications")).to_be_visible()
    expect(box).not_to_be_checked()
    page.evaluate("window.__answer = 'granted'")
    box.check()
    expect(box).to_be_checked()
    # on this tab's turn, with the tab in view: no notification
    page.wait_for_timeout(300)
    assert page.evaluate("window.__notes") == []
    # the player looks elsewhere; once the others have played, the turn comes back
    page.evaluate("window.__hidden = true")
    # (a draw may leave a tile to play: moves until the next turn of Ana's is told)
    deadline = time.monotonic() + 30
    while not page.evaluate("window.__notes.length"):
        assert time.monotonic() < deadline, "no notification"
        # (asked again just before moving: a turn already told is left alone)
        if page.locator(".turn.mine").is_visible() and not page.evaluate("window.__notes.length"):
            make_a_move_and_wait(page)
        else:
            page.wait_for_timeout(50)
    assert page.evaluate("window.__notes")[0] == ["Your turn", f"Table {made['code']}"]
    # once a turn: another tab of the seat coming in changes the table, not the turn
    watcher = page.context.new_page()
    watcher.goto(f"{server}/t/{made['code']}")
    expect(watcher.locator(".hand-tile").first).to_be_visible(timeout=10_000)
    page.wait_for_timeout(500)
    assert len(page.evaluate("window.__notes")) == 1
    watcher.close()
    # back at the tab: the notification goes
    page.evaluate("window.__hidden = false; document.dispatchEvent(new Event('visibilitychange'))")
    assert page.evaluate("window.__closed") == 1
    # and the choice is remembered for the next table
    assert page.evaluate("localStorage.getItem('mextrain.notify')") == "1"


def _replay_with_open_doubles(preset: str) -> dict[str, Any]:
    """A replay's answer with one frame: a round of ``preset`` in which two doubles stand
    open (random play that favours doubles, seeded)."""
    import random

    from mextrain.rules import RoundState, Rules
    from mextrain.web.app import _frame

    rules = Rules.preset(preset)
    for seed in range(2000):
        rng = random.Random(seed)
        state = RoundState.new(rules, 4, 0, rng)
        while not state.is_over and len(state.open_doubles) < 2:
            legal = state.legal_actions()
            doubles = [a for a in legal if a.tile is not None and a.tile.is_double]
            state.apply(rng.choice(doubles or legal))
        if len(state.open_doubles) >= 2:
            break
    return {
        "players": ["Ana", "Ben", "Cy", "Di"],
        "rounds": [{"engine": state.engine, "scores": None, "frames": [_frame(state, None)]}],
        "totals": [0, 0, 0, 0],
        "winners": [],
        "bots": [None] * 4,
        "open_doubles_block": rules.open_doubles_block,
        "_open": [str(t) for t in state.open_doubles],
    }


def _answer(body: str, route: Any, request: Any = None) -> None:
    route.fulfill(status=200, content_type="application/json", body=body)


def test_a_replay_is_named_in_the_title_while_it_loads(server: str, page: Any) -> None:
    """The replay set the window's title only once its game had come (a hook after the
    page's early returns): while it loaded, the tab still said the page before it."""
    from playwright.sync_api import expect

    held: list[Any] = []
    page.route("**/api/games/424243/replay", lambda route: held.append(route))  # (unanswered)
    page.goto(server + "/stats")
    expect(page).to_have_title(re.compile("^Statistics"))
    page.goto(server + "/replay/424243")
    expect(page.get_by_text("Loading")).to_be_visible()
    expect(page).to_have_title(re.compile(r"^Replay #424243 · "))
    expect(page.get_by_text("Loading")).to_be_visible()  # (still: its game never came)


def test_open_doubles_look_as_the_rules_make_them(server: str, page: Any) -> None:
    """Under classic the oldest open double is framed in red (cover it first) and a later
    one dashed; under relaxed an open double blocks nobody: its ‼ only, no frame. The
    replay shows the round's engine too (its first frame had no double-12 anywhere)."""
    import json
    from functools import partial

    from playwright.sync_api import expect

    for preset in ("classic", "relaxed"):
        data = _replay_with_open_doubles(preset)
        first, second = (-1 if t == "-1" else int(t) for t in data.pop("_open")[:2])
        page.route("**/api/games/424242/replay", partial(_answer, json.dumps(data)))
        page.goto(server + "/replay/424242")
        trains = page.locator(".replay .trains .train")
        expect(trains.first).to_contain_text("Engine")
        engine = data["rounds"][0]["engine"]
        expect(trains.first.locator(".tile")).to_have_count(1)
        # trains in the page's order: the engine's row, the seats' trains, the Mexican
        order = [0, 1, 2, 3, -1]
        row = {owner: trains.nth(1 + i) for i, owner in enumerate(order)}
        marks = page.locator(".replay .open-double-mark")
        expect(marks).to_have_count(2)
        if preset == "classic":
            expect(row[first]).to_have_class(re.compile(r"\bopen-double\b(?!.*later)"))
            expect(row[second]).to_have_class(re.compile(r"\bopen-double later\b"))
        else:
            for owner in (first, second):
                expect(row[owner]).to_have_class(re.compile(r"\bopen-double-free\b"))
            expect(page.locator(".replay .train.open-double")).to_have_count(0)
        shot(page, f"13-open-doubles-{preset}")
        page.unroute("**/api/games/424242/replay")
        assert engine in range(13)


def _a_round_over_with_a_double_open(db: Any) -> dict[str, str]:
    """A one-round table of Ana and Ben, finished with a double left open, written to the
    log of ``db`` as the server keeps it (the seed of its deal, the joins, the start and
    every move): the seed and the moves are found by playing rounds with the engine (random
    moves that favour doubles) until one ends with a double open. Ana's token is returned,
    with the train the double was left on (as the page names it: "M" or the seat)."""
    import random

    from mextrain.rules import MEXICAN, Match, Rules

    spec = {"preset": "classic", "max_pip": 6, "rounds": 1, "hand_size": {"2": 7}}
    rules = Rules.from_spec(spec)
    for k in range(500):
        seed = f"left-open-{k}"
        state = Match.new(rules, 2, random.Random(seed)).current
        rng = random.Random(k)
        moves = []
        while not state.is_over:
            legal = state.legal_actions()
            doubles = [a for a in legal if a.tile is not None and a.tile.is_double]
            action = rng.choice(doubles or legal)
            moves.append(action.notation(state.current_seat))
            state.apply(action, state.current_seat)
        if state.open_doubles:
            break
    else:
        raise AssertionError("no round of 500 ended with a double open")
    assert rules.open_doubles_block  # (the rules under which one is to be covered first)
    code = "DBLEFT"
    tokens = store_table(db, code, spec, seed, moves)
    owner = state.open_doubles[0]
    return {"code": code, "token": tokens[0], "open": "M" if owner == MEXICAN else str(owner)}


@pytest.mark.parametrize("lang", ["en", "fr", "it", "fi"])
def test_a_round_over_asks_no_double_to_be_covered_first(
    tmp_path: Any, page: Any, lang: str
) -> None:
    """A round that ended with a double left open (classic rules: the oldest open double
    is to be covered first) still framed it in red on the finished table, its train said
    "to be covered before anything else", and so did the replay's last step: nobody plays
    any more. The double keeps its ‼, named a double left open."""
    import urllib.request

    from playwright.sync_api import expect

    from conftest import running_server
    from mextrain.i18n import Translator

    t = Translator(lang)
    first, left_open = t("web.double_first"), t("web.double_left_open")
    db = tmp_path / "left-open.sqlite3"
    made = _a_round_over_with_a_double_open(db)
    with running_server(db, 1) as base:
        seat_page(page, base, made, lang)
        expect(page.locator(".result")).to_be_visible(timeout=15_000)
        train = page.locator(f'.train[data-train="{made["open"]}"]')
        expect(page.locator(".train.open-double")).to_have_count(0)  # (no red frame)
        expect(train).to_have_class(re.compile(r"\bopen-double-free\b"))
        label = train.get_attribute("aria-label") or ""
        assert first.lower() not in label.lower(), label
        assert left_open[0].upper() + left_open[1:] in label, label
        expect(train.locator(".open-double-mark")).to_have_attribute("title", left_open)
        shot(page, f"45-round-over-double-left-open-{lang}")
        # the replay's last step: the round as it ended
        with urllib.request.urlopen(base + "/api/games") as res:
            game = json.load(res)[0]["id"]
        page.goto(f"{base}/replay/{game}")
        replay_to_the_end(page)
        # (the round is over)
        expect(page.locator(".replay .replay-scores strong")).to_have_text(t("web.round_over"))
        expect(page.locator(".replay .train.open-double")).to_have_count(0)
        expect(page.locator(".replay .train.open-double-free")).to_have_count(1)
        marks = page.locator(".replay .open-double-mark")
        expect(marks).to_have_count(1)
        expect(marks).to_have_attribute("aria-label", left_open)
        row = page.locator(".replay .train.open-double-free")
        label = row.get_attribute("aria-label") or ""
        assert left_open[0].upper() + left_open[1:] in label, label
        shot(page, f"45-replay-double-left-open-{lang}")


def _a_table_at(db: Any, code: str, wanted: Callable[[Any], bool]) -> dict[str, str]:
    """A table of Ana and Ben (classic rules, a double-6 set), in play at a position where
    ``wanted`` holds of the round and Ana is to move, written to the log of ``db`` as the
    server keeps it: rounds are played with the engine (random moves, draws first) from
    seed after seed until one comes there. Ana's token is returned, with the code."""
    return _a_round_at(db, code, wanted)[0]


def _a_round_at(
    db: Any,
    code: str,
    wanted: Callable[[Any], bool],
    spec: dict[str, Any] | None = None,
    players: int = 2,
    names: tuple[str, ...] = NAMES,
) -> tuple[dict[str, str], Any]:
    """`_a_table_at` under other rules (``spec``) or with more players (Cy, Di), or
    other ``names``, with the round at that position as well."""
    if spec is None:
        spec = {"preset": "classic", "max_pip": 6, "rounds": 1, "hand_size": {"2": 7}}
    tokens, state = table_at(
        db, code, spec, players, wanted, draws_first=True, tries=500, names=names
    )
    return {"code": code, "token": tokens[0]}, state


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_tile_just_drawn_is_shown_with_what_may_be_done_with_it(
    tmp_path: Any, page: Any, lang: str
) -> None:
    """The hand comes in order, where a tile just drawn was lost among the others: only a
    screen reader was told which it was, and a player who could see it fitted nowhere did
    not know why Pass was all that was left. The drawn tile is marked in the hand, and a
    line says which it is and what may be done with it (play it, or pass), also after a
    reload; once it is played, neither is left."""
    from playwright.sync_api import expect

    from conftest import running_server
    from mextrain.i18n import Translator

    def drew(fits: bool) -> Callable[[Any], bool]:
        def wanted(state: Any) -> bool:
            if state.drawn < 0:
                return False
            tile = state.ts.tiles[state.drawn]
            playable = any(a.tile == tile for a in state.legal_actions() if a.kind == "play")
            return playable == fits

        return wanted

    t = Translator(lang)
    db = tmp_path / "drawn.sqlite3"
    fits = _a_table_at(db, "DRAWNF", drew(True))
    nowhere = _a_table_at(db, "DRAWNX", drew(False))
    with running_server(db, 1) as base:
        for made, key in ((nowhere, "drawn_tile_fits_nowhere"), (fits, "drawn_tile_only")):
            seat_page(page, base, made, lang)
            expect(page.locator(".turn.mine")).to_be_visible(timeout=15_000)
            marked = page.locator(".hand-tile.drawn")
            expect(marked).to_have_count(1)
            tile = marked.get_attribute("data-tile") or ""
            note = page.locator(".actions .drawn-note")
            expect(note).to_have_text(t(f"game.error_you.{key}", drawn=tile))
            # another tile chosen: the line still says why it is not that one
            page.locator(".hand-tile:not(.drawn)").first.click()
            expect(note).to_have_text(t(f"game.error_you.{key}", drawn=tile))
            shot(page, f"46-drawn-tile-{key}-{lang}")
            page.reload()
            expect(page.locator(".hand-tile.drawn")).to_have_attribute("data-tile", tile)
            if key == "drawn_tile_only":
                expect(marked).to_have_class(re.compile(r"\bplayable\b"))
                marked.click()
                page.locator(".train.target").first.click()
                expect(page.locator(".turn.mine")).to_have_count(0)
            else:
                expect(page.locator(".hand-tile.playable")).to_have_count(0)
                page.get_by_role("button", name=t("game.pass")).click()
                expect(page.locator(".turn.mine")).to_have_count(0)
            expect(page.locator(".hand-tile.drawn")).to_have_count(0)
            expect(note).to_have_count(0)


def test_draw_and_pass_stay_where_they_are_when_the_turns_prompt_comes_and_goes(
    tmp_path: Any, page: Any
) -> None:
    """The line over Draw and Pass that says what the turn asks ("No tile fits: draw.")
    took no room while empty: Draw, Pass, Hint and the hand moved down a line when it came
    and back up after the draw, so a mouse taken from Draw across to Pass clicked under it,
    on nothing. The line keeps its room on a desktop screen, said or not."""
    from playwright.sync_api import expect

    from conftest import running_server

    def must_draw(state: Any) -> bool:
        kinds = {a.kind for a in state.legal_actions()}
        return state.drawn < 0 and kinds == {"draw"} and not state.open_doubles

    made = _a_table_at(tmp_path / "prompt-room.sqlite3", "PROMPT", must_draw)
    with running_server(tmp_path / "prompt-room.sqlite3", 1) as base:
        seat_page(page, base, made)
        expect(page.locator(".turn.mine")).to_be_visible(timeout=15_000)
        prompt = page.locator(".hand-area .turn-prompt")
        expect(prompt).not_to_be_empty()
        draw = page.get_by_role("button", name="Draw")
        passing = page.get_by_role("button", name="Pass")
        before = [draw.bounding_box(), passing.bounding_box()]
        draw.click()
        expect(page.locator(".hand-tile.drawn")).to_have_count(1)
        expect(prompt).to_be_empty()
        shot(page, "46-prompt-room-after-draw")
        after = [draw.bounding_box(), passing.bounding_box()]
        assert [box and box["y"] for box in after] == [box and box["y"] for box in before], (
            "Draw and Pass moved when the prompt went"
        )


@pytest.mark.parametrize("lang", ["en", "fi"])
def test_a_laptop_shows_every_train_of_eight_seats_above_the_hand(
    server: str, page: Any, lang: str
) -> None:
    """A table of eight on a laptop's 1280 by 720 screen had the Mexican train under the
    hand (half of it in English, all but its top in Finnish, whose "Meksikon juna" takes
    two lines), the rows as far apart as with four seats: the rows are as close as on a
    phone when the screen is that low, and every train is in sight above the hand."""
    page.set_viewport_size({"width": 1280, "height": 720})
    made = create_via_api(
        server, {"name": "Ana", "seats": ["bot:greedy"] * 7, "options": {"rounds": 1}}
    )
    seat_page(page, server, made, lang)
    page.locator(".turn.mine").wait_for(timeout=20_000)
    shot(page, f"47-eight-seats-laptop-{lang}", full_page=False)
    mexican = page.locator(".train.mexican").bounding_box()
    hand = page.locator(".hand-area").bounding_box()
    assert mexican
    assert hand
    assert mexican["y"] + mexican["height"] <= hand["y"], "the Mexican train is under the hand"
    assert hand["y"] + hand["height"] <= 720, "the hand is under the screen's edge"


#: each train of the board as the reader finds it where the page opened (no scrolling):
#: its bottom, the hand's top, and whether a click at its middle reaches it
TRAINS_IN_REACH = """() => {
  const hand = document.querySelector('.hand-area').getBoundingClientRect();
  return [...document.querySelectorAll('.board .train')].map((train) => {
    const box = train.getBoundingClientRect();
    const at = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return {train: train.dataset.train, bottom: box.bottom, hand: hand.top,
      reached: Boolean(at && train.contains(at))};
  });
}"""


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_laptop_shows_every_train_of_ten_seats_above_the_hand(
    server: str, page: Any, lang: str
) -> None:
    """A cardinal table of ten on a laptop's 1280 by 720 screen had its last two trains,
    the Mexican train among them, under the hand: out of sight, and a click there went to
    the hand. The rows of nine or ten seats are closer on a screen that low, and every
    train is in sight and in reach above the hand, the hand whole on the screen."""
    from playwright.sync_api import expect

    page.set_viewport_size({"width": 1280, "height": 720})
    made = create_via_api(
        server,
        {
            "name": "Ana",
            "preset": "cardinal",
            "seats": ["bot:greedy"] * 9,
            "options": {"rounds": 1},
        },
    )
    seat_page(page, server, made, lang)
    page.locator(".turn.mine").wait_for(timeout=20_000)
    expect(page.locator(".board .train")).to_have_count(11)
    shot(page, f"47-ten-seats-laptop-{lang}", full_page=False)
    trains = page.evaluate(TRAINS_IN_REACH)
    hidden = [t for t in trains if not t["reached"] or t["bottom"] > t["hand"]]
    assert hidden == [], hidden
    hand = page.locator(".hand-area").bounding_box()
    assert hand
    assert hand["y"] + hand["height"] <= 720, "the hand is under the screen's edge"


@pytest.mark.parametrize("lang", ["fr", "fi"])
def test_a_bots_name_level_and_count_take_one_line_on_a_computer(
    server: str, page: Any, lang: str
) -> None:
    """A train's label ("Robot 2 moyen 15", "Botti 3 suunnittelija 15", "M Meksikon juna")
    took two lines in French and Finnish on a computer, its column too narrow: every row
    of a table of four grew, and a table of eight at 1280 by 720 had its Mexican train
    under the hand. Every label is one line high now, at four seats and at eight."""
    for seats, (width, height) in ((4, (1280, 720)), (4, (1920, 1080)), (8, (1280, 720))):
        page.set_viewport_size({"width": width, "height": height})
        bots = ["bot:medium", "bot:planner"] * 4
        made = create_via_api(
            server, {"name": "Ana", "seats": bots[: seats - 1], "options": {"rounds": 1}}
        )
        seat_page(page, server, made, lang)
        page.locator(".turn.mine").wait_for(timeout=20_000)
        shot(page, f"48-labels-{seats}-seats-{width}-{lang}", full_page=False)
        labels = page.evaluate(
            "() => [...document.querySelectorAll('.train-owner')].map(e => [e.innerText,"
            " e.getBoundingClientRect().height,"
            " 1.6 * parseFloat(getComputedStyle(e).fontSize)])"
        )
        assert len(labels) == seats + 1, labels
        # (a bot that drew before Ana's turn has its marker up: "Botti 3 suunnittelija
        # ⚑ 16", 200 px wide, still takes two lines; the others with a marker fit)
        tall = [label for label in labels if label[1] > label[2] and "⚑" not in label[0]]
        assert tall == [], (seats, width, tall)
        mexican = page.locator(".train.mexican").bounding_box()
        hand = page.locator(".hand-area").bounding_box()
        assert mexican
        assert hand
        assert mexican["y"] + mexican["height"] <= hand["y"], "the Mexican train is under the hand"


def _kept_by(code: str, mexican: bool) -> Callable[[Any], list[Any]]:
    """The tiles of Ana's hand that the rule ``code`` keeps off her own train (or the
    Mexican train, one that does not match her own), a train whose open end they match."""
    from mextrain.rules import MEXICAN

    on = MEXICAN if mexican else 0

    def kept(state: Any) -> list[Any]:
        return [
            tile
            for tile in state.hand(0)
            if tile.has(state.ends[on])
            and (on == 0 or not tile.has(state.ends[0]))
            and getattr(refused_on(state, tile, on), "code", None) == code
        ]

    return kept


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_tile_chosen_that_cannot_be_played_says_the_rule_that_keeps_it_off(
    tmp_path: Any, page: Any, lang: str
) -> None:
    """A tile that would fit a train but a rule keeps off it said only "No train takes
    5-7 now": under classic, a tile that fits one's own train while an open double is to
    be answered first; under cardinal, a tile that fits the Mexican train while a tile
    fits one's own. Chosen, it now says the rule in the engine's words, shown beside the
    buttons and told to a screen reader with its tiles in words."""
    from playwright.sync_api import expect
    from test_browser_access import HEAR_LIVE

    from conftest import running_server
    from mextrain.i18n import error_text
    from mextrain.rules import MEXICAN

    cardinal = {"preset": "cardinal", "max_pip": 6, "rounds": 1, "hand_size": {"4": 5}}
    cases = [
        # (code, rules, players, the rule, whether it keeps the tile off the Mexican train)
        ("WHYOD", None, 2, "open_double_first", False),
        ("WHYOT", cardinal, 4, "own_train_first", True),
    ]
    db = tmp_path / "why.sqlite3"
    made = []
    for code, spec, players, rule, mexican in cases:
        kept = _kept_by(rule, mexican)

        def wanted(state: Any, kept: Any = kept) -> bool:
            return state.drawn < 0 and not state.owe and bool(kept(state))

        made.append((*_a_round_at(db, code, wanted, spec, players), kept, players, mexican))
    with running_server(db, 1) as base:
        for table, state, kept, players, mexican in made:
            seat_page(page, base, table, lang)
            expect(page.locator(".turn.mine")).to_be_visible(timeout=15_000)
            page.evaluate(HEAR_LIVE)
            names = dict(enumerate(NAMES[:players]))
            tile = kept(state)[0]
            err = refused_on(state, tile, MEXICAN if mexican else 0)
            chosen = page.locator(f'.hand-tile[data-tile="{tile}"]')
            expect(chosen).not_to_have_class(re.compile(r"\bplayable\b"))
            chosen.click()
            note = page.locator(".actions .tile-note")
            expect(note).to_have_text(error_text(err, lang, names, 0))
            said = error_text(err, lang, names, 0, spoken=True)
            page.wait_for_function("w => window.heard.includes(w)", arg=said, timeout=5_000)
            shot(page, f"47-why-not-{err.code}-{lang}")
            chosen.click()  # (put back: the words go with it)
            expect(note).to_have_count(0)


def _run_goes_on(state: Any) -> Any:
    """A play of Ana's on her own train after which her first-turn run goes on (another
    tile of hers fits the end it leaves), if there is one (no double: it would owe)."""
    end = state.ends[0]
    for action in state.legal_actions():
        tile = action.tile
        if action.kind != "play" or action.train != 0 or tile is None or tile.is_double:
            continue
        left = tile.other_end(end)
        if any(x != tile and not x.is_double and x.has(left) for x in state.hand(0)):
            return action
    return None


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_turn_says_what_it_asks_beyond_your_turn(tmp_path: Any, page: Any, lang: str) -> None:
    """Only "Your turn" was lit where the terminal says more: a double just played asks
    for another tile, the first-turn run lets you lay more on your own train or pass, and
    under classic the oldest open double must be answered first. A line above the buttons
    says it, in the page's language, and a screen reader is told it once, as it comes."""
    from playwright.sync_api import expect
    from test_browser_access import HEAR_LIVE

    from conftest import running_server
    from mextrain.i18n import Translator
    from mextrain.rules import MEXICAN

    t = Translator(lang)

    def blocked(state: Any) -> bool:
        return bool(state.open_doubles) and not state.owe and state.drawn < 0

    def owing(state: Any) -> bool:
        plays = [a for a in state.legal_actions() if a.kind == "play"]
        return bool(state.open_doubles) and state.owe and state.drawn < 0 and bool(plays)

    def starting(state: Any) -> bool:
        turn = state.turn_state()
        return turn.run and not turn.plays and state.drawn < 0 and _run_goes_on(state) is not None

    cardinal = {"preset": "cardinal", "max_pip": 6, "rounds": 1, "hand_size": {"4": 6}}
    db = tmp_path / "prompts.sqlite3"
    answer, blocked_state = _a_round_at(db, "ANSWER", blocked)
    follow, _ = _a_round_at(db, "FOLLOW", owing)
    run, run_state = _a_round_at(db, "RUNRUN", starting, cardinal, 4)
    oldest = blocked_state.open_doubles[0]
    train = (
        t("game.train.mexican_the")
        if oldest == MEXICAN
        else t("game.train.own")
        if oldest == 0
        else t("game.train.of", name="\u2068Ben\u2069")
    )
    prompt = page.locator(".hand-area .turn-prompt")
    with running_server(db, 1) as base:
        for made, said in (
            (answer, t("web.prompt.answer_first", train=train)),
            (follow, t("web.prompt.follow_up")),
        ):
            seat_page(page, base, made, lang)
            expect(page.locator(".turn.mine")).to_be_visible(timeout=15_000)
            expect(prompt).to_have_text(said)
            shot(page, f"48-turn-prompt-{made['code'].lower()}-{lang}")
        seat_page(page, base, run, lang)
        expect(page.locator(".turn.mine")).to_be_visible(timeout=15_000)
        expect(prompt).to_have_text(t("web.prompt.run_start"))
        page.evaluate(HEAR_LIVE)
        move = _run_goes_on(run_state)
        page.locator(f'.hand-tile[data-tile="{move.tile}"]').click()
        page.locator('.train.target[data-train="0"]').click()
        more = t("web.prompt.run_more")
        expect(prompt).to_have_text(more)
        shot(page, f"48-turn-prompt-run-{lang}")
        # told once: a tile chosen and put back does not tell it again
        stuck = page.locator(".hand-tile").first
        stuck.click()
        stuck.click()
        page.wait_for_timeout(300)
        assert page.evaluate("w => window.heard.filter((x) => x === w).length", more) == 1
        page.get_by_role("button", name=t("game.pass")).click()
        expect(page.locator(".turn.mine")).to_have_count(0)
        expect(prompt).to_have_text("")


def _out_then_no_tile_fits(db: Any, code: str) -> tuple[dict[str, str], Any]:
    """A table of Ana and Ben, two rounds, stored where a play of Ana's (returned) ends
    the first round, whose second round, dealt by the server after it, starts with Ana's
    turn and no tile of hers that fits: she must draw."""
    import random

    from mextrain.rules import Match, Rules

    spec = {"preset": "classic", "max_pip": 6, "rounds": 2, "hand_size": {"2": 7}}
    rules = Rules.from_spec(spec)

    def ends(state: Any, action: Any) -> bool:
        after = state.copy()
        after.apply(action, 0)
        return bool(after.is_over)

    for k in range(2000):
        seed = f"{code}-{k}"
        deals = random.Random(seed)  # (the server's: it deals the rounds, nothing else)
        match = Match.new(rules, 2, deals)
        state = match.current
        rng = random.Random(k)
        moves: list[str] = []
        last = None
        while not state.is_over:
            legal = state.legal_actions()
            if state.current_seat == 0:
                last = next((a for a in legal if a.kind == "play" and ends(state, a)), None)
                if last is not None:
                    break
            draws = [a for a in legal if a.kind == "draw"]
            action = draws[0] if draws else rng.choice(legal)
            moves.append(action.notation(state.current_seat))
            state.apply(action, state.current_seat)
        if last is None:
            continue
        state.apply(last, 0)
        second = match.next_round(deals)
        legal = second.legal_actions()
        if (
            second.current_seat == 0
            and not any(a.kind == "play" for a in legal)
            and any(a.kind == "draw" for a in legal)
        ):
            tokens = store_table(db, code, spec, seed, moves)
            return {"code": code, "token": tokens[0]}, last
    raise AssertionError(f"no deal of 2000 came to the position wanted for {code}")


# what the turn's prompt says from now on, with whether the page was inert then (a modal
# dialog open that it is not in): words said to an inert page are heard by no one
HEAR_PROMPT = (
    "() => { window.prompts = []; const now = () => { const el = document.querySelector("
    "'.turn-prompt'); return el ? el.textContent.trim() : ''; }; let last = now();"
    " new MutationObserver(() => { const el = document.querySelector('.turn-prompt');"
    " const text = now(); if (text === last) return; last = text;"
    " const modal = document.querySelector('dialog[open]');"
    " if (text) window.prompts.push({text, inert: Boolean(modal && !modal.contains(el))}); })"
    ".observe(document.body, {subtree: true, childList: true, characterData: true}); }"
)


def test_a_turn_prompt_that_came_during_the_rounds_result_is_heard_once_it_closes(
    tmp_path: Any, page: Any
) -> None:
    """The next round may be dealt while the last one's result is open, the player's
    turn asking something ("No tile fits: draw."): the prompt's live region, outside the
    result (a modal dialog: the rest of the page is inert), changed then, to no one, and
    was the same once the result closed, so a screen reader never told it. It is told
    once the result is closed, and once only."""
    from playwright.sync_api import expect

    from conftest import running_server
    from mextrain.i18n import Translator

    t = Translator("en")
    db = tmp_path / "prompt-after.sqlite3"
    made, last = _out_then_no_tile_fits(db, "AFTER")
    draw = t("web.prompt.must_draw")
    prompt = page.locator(".hand-area .turn-prompt")
    with running_server(db, 1) as base:
        seat_page(page, base, made)
        expect(page.locator(".turn.mine")).to_be_visible(timeout=15_000)
        page.evaluate(HEAR_PROMPT)
        dialog = _play(page, last)
        # the second round is dealt while the first one's result is open: Ana's turn
        expect(page.locator(".status")).to_contain_text("Round 2 / 2", timeout=15_000)
        expect(page.locator(".turn.mine")).to_be_visible()
        expect(page.get_by_role("button", name=t("game.draw"))).to_be_enabled()
        page.wait_for_timeout(300)
        expect(dialog).to_be_visible()
        dialog.get_by_role("button", name=t("web.continue")).click()
        expect(dialog).to_have_count(0)
        expect(prompt).to_have_text(draw)
        # told once: a tile chosen and put back does not tell it again
        stuck = page.locator(".hand-tile").first
        stuck.click()
        stuck.click()
        page.wait_for_timeout(300)
        assert page.evaluate("window.prompts") == [{"text": draw, "inert": False}]
        shot(page, "48-turn-prompt-after-result")


def _tables_going_out(db: Any, prefix: str) -> list[tuple[dict[str, str], Any, Any]]:
    """Two tables of Ana and Ben (a double-6 set, a 0-0 worth 50, 10 a double left open)
    written to ``db``, codes starting with ``prefix``, each where Ana's play (`_going_out`)
    ends the round with Ben's score more than his pips: a 0-0 left (classic), a double of
    his left open (relaxed, where it does not have to be answered first). By table: the
    seat's page's table, the play, the round as it ends."""
    spec = {
        "max_pip": 6,
        "rounds": 1,
        "hand_size": {"2": 7},
        "double_blank_points": 50,
        "unsatisfied_double_penalty": 10,
    }
    found = []
    for kind, preset in (("double_blank", "classic"), ("penalty", "relaxed")):
        going_out = _going_out(kind)
        made, state = _a_round_at(
            db,
            f"{prefix}{kind[:5].upper()}",
            lambda s, f=going_out: f(s) is not None,
            {**spec, "preset": preset},
        )
        found.append((made, *going_out(state)))
    return found


def _play(page: Any, action: Any) -> Any:
    """Play ``action``, the last tile of the seat on ``page``, once its turn has come, by
    clicking its tile, then its one train; the round's result, open."""
    from playwright.sync_api import expect

    expect(page.locator(".turn.mine")).to_be_visible(timeout=15_000)
    page.locator(f'.hand-tile[data-tile="{action.tile}"]').click()
    train = "M" if action.train < 0 else str(action.train)
    target = page.locator(f'.train.target[data-train="{train}"]')
    expect(target).to_have_count(1)
    target.click()
    dialog = page.get_by_role("dialog")
    expect(dialog).to_be_visible(timeout=15_000)
    return dialog


def _extra_words(t: Any, part: Any) -> list[str]:
    """What the page says the rules added to a seat's score (its `ScoreParts`)."""
    words = []
    if part.double_blank:
        words.append(t("web.score_extra.double_blank", points=part.double_blank))
    if part.penalty:
        count = part.open_doubles
        words.append(t.plural("web.score_extra.penalty", count, points=part.penalty))
    return words


def _going_out(part: str) -> Callable[[Any], Any]:
    """A play of Ana's last tile after which Ben's score is not the pips he is left with
    (``part``: "double_blank", a 0-0 among them; "penalty", a double of his left open),
    with the round as it ends; None if there is none."""
    return _going_out_where(lambda parts: getattr(parts[1], part))


def _going_out_where(scored: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """A play of Ana's last tile after which the round's ``score_parts()`` are ``scored``
    as wanted, with the round as it ends; None if there is none."""

    def find(state: Any) -> Any:
        if state.current_seat != 0 or len(state.hand(0)) != 1:
            return None
        for action in state.legal_actions():
            if action.kind != "play":
                continue
            ended = state.copy()
            ended.apply(action, 0)
            if scored(ended.score_parts()):
                return action, ended
        return None

    return find


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_round_result_says_what_was_added_to_the_pips_left(
    tmp_path: Any, page: Any, lang: str
) -> None:
    """With a 0-0 worth points and a penalty for doubles left open, a round's result
    showed a score that was not the pips of the tiles beside it, with no word of why. The
    score now says what the engine added ("+50: double blank", "+10: 1 double left
    open")."""
    from playwright.sync_api import expect

    from conftest import running_server
    from mextrain.i18n import Translator

    t = Translator(lang)
    db = tmp_path / "extra.sqlite3"
    found = _tables_going_out(db, "X")
    with running_server(db, 1) as base:
        for made, action, ended in found:
            seat_page(page, base, made, lang)
            dialog = _play(page, action)
            rows = dialog.locator("tbody tr")
            for seat, part in enumerate(ended.score_parts()):
                words = _extra_words(t, part)
                extra = rows.nth(seat).locator(".score-extra")
                if words:
                    expect(extra).to_have_text(" · ".join(words))
                    expect(rows.nth(seat).locator("td").first).to_contain_text(str(part.total))
                else:
                    expect(extra).to_have_count(0)
            shot(page, f"49-round-extra-{made['code'].lower()}-{lang}")
            # the replay's round end says it as well
            notes = [
                f"\u2068{name}\u2069 {part.total}"
                f" ({rows.nth(seat).locator('.score-extra').inner_text()})"
                for seat, part in enumerate(ended.score_parts())
                for name in [NAMES[seat]]
                if part.double_blank or part.penalty
            ]
            dialog.locator("a[href^='/replay/']").click()
            replay_to_the_end(page)
            for note in notes:
                expect(page.locator(".replay-scores")).to_contain_text(note)
            shot(page, f"49-replay-extra-{made['code'].lower()}-{lang}")


# a cell's words as a screen reader gets them (what is hidden from it left out)
SPOKEN = (
    "el => { const copy = el.cloneNode(true);"
    " copy.querySelectorAll('[aria-hidden=true]').forEach((x) => x.remove());"
    " return copy.textContent; }"
)


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_score_sheet_marks_a_score_that_is_more_than_the_pips_left(
    tmp_path: Any, page: Any, lang: str
) -> None:
    """The round's result and the replay said what the rules added to a score ("+50:
    double blank"), but the score sheet beside the table, which stays, showed the number
    alone. A score with points added has a mark, whose words are shown on hover and said
    after the score to a screen reader; the others have none."""
    from playwright.sync_api import expect

    from conftest import running_server
    from mextrain.i18n import Translator

    t = Translator(lang)
    db = tmp_path / "sheet-extra.sqlite3"
    found = _tables_going_out(db, "S")
    with running_server(db, 1) as base:
        for made, action, ended in found:
            seat_page(page, base, made, lang)
            dialog = _play(page, action)
            dialog.get_by_role("button", name=t("web.continue")).click()
            expect(dialog).to_have_count(0)
            cells = page.locator("aside table.sheet tbody tr").first.locator("td")
            for seat, part in enumerate(ended.score_parts()):
                words = _extra_words(t, part)
                cell = cells.nth(seat)
                mark = cell.locator(".extra-mark")
                if words:
                    note = " · ".join(words)
                    expect(mark).to_be_visible()
                    expect(mark).to_have_attribute("title", note)
                    assert cell.evaluate(SPOKEN) == f"{part.total} ({note})", seat
                else:
                    expect(mark).to_have_count(0)
                    assert cell.evaluate(SPOKEN) == str(part.total), seat
            shot(page, f"49-sheet-extra-{made['code'].lower()}-{lang}")


#: a play of Ana's last tile after which every score is the pips left (nothing added by
#: the rules), with the round as it ends; None if there is none
_going_out_plainly = _going_out_where(
    lambda parts: not any(p.double_blank or p.penalty for p in parts)
)


@pytest.mark.parametrize("lang", ["en", "fi"])
def test_the_score_sheet_says_under_it_what_its_mark_means(
    tmp_path: Any, page: Any, lang: str
) -> None:
    """The * of a score the rules added to had its words on hover only, which a touch
    screen never does: once the sheet beside the table has a *, a line under it, no wider
    than the sheet, says what it means; a sheet without one has no such line."""
    from playwright.sync_api import expect

    from conftest import running_server
    from mextrain.i18n import Translator

    t = Translator(lang)
    db = tmp_path / "sheet-note.sqlite3"
    found = _tables_going_out(db, "N")
    made, state = _a_round_at(
        db,
        "NPLAIN",
        lambda s: _going_out_plainly(s) is not None,
        {
            "preset": "classic",
            "max_pip": 6,
            "rounds": 1,
            "hand_size": {"2": 7},
            "double_blank_points": 50,
            "unsatisfied_double_penalty": 10,
        },
    )
    found.append((made, *_going_out_plainly(state)))
    with running_server(db, 1) as base:
        for made, action, ended in found:
            seat_page(page, base, made, lang)
            expect(page.locator(".turn.mine")).to_be_visible(timeout=15_000)
            note = page.locator("aside .sheet-note")
            expect(note).to_have_count(0)  # (no round played yet)
            dialog = _play(page, action)
            dialog.get_by_role("button", name=t("web.continue")).click()
            expect(dialog).to_have_count(0)
            sheet = page.locator("aside table.sheet")
            expect(sheet.locator("tbody tr").first.locator("td").first).to_have_text(
                str(ended.score_parts()[0].total)
            )
            added = any(_extra_words(t, part) for part in ended.score_parts())
            assert added == (made["code"] != "NPLAIN"), made
            if added:
                expect(sheet.locator(".extra-mark").first).to_be_visible()
                expect(note).to_be_visible()
                expect(note).to_have_text(f"* {t('web.score_extra.note')}")
                box = note.bounding_box()
                table = sheet.bounding_box()
                assert box is not None
                assert table is not None
                assert box["y"] >= table["y"] + table["height"] - 1, (box, table)
                assert box["width"] <= table["width"] + 1, (box, table)
            else:
                expect(sheet.locator(".extra-mark")).to_have_count(0)
                expect(note).to_have_count(0)
            shot(page, f"50-sheet-note-{made['code'].lower()}-{lang}")


def test_every_option_a_table_changes_is_shown_to_its_players(server: str, page: Any) -> None:
    """Options only the API takes (a 0-0 worth 50, a penalty for open doubles, another
    set and its hand size, engines in another order, the Mexican train after the first
    round of turns) are said on the table's page in words."""
    from playwright.sync_api import expect

    made = create_via_api(
        server,
        {
            "name": "Ana",
            "seats": ["open", "bot:greedy"],
            "options": {
                "max_pip": 9,
                "hand_size": {"3": 8},
                "rounds": [0, 1, 2, 9],
                "double_blank_points": 50,
                "unsatisfied_double_penalty": 25,
                "mexican_after_first_round_of_turns": True,
                "first_turn_run": True,
            },
        },
    )
    seat_page(page, server, made, "fr")
    rules = page.locator(".waiting .muted").filter(has_text="Classique")
    for words in (
        "Le 0-0 compte 50",
        "25 points par double laissé ouvert",
        "Jeu double-9",
        "Moyeux 0-0, 1-1, 2-2, 9-9",
        "Train mexicain ouvert après le premier tour de chacun",
        "8 dominos par joueur",  # the hand size at this table's three seats
        "Série au premier tour pour tous",
    ):
        expect(rules).to_contain_text(words)
    expect(rules).not_to_contain_text("first_turn")  # the lobby's own rule, in words
    expect(rules).not_to_contain_text("hand_size")  # in words too, not as JSON
    shot(page, "14-table-options-fr")
    one = create_via_api(
        server,
        {"name": "Ana", "seats": ["open"], "options": {"unsatisfied_double_penalty": 1}},
    )
    seat_page(page, server, one, "fr")
    expect(page.locator(".waiting .muted").filter(has_text="Classique")).to_contain_text(
        "1 point par double laissé ouvert"
    )


def assert_sheet_fits(page: Any) -> None:
    """The page's first sheet ends inside the screen and needs no sideways scrolling (in
    the column beside a table, which holds it with the line that may come under it)."""
    fits = page.evaluate(
        "() => { const t = document.querySelector('table.sheet');"
        " const r = t.getBoundingClientRect();"
        " return {right: r.right, view: innerWidth, wide: t.scrollWidth,"
        " box: (t.closest('aside.side') || t.parentElement).clientWidth}; }"
    )
    assert fits["right"] <= fits["view"], fits
    assert fits["wide"] <= fits["box"], fits


@pytest.mark.parametrize(
    ("others", "lang", "name"),
    [
        (2, "fr", "Maximiliaan-Aleksanteri"),
        (3, "fr", "Maximiliaan-Aleksanteri"),  # (4 seats cut off the last column once)
        (5, "fi", "Bartholomew"),
        (9, "fi", "Bartholomew"),
    ],
)
def test_a_phone_shows_the_whole_score_sheet(
    server: str, tmp_path: Any, others: int, lang: str, name: str
) -> None:
    """At 390 pixels the score sheet of 3 to 10 seats fits the screen, long names and
    French "Robot N" too: every player's column, totals included, without scrolling
    sideways."""
    need_browser()
    from playwright.sync_api import expect, sync_playwright

    rules = "classic" if others < 8 else "cardinal"
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            made = create_via_api(
                server,
                {"name": name, "preset": rules, "seats": ["bot:greedy"] * others},
            )
            context, page = at_table(browser, server, made, (390, 844), lang)
            sheet = page.locator("table.sheet").first
            expect(sheet.locator("thead th")).to_have_count(others + 2)
            assert_sheet_fits(page)
            # the top bar takes two lines of a phone, not three
            bar = page.evaluate("() => document.querySelector('.topbar').offsetHeight")
            assert bar <= 80, bar
            sheet.scroll_into_view_if_needed()
            shot(page, f"15-phone-sheet-{others + 1}-seats", full_page=False)
            context.close()
        finally:
            browser.close()


#: what runs past the screen's right or left edge, as the reader sees it: every element
#: and every run of text, cut to what its scrolling or clipping boxes show (a word cut
#: short with "…" is in sight as far as it shows), and every box that scrolls sideways
#: (but a train's tiles, which run on sideways on purpose, and what only a screen reader
#: is told)
PAST_THE_EDGE = """() => {
  const width = document.documentElement.clientWidth;
  const found = [];
  if (document.scrollingElement.scrollWidth > width) {
    found.push('the page scrolls sideways: ' + document.scrollingElement.scrollWidth);
  }
  const skip = (e) => e.closest('.train-tiles, .sr-only');
  const shown = (e, rect) => {
    let [left, right] = [rect.left, rect.right];
    for (let up = e; up && up !== document.body; up = up.parentElement) {
      if (getComputedStyle(up).overflowX === 'visible') continue;
      const box = up.getBoundingClientRect();
      [left, right] = [Math.max(left, box.left), Math.min(right, box.right)];
    }
    return right > left && (right > width + 0.5 || left < -0.5);
  };
  const name = (e) => e.tagName.toLowerCase() + (e.className && e.className.baseVal === undefined
    ? '.' + e.className.trim().replace(/ +/g, '.') : '');
  for (const e of document.querySelectorAll('body *')) {
    if (skip(e)) continue;
    const style = getComputedStyle(e);
    if (style.visibility === 'hidden') continue;
    const rect = e.getBoundingClientRect();
    if (!rect.width && !rect.height) continue;
    if (['auto', 'scroll'].includes(style.overflowX) && e.scrollWidth > e.clientWidth + 1) {
      found.push(name(e) + ' scrolls sideways: ' + e.scrollWidth + ' > ' + e.clientWidth);
    }
    if (shown(e, rect)) found.push(name(e) + ' runs past the edge: ' + rect.right);
    for (const node of e.childNodes) {
      if (node.nodeType !== 3 || !node.textContent.trim()) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      for (const part of range.getClientRects()) {
        if (shown(e, part)) found.push(`"${node.textContent.trim()}" runs past: ${part.right}`);
      }
    }
  }
  return found;
}"""


def nothing_past_the_edge(page: Any, where: str) -> None:
    found = page.evaluate(PAST_THE_EDGE)
    if found:
        shot(page, f"22-phone-long-names-{where}")
    assert found == [], (where, found)


def test_the_longest_widest_names_fit_a_phone(server: str, tmp_path: Any) -> None:
    """Two people named with 24 of the widest letters ("WWW…", wider than a phone's
    screen in the waiting room's words) at a table on a phone: the waiting room, the
    table (its trains, its status line, score sheet, last moves and talk), the round's
    result, the finished table, the statistics and the replay -- nothing runs past the
    screen's edge, nor makes a box scroll sideways; the whole name is there on hover."""
    need_browser()
    from playwright.sync_api import expect, sync_playwright

    wide, wider = "W" * 24, "W" * 23 + "M"
    tiny = {"rounds": 1, "max_pip": 4, "hand_size": {"3": 4}}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            made = create_via_api(
                server, {"name": wide, "seats": ["open", "open"], "options": tiny}
            )
            joined = join_via_api(server, made["code"], wider)
            pages = []
            for seat in (made, joined):
                context = browser.new_context(viewport={"width": 390, "height": 844})
                pages.append(context.new_page())
                seat_page(pages[-1], server, seat)
            for page in pages:
                expect(page.locator(".seat-list li")).to_have_count(3)
                expect(page.locator(".seat-list .dot.on")).to_have_count(2)
            ana, ben = pages
            expect(ana.locator(".seat-list .who").first).to_have_attribute("title", wide)
            ana.get_by_role("button", name="Hello!").click()
            for page in pages:
                expect(page.locator(".chat-lines li")).to_have_count(1)
                nothing_past_the_edge(page, "waiting")
            ana.get_by_role("button", name="Start the game").click()
            for page in pages:
                expect(page.locator(".hand-tile").first).to_be_visible(timeout=15_000)
                expect(page.locator(".train .who").first).to_have_attribute("title", wide)
                nothing_past_the_edge(page, "table")
            # (one says something at the table: it shows over the other's page a while)
            ben.get_by_role("button", name="Good luck!").click()
            expect(ana.locator(".chat-toast")).to_be_visible()
            nothing_past_the_edge(ana, "talk")
            play_all_until_over(pages)
            for page in pages:
                expect(page.locator(".dialog .sheet .who")).to_have_count(3)
                nothing_past_the_edge(page, "result")
                page.locator(".dialog").get_by_role("button", name="Continue").click()
                nothing_past_the_edge(page, "finished")
            ana.locator(".result-links").get_by_role("link", name="Replay").click()
            expect(ana.locator(".replay-hand").first).to_be_visible()
            nothing_past_the_edge(ana, "replay")
            ana.goto(server + "/stats")
            expect(ana.locator(".recent li").first).to_be_visible()
            nothing_past_the_edge(ana, "stats")
        finally:
            browser.close()


def test_three_long_names_fit_a_phone_in_finnish_to_the_replays_last_step(
    server: str, tmp_path: Any
) -> None:
    """A table of three on a phone in Finnish, two of them with long names (one of 24
    Cyrillic "Ш", wider still than "W"): the score sheet's three names of 7rem beside
    "Yhteensä" ran past the screen (the panel beside the board scrolled sideways), as did
    the round's result ("Käteen jääneet dominot") and, at the replay's last step, the
    round's scores, the name unbroken. Nothing runs past the screen's edge."""
    need_browser()
    from playwright.sync_api import expect, sync_playwright

    wide, long = "Ш" * 24, "Aleksanteri Kärkkäinen"
    tiny = {"rounds": 1, "max_pip": 4, "hand_size": {"3": 4}}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            made = create_via_api(
                server, {"name": wide, "seats": ["open", "bot:greedy"], "options": tiny}
            )
            joined = join_via_api(server, made["code"], long)  # (every seat taken: it starts)
            pages = []
            for seat in (made, joined):
                context = browser.new_context(viewport={"width": 390, "height": 844})
                pages.append(context.new_page())
                seat_page(pages[-1], server, seat, "fi")
            for page in pages:
                expect(page.locator(".hand-tile").first).to_be_visible(timeout=15_000)
                expect(page.locator(".layout .sheet thead th")).to_have_count(4)
                nothing_past_the_edge(page, "fi-table")
            play_all_until_over(pages)
            for page in pages:
                expect(page.locator(".dialog .sheet .who")).to_have_count(3)
                nothing_past_the_edge(page, "fi-result")
            ana = pages[0]
            ana.locator(".dialog").get_by_role("button", name="Jatka").click()
            ana.locator(".result-links a").nth(1).click()
            steps = ana.locator(".replay input[type=range]")
            expect(steps).to_be_visible()
            steps.fill(steps.get_attribute("max") or "0")
            expect(ana.locator(".replay-scores")).to_contain_text(wide)
            nothing_past_the_edge(ana, "fi-replay-end")
        finally:
            browser.close()


def test_coming_back_during_the_pause_after_a_round_shows_its_end(
    paused_server: str, page: Any
) -> None:
    """A reload (or a dropped connection) in the pause between two rounds: the round's end
    is shown again, with its points, not lost until the next deal."""
    from playwright.sync_api import expect

    _a_short_game(page, paused_server, rounds=2)
    play_until_over(page)
    dialog = page.get_by_role("dialog")
    expect(dialog.locator(".how-ended")).to_be_visible()
    ended = dialog.locator(".how-ended").inner_text()
    page.reload()
    dialog = page.get_by_role("dialog")
    expect(dialog.locator(".how-ended")).to_have_text(ended, timeout=10_000)
    # (the hands left are laid down for whoever arrives then too)
    expect(dialog.get_by_role("columnheader")).to_have_text(
        ["Player", "Round 1", "Total", "Tiles left"]
    )
    # the heading has the focus (for a screen reader) without a ring, though the page
    # has had no click yet; the keyboard's next stop, Continue, has its ring
    heading = dialog.get_by_role("heading", name="Round 1 is over")
    expect(heading).to_be_focused()
    assert focus_ring(heading) == {"outline": "none", "shadow": "none"}
    shot(page, "26-round-end-no-click")
    page.keyboard.press("Tab")
    go_on = dialog.get_by_role("button", name="Continue")
    expect(go_on).to_be_focused()
    ring = focus_ring(go_on)
    assert ring["outline"] == "solid", ring
    assert ring["shadow"] != "none", ring
    go_on.click()
    expect(page.get_by_role("dialog")).to_have_count(0)


#: the round the score sheet beside the table marks as the one now (its row's index, -1:
#: none), how many it marks, and what the status line says of the turn, read at once
SHEET_NOW = """() => {
    const rows = [...document.querySelectorAll('aside table.sheet tbody tr')];
    return {now: rows.findIndex((r) => r.classList.contains('now')),
            marked: rows.filter((r) => r.classList.contains('now')).length,
            turn: document.querySelector('.status .turn').textContent};
}"""


def test_the_score_sheet_marks_the_next_engine_only_once_its_round_is_dealt(
    tmp_path: Any, page: Any
) -> None:
    """During the pause after a round the sheet beside the table already marked the next
    round's engine, while the table still showed the round just over: that round's row
    stays the one marked until the next round is dealt, then the next engine's is."""
    from playwright.sync_api import expect

    from conftest import running_server

    with running_server(tmp_path / "sheet-now.sqlite3", 8) as base:
        _a_short_game(page, base, rounds=2)
        first = page.evaluate(SHEET_NOW)
        assert (first["now"], first["marked"]) == (0, 1), first
        play_until_over(page)
        expect(page.get_by_role("dialog")).to_be_visible()
        during = page.evaluate(SHEET_NOW)
        shot(page, "28-sheet-during-the-pause", full_page=False)
        assert during == {"now": 0, "marked": 1, "turn": "Round over"}, during
        page.get_by_role("dialog").get_by_role("button", name="Continue").click()
        expect(page.locator(".status")).to_contain_text("Round 2 / 2", timeout=20_000)
        dealt = page.evaluate(SHEET_NOW)
        assert (dealt["now"], dealt["marked"]) == (1, 1), dealt
        assert dealt["turn"] != "Round over", dealt


def focus_ring(element: Any) -> dict[str, str]:
    """How ``element`` draws its focus: its outline's style and its box shadow."""
    ring: dict[str, str] = element.evaluate(
        "e => ({outline: getComputedStyle(e).outlineStyle, shadow: getComputedStyle(e).boxShadow})"
    )
    return ring


#: the WCAG contrast ratio of an element's text (``color``) and of its border to what is
#: behind it (its background, or the first ancestor's that has one)
CONTRAST = (
    """e => {
  const rgb = (c) => c.match(/[\\d.]+/g).map(Number);"""
    + WCAG_JS
    + """  const behind = (el) => {
    for (; el; el = el.parentElement) {
      const c = rgb(getComputedStyle(el).backgroundColor);
      if (c.length < 4 || c[3] > 0) return c.slice(0, 3);
    }
    return [255, 255, 255];
  };
  const style = getComputedStyle(e);
  return {text: ratio(rgb(style.color), behind(e)),
          border: ratio(rgb(style.borderTopColor), behind(e.parentElement))};
}"""
)


def test_a_disabled_button_does_not_look_like_an_enabled_one(server: str, page: Any) -> None:
    """Draw and Pass disabled looked much like Hint enabled (grey text, a lighter edge):
    a disabled button has no fill, a dashed edge and a "not allowed" pointer; both read
    clearly (AA contrast for the text, 3:1 for an enabled button's edge)."""
    from playwright.sync_api import expect

    made = create_via_api(server, {"name": "Ana", "seats": ["bot:greedy"]})
    seat_page(page, server, made)
    expect(page.locator(".turn.mine")).to_be_visible(timeout=15_000)
    hint = page.get_by_role("button", name="Hint")
    expect(hint).to_be_enabled()
    off = page.locator(".actions button:disabled").first  # (Pass, before any draw)
    expect(off).to_be_visible()
    look = "e => [getComputedStyle(e).borderTopStyle, getComputedStyle(e).cursor,"
    look += " getComputedStyle(e).backgroundColor]"
    on_style, off_style = hint.evaluate(look), off.evaluate(look)
    shot(page, "27-disabled-buttons", full_page=False)
    assert on_style == ["solid", "pointer", "rgb(255, 255, 255)"], on_style
    assert off_style[:2] == ["dashed", "not-allowed"], off_style
    assert off_style[2] != on_style[2], (on_style, off_style)
    on_contrast, off_contrast = hint.evaluate(CONTRAST), off.evaluate(CONTRAST)
    assert on_contrast["text"] >= 4.5, on_contrast
    assert on_contrast["border"] >= 3, on_contrast
    assert off_contrast["text"] >= 4.5, off_contrast


def test_a_phone_shows_the_pips_of_the_trains_tiles_big_enough_to_count(server: str) -> None:
    """A double-12 set on a phone: the trains' tiles were 22 pixels high, twelve pips in
    an 11-pixel square. They are as big as the hand's, and a train runs on sideways (it
    scrolls) instead of wrapping: its newest tile and open end stay in sight."""
    need_browser()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            made = create_via_api(server, {"name": "Ana", "seats": ["bot:greedy"] * 3})
            context, page = at_table(browser, server, made, (390, 844), "en")
            measure = """() => [...document.querySelectorAll('.board .train-tiles')].map(t => {
              const tiles = [...t.querySelectorAll('.tile')];
              const box = t.getBoundingClientRect();
              const end = t.querySelector('.open-end').getBoundingClientRect();
              const last = tiles.length && tiles[tiles.length - 1].getBoundingClientRect();
              return {count: tiles.length, overflows: t.scrollWidth > t.clientWidth + 1,
                heights: tiles.map(e => e.getBoundingClientRect().height),
                tops: tiles.map(e => Math.round(e.getBoundingClientRect().top)),
                end: end.left >= box.left - 1 && end.right <= box.right + 1,
                last: !last || (last.left >= box.left - 1 && last.right <= box.right + 1)};
            })"""
            deadline = time.monotonic() + 90

            def play_until(enough: Any) -> list[dict[str, Any]]:
                trains: list[dict[str, Any]] = page.evaluate(measure)
                while not enough(trains):
                    assert time.monotonic() < deadline, trains
                    if page.locator(".turn.mine").is_visible():
                        board = page.locator(".board .tile").count()
                        hand = page.locator(".hand-tile").count()
                        make_a_move(page)
                        page.wait_for_function(
                            "([board, hand]) => document.querySelectorAll('.board .tile').length"
                            " !== board || document.querySelectorAll('.hand-tile').length"
                            " !== hand || !document.querySelector('.turn.mine')",
                            arg=[board, hand],
                        )
                    page.wait_for_timeout(200)
                    trains = page.evaluate(measure)
                return trains

            trains = play_until(lambda trains: any(t["count"] for t in trains))
            heights = [h for t in trains for h in t["heights"]]
            assert min(heights) >= 28, trains  # (a tile twice as wide)
            # a train longer than the screen is wide
            play_until(lambda trains: any(t["overflows"] for t in trains))
            page.wait_for_timeout(300)  # (the bots' moves drawn)
            trains = page.evaluate(measure)
            shot(page, "28-phone-double-12-trains", full_page=False)
            for train in trains:
                assert len(set(train["tops"])) <= 1, train  # one line of tiles
                assert train["end"], train  # the open end in sight
                assert train["last"], train  # and the newest tile
            wide = page.evaluate("() => document.scrollingElement.scrollWidth")
            assert wide <= 390
            context.close()
        finally:
            browser.close()


#: keeps every WebSocket the page opens in ``window.__sockets``, so a test can cut one as a
#: dropped network does; while ``window.__hold`` is true the messages a socket receives
#: wait in ``window.__held`` (``window.__release()`` hands them on); ``window.__sent``
#: keeps what the page sent, each with whether messages were being held then
HOLD_SOCKETS = """(() => {
  const Real = window.WebSocket;
  window.__sockets = [];
  window.__hold = false;
  window.__held = [];
  window.__sent = [];
  window.__release = () => {
    window.__hold = false;
    window.__held.splice(0).forEach(([ws, ev]) => ws.__onmessage && ws.__onmessage(ev));
  };
  window.WebSocket = function (...args) {
    const ws = new Real(...args);
    window.__sockets.push(ws);
    Object.defineProperty(ws, "onmessage", {
      set(handler) {
        ws.__onmessage = handler;
        ws.addEventListener("message", (ev) => {
          if (window.__hold) window.__held.push([ws, ev]);
          else handler(ev);
        });
      },
      get() { return ws.__onmessage; },
    });
    const send = ws.send.bind(ws);
    ws.send = (data) => { window.__sent.push([window.__hold, JSON.parse(data)]); send(data); };
    return ws;
  };
  window.WebSocket.prototype = Real.prototype;
  Object.assign(window.WebSocket, { CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3 });
})()"""


def seat_to_move(server: str, page: Any) -> tuple[int, int]:
    """Ana's page at a new table with two bots, on her turn (its sockets kept, as
    HOLD_SOCKETS says): how many tiles her hand and the move log hold."""
    from playwright.sync_api import expect

    page.context.add_init_script(HOLD_SOCKETS)
    made = create_via_api(
        server, {"name": "Ana", "seats": ["bot:easy", "bot:easy"], "options": {"rounds": 1}}
    )
    seat_page(page, server, made)
    expect(page.locator(".turn.mine")).to_be_visible(timeout=30_000)
    return page.locator(".hand-tile").count(), page.locator(".move-log li").count()


def assert_the_seat_moves(page: Any, hand: int, log: int) -> None:
    """The seat, still on its turn with ``hand`` tiles, makes a move and the page shows it."""
    from playwright.sync_api import expect

    expect(page.locator(".turn.mine")).to_be_visible()
    assert page.locator(".hand-tile").count() == hand  # nothing was played meanwhile
    make_a_move(page)
    page.wait_for_function(
        "([log, hand]) => document.querySelectorAll('.move-log li').length !== log"
        " || document.querySelectorAll('.hand-tile').length !== hand",
        arg=[log, hand],
        timeout=10_000,
    )


def test_a_move_tried_while_the_connection_is_down_does_not_lock_the_seat(
    server: str, page: Any
) -> None:
    """A tap during a short network drop sends nothing; once the page is back the player
    can still move (it used to count the move as sent and refuse every later one, while
    the table waited for the seat for ever)."""
    from playwright.sync_api import expect

    hand, log = seat_to_move(server, page)
    page.context.set_offline(True)
    page.evaluate("window.__sockets.forEach((ws) => ws.close())")
    expect(page.locator(".badge.warn")).to_be_visible(timeout=5_000)  # reconnecting
    make_a_move(page)  # the move a player tries while the page says it is reconnecting
    page.wait_for_timeout(300)
    page.context.set_offline(False)
    expect(page.locator(".badge.warn")).to_have_count(0, timeout=15_000)
    assert_the_seat_moves(page, hand, log)


def test_a_move_tried_before_the_position_comes_back_waits_for_it(server: str, page: Any) -> None:
    """Back online, the page shows the position from before the drop until the server's
    fresh one arrives; a tap in between sends nothing (it used to send a move against the
    old position, which the table refuses once play has moved on), and the seat moves once
    the position is back."""
    from playwright.sync_api import expect

    hand, log = seat_to_move(server, page)
    page.evaluate("window.__hold = true; window.__sockets.forEach((ws) => ws.close())")
    page.wait_for_function(  # reconnected and said hello, its answer held back
        "() => window.__sockets.length === 2"
        " && window.__sent.some(([held, m]) => held && m.type === 'hello')",
        timeout=10_000,
    )
    make_a_move(page)
    page.wait_for_timeout(300)
    held = page.evaluate("window.__sent.filter(([held, m]) => held && m.type === 'action')")
    assert held == []
    page.evaluate("window.__release()")
    assert_the_seat_moves(page, hand, log)
    expect(page.locator(".error")).to_have_count(0)


def test_ones_own_seat_shows_offline_while_the_page_is_reconnecting(server: str, page: Any) -> None:
    """The others' seats show whether they are connected as the server says; one's own
    showed online from the server's last word while the page had lost its connection. It
    follows the page's connection: offline (a ring, as another player offline is shown,
    and said on one's train) while the page reconnects, online again once it is back; in
    the waiting room too."""
    from playwright.sync_api import expect

    page.context.add_init_script(HOLD_SOCKETS)

    def cut() -> None:
        page.context.set_offline(True)
        page.evaluate("window.__sockets.forEach((ws) => ws.close())")

    # the waiting room: Ana's seat in the list, a seat still open
    made = create_via_api(server, {"name": "Ana", "seats": ["open", "bot:easy"]})
    seat_page(page, server, made)
    mine = page.locator(".seat-list li").first.locator(".dot")
    expect(mine).to_have_class("dot on", timeout=15_000)
    expect(mine).to_have_attribute("aria-label", "online")
    cut()
    expect(mine).to_have_class("dot", timeout=5_000)
    expect(mine).to_have_attribute("aria-label", "offline")
    page.context.set_offline(False)
    expect(mine).to_have_class("dot on", timeout=15_000)

    # at the table: Ben took his seat and never connected, shown offline all along
    made = create_via_api(server, {"name": "Ana", "seats": ["open", "bot:easy"]})
    join_via_api(server, made["code"], "Ben")
    seat_page(page, server, made)
    own = page.locator(".train.own")
    bens = page.locator('.train[data-train="1"]')
    expect(own.locator(".dot")).to_have_class("dot on", timeout=15_000)
    expect(bens.locator(".dot")).to_have_class("dot")
    assert "offline" not in (own.get_attribute("aria-label") or "")
    assert "offline" in (bens.get_attribute("aria-label") or "")
    cut()
    expect(page.locator(".badge.warn")).to_be_visible(timeout=5_000)  # reconnecting
    expect(own.locator(".dot")).to_have_class("dot")  # as Ben's
    expect(own.locator(".dot")).to_have_attribute("title", "offline")
    expect(own).to_have_attribute("aria-label", re.compile(r"^Your train, offline\. "))
    shot(page, "17-own-seat-offline")
    page.context.set_offline(False)
    expect(page.locator(".badge.warn")).to_have_count(0, timeout=15_000)
    expect(own.locator(".dot")).to_have_class("dot on")
    expect(own.locator(".dot")).to_have_attribute("title", "online")
    assert "offline" not in (own.get_attribute("aria-label") or "")
    expect(bens.locator(".dot")).to_have_class("dot")


def test_typing_as_a_round_ends_does_not_close_its_result_unread(server: str, page: Any) -> None:
    """The round's result takes the keyboard to its heading, not to Continue: the rest of
    a line of table talk typed as it opens (a space, Enter) leaves it open; Tab reaches
    Continue and Esc closes it."""
    from playwright.sync_api import expect

    made = create_via_api(
        server,
        {
            "name": "Ana",
            "seats": ["bot:greedy", "bot:greedy", "bot:greedy"],
            "options": {"rounds": 2, "max_pip": 6, "hand_size": {"4": 4}},
        },
    )
    seat_page(page, server, made)
    expect(page.locator(".hand-tile").first).to_be_visible(timeout=15_000)
    from playwright.sync_api import Error as PlaywrightError

    deadline = time.monotonic() + 60
    while not page.locator("dialog.overlay").is_visible():
        assert time.monotonic() < deadline, "the round did not end"
        if page.locator(".turn.mine").is_visible():
            # (the round may end between the tile and its train: the train is then behind
            # the result, and the click gives up)
            with contextlib.suppress(PlaywrightError):
                page.set_default_timeout(2_000)
                make_a_move(page)
            page.set_default_timeout(30_000)
        page.wait_for_timeout(50)
    page.keyboard.type(" good game, well played ")
    page.keyboard.press("Enter")
    page.wait_for_timeout(300)
    expect(page.get_by_role("dialog")).to_be_visible()
    assert page.evaluate("() => document.activeElement.id") == "end-title"
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.textContent.trim()") == "Continue"
    page.keyboard.press("Shift+Tab")  # round the dialog's buttons, never out of it
    assert page.evaluate("() => !!document.activeElement.closest('dialog')")
    page.keyboard.press("Escape")
    expect(page.get_by_role("dialog")).to_have_count(0)


def test_the_statistics_write_a_games_date_with_its_month_in_words(server: str, page: Any) -> None:
    """A recent game's date was written in digits, in English "12/5/2026, 7:32:22 AM":
    the 5th of December to some readers, the 12th of May to others. It comes with its
    month in words, to the minute."""
    import datetime
    import urllib.request

    from playwright.sync_api import expect

    tiny = {"rounds": 1, "max_pip": 4, "hand_size": {"2": 4}}
    made = create_via_api(server, {"name": "Dora", "seats": ["bot:greedy"], "options": tiny})
    seat_page(page, server, made)
    play_until_over(page)
    with urllib.request.urlopen(server + "/api/games?name=Dora") as res:
        game = json.load(res)[0]
    page.goto(server + "/stats")
    line = page.locator(".recent li").filter(has=page.locator(f'a[href="/replay/{game["id"]}"]'))
    expect(line).to_have_count(1)
    text = line.inner_text()
    # (the page and this test on one machine, in one time zone)
    when = datetime.datetime.fromtimestamp(game["finished"])
    assert f"{when:%b} {when.day}, {when.year}" in text, text
    assert not re.search(r"\d:\d\d:\d\d", text), text  # (no seconds)
    assert not re.search(r"\d+/\d+/\d+", text), text  # (no month in digits)


#: the statistics' headings that show, each as its box (bottom, left, width), whether its
#: words fit in it, and the box of every cell of its column
HEADINGS_AND_COLUMNS = """() => [...document.querySelectorAll('.stats thead th')]
  .map((th, col) => [th, col]).filter(([th]) => th.getBoundingClientRect().width > 2)
  .map(([th, col]) => { const r = th.getBoundingClientRect();
    const cells = [...document.querySelectorAll(`.stats tbody tr > :nth-child(${col + 1})`)]
      .map((cell) => { const c = cell.getBoundingClientRect(); return [c.left, c.width]; });
    return { text: th.textContent, bottom: r.bottom, left: r.left, width: r.width,
      fits: th.scrollWidth <= th.clientWidth, cells }; })"""


@pytest.mark.parametrize("lang", ["en", "fr", "it", "fi"])
def test_the_statistics_headings_line_up_over_their_columns(
    tmp_path: Any, page: Any, lang: str
) -> None:
    """The statistics' win rate heading ("% vittorie (intervallo al 95%)") was kept a few
    pixels narrower than its column on a phone, where the figures under it made it wider,
    and the line under the headings stepped. On a desktop, a tablet and a phone every
    heading has the same bottom edge, is as wide as its column and fits in it, in the
    four languages."""
    from playwright.sync_api import expect

    from conftest import running_server

    db = tmp_path / "headings.sqlite3"
    _games_some_left(db)
    with running_server(db, 1) as base:
        page.goto(base + "/help")
        page.evaluate("lang => localStorage.setItem('mextrain.lang', lang)", lang)
        page.goto(base + "/stats")
        expect(page.locator(".stats table.sheet tbody tr")).to_have_count(3)
        for width in (1280, 600, 480, 470, 460, 390, 360):
            page.set_viewport_size({"width": width, "height": 800})
            page.wait_for_timeout(100)  # (laid out again at the new size)
            headings = page.evaluate(HEADINGS_AND_COLUMNS)
            assert len(headings) >= 5, (width, headings)
            bottoms = [h["bottom"] for h in headings]
            assert max(bottoms) - min(bottoms) < 0.5, (lang, width, headings)
            for h in headings:
                assert h["fits"], (lang, width, h)
                assert h["cells"], (lang, width, h)
                for left, wide in h["cells"]:
                    where = (lang, width, h["text"], h["left"], h["width"], left, wide)
                    assert abs(left - h["left"]) < 0.5, where
                    assert abs(wide - h["width"]) < 0.5, where
            if width == 470:
                shot(page, f"17-stats-headings-{lang}-{width}", full_page=False)


def test_the_statistics_say_so_when_no_game_has_finished(tmp_path: Any, page: Any) -> None:
    from playwright.sync_api import expect

    from conftest import running_server

    with running_server(tmp_path / "empty.sqlite3", 1) as empty:
        page.goto(empty + "/stats")
        expect(page.locator(".stats-none")).to_have_text(
            "No finished game yet: the statistics count the games played to the end here."
        )
        expect(page.locator("table.sheet")).to_have_count(0)


def _games_some_left(db: Any) -> list[int]:
    """Three finished games written to the store at ``db``, as the server keeps them: Ana
    left the first before its end (a bot made her seat's last move), then won the second
    against Ben; Cy left the third, his only game. Their numbers."""
    from mextrain.store import Store

    store = Store(db)
    try:
        games = []
        for n, (players, humans, totals, winners, left) in enumerate(
            [
                (["Ana", "Bot 2 (greedy)"], [True, False], [34, 12], [1], [True, False]),
                (["Ana", "Ben"], [True, True], [5, 20], [0], [False, False]),
                (["Cy", "Ben"], [True, True], [40, 3], [1], [True, False]),
            ]
        ):
            table = store.create_table(f"LEFT{n}A", {}, "s")
            games.append(store.save_game(table, "{}", players, humans, totals, winners, left))
        return games
    finally:
        store.close()


@pytest.mark.parametrize("lang", ["en", "fr", "it", "fi"])
def test_the_statistics_rank_people_and_bots_by_rating(tmp_path: Any, page: Any, lang: str) -> None:
    """The statistics counted wins, not whom they were against: a person who beat the
    expert bot three times stood level with one who beat the beginner three times. The
    ranking by rating counts the opponents, bots by level (one entry per level), the
    highest first; a person whose every game was one they left is not in it, and a game
    where a move was taken back rates nobody (the recent games say so). In the four
    languages, on a phone too."""
    from playwright.sync_api import expect

    from conftest import running_server
    from mextrain.i18n import Translator
    from mextrain.store import Store

    words = {  # (the heading, the beginner bot, the expert bot, a word of the help)
        "en": ("Ranking", "Bot (beginner)", "Bot (expert)", "skill estimate"),
        "fr": ("Classement", "Robot (débutant)", "Robot (expert)", "estimation du niveau"),
        "it": ("Classifica", "Bot (principiante)", "Bot (esperto)", "stima del livello"),
        "fi": ("Paremmuusjärjestys", "Botti (aloittelija)", "Botti (mestari)", "taitoarvio"),
    }[lang]
    heading, beginner, expert, help_word = words
    db = tmp_path / "ranking.sqlite3"
    store = Store(db)
    try:
        games = [(["Bot 1 (expert)", "Cy"], [0, 40])] * 4  # the expert beats Cy 4 times,
        games += [(["Ana", "Bot 2 (expert)"], [0, 30])] * 3  # then Ana beats it 3 times
        games += [(["Ben", "Bot 2 (beginner)"], [0, 20])] * 3  # Ben beats the beginner
        for n, (players, totals) in enumerate(games):
            humans = [not name.startswith("Bot ") for name in players]
            table = store.create_table(f"RANK{n:02d}", {}, "s")
            store.save_game(table, "{}", players, humans, totals, [totals.index(0)])
        table = store.create_table("RANKLEFT", {}, "s")  # Dee left her only game
        store.save_game(table, "{}", ["Dee", "Ben"], [True, True], [50, 0], [1], [True, False])
        table = store.create_table("RANKBACK", {}, "s")  # Ben beats the expert, undoing
        store.save_game(table, "{}", ["Ben", "Bot 2 (expert)"], [True, False], [0, 60], [0], (), 2)
    finally:
        store.close()
    with running_server(db, 1) as base:
        page.goto(base + "/help")
        page.evaluate("lang => localStorage.setItem('mextrain.lang', lang)", lang)
        page.set_viewport_size({"width": 360, "height": 800})
        page.goto(base + "/stats")
        expect(page.get_by_role("heading", name=heading)).to_be_visible()
        ranking = page.locator(".stats ol.ranking li")
        expect(ranking).to_have_count(5)
        names = [item.locator("bdi").inner_text() for item in ranking.all()]
        assert names == ["Ana", "Ben", expert, beginner, "Cy"], names
        # each with the games it was rated on, in words (how much the figure rests on:
        # Ben's game against Dee, who left it, rates neither)
        counted = [item.locator(".rated-games").inner_text() for item in ranking.all()]
        games_words = {"en": "games", "fr": "parties", "it": "partite", "fi": "peliä"}[lang]
        assert counted == [f"({n} {games_words})" for n in (3, 3, 7, 3, 4)], counted
        ratings = [item.locator(".rating").inner_text() for item in ranking.all()]
        values = [float(r.replace(",", ".").replace("\u2212", "-")) for r in ratings]
        assert values == sorted(values, reverse=True), ratings
        assert all(re.fullmatch(r"-?\u2212?\d+[.,]\d", r) for r in ratings), ratings
        expect(page.locator(".stats .rating-help")).to_contain_text(help_word)
        marked = page.locator(".stats .recent li").filter(has=page.locator(".taken-back"))
        expect(marked).to_have_count(1)
        expect(marked).to_contain_text("Ben")
        expect(marked.locator(".taken-back")).to_have_text(
            f"({Translator(lang)('web.stats.taken_back_mark')})"
        )
        wide = page.evaluate("() => document.scrollingElement.scrollWidth - innerWidth")
        assert wide <= 0, wide
        page.locator("h2", has_text=heading).scroll_into_view_if_needed()
        shot(page, f"55-stats-ranking-{lang}", full_page=False)


@pytest.mark.parametrize("lang", ["en", "fr", "it", "fi"])
def test_the_statistics_show_the_games_a_person_left(tmp_path: Any, page: Any, lang: str) -> None:
    """The statistics counted a game a person left before its end (a bot made their
    seat's last move) in none of their figures, and the page said nothing of it: a person
    whose only game was one they left was not there at all. Each person's games left
    have a column of their own; one who has no other game has a row, with no win rate or
    average (a dash, said in words); and in the recent games the seat its person left is
    marked so, in words. In the four languages, on a phone too."""
    from playwright.sync_api import expect

    from conftest import running_server

    words = {  # (the column's heading, the mark, the dash in words)
        "en": ("Left before the end", "left before the end", "none: every game left"),
        "fr": ("Quittées avant la fin", "a quitté avant la fin", "aucun\u00a0: toutes"),
        "it": ("Lasciate prima della fine", "ha lasciato prima della fine", "nessuno: ogni"),
        "fi": ("Kesken jätettyjä", "jätti pelin kesken", "ei tulosta: kaikki"),
    }[lang]
    heading, mark, no_result = words
    db = tmp_path / "left.sqlite3"
    first, second, third = _games_some_left(db)
    with running_server(db, 1) as base:
        page.goto(base + "/help")
        page.evaluate("lang => localStorage.setItem('mextrain.lang', lang)", lang)
        page.goto(base + "/stats")
        sheet = page.locator(".stats table.sheet")
        expect(sheet.locator("tbody tr")).to_have_count(3)
        headings = sheet.locator("thead th").all_inner_texts()
        assert len(headings) == 6, headings
        assert headings[5] == heading, headings
        rows = [
            [row.locator("th").inner_text(), *row.locator("td").all_inner_texts()]
            for row in sheet.locator("tbody tr").all()
        ]
        # Ben: 2 games, 1 win, average 11.5; Ana: 1 game (won), 1 left; Cy: only 1 left
        assert [r[:3] + r[5:] for r in rows] == [
            ["Ben", "2", "1", "0"],
            ["Ana", "1", "1", "1"],
            ["Cy", "0", "0", "1"],
        ], rows
        assert rows[0][4] in ("11.5", "11,5"), rows
        # Cy's win rate and average: a dash that shows, words for a screen reader
        cy = sheet.locator("tbody tr").nth(2).locator("td")
        for cell in (cy.nth(2), cy.nth(3)):
            expect(cell.locator("[aria-hidden=true]")).to_have_text("—")
            said = cell.aria_snapshot().replace("\u00a0", " ")
            assert no_result.replace("\u00a0", " ") in said, said
            assert "—" not in said, said
        # to a screen reader: a table of six headings
        told = sheet.aria_snapshot()
        assert told.count("- columnheader ") == 6, told
        assert len(re.findall(r"- '?cell ", told)) == 15, told
        assert f'columnheader "{heading}"' in told, told
        # the recent games: the seat its person left marked in words, no other
        recent = page.locator(".recent li")
        expect(recent).to_have_count(3)
        line = {
            game: recent.filter(has=page.locator(f'a[href="/replay/{game}"]')).inner_text()
            for game in (first, second, third)
        }
        assert f"\u2068Ana\u2069 34 ({mark})," in line[first], line
        assert f"\u2068Cy\u2069 40 ({mark})," in line[third], line
        assert mark not in line[second], line
        assert line[first].count(mark) == line[third].count(mark) == 1, line
        shot(page, f"17-stats-left-{lang}", full_page=False)
        # and at a phone's width nothing runs past the screen, nor scrolls sideways
        for width in (375, 360):
            page.set_viewport_size({"width": width, "height": 800})
            page.wait_for_timeout(100)
            nothing_past_the_edge(page, f"stats-left-{lang}-{width}")
            assert_sheet_fits(page)
        shot(page, f"17-phone-stats-left-{lang}", full_page=False)


def _a_kept_game_ana_left(db: Any) -> int:
    """A real game of one round written to the store at ``db``, as the server keeps it:
    Ana played it but left before its end (a bot made her seat's last move), Ben played
    it out beside a greedy bot. Its number."""
    import random

    from mextrain.records import GameRecord
    from mextrain.rules import Match, Rules
    from mextrain.store import Store

    rules = Rules.from_spec({"preset": "classic", "max_pip": 6, "rounds": 1, "hand_size": {"3": 5}})
    rng = random.Random(11)
    match = Match.new(rules, 3, rng)
    state = match.current
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()), state.current_seat)
    names = ["Ana", "Bot 2 (beginner)", "Ben"]
    record = GameRecord.from_match(match, names).to_json()
    store = Store(db)
    try:
        table = store.create_table("ANALEFT", {}, "s")
        return store.save_game(
            table,
            record,
            names,
            [True, False, True],
            match.totals,
            match.winners,
            [True, False, False],
        )
    finally:
        store.close()


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_replay_says_whose_game_a_bot_finished(tmp_path: Any, page: Any, lang: str) -> None:
    """The statistics marked a seat whose person left the game before its end (a bot
    finishing it for them: not their result), but the replay of that game did not say
    it. Its hand says so beside the name at every step, to a screen reader too, and at
    the game's end so do the totals, as the statistics' mark words it; no other seat is
    marked."""
    from playwright.sync_api import expect

    from conftest import running_server

    mark = {"en": "left before the end", "fr": "a quitté avant la fin"}[lang]
    db = tmp_path / "replay-left.sqlite3"
    game = _a_kept_game_ana_left(db)
    with running_server(db, 1) as base:
        page.goto(base + "/help")
        page.evaluate("lang => localStorage.setItem('mextrain.lang', lang)", lang)
        page.goto(f"{base}/replay/{game}")
        hands = page.locator(".replay-hand")
        expect(hands).to_have_count(3, timeout=10_000)
        marks = page.locator(".replay-hand .left-mark")
        expect(marks).to_have_count(1)
        expect(hands.nth(0).locator(".left-mark")).to_have_text(f"({mark})")
        said = hands.nth(0).get_attribute("aria-label") or ""
        assert said.startswith(f"Ana ({mark}): "), said
        for other in (1, 2):
            assert mark not in (hands.nth(other).get_attribute("aria-label") or "")
        # at the game's end, the totals mark her seat, and hers alone
        replay_to_the_end(page)
        totals = page.locator(".replay-totals")
        expect(totals).to_contain_text("\u2068Ana\u2069 ")
        text = totals.inner_text()
        assert text.count(mark) == 1, text
        assert re.search(rf"\u2068Ana\u2069 \d+ \({mark}\)", text), text
        shot(page, f"13-replay-left-{lang}")


def test_the_finished_tables_result_says_whose_game_a_bot_finished(
    tmp_path: Any, page: Any
) -> None:
    """Ana played, then left, and a bot made her seat's last move: the finished table's
    result said who won and nothing of it, where the statistics count the game as one she
    left. Under the winners it says so, as the statistics' mark words it, of her alone."""
    import json
    import sqlite3

    from playwright.sync_api import expect

    from conftest import running_server

    db = tmp_path / "table-left.sqlite3"
    spec = {"preset": "classic", "max_pip": 6, "rounds": 1, "hand_size": {"2": 5}}
    code = "TLEFT2"
    tokens, _ = table_at(db, code, spec, 2, lambda state: True, over=True)
    # her seat's last move was the takeover bot's, as its log marks one (the server
    # stopped before the game was kept: it keeps it when it starts)
    con = sqlite3.connect(db)
    try:
        moves = con.execute(
            "SELECT seq, data FROM events WHERE kind = 'action' ORDER BY seq"
        ).fetchall()
        hers = [(seq, json.loads(data)) for seq, data in moves]
        hers = [(seq, data) for seq, data in hers if data["action"].startswith("0:")]
        assert len(hers) >= 2, hers  # (one of hers, one the bot's)
        seq, data = hers[-1]
        with con:
            con.execute(
                "UPDATE events SET data = ? WHERE seq = ?", (json.dumps({**data, "bot": True}), seq)
            )
    finally:
        con.close()
    with running_server(db, 1) as base:
        seat_page(page, base, {"code": code, "token": tokens[1]})  # (Ben's page)
        result = page.locator(".result")
        expect(result.locator(".winners")).to_be_visible(timeout=10_000)
        expect(result.locator(".left-note")).to_have_text("\u2068Ana\u2069 (left before the end)")
        expect(page.locator(".left-note")).to_have_count(1)
        shot(page, "13-table-result-left", full_page=False)


@pytest.mark.parametrize("lang", ["en", "fr", "it", "fi"])
def test_the_statistics_fit_a_phone(server: str, tmp_path: Any, lang: str) -> None:
    """At 390 pixels the statistics table shows every column, the average score too,
    without scrolling sideways, in every language."""
    need_browser()
    from playwright.sync_api import expect, sync_playwright

    tiny = {"rounds": 1, "max_pip": 4, "hand_size": {"2": 4}}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            made = create_via_api(
                server,
                {"name": "Benedetta Lunghissima", "seats": ["bot:greedy"], "options": tiny},
            )
            context, page = at_table(browser, server, made, (390, 844), lang)
            play_until_over(page)
            page.goto(server + "/stats")
            sheet = page.locator("table.sheet")
            expect(sheet.locator("thead th")).to_have_count(6)
            assert_sheet_fits(page)
            shot(page, f"16-phone-stats-{lang}", full_page=False)
            context.close()
        finally:
            browser.close()


#: the statistics of players with long names, as ``/api/stats`` answers (the widest name
#: a player may choose, 24 letters "W", one with a hyphen, and thousands of games, and
#: hundreds left before the end; one whose only games are games he left)
LONG_NAMED_STATS = {
    "players": [
        {
            "name": name,
            "games": 1234,
            "wins": 567,
            "average": 123.45,
            "left": 890,
            "win_rate": 0.4595,
            "win_interval": [0.4321, 0.4876],
        }
        for name in ("W" * 24, "Maximiliaan-Aleksanteri", "Bartholomew Montgomery", "Ana")
    ]
    + [
        {
            "name": "Bo",
            "games": 1,
            "wins": 1,
            "average": 0.0,
            "left": 0,
            "win_rate": 1.0,
            "win_interval": [0.2065, 1.0],
        },
        {
            "name": "W" * 23 + "M",
            "games": 0,
            "wins": 0,
            "average": None,
            "left": 1234,
            "win_rate": None,
            "win_interval": None,
        },
    ],
    "recent": [
        {
            "id": 12345,
            "finished": 1_700_000_000,
            "players": ["W" * 24, "Maximiliaan-Aleksanteri", "Bot 3 (medium)"],
            "totals": [100, 200, 300],
            "winners": [0],
            "humans": [True, True, False],
            "bots": [None, None, "medium"],
        }
    ],
}


@pytest.mark.parametrize("lang", ["en", "fr", "it", "fi"])
def test_the_statistics_fit_a_360_pixel_phone_with_long_names(
    server: str, page: Any, lang: str
) -> None:
    """At 360 pixels the statistics need no sideways scrolling, of the page or of the
    table, in every language (French, Italian and Finnish headings ran 20 to 30 pixels
    past the screen) and with the longest names: each player's name has a line of its
    own, whole, and the table is still read as a table, every heading included."""
    from functools import partial

    from playwright.sync_api import expect

    page.set_viewport_size({"width": 360, "height": 800})
    page.route("**/api/stats", partial(_answer, json.dumps(LONG_NAMED_STATS)))
    page.goto(server + "/help")
    page.evaluate("lang => localStorage.setItem('mextrain.lang', lang)", lang)
    page.goto(server + "/stats")
    sheet = page.locator("table.sheet")
    expect(sheet.locator("tbody tr")).to_have_count(6)
    fits = page.evaluate(
        "() => { const d = document.scrollingElement;"
        " const t = document.querySelector('table.sheet');"
        " return {page: [d.scrollWidth, d.clientWidth], table: [t.scrollWidth, t.clientWidth],"
        " box: [t.parentElement.scrollWidth, t.parentElement.clientWidth],"
        " right: t.getBoundingClientRect().right, view: innerWidth}; }"
    )
    shot(page, f"16-phone-360-stats-{lang}", full_page=False)
    for part in ("page", "table", "box"):
        wide, room = fits[part]
        assert wide <= room, (part, fits)
    assert fits["right"] <= fits["view"], fits
    # the names whole, each on one line: none cut off, none broken inside a word
    names = page.evaluate(
        "() => [...document.querySelectorAll('table.sheet tbody th')].map((th) => {"
        " const words = document.createRange(); words.selectNodeContents(th);"
        " const lines = new Set([...words.getClientRects()].map((r) => Math.round(r.bottom)));"
        " return [th.textContent, th.scrollWidth <= th.clientWidth, lines.size === 1]; })"
    )
    assert [name for name, whole, one_line in names if not (whole and one_line)] == [], names
    # still a table to a screen reader: its six headings, a row header and five cells
    # for each player
    told = sheet.aria_snapshot()
    assert told.count("- columnheader ") == 6, told
    assert told.count("- rowheader ") == 6, told
    assert len(re.findall(r"- '?cell ", told)) == 30, told
    assert f'rowheader "{"W" * 24}"' in told, told


def _clock_seconds(text: str) -> int:
    minutes, seconds = re.search(r"(\d+):(\d\d)", text).groups()  # type: ignore[union-attr]
    return int(minutes) * 60 + int(seconds)


def test_the_lobby_offers_the_next_time_up_when_the_one_remembered_is_too_short(
    server: str, page: Any
) -> None:
    """A time per move remembered from before that this server no longer offers (its
    shortest is longer): the lobby picks the next one up, not no clock at all."""
    from playwright.sync_api import expect

    def longer_minimum(route: Any) -> None:
        options = route.fetch().json()
        route.fulfill(json={**options, "min_turn_time": 45})

    page.goto(server + "/")
    page.evaluate("localStorage.setItem('mextrain.turn_time', '30')")
    page.route("**/api/options", longer_minimum)
    page.reload()
    box = page.get_by_label("Time per move")
    expect(box).to_have_value("60")
    assert "30 seconds" not in box.inner_text()
    page.evaluate("localStorage.setItem('mextrain.turn_time', '0')")
    page.reload()
    expect(box).to_have_value("0")  # (no clock stays no clock)


def test_the_turn_clock_counts_down_and_a_bot_moves_when_it_runs_out(
    server: str, page: Any
) -> None:
    from playwright.sync_api import expect

    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.goto(server + "/")
    page.get_by_label("Your name").fill("Ana")
    page.get_by_label("Time per move").select_option(label="30 seconds")
    page.get_by_role("button", name="Create the table").click()
    expect(page.locator(".turn.mine")).to_be_visible(timeout=15_000)
    expect(page.locator(".table-rules")).to_contain_text(
        "Time per move: 30 seconds; then a bot moves."
    )
    # the player's own clock, counting down from at most the table's time
    clock = page.locator(".status .clock.mine")
    expect(clock).to_have_text(re.compile(r"^0:[0-3]\d$"))
    first = _clock_seconds(clock.inner_text())
    assert 0 < first <= 30
    page.wait_for_timeout(2100)
    assert _clock_seconds(clock.inner_text()) <= first - 2
    # the lobby offers the same time next time
    page.goto(server + "/")
    expect(page.get_by_label("Time per move")).to_have_value("30")

    # a table with the shortest clock: Ana does not move, so her clock shows red, a
    # screen reader hears it, her time runs out and a bot moves for her; she is told
    made = create_via_api(server, {"name": "Ana", "seats": ["bot:greedy"], "turn_time": 10})
    seat_page(page, server, made)
    expect(page.locator(".turn.mine")).to_be_visible(timeout=15_000)
    expect(page.locator(".status .clock.low")).to_be_visible()
    expect(page.locator("div.clock-said")).to_have_text(
        re.compile(r"^(10|9|8) seconds left to move$")
    )
    # (in a region of its own: the one that tells the last move still tells it)
    expect(page.locator("div.move-said", has_text="left to move")).to_have_count(0)
    notice = page.locator(".notice")
    expect(notice).to_have_text("Your time ran out: a bot made your move.", timeout=15_000)
    # (she never moved herself: any move of hers in the log is the bot's)
    expect(page.locator(".move-log")).to_contain_text("Ana")
    shot(page, "24-turn-clock-ran-out")
    # her next turn runs out too: a bot plays on for her, until she says she is back
    away = page.locator(".notice.away")
    expect(away).to_contain_text("two turns in a row", timeout=30_000)
    shot(page, "25-turn-clock-away")
    page.get_by_role("button", name="I'm back").click()
    expect(away).to_have_count(0)
    # her next turn is hers, with a fresh clock; her move takes the notice away
    expect(page.locator(".turn.mine")).to_be_visible(timeout=15_000)
    expect(page.locator(".status .clock.mine")).to_be_visible()
    make_a_move(page)
    expect(notice).to_have_count(0)

    # a game that ends while a bot plays for her (out of time twice): the finished table
    # tells of no time run out, nor of a bot playing
    options = {"max_pip": 3, "rounds": 1, "hand_size": {"2": 3}}
    made = create_via_api(
        server, {"name": "Ana", "seats": ["bot:greedy"], "turn_time": 10, "options": options}
    )
    seat_page(page, server, made)
    expect(page.locator("div.result .winners")).to_be_visible(timeout=60_000)
    expect(page.locator(".notice")).to_have_count(0)
    # (a seat's "last tile!" badge may well show: the one a bot is playing may not)
    expect(page.locator(".badge", has_text="a bot is playing")).to_have_count(0)
    assert not errors, errors


def test_the_waiting_room_copies_its_link_where_the_page_has_no_clipboard_api(
    server: str, page: Any
) -> None:
    """Friends on the home network open the page over plain http (http://192.168.1.5:8000),
    which is no secure context: the browser gives it no navigator.clipboard. *Copy the
    link* still copies it (it did nothing there), and the keyboard stays on the button."""
    from playwright.sync_api import expect

    # as on a page over plain http from another machine; what a copy puts on the clipboard
    # is kept in the page, for there is no clipboard to read here
    page.add_init_script(
        "Object.defineProperty(Navigator.prototype, 'clipboard', { get: () => undefined });"
        " document.addEventListener('copy', () => { window.copied ="
        " document.activeElement.value ?? String(getSelection()); });"
    )
    made = create_via_api(server, {"name": "Ana", "seats": ["open"], "options": {"rounds": 1}})
    seat_page(page, server, made)
    button = page.get_by_role("button", name="Copy the link")
    expect(button).to_be_visible(timeout=10_000)
    assert page.evaluate("navigator.clipboard") is None
    button.focus()
    page.keyboard.press("Enter")
    expect(page.get_by_role("status").filter(has_text="Copied.")).to_be_visible()
    assert page.evaluate("window.copied") == f"{server}/t/{made['code']}"
    expect(button).to_be_focused()


def test_a_page_that_finds_no_table_or_game_still_has_a_heading_with_the_focus(
    server: str, page: Any
) -> None:
    """*Watch* with a code no table has, or a replay of no game: the page says so under a
    heading of its own, which takes the keyboard (it had fallen to the page, the button
    that brought it there gone), as every other page's does."""
    from playwright.sync_api import expect

    page.goto(server + "/")
    page.get_by_label("Table code").fill("nope42")
    page.get_by_role("button", name="Watch").click()
    expect(page.get_by_role("alert")).to_have_text(
        "There is no table with that code.", timeout=10_000
    )
    heading = page.get_by_role("heading", level=1)
    expect(heading).to_have_text("Table NOPE42")
    expect(heading).to_be_focused()
    page.goto(server + "/stats")
    expect(page.get_by_role("heading", level=1)).to_have_text("Statistics")
    # (to the replay from within the page, as its links go)
    page.evaluate(
        "() => { history.pushState(null, '', '/replay/99999');"
        " window.dispatchEvent(new Event('popstate')); }"
    )
    expect(page.get_by_role("alert")).to_have_text("There is no such game.", timeout=10_000)
    heading = page.get_by_role("heading", level=1)
    expect(heading).to_have_text("Replay #99999")
    expect(heading).to_be_focused()


def test_a_code_that_is_no_code_stays_in_the_lobby_for_watch_as_for_join(
    server: str, page: Any
) -> None:
    """A code is letters and digits: *Watch* with ``ab/cd`` went to the address
    ``/t/AB/CD`` (another page than a table's), where *Join* says at once that no table has
    that code; both say so now, in the lobby, what was typed kept."""
    from playwright.sync_api import expect

    page.goto(server + "/")
    page.get_by_label("Your name").fill("Ana")
    code = page.get_by_label("Table code")
    for button in ("Watch", "Join"):
        code.fill("ab/cd")
        page.get_by_role("button", name=button, exact=True).click()
        expect(page.get_by_role("alert")).to_have_text("There is no table with that code.")
        assert page.evaluate("location.pathname") == "/"
        expect(code).to_have_value("ab/cd")


def test_the_tables_link_pasted_for_its_code_joins_it(server: str, page: Any) -> None:
    """The waiting room shares a table's link or its code: the link pasted in the lobby's
    code box was cut to its first 8 characters ("http://1") and refused as no table; it
    joins the table, and *Watch* goes to it, as its code does."""
    from playwright.sync_api import expect

    made = create_via_api(server, {"name": "Ana", "seats": ["open", "open"]})
    link = f"{server}/t/{made['code']}"
    page.goto(server + "/")
    page.get_by_label("Your name").fill("Ben")
    code = page.get_by_label("Table code")
    code.fill(" " + link + "/ ")
    page.get_by_role("button", name="Watch", exact=True).click()
    expect(page.locator(".seat-list li")).to_have_count(3)
    assert page.evaluate("location.pathname") == f"/t/{made['code']}"
    page.goto(server + "/")
    page.get_by_label("Your name").fill("Ben")
    page.get_by_label("Table code").fill(link)
    page.get_by_role("button", name="Join", exact=True).click()
    expect(page.locator(".seat-list li").nth(1)).to_contain_text("Ben")
    expect(page.locator(".seat-list li").nth(1)).to_contain_text("(you)")
    assert page.evaluate("location.pathname") == f"/t/{made['code']}"


#: a finger's pointer event (``id``) at ``x``, ``y``, sent to the page's window
_FINGER = (
    "([type, id, x, y]) => window.dispatchEvent(new PointerEvent(type, {pointerId: id,"
    " clientX: x, clientY: y, bubbles: true}))"
)


def _dragging_a_tile(server: str, page: Any) -> Callable[[str, int, float, float], None]:
    """One's own table against a bot, on one's turn, finger 7 dragging a playable tile (far
    enough for its picture to show); what sends a finger's event to the page."""
    from playwright.sync_api import expect

    made = create_via_api(server, {"name": "Ana", "seats": ["bot:easy"], "options": {"rounds": 1}})
    seat_page(page, server, made)
    deadline = time.monotonic() + 60
    while True:  # a turn of Ana's with a tile to play (the deal may give her none at first)
        assert time.monotonic() < deadline, "no turn of Ana's with a tile to play"
        expect(page.locator(".turn.mine")).to_be_visible(timeout=15_000)
        if page.locator(".hand-tile.playable").count():
            break
        make_a_move_and_wait(page)
    tile = page.locator(".hand-tile.playable").first
    box = tile.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2

    def finger(kind: str, pointer: int, at_x: float, at_y: float) -> None:
        page.evaluate(_FINGER, [kind, pointer, at_x, at_y])

    tile.dispatch_event("pointerdown", {"pointerId": 7, "clientX": x, "clientY": y})
    finger("pointermove", 7, x, y - 60)
    expect(page.locator(".drag-ghost")).to_be_visible()
    return finger


def test_a_drag_the_browser_breaks_off_leaves_no_tile_stuck_over_the_page(
    server: str, page: Any
) -> None:
    """A tile dragged on a phone when the browser breaks the gesture off (pointercancel: a
    system gesture, a call): its picture goes, and a later tap elsewhere plays nothing."""
    from playwright.sync_api import expect

    finger = _dragging_a_tile(server, page)
    finger("pointercancel", 7, 0, 0)
    expect(page.locator(".drag-ghost")).to_have_count(0)
    # a later lift of the finger over a train, from another touch, plays nothing
    before = page.locator(".hand-tile").count()
    train = page.locator(".train.target").first.bounding_box()
    finger("pointerup", 7, train["x"] + 20, train["y"] + 10)
    page.wait_for_timeout(500)
    assert page.locator(".hand-tile").count() == before


def test_another_finger_lifted_does_not_end_a_tiles_drag(server: str, page: Any) -> None:
    """A tile dragged with one finger while another touches the screen and lifts (a
    hand resting on a phone): the other finger's lift ended the drag and played the tile
    where that finger was; the drag goes on, and the tile goes where its own finger
    lifts."""
    from playwright.sync_api import expect

    finger = _dragging_a_tile(server, page)
    before = page.locator(".hand-tile").count()
    train = page.locator(".train.target").first.bounding_box()
    tx, ty = train["x"] + 20, train["y"] + 10
    finger("pointerup", 8, tx, ty)  # the other finger, over a train
    page.wait_for_timeout(500)
    assert page.locator(".hand-tile").count() == before
    expect(page.locator(".drag-ghost")).to_be_visible()
    # the dragging finger lifts over the train: the tile is played there
    finger("pointermove", 7, tx, ty)
    finger("pointerup", 7, tx, ty)
    expect(page.locator(".drag-ghost")).to_have_count(0)
    expect(page.locator(".hand-tile")).to_have_count(before - 1, timeout=5_000)


@pytest.mark.parametrize(
    ("address", "heading", "said"),
    [
        ("/replay/12abc", "Replay", "There is no such game."),
        ("/replay/1.5", "Replay", "There is no such game."),
        ("/replay/", "Replay", "There is no such game."),
        ("/t/ab%20cd", "Table", "There is no table with that code."),
        ("/t/", "Table", "There is no table with that code."),
    ],
)
def test_an_address_with_more_than_a_code_or_a_game_number_finds_none(
    server: str, page: Any, address: str, heading: str, said: str
) -> None:
    """The page read an address by its beginning: "/replay/12abc" showed game 12,
    "/t/ab%20cd" the table AB; "/t/" answered the server's JSON. Such an address finds
    no table and no game, and says so."""
    from playwright.sync_api import expect

    page.goto(server + address)
    expect(page.get_by_role("alert")).to_have_text(said, timeout=10_000)
    expect(page.get_by_role("heading", level=1)).to_have_text(heading)


def test_a_refusal_before_the_tables_first_position_is_shown_while_the_page_tries_again(
    tmp_path: Any, page: Any
) -> None:
    """A table the database will not read back is refused (``not_read``, then a close to
    try again later). A page that had no table on screen yet said only "Connecting…" and
    tried again in silence: it now shows the refusal in its language, in the alert a
    screen reader is told, until the table comes, then the table without it."""
    from pathlib import Path

    from playwright.sync_api import expect

    from conftest import running_server
    from mextrain.i18n import Translator

    t = Translator("fr")
    db, unreadable = tmp_path / "unread.sqlite3", tmp_path / "unreadable"
    program = [str(Path(__file__).with_name("refusing_server.py")), str(unreadable)]
    with running_server(db, 1, program) as base:
        made = create_via_api(base, {"name": "Ana", "seats": ["open"]})
    unreadable.touch()  # (restarted, the server reads the table back when it is asked for)
    with running_server(db, 1, program) as base:
        seat_page(page, base, made, "fr")
        alert = page.get_by_role("alert")
        expect(alert).to_have_text(t("web.error.not_read"), timeout=10_000)
        expect(page.get_by_text(t("web.connecting"))).to_be_visible()
        # tried again, refused again: the words stay
        page.wait_for_timeout(1_500)
        expect(alert).to_have_text(t("web.error.not_read"))
        unreadable.unlink()
        expect(page.get_by_role("heading", level=1)).to_contain_text(made["code"], timeout=10_000)
        expect(page.locator(".waiting")).to_contain_text("Ana")
        expect(alert).to_have_count(0)


def test_a_name_is_written_as_its_player_typed_it_where_it_starts_a_sentence(
    tmp_path: Any, page: Any
) -> None:
    """The round's end said "Ana went out" for a player who called herself "ana", and a
    screen reader heard "Émile's train" for "émile"'s, at the table and in the replay: a
    sentence that starts with a name leaves it as typed; one that starts with a word of
    the language ("Le train d'émile", "Your train") still starts with a capital."""
    import urllib.request

    from playwright.sync_api import expect

    from conftest import running_server

    def last_tile_fits(state: Any) -> bool:
        return len(state.hand(0)) == 1 and any(a.kind == "play" for a in state.legal_actions())

    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    db = tmp_path / "names.sqlite3"
    made, _ = _a_round_at(db, "LOWER", last_tile_fits, names=("ana", "émile"))
    with running_server(db, 1) as base:
        seat_page(page, base, made)
        expect(page.locator(".hand-tile.playable")).to_have_count(1, timeout=15_000)
        expect(page.locator('.train[data-train="1"]')).to_have_attribute(
            "aria-label", re.compile("^émile's train")
        )
        expect(page.locator('.train[data-train="0"]')).to_have_attribute(
            "aria-label", re.compile("^Your train")
        )
        make_a_move(page)  # ana's last tile: she goes out, and the game is over
        dialog = page.get_by_role("dialog")
        expect(dialog.locator(".how-ended")).to_have_text("ana went out.", timeout=15_000)
        shot(page, "46-a-lower-case-name-goes-out")
        with urllib.request.urlopen(base + "/api/games") as res:
            game = json.load(res)[0]["id"]
        page.goto(f"{base}/replay/{game}")
        replay = page.locator(".replay")
        expect(replay.locator('.train[aria-label^="ana\'s train"]')).to_have_count(1)
        expect(replay.locator('.train[aria-label^="émile\'s train"]')).to_have_count(1)
        expect(replay.locator(".replay-hand.current")).to_have_attribute(
            "aria-label", re.compile(r"(ana|émile)'s turn$")
        )
        page.get_by_label("Language").select_option("fr")
        expect(replay.locator('.train[aria-label^="Le train d\'émile"]')).to_have_count(1)
        expect(replay.locator('.train[aria-label^="Le train d\'ana"]')).to_have_count(1)
        page.get_by_label("Langue").select_option("en")
    assert not errors, errors


def test_the_help_from_a_table_says_its_own_rounds(server: str, page: Any) -> None:
    """The help's rules in short said "A full game is 13 rounds, from the 12-12 engine down
    to 0-0" whatever the table: opened from a table, they say its own rounds, in the
    page's language; the help opened from the lobby still says the full game's."""
    from playwright.sync_api import expect

    from mextrain.i18n import Translator, rules_in_short
    from mextrain.rules import Rules

    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    options = {"max_pip": 6, "rounds": 4, "hand_size": {"2": 7}}
    made = create_via_api(server, {"name": "Ana", "seats": ["bot:greedy"], "options": options})
    seat_page(page, server, made)
    expect(page.locator(".hand-tile").first).to_be_visible(timeout=15_000)
    with page.context.expect_page() as opened:
        page.locator("header").get_by_text("How to play").click()
    other = opened.value
    rules = other.locator(".help p").first
    expect(rules).to_have_text(
        "This game is 4 rounds, from the 6-6 engine down to 3-3; each round, the tiles left"
        " in your hand count against you, and the lowest total wins.",
        timeout=10_000,
    )
    shot(other, "47-help-of-a-short-double-6-table")
    other.get_by_label("Language").select_option("fr")
    said = rules_in_short(Rules.from_spec({"preset": "classic", **options}), Translator("fr"))
    expect(rules).to_have_text(said.split("\n")[0])
    other.get_by_label("Langue").select_option("en")
    other.close()
    # a double-6 set's full game, from the link under the board
    double_6 = {"max_pip": 6, "hand_size": {"2": 7}}
    made = create_via_api(server, {"name": "Ana", "seats": ["bot:greedy"], "options": double_6})
    seat_page(page, server, made)
    expect(page.locator(".hand-tile").first).to_be_visible(timeout=15_000)
    with page.context.expect_page() as opened:
        page.locator(".table-rules a").click()
    other = opened.value
    expect(other.locator(".help p").first).to_contain_text(
        "A full game is 7 rounds, from the 6-6 engine down to 0-0;", timeout=10_000
    )
    other.close()
    page.goto(server + "/help")
    expect(page.locator(".help p").first).to_contain_text(
        "A full game is 13 rounds, from the 12-12 engine down to 0-0;"
    )
    assert not errors, errors


def test_a_seat_goes_to_another_device_by_its_own_link(server: str) -> None:
    """A seat was held by the one browser that took it: a phone's battery running out,
    or a move to the laptop, lost it (another browser could only watch, or join a seat
    still open). The seat's own link, shown under *Play on another device*, opens it on
    another device too: the page there plays it, keeps it, and takes the token out of the
    address. A link gone stale takes no seat and loses none: the page says so and goes
    on as it was, at this browser's own seat if it had one."""
    from playwright.sync_api import expect

    made = create_via_api(
        server, {"name": "Ana", "seats": ["bot:greedy"], "options": {"rounds": 1}}
    )
    code = made["code"]
    key = f"mextrain.token.{code}"
    errors: list[str] = []
    with touch_phone(390, 844) as (browser, phone):
        laptop = browser.new_context(viewport={"width": 1280, "height": 860}).new_page()
        for each in (laptop, phone):
            each.on("pageerror", lambda err: errors.append(str(err)))
        # in the waiting room too, beside the table's own link (each its own button)
        waiting = create_via_api(
            server, {"name": "Ana", "seats": ["open"], "options": {"rounds": 1}}
        )
        seat_page(laptop, server, waiting)
        # (and the table's own link as a QR code, for whoever is at the table to join)
        shared = laptop.get_by_role("img", name="A QR code of the table's link")
        expect(shared).to_be_visible(timeout=15_000)
        assert read_qr(shared) == f"{server}/t/{waiting['code']}"
        expect(laptop.locator(".share-qr")).to_contain_text("scan this code with a phone")
        laptop.get_by_role("button", name="Play on another device").click()
        expect(laptop.get_by_role("textbox", name="The link to your seat")).to_have_value(
            f"{server}/t/{waiting['code']}#seat={waiting['token']}"
        )
        expect(laptop.get_by_role("button", name="Copy the link")).to_have_count(1)
        expect(laptop.get_by_role("button", name="Copy your seat's link")).to_have_count(1)
        seat_page(laptop, server, made)
        expect(laptop.locator(".hand-tile").first).to_be_visible(timeout=15_000)
        button = laptop.get_by_role("button", name="Play on another device")
        expect(button).to_have_attribute("aria-expanded", "false")
        button.click()
        expect(button).to_have_attribute("aria-expanded", "true")
        box = laptop.get_by_role("textbox", name="The link to your seat")
        link = box.input_value()
        assert link == f"{server}/t/{code}#seat={made['token']}"
        expect(laptop.locator(".seat-link-box")).to_contain_text("share it with no one")
        # the QR code beside it reads as the same link (a phone's camera opens it)
        qr = laptop.get_by_role("img", name="A QR code of the link")
        expect(qr).to_be_visible()
        assert read_qr(qr) == link
        box_of_qr = qr.bounding_box()
        assert box_of_qr is not None
        assert box_of_qr["width"] >= 150  # (a camera reads it)
        laptop.get_by_role("button", name="Copy your seat's link").click()
        expect(laptop.locator(".seat-link-box")).to_contain_text("Copied.")
        shot(laptop, "52-seat-link")

        # the phone, which never had the seat, opens the link: Ana's seat, her hand
        phone.goto(link)
        expect(phone.locator(".hand-tile").first).to_be_visible(timeout=15_000)
        assert phone.url == f"{server}/t/{code}"  # the token out of the address
        assert phone.evaluate("k => localStorage.getItem(k)", key) == made["token"]
        expect(phone.locator(".badge", has_text="Watching")).to_have_count(0)

        def hand(page: Any) -> list[str | None]:
            return [t.get_attribute("data-tile") for t in page.locator(".hand-tile").all()]

        expect(laptop.locator(".hand-tile")).to_have_count(len(hand(phone)))
        assert sorted(map(str, hand(phone))) == sorted(map(str, hand(laptop)))
        # it plays the seat: a move made on the phone shows on the laptop
        deadline = time.monotonic() + 30
        while not phone.locator(".turn.mine").is_visible():
            assert time.monotonic() < deadline, "Ana's turn never came"
            phone.wait_for_timeout(50)
        log = laptop.locator(".move-log li").count()
        make_a_move_and_wait(phone)
        expect(laptop.locator(".move-log li")).not_to_have_count(log)
        phone.reload()  # and it keeps it
        expect(phone.locator(".hand-tile").first).to_be_visible(timeout=15_000)

        # a link gone stale, on the laptop, which holds the seat (pasted in the address of
        # the table's tab: only the part after "#" changes): the seat is still its own
        stale = f"{server}/t/{code}#seat={'x' * 32}"
        laptop.goto(stale)
        note = laptop.locator(".error", has_text="That link to a seat is not valid")
        expect(note).to_be_visible(timeout=15_000)
        expect(laptop.locator(".hand-tile").first).to_be_visible(timeout=15_000)
        assert laptop.url == f"{server}/t/{code}"
        assert laptop.evaluate("k => localStorage.getItem(k)", key) == made["token"]
        # ... and on a browser that never had a seat here: it watches
        other = browser.new_context(viewport={"width": 1280, "height": 860}).new_page()
        other.on("pageerror", lambda err: errors.append(str(err)))
        for broken in (stale, f"{server}/t/{code}#seat=short", f"{server}/t/{code}#seat=%E0"):
            other.goto(server + "/stats")
            other.goto(broken)
            expect(other.locator(".error", has_text="That link to a seat")).to_be_visible(
                timeout=15_000
            )
            expect(other.locator(".board")).to_be_visible(timeout=15_000)
            expect(other.locator(".hand-tile")).to_have_count(0)
            assert other.url == f"{server}/t/{code}"
            assert other.evaluate("k => localStorage.getItem(k)", key) is None
        # a spectator has no seat to take anywhere
        expect(other.get_by_role("button", name="Play on another device")).to_have_count(0)
    assert errors == []


def read_qr(svg: Any) -> str:
    """What the QR code drawn by the page's ``svg`` element says, read by an independent
    reader (zxing-cpp) from its modules, each drawn as ``M x y h1v1h-1z`` of its path."""
    import numpy as np

    size = int(svg.get_attribute("data-size"))
    path = svg.locator("path").get_attribute("d")
    dark = np.zeros((size, size), dtype=bool)
    for x, y in re.findall(r"M(\d+) (\d+)h1v1h-1z", path):
        dark[int(y), int(x)] = True
    assert path == "".join(f"M{x} {y}h1v1h-1z" for y, x in zip(*np.nonzero(dark), strict=True))
    return read_qr_modules(dark)


def test_a_seat_brought_by_its_link_has_read_the_talk_said_before(server: str) -> None:
    """The talk read is kept per browser: a seat taken to a phone by its link counted
    every line said at the table before as unread there, though the player had them on
    the other device. What was said before the link was opened counts as read; what is
    said after, as ever."""
    need_browser()
    from playwright.sync_api import expect

    errors: list[str] = []
    with ana_talks_to_ben(server, bots=1) as (ana, bens_page):
        laptop = bens_page({"width": 1280, "height": 860}, False, errors)
        for said in (1, 2):
            ana_says_thanks(ana, laptop, said)
        code = laptop.url.rsplit("/", 1)[1]
        token = laptop.evaluate("k => localStorage.getItem(k)", f"mextrain.token.{code}")
        context = laptop.context.browser.new_context(
            viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True
        )
        phone = context.new_page()
        phone.on("pageerror", lambda err: errors.append(str(err)))
        phone.goto(f"{server}/t/{code}#seat={token}")
        expect(phone.locator(".hand-tile").first).to_be_visible(timeout=15_000)
        expect(phone.locator(".chat-lines li")).to_have_count(2)
        jump = phone.locator(".actions .talk-jump")
        phone.evaluate("() => window.scrollTo(0, 0)")  # (the board and the hand)
        expect(phone.locator(".chat")).not_to_be_in_viewport()
        expect(jump).to_have_accessible_name("Table talk")
        ana_says_thanks(ana, phone, 3)
        expect(jump).to_have_accessible_name("Table talk, 1 line unread")
        phone.reload()  # (as far as was read, kept on the phone)
        expect(phone.locator(".chat-lines li")).to_have_count(3)
        phone.evaluate("() => window.scrollTo(0, 0)")
        expect(jump).to_have_accessible_name("Table talk, 1 line unread")
    assert errors == []


def test_a_new_seat_link_voids_the_old_one_on_every_other_device(server: str) -> None:
    """A seat's link given to the wrong person, or left on a lost phone, played the seat
    until its player left the table. *New link* voids it: the page that asked keeps the
    seat (its other tabs too), with the new link to share; a device that opened the old
    one only watches, and says why; the old link opens nothing, the new one the seat."""
    from playwright.sync_api import expect

    made = create_via_api(
        server, {"name": "Ana", "seats": ["bot:greedy"], "options": {"rounds": 1}}
    )
    code = made["code"]
    key = f"mextrain.token.{code}"
    old_link = f"{server}/t/{code}#seat={made['token']}"
    errors: list[str] = []
    with touch_phone(390, 844) as (browser, phone):
        context = browser.new_context(viewport={"width": 1280, "height": 860})
        laptop = context.new_page()
        for each in (laptop, phone):
            each.on("pageerror", lambda err: errors.append(str(err)))
        seat_page(laptop, server, made)
        expect(laptop.locator(".hand-tile").first).to_be_visible(timeout=15_000)
        second_tab = context.new_page()  # (the same browser: the same stored token)
        second_tab.on("pageerror", lambda err: errors.append(str(err)))
        second_tab.goto(f"{server}/t/{code}")
        expect(second_tab.locator(".hand-tile").first).to_be_visible(timeout=15_000)
        phone.goto(old_link)
        expect(phone.locator(".hand-tile").first).to_be_visible(timeout=15_000)

        laptop.get_by_role("button", name="Play on another device").click()
        box = laptop.get_by_role("textbox", name="The link to your seat")
        expect(box).to_have_value(old_link)
        expect(laptop.locator(".seat-link-box")).to_contain_text(
            "any other device that opened it only watches"
        )
        laptop.get_by_role("button", name="New link").click()
        expect(laptop.locator(".seat-link-box [role=status]")).to_contain_text(
            "New link made: the old one no longer opens your seat."
        )
        expect(box).not_to_have_value(old_link)
        new_link = box.input_value()
        token = laptop.evaluate("k => localStorage.getItem(k)", key)
        assert new_link == f"{server}/t/{code}#seat={token}"
        assert token != made["token"]
        assert read_qr(laptop.get_by_role("img", name="A QR code of the link")) == new_link
        shot(laptop, "53-seat-link-renewed")
        # the phone watches, and says why; it forgot the old token
        moved = "This seat's link was renewed on another device"
        note = phone.locator(".error", has_text=moved)
        expect(note).to_be_visible(timeout=15_000)
        # the laptop plays on, and so does its other tab (told the seat moved as the phone
        # was, it found the new token its sibling kept, and did not forget it)
        expect(laptop.locator(".badge", has_text="watching")).to_have_count(0)
        expect(laptop.locator(".hand-tile").first).to_be_visible()
        expect(second_tab.locator(".error", has_text=moved)).to_have_count(0)
        expect(second_tab.locator(".badge", has_text="watching")).to_have_count(0)
        expect(second_tab.locator(".hand-tile").first).to_be_visible(timeout=15_000)
        assert laptop.evaluate("k => localStorage.getItem(k)", key) == token
        expect(phone.locator(".hand-tile")).to_have_count(0)
        expect(phone.locator(".board")).to_be_visible()
        expect(phone.get_by_role("button", name="Play on another device")).to_have_count(0)
        assert phone.evaluate("k => localStorage.getItem(k)", key) is None
        shot(phone, "54-seat-link-moved-phone")
        phone.reload()  # (still watching)
        expect(phone.locator(".board")).to_be_visible(timeout=15_000)
        expect(phone.locator(".hand-tile")).to_have_count(0)
        # the old link opens nothing any more; the new one opens the seat
        phone.goto(server + "/stats")
        phone.goto(old_link)
        expect(phone.locator(".error", has_text="That link to a seat is not valid")).to_be_visible(
            timeout=15_000
        )
        expect(phone.locator(".hand-tile")).to_have_count(0)
        phone.goto(server + "/stats")
        phone.goto(new_link)
        expect(phone.locator(".hand-tile").first).to_be_visible(timeout=15_000)
        assert phone.evaluate("k => localStorage.getItem(k)", key) == token
    assert errors == []


def test_the_lobby_gives_a_table_its_bots_pace_and_keeps_the_choice(server: str, page: Any) -> None:
    """A player alone against bots waited their pause at every bot's move: the lobby now
    asks how quickly the bots move (the table keeps it), and keeps the choice for the
    next table, as it keeps the time per move."""
    import json
    import urllib.request

    from playwright.sync_api import expect

    page.goto(server + "/")
    page.get_by_label("Your name").fill("Ana")
    page.get_by_label("Rounds").fill("1")
    pace = page.get_by_label("Bots' pace")
    expect(pace).to_have_value("normal")
    assert [o.text_content() for o in pace.locator("option").all()] == [
        "Slow, to follow every move",
        "Normal",
        "Quick",
    ]
    pace.select_option(label="Quick")
    page.get_by_role("button", name="Create the table").click()
    expect(page.locator(".hand-tile").first).to_be_visible(timeout=15_000)
    code = page.url.rsplit("/", 1)[1]
    with urllib.request.urlopen(f"{server}/api/tables/{code}") as res:
        assert json.load(res)["bot_pace"] == "fast"
    # the table says so (where the pace was chosen in the lobby only, not shown)
    expect(page.locator(".table-rules")).to_contain_text("The bots play quickly.")
    page.goto(server + "/")
    expect(page.get_by_label("Bots' pace")).to_have_value("fast")
    page.evaluate("() => localStorage.setItem('mextrain.bot_pace', 'warp')")  # (not ours)
    page.reload()
    expect(page.get_by_label("Bots' pace")).to_have_value("normal")
    # those who join see it in the waiting room, in their language; a normal pace goes
    # without saying
    made = create_via_api(server, {"name": "Ana", "seats": ["open", "open"], "bot_pace": "slow"})
    joined = join_via_api(server, made["code"], "Ben")
    seat_page(page, server, joined | {"code": made["code"]}, "fi")
    expect(page.locator(".waiting")).to_contain_text(
        "Botit pelaavat hitaasti, jotta jokaista siirtoa ehtii seurata."
    )
    normal = create_via_api(server, {"name": "Ana", "seats": ["open"]})
    seat_page(page, server, normal, "en")
    expect(page.locator(".waiting .muted").filter(has_text="Classic")).to_be_visible()
    expect(page.locator(".waiting")).not_to_contain_text("The bots play")


@pytest.mark.parametrize("lang", ["en", "fi"])
def test_alone_against_bots_undo_takes_a_move_back(server: str, page: Any, lang: str) -> None:
    """The terminal game took a move back (u) and the browser could not: alone against
    bots, *Undo* (or u) puts the round back to before the player's latest move, the bots'
    replies with it, the tile back in the hand, and says so; there is nothing of the round
    to take back before a move, and the button says it by being off."""
    from playwright.sync_api import expect

    from mextrain.i18n import Translator

    t = Translator(lang)
    made = create_via_api(
        server, {"name": "Ana", "seats": ["bot:greedy"], "options": {"rounds": 1}}
    )
    seat_page(page, server, made, lang)
    page.locator(".turn.mine").wait_for(timeout=20_000)
    undo = page.get_by_role("button", name=t("web.undo"), exact=True)
    expect(undo).to_be_disabled()
    hand = sorted(page.locator(".hand-tile").evaluate_all("els => els.map(e => e.dataset.tile)"))
    moves = page.locator(".move-log li").count()
    make_a_move_and_wait(page)
    page.locator(".turn.mine").wait_for(timeout=20_000)
    expect(undo).to_be_enabled()
    shot(page, f"57-undo-before-{lang}")
    undo.click()
    expect(page.locator(".move-log li")).to_have_count(moves)
    expect(undo).to_be_disabled()
    shown = page.locator(".hand-tile").evaluate_all("els => els.map(e => e.dataset.tile)")
    assert sorted(shown) == hand
    expect(page.locator(".turn.mine")).to_be_visible()
    expect(page.locator("[role=status]").filter(has_text=t("web.undo.done")).first).to_be_attached()
    # and by the keyboard: u, once there is a move to take back again
    make_a_move_and_wait(page)
    page.locator(".turn.mine").wait_for(timeout=20_000)
    expect(undo).to_be_enabled()
    page.keyboard.press("u")
    expect(page.locator(".move-log li")).to_have_count(moves)
    shot(page, f"57-undo-after-{lang}")


def test_at_a_table_of_people_there_is_no_undo(server: str, page: Any) -> None:
    made = create_via_api(server, {"name": "Ana", "seats": ["open"], "options": {"rounds": 1}})
    join_via_api(server, made["code"], "Ben")
    seat_page(page, server, made, "en")
    page.locator(".hand-tile").first.wait_for(timeout=20_000)
    from playwright.sync_api import expect

    expect(page.get_by_role("button", name="Undo", exact=True)).to_have_count(0)


@pytest.mark.parametrize("lang", ["en", "it"])
def test_a_replays_position_is_analysed_for_the_seat_to_move(
    server: str, page: Any, lang: str
) -> None:
    """A replay said what was played, never whether it was good: *Analyse this position*
    gives the search's best moves for the seat to move, from its own tiles only, with
    their chances, and how the move played there fares; another position leaves it
    unsaid. (A record file here: a kept game's replay asks the same of the server.)"""
    from playwright.sync_api import expect

    from mextrain.i18n import Translator

    t = Translator(lang)
    complete = RECORDS / "double6_complete.json"
    page.goto(server + "/help")
    page.evaluate("lang => localStorage.setItem('mextrain.lang', lang)", lang)
    page.goto(server + "/replay")
    page.get_by_label(t("web.replay.open_file")).set_input_files(str(complete))
    expect(page.get_by_role("heading", level=2)).to_have_text("double6_complete.json")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    button = page.get_by_role("button", name=t("web.replay.analyse"))
    button.click()
    moves = page.locator(".analysis .analysis-moves")
    expect(moves).to_contain_text(t("web.replay.analysis", name="\u2068Ana\u2069", moves=""))
    played = page.locator(".analysis .analysis-played")
    expect(played).to_contain_text(t("web.replay.analysis_played", move="").strip())
    shot(page, f"58-replay-analysis-{lang}")
    page.keyboard.press("ArrowRight")
    expect(moves).to_have_count(0)
    # at a round's end there is nothing to analyse: no button
    page.locator(".replay input[type=range]").fill("12")
    expect(button).to_have_count(0)
