"""Bots offered by installed packages (entry points of ``mextrain.bots``): found by name
without importing them, made on first use, played in every worker, and refused in words
when they cannot be loaded."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from bot_plugins import Package, installed
from mextrain.bots import (
    BotPluginWarning,
    BotSpecError,
    bot_module,
    bot_names,
    make_bot,
    register_bot,
    registered_by,
)
from mextrain.bots.simple import GreedyBot
from mextrain.cli import main
from mextrain.i18n import bot_error_text

CAUTIOUS = """
    import random

    from mextrain.rules import Action, SeatView


    class Cautious:
        name = "cautious"

        def __init__(self, margin: int = 1) -> None:
            self.margin = margin

        def act(self, view: SeatView, rng: random.Random) -> Action:
            return view.legal_actions[-1]
"""

PLUG_A = Package("plug-a", ("cautious = plug_a:Cautious",), {"plug_a": CAUTIOUS})


def test_an_installed_package_offers_its_bot_by_name_and_imports_it_when_made(
    tmp_path: Path,
) -> None:
    with installed(tmp_path, PLUG_A):
        assert "cautious" in bot_names()
        assert "plug_a" not in sys.modules  # offered, not imported: a name costs nothing
        assert registered_by("cautious") == "plug_a"
        assert bot_module("cautious") is None  # (the workers find it as this process did)
        bot = make_bot("cautious:margin=3")
        assert type(bot).__name__ == "Cautious"
        assert bot.margin == 3  # type: ignore[attr-defined]
        assert "plug_a" in sys.modules
        with pytest.raises(BotSpecError) as info:  # its parameters are checked as any bot's
            make_bot("cautious:margin=x")
        assert info.value.code == "not_a_number"
        with pytest.raises(BotSpecError, match="no parameter 'depth'"):
            make_bot("cautious:depth=2")
    assert "cautious" not in bot_names()  # (the registry as it was)


def test_the_simulator_plays_an_installed_bot_in_every_worker(tmp_path: Path) -> None:
    args = ["simulate", "--players", "2", "--games", "4", "--seed", "5", "--rounds", "1"]
    args += ["--bots", "cautious,greedy", "--json"]
    with installed(tmp_path, PLUG_A):
        one = CliRunner().invoke(main, [*args, "--jobs", "1"], catch_exceptions=False)
        two = CliRunner().invoke(main, [*args, "--jobs", "2"], catch_exceptions=False)
    assert one.exit_code == 0, one.output
    assert two.exit_code == 0, two.output  # (spawned workers: they read the packages too)
    report = json.loads(one.stdout)
    assert [e["bot"] for e in report["entries"]] == ["cautious", "greedy"]
    assert json.loads(two.stdout)["entries"] == report["entries"]


def test_a_package_that_cannot_be_imported_is_refused_in_words_when_named(
    tmp_path: Path,
) -> None:
    broken = Package(
        "plug-broken", ("shaky = plug_broken:Shaky",), {"plug_broken": "import no_such_mod\n"}
    )
    with installed(tmp_path, broken, PLUG_A):
        assert "shaky" in bot_names()  # offered: nothing is imported before it is named
        assert isinstance(make_bot("greedy"), GreedyBot)  # the others are not held up
        assert type(make_bot("cautious")).__name__ == "Cautious"
        for _ in range(2):  # and the same again when named again
            with pytest.raises(BotSpecError) as info:
                make_bot("shaky")
            err = info.value
            assert err.code == "plugin_failed"
            assert "plug-broken 1.0 (shaky = plug_broken:Shaky)" in str(err)
            assert "ModuleNotFoundError: No module named 'no_such_mod'" in str(err)
            assert "n'a pas pu être chargé" in bot_error_text(err, "fr")
        result = CliRunner().invoke(
            main,
            ["simulate", "--players", "2", "--bots", "shaky,greedy", "--games", "2", "--seed", "1"],
        )
    assert result.exit_code == 1
    assert "could not be loaded" in result.output
    assert "Traceback" not in result.output


def test_an_entry_that_names_no_factory_is_refused(tmp_path: Path) -> None:
    package = Package(
        "plug-odd",
        ("odd = plug_odd:NUMBER", "quiet = plug_odd"),
        {"plug_odd": "NUMBER = 3\n"},
    )
    with installed(tmp_path, package):
        for name, what in (("odd", "plug_odd:NUMBER"), ("quiet", "plug_odd")):
            with pytest.raises(BotSpecError, match=f"{what} is not a class or function"):
                make_bot(name)


def test_a_module_named_as_the_entry_may_register_the_bot_itself(tmp_path: Path) -> None:
    source = CAUTIOUS + "\n    from mextrain.bots import register_bot\n"
    source += '    register_bot("careful", Cautious)\n'
    package = Package("plug-self", ("careful = plug_self",), {"plug_self": source})
    with installed(tmp_path, package):
        assert type(make_bot("careful:margin=2")).__name__ == "Cautious"
        assert registered_by("careful") == "plug_self"


def test_a_name_taken_or_unnameable_is_left_out_with_a_warning(tmp_path: Path) -> None:
    rival = Package("plug-rival", ("cautious = plug_rival:Other",), {"plug_rival": CAUTIOUS})
    package = Package(
        "plug-greedy",
        ("greedy = plug_greedy:Cautious", "a,b = plug_greedy:Cautious"),
        {"plug_greedy": CAUTIOUS},
    )
    with installed(tmp_path, PLUG_A, rival, package):
        with pytest.warns(BotPluginWarning) as caught:
            names = bot_names()
        assert isinstance(make_bot("greedy"), GreedyBot)  # the built-in one stays
        assert type(make_bot("cautious")).__name__ == "Cautious"  # the first package's
        assert "plug_greedy" not in sys.modules
        assert "plug_rival" not in sys.modules
    assert "a,b" not in names
    said = sorted(str(w.message) for w in caught)
    assert len(said) == 3
    assert any("'greedy' of plug-greedy 1.0" in s and "is taken (by mextrain." in s for s in said)
    assert any(
        "'cautious' of plug-rival 1.0" in s and "taken (by plug_a:Cautious)" in s for s in said
    )
    assert any("'a,b'" in s and "cannot be named in a spec" in s for s in said)


def test_your_code_may_not_take_an_installed_bots_name_unless_it_replaces_it(
    tmp_path: Path,
) -> None:
    with installed(tmp_path, PLUG_A):
        with pytest.raises(ValueError, match=r"'cautious' is already registered \(by plug_a\)"):
            register_bot("cautious", GreedyBot)
        register_bot("cautious", GreedyBot, replace=True)
        assert isinstance(make_bot("cautious"), GreedyBot)
        assert registered_by("cautious") == __name__
        assert bot_module("cautious") == __name__  # yours now: the workers import you


def test_the_terminal_offers_an_installed_bot(tmp_path: Path) -> None:
    pytest.importorskip("textual")
    from mextrain.tui.screens import BOT_LEVELS, _bot_choices

    with installed(tmp_path, PLUG_A):
        choices = _bot_choices()
    assert choices[: len(BOT_LEVELS)] == list(BOT_LEVELS)
    assert "cautious" in choices
    assert "ismcts" not in choices  # the levels are the built-in bots


def test_the_start_screen_says_why_an_installed_bot_cannot_play(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Offered by name, a package that cannot be imported fails when the game starts: the
    start screen says so in the player's language and stays, rather than the app
    crashing."""
    pytest.importorskip("textual")
    from textual.content import Content
    from textual.widgets import Static

    from mextrain.rules import Rules
    from mextrain.tui import PlayApp
    from mextrain.tui.screens import GameSetup, StartScreen

    monkeypatch.setenv("MEXTRAIN_DATA_DIR", str(tmp_path / "data"))
    broken = Package("plug-tui", ("shaky = plug_tui:Shaky",), {"plug_tui": "import nope\n"})

    async def scenario() -> None:
        setup = GameSetup(Rules.preset("classic"), ("human", "shaky"), "fr")
        app = PlayApp(setup=setup, lang="fr", delay=0, seed=2)
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, StartScreen)
            await pilot.press("ctrl+s")
            await pilot.pause()
            assert app.screen is screen  # it stays, and says why
            visual = screen.query_one("#start-error", Static).visual
            assert isinstance(visual, Content)
            assert "'shaky'" in visual.plain
            assert "n'a pas pu être chargé" in visual.plain
            assert app.session is None

    with installed(tmp_path / "site", broken):
        asyncio.run(scenario())


