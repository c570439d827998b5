"""Statistics of the games played in the terminal (`mextrain.tui.history`, ``mextrain
stats``, the start screen's statistics): each saved game is replayed and summed up per
person, checked against the matches as they were played."""

from __future__ import annotations

import asyncio
import json
import random
import re
import shutil
from datetime import datetime
from pathlib import Path

import pytest

pytest.importorskip("textual")

from click.testing import CliRunner
from textual.widgets import Static

from mextrain.bots import make_bot
from mextrain.cli import main
from mextrain.i18n import LANGUAGES, Translator
from mextrain.rules import Match, Rules
from mextrain.sim.stats import wilson_interval
from mextrain.tui import GameSession, GameSetup, PlayApp, SeatSpec
from mextrain.tui.games import SavedGame, game_lines
from mextrain.tui.history import ranking, read_history, stats_text, summarize
from mextrain.tui.screens import StartScreen, StatsScreen
from test_tui import plain

RECORDS = Path(__file__).parent / "records"


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("MEXTRAIN_DATA_DIR", str(tmp_path))
    return tmp_path


def played(seats: list[tuple[str, str]], seed: int, *, finish: bool = True) -> Match:
    """A game saved as ``mextrain play`` saves it, every seat (people too) moved by a
    greedy bot; unfinished games stop after their first round."""
    session = GameSession.new(
        Rules.preset("classic", max_pip=6, rounds=[6, 5, 4], hand_size={2: 7, 3: 6}),
        [SeatSpec(kind, name) for kind, name in seats],
        seed=seed,
    )
    bot, rng = make_bot("greedy"), random.Random(seed)
    while not session.match.is_complete:
        state = session.match.current
        if state.is_over:
            if not finish:
                break
            session.next_round()
        else:
            state.apply(bot.act(state.view(state.current_seat), rng), state.current_seat)
        session.save()
    return session.match


def test_a_game_where_a_move_was_taken_back_is_counted_and_rated_for_nobody() -> None:
    """Taking moves back until a game is won would buy a rating: a game where a move was
    taken back (saved with the game, so a resumed game keeps it) counts as played, says so
    in the saved games' list, and rates nobody, the bot level neither, as on the web. A
    game played through is rated as before."""
    session = GameSession.new(
        Rules.preset("classic", max_pip=6, rounds=[6], hand_size={2: 7}),
        [SeatSpec("human", "Ana"), SeatSpec("greedy", "Greedy 2")],
        seed=21,
    )
    bot, rng = make_bot("greedy"), random.Random(21)

    def move() -> None:
        state = session.match.current
        state.apply(bot.act(state.view(state.current_seat), rng), state.current_seat)
        session.save()

    while session.match.current.current_seat != 0:
        move()
    move()
    while session.match.current.current_seat != 0:
        move()
    assert session.undo() >= 1
    assert session.path is not None
    session.release()
    session = GameSession.load(session.path)
    assert session.taken_back == 1
    while not session.match.is_complete:
        move()
    played([("human", "Ana"), ("greedy", "Greedy 2")], 22)
    history = read_history()
    assert sorted(game.taken_back for game in history.games) == [0, 1]
    (ana,) = summarize(history.games)
    assert (ana.games, ana.rated_games) == (2, 1)
    assert ranking(history.games)[("bot", "greedy")].games == 1
    t = Translator("en")
    lines = [
        game_lines(SavedGame(game.path, datetime.now(), game), t).split("\n")[2]
        for game in history.games
    ]
    assert sum(line.endswith(" · moves taken back, not rated") for line in lines) == 1


