"""The terminal wraps lines at breaking spaces only: French "Bravo !", "« Piocher »" and
"3 000", and Finnish "3 000", never lose their "!", "»" or "000" to the next line."""

from __future__ import annotations

import asyncio
import io
import itertools
import re

import pytest

pytest.importorskip("textual")

import rich._wrap
from rich.console import Console
from rich.text import Text
from textual.app import App, ComposeResult
from textual.content import Content
from textual.geometry import Region
from textual.widgets import RichLog, Static

from mextrain.i18n import NAMESPACES, Translator, catalog
from mextrain.tui.typography import NO_BREAK_SPACES, keep_no_break_spaces, unbroken

#: what never starts a line in French (the no-break space before it holds it to its word)
_HIGH = tuple(":;!?»")

#: a number's thousands in French (U+202F) and Finnish (U+00A0), and French punctuation
#: after a number ("Pioche : 12", "12 000 points !")
SENTENCES = [
    "Vous ne pouvez pas jouer 0-1 sur votre train\u00a0: le bout libre est 4.",
    "Pioche\u00a0: 12 · Manche 3\u00a0: 12\u202f345\u00a0points\u00a0! «\u00a0Piocher\u00a0» ou "
    "«\u00a0Passer\u00a0»\u00a0? Total\u00a0: 1\u202f234\u202f567\u00a0; suite.",
    f"Pisteet {Translator('fi').whole(1234567)} ja {Translator('fi').whole(3000)} yhteensä.",
]


def french_texts() -> list[str]:
    """Every French text of the catalogs that holds a no-break space (but a piece put
    after other words, "\u00a0;"), and the sentences above."""
    texts = [
        text
        for namespace in NAMESPACES
        for text in catalog(namespace, "fr").values()
        if any(space in text for space in NO_BREAK_SPACES)
        and "\n" not in text
        and not text.startswith(tuple(NO_BREAK_SPACES))
    ]
    assert len(texts) > 50
    return [*texts, *SENTENCES]


def units(text: str) -> list[str]:
    """The pieces of ``text`` a line may break between: split at plain spaces only."""
    return [unit for unit in text.split(" ") if unit]


def assert_broken_at_spaces_only(text: str, lines: list[str], width: int) -> None:
    """``lines`` (``text`` wrapped at ``width``) each hold whole pieces of it: no line
    breaks at a no-break space, so none starts with high punctuation or the digits of a
    number begun on the line before, nor ends with "«"."""
    got = [unit for line in lines for unit in units(line)]
    assert got == units(text), (width, lines)
    for line in lines:
        assert not line.lstrip(" ").startswith(_HIGH), (width, lines)
        assert not line.rstrip(" ").endswith("«"), (width, lines)
        assert not line.startswith(tuple(NO_BREAK_SPACES)), (width, lines)
    for before, after in itertools.pairwise(lines):
        # "12" / "345 points": a number split at its thousands
        assert not (re.search(r"\d$", before.rstrip()) and re.match(r"\d{3}\b", after)), lines


def widths(text: str) -> range:
    """Every width from the widest piece of ``text`` (narrower, a piece must be cut
    anyway) to the whole of it on one line."""
    return range(max(len(unit) for unit in units(text)), len(text) + 2)


def test_the_terminal_wraps_rich_text_at_breaking_spaces_only() -> None:
    """Rich (the game log, a table's cells) broke a line at any space, no-break ones
    too (its words are what ``\\s`` splits): "votre train" / ": le bout libre est 4."."""
    console = Console(file=io.StringIO(), width=200, color_system=None)
    for text in french_texts():
        for width in widths(text):
            options = console.options.update_width(width)
            lines = [
                "".join(segment.text for segment in line).rstrip()
                for line in console.render_lines(Text(text), options, pad=False)
            ]
            assert_broken_at_spaces_only(text, lines, width)


def test_the_terminal_wraps_textual_content_at_breaking_spaces_only() -> None:
    """Textual's widgets (a Static, a Label, a Button) wrap their content with Rich's
    word splitting: the same."""
    for text in french_texts():
        for width in widths(text):
            lines = [line.plain for line in Content(text).wrap(width)]
            assert_broken_at_spaces_only(text, lines, width)


class _Screenful(App[None]):
    def compose(self) -> ComposeResult:
        yield Static(SENTENCES[1], id="static")
        yield RichLog(id="log", wrap=True, min_width=20)  # (as the game's log is)

    def on_mount(self) -> None:
        self.query_one(RichLog).write(SENTENCES[1])


@pytest.mark.parametrize("width", [24, 29, 31, 37, 41])
def test_a_french_message_on_a_narrow_screen_keeps_its_punctuation(width: int) -> None:
    """On the screen: a Static's lines and the game log's (a `RichLog`, which Rich wraps)."""

    async def scenario() -> list[list[str]]:
        app = _Screenful()
        async with app.run_test(size=(width, 30)) as pilot:
            await pilot.pause()
            shown = []
            for widget in (app.query_one("#static", Static), app.query_one(RichLog)):
                w, h = widget.region.size
                shown.append(
                    [
                        strip.text.rstrip()
                        for strip in widget.render_lines(Region(0, 0, w, h))
                        if strip.text.strip()
                    ]
                )
            return shown

    for lines in asyncio.run(scenario()):
        assert len(lines) > 2, lines  # (it did wrap)
        assert_broken_at_spaces_only(SENTENCES[1], lines, width)


def test_the_pattern_replaced_is_richs_own_and_once_is_enough() -> None:
    """The terminal takes Rich's word pattern over when it is imported; a Rich that finds
    its words another way would be left alone (and the tests above would say so)."""
    assert keep_no_break_spaces()
    assert keep_no_break_spaces()  # (again: nothing more)
    assert [m.group() for m in rich._wrap.re_word.finditer("a\u00a0: b\u202fc d")] == [
        "a\u00a0: ",
        "b\u202fc ",
        "d",
    ]


def test_unbroken_text_has_no_breaking_space_left() -> None:
    assert unbroken("Mestari 4") == "Mestari\u00a04"
    assert unbroken("Ana Maria 2") == "Ana\u00a0Maria\u00a02"
    assert unbroken("Ana") == "Ana"
