"""A bad bot spec's error carries a code and its details, and `mextrain play` says it in
the player's language: the English catalogue says exactly what ``str(err)`` says."""

from __future__ import annotations

import pickle
import re
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest

from bot_plugins import Package, installed
from mextrain.bots import BotSpecError, make_bot, split_bot_list
from mextrain.i18n import LANGUAGES, bot_error_text, catalog

pytest.importorskip("textual")

from mextrain.tui import parse_seats

SRC = Path(__file__).parents[1] / "src" / "mextrain"
BASE = (SRC / "bots" / "base.py").read_text()
CODES = frozenset(
    re.findall(r'code="(\w+)"', BASE)
    + re.findall(r'\("(\w+)", "must be', BASE)  # the kinds a value may be wrong in
    + re.findall(r'code="(\w+)"', (SRC / "tui" / "session.py").read_text())
)


def _make_a_broken_installed_bot() -> object:
    broken = Package("plug-i18n", ("shaky = plug_i18n:Shaky",), {"plug_i18n": "1 / 0\n"})
    with tempfile.TemporaryDirectory() as site, installed(Path(site), broken):
        return make_bot("shaky")


CASES: list[tuple[str, Callable[[], object]]] = [
    ("empty_entry", lambda: split_bot_list("greedy,,random")),
    ("dangling", lambda: split_bot_list("greedy,depth=3")),
    ("not_key_value", lambda: make_bot("greedy:oops")),
    ("twice", lambda: make_bot("ismcts:iterations=5,iterations=6")),
    ("unknown_bot", lambda: make_bot("nosuch")),
    ("bad_parameters", lambda: make_bot("ismcts:iterations=-5")),
    ("no_parameter", lambda: make_bot("greedy:depth=3")),
    ("no_parameters", lambda: make_bot("random:x=1")),
    ("not_a_number", lambda: make_bot("ismcts:time_ms=abc")),
    ("not_whole", lambda: make_bot("ismcts:iterations=10.5")),
    ("not_finite", lambda: make_bot("planner:extra_cost=nan")),
    ("too_large", lambda: make_bot("ismcts:time_ms=1e400")),
    ("not_true_false", lambda: make_bot("greedy:random_ties=1")),
    ("plugin_failed", _make_a_broken_installed_bot),
    ("too_many_seats", lambda: parse_seats("you,greedy,greedy", 2)),
]


def fault(how: Callable[[], object]) -> BotSpecError:
    with pytest.raises(BotSpecError) as info:
        how()
    return info.value


def test_every_fault_is_met_by_a_case() -> None:
    assert {code for code, _ in CASES} == CODES


@pytest.mark.parametrize(("code", "how"), CASES, ids=[c[0] for c in CASES])
def test_each_fault_says_the_same_in_english(code: str, how: Callable[[], object]) -> None:
    err = fault(how)
    assert err.code == code
    assert bot_error_text(err, "en") == str(err)


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
@pytest.mark.parametrize(("code", "how"), CASES, ids=[c[0] for c in CASES])
def test_each_fault_is_said_in_each_language(
    lang: str, code: str, how: Callable[[], object]
) -> None:
    err = fault(how)
    assert f"game.bot_error.{code}" in catalog("game", lang)
    text = bot_error_text(err, lang)
    assert text != str(err)
    for value in err.params.values():
        assert str(value) in text


def test_an_error_without_a_code_is_said_as_it_is() -> None:
    assert bot_error_text(ValueError("something else"), "fi") == "something else"


def test_the_code_and_details_cross_processes() -> None:
    err = fault(lambda: make_bot("nosuch"))
    back = pickle.loads(pickle.dumps(err))
    assert isinstance(back, BotSpecError)
    assert (back.code, back.params, str(back)) == (err.code, err.params, str(err))