def test_each_persons_games_wins_points_and_opponents_match_the_games_played() -> None:
    matches = [
        played([("human", "Ana"), ("expert", "Expert 2"), ("human", "Ben")], seed)
        for seed in range(4)
    ]
    matches.append(played([("human", "ana"), ("greedy", "Greedy 2")], 9))
    unfinished = played([("human", "Ana"), ("hard", "Hard 2")], 10, finish=False)
    history = read_history()
    assert len(history.games) == 6
    assert not history.skipped
    people = {p.name: p for p in summarize(history.games)}
    # "Ana" and "ana" are one person, shown as they spelt it last (the unfinished game)
    assert set(people) == {"Ana", "Ben"}
    for name, played_at in [
        ("Ana", [(m, 0) for m in matches]),
        ("Ben", [(m, 2) for m in matches[:4]]),
    ]:
        p = people[name]
        assert p.games == len(played_at)
        assert p.wins == sum(seat in m.winners for m, seat in played_at)
        assert p.points == sum(m.totals[seat] for m, seat in played_at)
        assert p.best == min(m.totals[seat] for m, seat in played_at)
        assert p.rounds == 3 * len(played_at)
        assert p.rounds_won == sum(
            scores[seat] == min(scores) for m, seat in played_at for scores in m.round_scores()
        )
        assert p.win_interval == wilson_interval(p.wins, len(played_at))
    assert set(people["Ben"].opponents) == {"expert"}
    ben = people["Ben"].opponents["expert"]
    assert (ben.games, ben.wins) == (4, people["Ben"].wins)
    assert set(people["Ana"].opponents) == {"expert", "greedy"}
    expert = people["Ana"].opponents["expert"]
    assert (expert.games, expert.wins) == (4, sum(0 in m.winners for m in matches[:4]))
    greedy = people["Ana"].opponents["greedy"]
    assert (greedy.games, greedy.wins) == (1, 0 in matches[4].winners)
    assert people["Ana"].unfinished == 1  # the unfinished game counts apart
    assert len(unfinished.rounds) == 1
    assert people["Ben"].unfinished == 0
    # one person only, the name compared without case
    assert [(p.name, p.games) for p in summarize(history.games, "ANA")] == [("Ana", 5)]


def test_a_name_in_other_case_spacing_or_unicode_form_is_one_person() -> None:
    """A person is their name read without case, spaces around it or doubled inside it,
    and however its accents are encoded (a decomposed "é"); shown as spelt last. "Ana"
    and "Anna", "Zoé" and "Zoe" stay two people."""
    spellings = ["Zoé Ana", "zoe\u0301 ana", " ZOÉ  Ana ", "Zoé\u00a0ana"]
    matches = [
        played([("human", who), ("greedy", "Greedy 2")], seed) for seed, who in enumerate(spellings)
    ]
    played([("human", "Zoe Ana"), ("human", "Zoé Anna")], 7)
    people = summarize(read_history().games)
    assert [(p.name, p.games) for p in people] == [
        ("Zoé ana", 4),  # the last spelling, its spaces made one
        ("Zoe Ana", 1),
        ("Zoé Anna", 1),
    ]
    assert people[0].wins == sum(0 in m.winners for m in matches)
    assert people[0].points == sum(m.totals[0] for m in matches)
    for asked in ("zoé ana", "ZOE\u0301 ANA", "  zoé   ana"):
        assert [(p.name, p.games) for p in summarize(read_history().games, asked)] == [
            ("Zoé ana", 4)
        ]
    out = CliRunner().invoke(main, ["stats", "--json", "--name", "zoé ana"])
    assert [(p["name"], p["games"]) for p in json.loads(out.output)["people"]] == [("Zoé ana", 4)]


def test_a_person_without_a_chosen_name_is_one_person_in_every_language() -> None:
    """ "Player 1" in English and "Joueur 1" in French are the default name of the person at
    seat 1: one person, shown in the reader's language, and found by either name. A default
    name at another seat ("Player 2") is another person; a name chosen stays as it is."""
    played([("human", "Player 1"), ("greedy", "Greedy 2")], 1)
    played([("human", "Joueur 1"), ("greedy", "Glouton 2")], 2)
    played([("human", "Pelaaja 1"), ("human", "Pelaaja 2")], 3)
    played([("human", "Ana"), ("greedy", "Greedy 2")], 4)
    games = read_history().games
    it = Translator("it")
    people = {p.name: p for p in summarize(games, t=it)}
    assert set(people) == {"Giocatore 1", "Giocatore 2", "Ana"}
    assert people["Giocatore 1"].games == 3
    assert people["Giocatore 2"].games == 1
    for asked in ("joueur 1", "Player 1", "Giocatore 1"):
        found = summarize(games, asked, Translator("en"))
        assert [(p.name, p.games) for p in found] == [("Player 1", 3)]
    # without a language every name is its own person, as the records have them
    assert {p.name for p in summarize(games)} >= {"Player 1", "Joueur 1", "Pelaaja 1"}