def test_a_module_of_the_entrys_package_may_register_the_bot(tmp_path: Path) -> None:
    """``subbot = "subreg"``, whose ``__init__`` imports ``subreg.inner``, which registers
    it: a common layout, refused as a name taken by ``subreg``."""
    inner = CAUTIOUS + "\n    from mextrain.bots import register_bot\n"
    inner += '    register_bot("subbot", Cautious)\n'
    package = Package(
        "subreg",
        ("subbot = subreg",),
        {"subreg/__init__": "from . import inner\n", "subreg/inner": inner},
    )
    with installed(tmp_path, package):
        assert type(make_bot("subbot:margin=2")).__name__ == "Cautious"
        assert registered_by("subbot") == "subreg.inner"
        assert bot_module("subbot") is None  # (still the installed package's)


def test_a_bot_that_fails_as_it_is_made_is_refused_in_words(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A package's bot that raises something else than a bad parameter's error as it is
    made (a file of its own missing) is a package that cannot be loaded, not a traceback
    -- and a start screen that remembered it opens on a level instead."""
    source = CAUTIOUS.replace("self.margin = margin", 'raise FileNotFoundError("model.bin")')
    package = Package("plug-model", ("boom = plug_model:Cautious",), {"plug_model": source})
    with installed(tmp_path / "site", package):
        with pytest.raises(BotSpecError) as info:
            make_bot("boom")
        assert info.value.code == "plugin_failed"
        assert "FileNotFoundError: model.bin" in str(info.value)
        pytest.importorskip("textual")
        from mextrain.tui.session import read_start_choices, start_choices_path

        monkeypatch.setenv("MEXTRAIN_DATA_DIR", str(tmp_path / "data"))
        start_choices_path().parent.mkdir(parents=True)
        start_choices_path().write_text(
            json.dumps({"seats": ["human", "boom"], "level": "hard"}), encoding="utf-8"
        )
        kept = read_start_choices()
        assert kept is not None
        assert kept.seats == ("human", "hard")