def test_stats_json_names_people_alike_whatever_the_locale(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """--json gives default names in English unless --lang says otherwise: a script reads
    the same names on a French desktop as on an English one."""
    played([("human", "Joueur 1"), ("greedy", "Glouton 2")], 1)
    for locale in ("fr_FR.UTF-8", "en_US.UTF-8"):
        monkeypatch.setenv("LANG", locale)
        monkeypatch.setenv("LC_ALL", locale)
        out = CliRunner().invoke(main, ["stats", "--json"])
        assert [p["name"] for p in json.loads(out.output)["people"]] == ["Player 1"]
    out = CliRunner().invoke(main, ["stats", "--json", "--lang", "it"])
    assert [p["name"] for p in json.loads(out.output)["people"]] == ["Giocatore 1"]


def test_files_that_are_not_our_games_are_left_out(data_dir: Path) -> None:
    played([("human", "Ana"), ("greedy", "Greedy 2")], 1)
    games = data_dir / "games"
    (games / "broken.json").write_text("{not json", encoding="utf-8")
    # a legal record saved by something else: which seats were people is unknown
    shutil.copy(RECORDS / "double6_complete.json", games / "elsewhere.json")
    shutil.copy(RECORDS / "illegal_draw_with_a_play.json", games / "illegal.json")
    # nested too deep for Python's reader, and JSON's missing numbers: not records either
    (games / "deep.json").write_text('{"a": ' + "[" * 100_000 + "1" + "]" * 100_000 + "}")
    (games / "nan.json").write_text('{"format": NaN}')
    # a saved game whose seats are not bot names and "human" (edited by hand)
    ours = json.loads(next(games.glob("2*.json")).read_text(encoding="utf-8"))
    ours["play"]["seats"] = [5, None]
    (games / "edited.json").write_text(json.dumps(ours), encoding="utf-8")
    # the game's own field given twice (which seats were people is anyone's guess)...
    kept = json.loads(next(games.glob("2*.json")).read_text(encoding="utf-8"))
    text = json.dumps(kept).replace('"play": {', '"play": {"seats": []}, "play": {', 1)
    (games / "twice.json").write_text(text, encoding="utf-8")
    # ... where a field neither the format nor the game knows, twice, is ignored
    text = json.dumps(kept).replace('"play": {', '"note": 1, "note": 2, "play": {', 1)
    (games / "noted.json").write_text(text, encoding="utf-8")
    history = read_history()
    assert len(history.games) == 2
    assert sorted(p.name for p in history.skipped) == [
        "broken.json",
        "deep.json",
        "edited.json",
        "elsewhere.json",
        "illegal.json",
        "nan.json",
        "twice.json",
    ]
    (games / "noted.json").unlink()
    (games / "twice.json").unlink()
    history = read_history()
    text = stats_text(history, summarize(history.games), Translator("en"))
    assert "6 files left out" in text
    assert "Games saved in" in text
    assert ": 1 finished, 0 unfinished." in text
    (data_dir / "games" / "broken.json").unlink()
    (data_dir / "games" / "illegal.json").unlink()
    (data_dir / "games" / "deep.json").unlink()
    (data_dir / "games" / "nan.json").unlink()
    (data_dir / "games" / "edited.json").unlink()
    one = stats_text(read_history(), summarize(history.games), Translator("fr"))
    assert "1 fichier laissé de côté\u00a0: pas une partie de mextrain play, ou abîmé." in one
    assert ": 1 terminée, 0 en cours." in one
    assert read_history(data_dir / "nowhere").games == ()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_stats_of_bots_games_alone_say_so(lang: str) -> None:
    """Bots' games alone: nobody to count, said as such (not "nobody has played"); a
    person with no finished game has no win rate in the JSON (as in the text)."""
    for seed in range(2):
        played([("greedy", "Greedy 1"), ("random", "Random 2")], seed)
    out = CliRunner().invoke(main, ["stats", "--lang", lang])
    assert out.exit_code == 0, out.output
    assert out.output.splitlines()[-1] == Translator(lang)("tui.stats.only_bots")
    played([("human", "Ana"), ("greedy", "Greedy 2")], 5, finish=False)
    doc = json.loads(CliRunner().invoke(main, ["stats", "--json"]).output)
    (ana,) = doc["people"]
    assert (ana["games"], ana["unfinished"]) == (0, 1)
    assert ana["win_rate"] is None
    assert ana["average_points"] is None


def test_stats_command_text_and_json() -> None:
    matches = [played([("human", "Ana"), ("planner", "Planner 2")], s) for s in range(3)]
    wins = sum(0 in m.winners for m in matches)
    out = CliRunner().invoke(main, ["stats", "--json"])
    assert out.exit_code == 0, out.output
    # one object on one line, as simulate's, replay's and analyze's --json print it
    assert out.output.count("\n") == 1
    doc = json.loads(out.output)
    assert (doc["finished"], doc["unfinished"], doc["skipped"]) == (3, 0, [])
    (ana,) = doc["people"]
    assert ana["name"] == "Ana"
    assert (ana["games"], ana["wins"], ana["rated_games"]) == (3, wins, 3)
    assert ana["average_points"] == round(sum(m.totals[0] for m in matches) / 3, 2)
    assert ana["opponents"] == [{"level": "planner", "games": 3, "wins": wins}]
    # rated against whom she played: the planner, a player of its own
    (planner,) = doc["bots"]
    assert (planner["level"], planner["games"]) == ("planner", 3)
    assert (ana["rating"] > planner["rating"]) is (wins >= 2)
    text = CliRunner().invoke(main, ["stats", "--lang", "fr"])
    assert text.exit_code == 0
    lines = text.output.splitlines()
    assert lines[0].startswith("Parties enregistrées dans ")
    assert lines[0].endswith(": 3 terminées, 0 en cours.")
    assert lines[2].split()[:3] == ["Joueur", "Parties", "Gagnées"]
    assert lines[3].split()[:3] == ["Ana", "3", str(wins)]
    # numbers the French way: a decimal comma, a no-break space before the percent sign
    average = sum(m.totals[0] for m in matches) / 3
    assert f"{average:.1f}".replace(".", ",") in lines[3]
    assert f"{100 * wins / 3:.0f}\u00a0% (" in lines[3]
    assert re.search(r"\(\d+-\d+\u00a0%\)", lines[3]), lines[3]
    below = lines.index(f"Ana contre\u00a0: Stratège {wins}/3")
    # then the ranking by rating, the highest first, the bot by its level, under its
    # heading (in lines that fit the terminal too)
    assert lines[below + 1] == ""
    heading = " ".join(lines[below + 2 : -2])
    assert heading.startswith("Classement par cote, une estimation du niveau")
    assert heading.endswith(
        "(les robots selon leur niveau\u00a0; une partie où un coup a été annulé ne compte pas)"
        "\u00a0:"
    )
    # each with the games its rating rests on (the table's own count: the list did not
    # say it, where the web's does)
    ranked = [
        re.fullmatch(r"\s+\d\. (.+?)\s+(-?[\d,]+)  \((\d+) parties\)", line) for line in lines[-2:]
    ]
    assert all(ranked), lines[-2:]
    assert sorted(m[1].strip() for m in ranked if m) == ["Ana", "Stratège (robot)"]
    assert [m[3] for m in ranked if m] == ["3", "3"]
    figures = [float(m[2].replace(",", ".")) for m in ranked if m]
    assert figures == sorted(figures, reverse=True)
    assert [line.split()[0] for line in lines[-2:]] == ["1.", "2."]
    assert max(len(line) for line in lines[2:]) <= 80
    # games are saved, none of them Zoe's: said so, not "nobody has played"
    nobody = CliRunner().invoke(main, ["stats", "--name", "Zoe", "--lang", "en"])
    assert nobody.exit_code == 0
    assert nobody.output.splitlines()[-1] == "No saved game has a person called Zoe."
    not_a_folder = CliRunner().invoke(
        main, ["stats", "--dir", str(RECORDS / "double6_complete.json")]
    )
    assert not_a_folder.exit_code == 2
    # a folder named that is not there is a slip, not a folder with no games in it
    missing = CliRunner().invoke(main, ["stats", "--dir", str(RECORDS / "nosuchfolder")])
    assert missing.exit_code == 2
    assert "does not exist" in missing.output


def test_a_very_long_name_from_elsewhere_is_cut_in_the_table() -> None:
    long = "Anastasia " * 6  # 60 characters: no player may choose it, a record may hold it
    played([("human", long.strip()), ("planner", "Planner 2")], 1)
    history = read_history()
    text = stats_text(history, summarize(history.games), Translator("en"))
    table = text.splitlines()[2:4]
    assert table[1].startswith("Anastasia Anastasia Ana…  ")  # 24 cells
    assert max(len(line) for line in table) <= 80


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_table_fits_80_columns_with_the_longest_name_a_player_may_choose(lang: str) -> None:
    """A name of 24 characters (the most a player may choose) pushed the French, Italian
    and Finnish rows to 85-90 columns, and an 80-column terminal broke every row of the
    table in two. The names' column gives way: a name too long is cut with "…" on its
    row, and stays whole on the line of whom they met; the start screen's window, 74
    columns inside at 80, the same."""
    from rich.cells import cell_len

    from mextrain.tui.render import SHEET_WIDTH

    long = "Maximiliana Wolfeschlege"
    assert len(long) == 24
    played([("human", long), ("human", "Ana"), ("expert", "Expert 3")], 1)
    history = read_history()
    t = Translator(lang)
    people = summarize(history.games, t=t)
    for width in (79, SHEET_WIDTH):
        # (the command's own: 79 columns by default)
        text = stats_text(history, people, t) if width == 79 else None
        lines = (text or stats_text(history, people, t, width=width)).splitlines()
        table = lines[2:5]
        assert table[0].startswith(t("tui.stats.head.player"))
        assert max(cell_len(line) for line in table) <= width, "\n".join(table)
        (row,) = [line for line in table[1:] if line.startswith("Maxim")]
        assert long in row or "…" in row
        assert any(line.startswith(long) for line in lines[5:])  # (whom they met: whole)
        ana = next(line for line in table if line.startswith("Ana "))
        # the columns still line up: each row's figures end where the heading's do
        assert cell_len(ana) == cell_len(row)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_long_name_with_only_unfinished_games_is_shown_whole_in_the_window(lang: str) -> None:
    """A person whose games are all unfinished met no bot in a finished game, so no line
    of whom they met kept their name whole: the statistics window showed "Jean-Bapt…"
    and nothing more of it. A line below the table now gives the whole name, with their
    games finished and unfinished; a name the table shows whole gets no such line."""
    from rich.cells import cell_len

    long = "Jean-Baptiste Lamartinie"
    assert len(long) == 24  # (the most a player may choose)
    played([("human", long), ("expert", "Expert 2")], 4, finish=False)
    played([("human", "Ana"), ("expert", "Expert 2")], 5, finish=False)
    t = Translator(lang)

    async def scenario() -> None:
        setup = GameSetup(Rules.preset("classic"), ("human", "greedy"), lang)
        app = PlayApp(setup=setup, lang=lang, delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("ctrl+t")
            await pilot.pause()
            assert isinstance(app.screen, StatsScreen)
            shown = plain(app.screen.query_one("#stats", Static)).splitlines()
            (row,) = [line for line in shown[2:5] if line.startswith("Jean")]
            assert long not in row
            assert "…" in row
            finished = t.plural("tui.stats.finished", 0)
            unfinished = t.plural("tui.stats.unfinished", 1)
            whole = t("tui.stats.games_of", name=long, finished=finished, unfinished=unfinished)
            assert whole in shown[5:]
            assert max(cell_len(line) for line in shown[2:]) <= 74  # (the folder aside)
            assert not any(line.startswith("Ana") for line in shown[5:])  # (whole already)

    asyncio.run(scenario())


def test_the_start_screen_shows_the_statistics() -> None:
    played([("human", "Ana"), ("expert", "Expert 2")], 3)

    async def scenario() -> None:
        setup = GameSetup(Rules.preset("classic"), ("human", "greedy"), "it")
        app = PlayApp(setup=setup, lang="it", delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, StartScreen)
            await pilot.press("ctrl+t")
            await pilot.pause()
            assert isinstance(app.screen, StatsScreen)
            shown = plain(app.screen.query_one("#stats", Static))
            assert "Giocatore" in shown
            assert "Ana contro: Esperto" in shown
            await pilot.press("escape")
            await pilot.pause()
            assert isinstance(app.screen, StartScreen)

    asyncio.run(scenario())


def test_what_is_no_file_among_the_games_is_passed_over_unread(data_dir: Path) -> None:
    """A folder or a named pipe called *.json among the saved games: passed over (a pipe
    would keep the statistics waiting for ever)."""
    import os

    played([("human", "Ana"), ("greedy", "Greedy 2")], 1)
    games = data_dir / "games"
    (games / "folder.json").mkdir()
    os.mkfifo(games / "pipe.json")
    history = read_history()
    assert len(history.games) == 1
    assert {p.name for p in history.skipped} == {"folder.json", "pipe.json"}


def test_the_bots_a_person_met_are_listed_weakest_first_in_every_language(
    tmp_path: Path,
) -> None:
    """Met as often, the levels come weakest first, not by their English names (which
    read as no order at all in Italian: "Facile · Esperto · Difficile · Medio")."""
    from mextrain.tui.history import History, Opponent, PersonStats

    ana = PersonStats("Ana", games=4, wins=1, points=100, best=10, rounds=4)
    for level in ("expert", "hard", "mine", "easy", "medium"):
        ana.opponents[level] = Opponent(level, games=1)
    ana.opponents["greedy"] = Opponent("greedy", games=3, wins=2)  # (the most games first)
    order = [o["level"] for o in ana.to_dict()["opponents"]]  # type: ignore[union-attr]
    assert order == ["greedy", "easy", "medium", "hard", "expert", "mine"]
    history = History(tmp_path, (), ())
    t = Translator("it")
    text = stats_text(history, [ana], t)
    line = next(
        x for x in text.splitlines() if x.startswith(t("tui.stats.against", name="Ana", list=""))
    )
    shown = [t(f"tui.level.{level}") for level in ("easy", "medium", "hard", "expert")]
    where = [line.index(word) for word in shown]
    assert where == sorted(where), line


@pytest.mark.parametrize(
    ("lang", "separator"), [("en", ","), ("fr", "\u202f"), ("it", ""), ("fi", "\u00a0")]
)
def test_a_best_total_of_thousands_is_written_as_the_average_is(
    tmp_path: Path, lang: str, separator: str
) -> None:
    """The best total was written "1234" in every language, beside an average written
    "1 234,5" in French: both as the language writes numbers."""
    from mextrain.tui.history import History, PersonStats

    ana = PersonStats("Ana", games=2, wins=0, points=2469, best=1234, rounds=26)
    t = Translator(lang)
    text = stats_text(History(tmp_path, (), ()), [ana], t)
    row = next(x for x in text.splitlines() if x.startswith("Ana "))
    assert f" {t.decimal(1234.5)} " in row
    assert f" {'1,234'.replace(',', separator)} " in row
