"""``mextrain analyze``: the JSON contract, the report in each language, exit statuses."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from mextrain.cli import analyze as analyze_command
from mextrain.cli import main
from mextrain.i18n import LANGUAGES, Translator
from mextrain.records import load_record, replay_record
from mextrain.rules import RoundState

RECORDS = Path(__file__).parent / "records"
COMPLETE = RECORDS / "double6_complete.json"
IN_PROGRESS = RECORDS / "double6_in_progress.json"

ACTION_KEYS = {
    "action",
    "win_probability",
    "win_interval",
    "expected_score",
    "visits",
    "stderr",
    "score_stderr",
}


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["analyze", *args])
    return result.exit_code, result.output


def _position(path: Path, round_index: int, action_index: int) -> RoundState:
    played = replay_record(load_record(path.read_bytes())).match.rounds[round_index]
    data = played.to_dict()
    data["actions"] = data["actions"][:action_index]
    return RoundState.from_dict(data)


@pytest.mark.parametrize(("path", "rnd", "act"), [(COMPLETE, 0, 2), (IN_PROGRESS, 1, 3)])
def test_json_contract(path: Path, rnd: int, act: int) -> None:
    code, out = _run(
        str(path), "--round", str(rnd), "--action", str(act), "--iterations", "120", "--json"
    )
    assert code == 0, out
    data = json.loads(out)
    assert set(data) == {
        "round",
        "action",
        "seat",
        "seed",
        "iterations",
        "policy",
        "position",
        "actions",
        "best",
        "played",
        "played_rank",
    }
    state = _position(path, rnd, act)
    seat = state.current_seat
    assert (data["round"], data["action"], data["seat"]) == (rnd, act, seat)
    assert data["iterations"] == 120
    assert data["position"] == state.view(seat).to_dict()
    legal = sorted(a.notation(seat) for a in state.legal_actions())
    assert sorted(a["action"] for a in data["actions"]) == legal
    for entry in data["actions"]:
        assert set(entry) == ACTION_KEYS
        assert 0.0 <= entry["win_interval"][0] <= entry["win_probability"]
        assert entry["win_probability"] <= entry["win_interval"][1] <= 1.0
        assert entry["expected_score"] >= 0
    visits = [entry["visits"] for entry in data["actions"]]
    assert visits == sorted(visits, reverse=True)
    assert sum(visits) == 120
    assert data["best"] == data["actions"][0]["action"]
    history = _position(path, rnd, act + 1).history
    assert data["played"] == history[-1][1].notation(seat)
    assert data["actions"][data["played_rank"]]["action"] == data["played"]


def test_same_seed_same_figures() -> None:
    args = (str(COMPLETE), "--round", "0", "--action", "4", "--iterations", "80", "--json")
    first = _run(*args, "--seed", "3")
    assert first == _run(*args, "--seed", "3")
    assert first[0] == 0


def test_current_position_of_a_round_in_play() -> None:
    rounds = replay_record(load_record(IN_PROGRESS.read_bytes())).match.rounds
    last = len(rounds) - 1
    count = len(rounds[last].history)
    code, out = _run(
        str(IN_PROGRESS),
        "--round",
        str(last),
        "--action",
        str(count),
        "--iterations",
        "40",
        "--json",
    )
    assert code == 0, out
    data = json.loads(out)
    assert data["played"] is None
    assert data["played_rank"] is None


def test_text_report() -> None:
    code, out = _run(str(COMPLETE), "--round", "0", "--action", "2", "--iterations", "60")
    assert code == 0, out
    assert "to move, holding" in out
    assert "60 search iterations, seed 0, planner playouts." in out
    assert "<- played" in out


def test_text_report_names_the_seat_to_move_once(tmp_path: Path) -> None:
    """A seat the record leaves nameless was "seat 2 (seat 2) to move"; a named one is
    "Ben (seat 2)", its seat counted from 1 as a player counts it."""
    doc = json.loads(IN_PROGRESS.read_text())
    args = ("--round", "1", "--action", "0", "--iterations", "10")
    code, out = _run(str(IN_PROGRESS), *args)
    assert code == 0, out
    assert "before action 0: Ben (seat 2) to move, holding" in out
    doc["players"] = ["", ""]
    nameless = tmp_path / "nameless.json"
    nameless.write_text(json.dumps(doc))
    code, out = _run(str(nameless), *args)
    assert code == 0, out
    assert "before action 0: seat 2 to move, holding" in out


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_table_counts_seats_from_1_as_a_player_does(lang: str, tmp_path: Path) -> None:
    """The seat to move and a nameless seat's train are numbered as the terminal game and
    the web page number seats, from 1: the first seat to move was "seat 0", the other's
    train "seat 1's train". --json keeps the record's seat numbers, from 0."""
    t = Translator(lang)
    doc = json.loads(IN_PROGRESS.read_text())
    doc["players"] = ["", ""]
    nameless = tmp_path / "nameless.json"
    nameless.write_text(json.dumps(doc))
    args = (str(nameless), "--round", "1", "--action", "2", "--iterations", "20")
    shown = _say(*args, "--lang", lang)
    assert shown.exit_code == 0, shown.output
    prose, _, rows = _shown(shown.stdout, t)
    who = t("tui.analyze.seat", number=1)
    hand = " ".join(str(tile) for tile in _position(IN_PROGRESS, 1, 2).view(0).hand)
    assert prose.startswith(t("tui.analyze.position", round=1, action=2, who=who, hand=hand))
    trains = {row[0] for row in rows}
    theirs = t("tui.analyze.to_seat", number=2)
    assert t("tui.hint.play", tile="5-0", train=theirs) in trains, trains
    assert t("tui.analyze.to_seat", number=1) not in shown.stdout
    figures = json.loads(_say(*args, "--json").stdout)
    assert figures["seat"] == 0
    assert figures["position"]["seat"] == 0
    assert any(a["action"].endswith("@1") for a in figures["actions"]), figures["actions"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_default_names_are_said_in_the_tables_language(lang: str, tmp_path: Path) -> None:
    """A game saved by ``mextrain play`` names its seats by default in the language it
    was played in ("Player 1", "Planner 2"): analyzed in French, the table said "à Player
    1 (place 1) de jouer". The default names are given in the table's language, as
    ``replay --watch`` and ``play --resume`` give them; a name someone chose stays."""
    t, english = Translator(lang), Translator("en")
    player = english("tui.name.player", number=1)  # "Player 1"
    planner = english("tui.name.bot", level=english("tui.level.planner"), number=2)
    doc = json.loads(IN_PROGRESS.read_text())
    doc["players"] = [player, planner]
    saved = tmp_path / "saved.json"
    saved.write_text(json.dumps(doc))
    for action, seat, name in [
        ("0", 0, t("tui.name.player", number=1)),
        ("1", 1, t("tui.name.bot", level=t("tui.level.planner"), number=2)),
    ]:
        args = ("--round", "0", "--action", action, "--iterations", "5", "--lang", lang)
        shown = _say(str(saved), *args)
        assert shown.exit_code == 0, shown.output
        prose, _, _ = _shown(shown.stdout, t)
        assert t("tui.analyze.named_seat", name=name, number=seat + 1) in prose
        if lang != "en":
            assert player not in shown.stdout
            assert planner not in shown.stdout
    doc["players"] = [player, "Ben"]  # (a name chosen: as it is)
    saved.write_text(json.dumps(doc))
    shown = _say(str(saved), "--round", "0", "--action", "1", "--iterations", "5", "--lang", lang)
    assert t("tui.analyze.named_seat", name="Ben", number=2) in shown.stdout


def test_the_command_lines_budgets_are_the_searchs() -> None:
    from mextrain.cli import analyze as command
    from mextrain.search import ismcts

    assert command.MAX_ITERATIONS == ismcts.MAX_ITERATIONS
    assert command.MAX_TIME_MS == ismcts.MAX_TIME_MS


def test_an_action_never_tried_has_no_estimate() -> None:
    """With fewer iterations than actions some are never tried: no chance and no score
    for them (not a sure loss), and an interval that says nothing; one tried twice with
    no win is no sure loss either."""
    code, out = _run(str(COMPLETE), "--round", "0", "--action", "2", "--iterations", "1", "--json")
    assert code == 0, out
    actions = json.loads(out)["actions"]
    assert len(actions) > 1
    unseen = [a for a in actions if a["visits"] == 0]
    assert unseen
    for entry in unseen:
        assert entry["win_probability"] is None
        assert entry["expected_score"] is None
        assert entry["win_interval"] == [0.0, 1.0]
    code, text = _run(str(COMPLETE), "--round", "0", "--action", "2", "--iterations", "1")
    assert "1 search iteration, seed 0" in text
    # (a row's cells stand two spaces apart or more: an action in words has single ones)
    _, _, rows = _shown(text, Translator("en"))
    untried = [(row[1], row[3]) for row in rows if row[4] == "0"]
    assert untried
    assert set(untried) == {("-", "-")}
    # and where its interval would be, that it was not searched
    assert {row[2] for row in rows if row[4] == "0"} == {"not searched"}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--round", "5", "--action", "0"], "--round"),
        (["--round", "0", "--action", "999"], "--action"),
        (["--round", "0", "--action", "-1"], "--action"),
    ],
)
def test_positions_not_in_the_record(args: list[str], message: str) -> None:
    code, out = _run(str(COMPLETE), *args, "--iterations", "5")
    assert code == 2
    assert message in out


def test_a_finished_round_has_nothing_to_analyse() -> None:
    count = len(replay_record(load_record(COMPLETE.read_bytes())).match.rounds[0].history)
    code, out = _run(str(COMPLETE), "--round", "0", "--action", str(count), "--iterations", "5")
    assert code == 2
    assert "is over" in out


def test_bad_records(tmp_path: Path) -> None:
    code, out = _run(
        str(RECORDS / "unreadable_tile.json"), "--round", "0", "--action", "0", "--json"
    )
    assert code == 2
    assert json.loads(out)["valid"] is False
    code, out = _run(
        str(RECORDS / "illegal_draw_with_a_play.json"), "--round", "0", "--action", "0"
    )
    assert code == 1
    assert "Illegal record" in out
    code, out = _run(str(tmp_path / "missing.json"), "--round", "0", "--action", "0")
    assert code == 2
    assert "no such file" in out


# ------------------------------------------------------------------ in the player's language

OTHERS = [lang for lang in LANGUAGES if lang != "en"]
#: English words of the table and its sentences, none of which another language keeps
#: ("Round" is Italian too; "train" French)
ENGLISH = re.compile(
    r"\b(action|before|win|interval|exp|pips|visits|seed|search|iterations?|playouts|"
    r"played|searched|holding|move|seat|draw|pass|own|their)\b",
    re.IGNORECASE,
)


def _say(*args: str, env: dict[str, str] | None = None) -> Result:
    return CliRunner().invoke(main, ["analyze", *args], prog_name="mextrain", env=env)


def _cells(line: str) -> list[str]:
    """A row of the table: its cells stand two spaces apart or more."""
    return re.split(r" {2,}", line.strip())


def _shown(stdout: str, t: Translator) -> tuple[str, list[str], list[list[str]]]:
    """What ``analyze`` shows: the text over the table, its lines joined again (it is
    broken at spaces to fit 80 columns), the table's headings (a heading on two lines,
    "intervalle" over "à 95 %", joined by a space) and its rows' cells (an action broken
    over lines, its next ones indented, joined again)."""
    prose, table = stdout.split("\n\n", 1)
    lines = table.splitlines()
    action = t("tui.analyze.head.action")
    foot = next(i for i, line in enumerate(lines) if line.startswith(action))

    def placed(line: str) -> list[tuple[int, str]]:  # (where a cell ends, the cell)
        return [(m.end(), m.group()) for m in re.finditer(r"[^ ]+(?: [^ ]+)*", line)]

    tops = {end: text for line in lines[:foot] for end, text in placed(line)}
    heads = [f"{tops[end]} {text}" if end in tops else text for end, text in placed(lines[foot])]
    rows: list[list[str]] = []
    for line in lines[foot + 1 :]:
        if line.startswith(" "):  # (the row's action goes on)
            rows[-1][0] += f" {line.strip()}"
        else:
            rows.append(_cells(line))
    return " ".join(prose.splitlines()), heads, rows


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_table_in_each_language(lang: str) -> None:
    """The position, the search and every row in the language's words, its percentages,
    decimals and counts as the language writes them: the figures those of --json."""
    t = Translator(lang)
    args = (str(COMPLETE), "--round", "0", "--action", "2", "--iterations", "3")
    shown = _say(*args, "--lang", lang)
    assert shown.exit_code == 0, shown.output
    figures = json.loads(_say(*args, "--json").stdout)
    prose, heads, rows = _shown(shown.stdout, t)
    state = _position(COMPLETE, 0, 2)
    view = state.view(state.current_seat)
    who = t("tui.analyze.named_seat", name="Ana", number=1)
    hand = " ".join(str(tile) for tile in view.hand)
    policy = t("tui.analyze.policy.planner")
    assert prose == " ".join(
        [
            t("tui.analyze.position", round=0, action=2, who=who, hand=hand),
            t.plural("tui.analyze.search", 3, seed=0, policy=policy),
        ]
    )
    keys = ("action", "win", "interval", "pips", "visits")
    assert heads == [t(f"tui.analyze.head.{key}") for key in keys]
    assert len(rows) == len(figures["actions"])
    played = [row for row in rows if row[-1] == t("tui.analyze.played")]
    assert len(played) == 1
    for row, entry in zip(rows, figures["actions"], strict=True):
        low, high = entry["win_interval"]
        assert row[1:5] == [
            t.percent(entry["win_probability"]),
            t.percent_range(low, high),
            t.decimal(entry["expected_score"]),
            t.whole(entry["visits"]),
        ]
    # each action in words, as the terminal's hint says it: "5-5 on their own train"
    assert played[0][0] == t("tui.hint.play", tile="5-5", train=t("tui.to_train.theirs"))
    if lang in ("fr", "fi"):  # (a no-break space before the sign, never a plain one)
        assert "\u00a0%" in shown.stdout
        assert " %" not in shown.stdout
    else:
        assert re.search(r"\d%", shown.stdout)
    if lang != "en":
        assert ENGLISH.findall(shown.stdout) == []
        assert all("," in row[3] for row in rows)  # (a decimal comma)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_an_action_not_searched_says_so_in_the_language(lang: str) -> None:
    t = Translator(lang)
    args = (str(COMPLETE), "--round", "0", "--action", "4", "--iterations", "1", "--lang", lang)
    shown = _say(*args)
    assert shown.exit_code == 0, shown.output
    _, _, rows = _shown(shown.stdout, t)
    untried = [row for row in rows if row[4] == "0"]
    assert untried
    assert {tuple(row[1:4]) for row in untried} == {("-", t("tui.analyze.not_searched"), "-")}
    # another seat's train, the Mexican one: in the language's words too
    words = {row[0] for row in rows}
    assert t("tui.hint.play", tile="6-3", train=t("tui.to_train.mexican")) in words
    if lang != "en":
        assert ENGLISH.findall(shown.stdout) == []


def test_counts_are_written_as_the_language_writes_them() -> None:
    """1,000 iterations: "1 000" in French (a narrow no-break space), as every count."""
    args = (str(IN_PROGRESS), "--round", "1", "--action", "3", "--iterations", "1000")
    for lang, count in (
        ("en", "1,000"),
        ("fr", "1\u202f000"),
        ("it", "1000"),
        ("fi", "1\u00a0000"),
    ):
        t = Translator(lang)
        shown = _say(*args, "--lang", lang)
        assert shown.exit_code == 0, shown.output
        policy = t("tui.analyze.policy.planner")
        said = t.plural("tui.analyze.search", 1000, count=count, seed=0, policy=policy)
        prose, _, _ = _shown(shown.stdout, t)
        assert prose.endswith(f". {said}")


def test_the_language_comes_from_the_locale_by_default() -> None:
    args = (str(COMPLETE), "--round", "0", "--action", "2", "--iterations", "3")
    shown = _say(*args, env={"LANG": "fi_FI.UTF-8"})
    assert shown.exit_code == 0, shown.output
    _, heads, _ = _shown(shown.stdout, Translator("fi"))
    assert heads[0] == Translator("fi")("tui.analyze.head.action")
    # --lang before the locale
    assert _say(*args, "--lang", "en", env={"LANG": "fi_FI.UTF-8"}).stdout == _say(*args).stdout


def test_an_unknown_language_is_refused_as_the_other_commands_refuse_it() -> None:
    args = (str(COMPLETE), "--round", "0", "--action", "2", "--lang", "xx")
    refused = _say(*args)
    assert refused.exit_code == 2
    assert "Invalid value for '--lang': 'xx' is not one of 'en', 'fr', 'it', 'fi'." in (
        refused.stderr
    )
    told = _say(*args, "--json")
    assert told.exit_code == 2
    error = json.loads(told.stdout)["error"]
    assert error["option"] == "--lang"
    assert "'xx' is not one of" in error["reason"]


@pytest.mark.parametrize("lang", OTHERS)
def test_json_is_the_same_in_every_language(lang: str) -> None:
    """--json is a contract for scripts: the same object with --lang or a locale, its
    refusals too (the command line's, the position's, the record's)."""
    base = (str(COMPLETE), "--round", "0", "--action", "2", "--iterations", "20", "--json")
    english = _say(*base).stdout
    assert _say(*base, "--lang", lang).stdout == english
    assert _say(*base, env={"LANG": f"{lang}_XX.UTF-8"}).stdout == english
    for args in (
        (str(COMPLETE), "--round", "5", "--action", "0"),
        (str(COMPLETE), "--round", "x", "--action", "0"),
        (str(COMPLETE), "--round", "0", "--action", "0", "--bogus"),
        (str(COMPLETE), "--round", "0", "--action", "0", "--iterations", "0"),
        (str(RECORDS / "illegal_draw_with_a_play.json"), "--round", "0", "--action", "0"),
        (str(RECORDS / "missing.json"), "--round", "0", "--action", "0"),
    ):
        english = _say(*args, "--json")
        said = _say(*args, "--json", "--lang", lang, env={"LANG": f"{lang}_XX.UTF-8"})
        assert (said.exit_code, said.stdout) == (english.exit_code, english.stdout), args
        assert english.exit_code in (1, 2)
        json.loads(said.stdout)


@pytest.mark.parametrize("lang", OTHERS)
def test_the_refusals_in_each_language(lang: str) -> None:
    """A position not in the record, a finished one, a record that does not replay, a
    command line Click cannot read: said in the language, its frame too ("Erreur : …",
    not Click's "Error: …" around French words), with the exit statuses of English."""
    t = Translator(lang)
    try_help = t("tui.cli.try_help", command="mextrain analyze --help")

    def refused(*args: str) -> Result:
        return _say(*args, "--iterations", "5", "--lang", lang)

    def invalid(option: str, message: str) -> list[str]:
        return [t("tui.cli.error_option", option=option, message=message), try_help]

    said = refused(str(COMPLETE), "--round", "5", "--action", "0")
    assert said.exit_code == 2
    assert said.stderr.splitlines() == invalid(
        "--round", t("tui.analyze.bad_round", last=0, round=5)
    )
    count = len(_position(COMPLETE, 0, 99).history)
    said = refused(str(COMPLETE), "--round", "0", "--action", "99")
    assert said.exit_code == 2
    reason = t.plural("tui.analyze.bad_action", count, round=0, last=count - 1, action=99)
    assert said.stderr.splitlines() == invalid("--action", reason)
    said = refused(str(COMPLETE), "--round", "0", "--action", str(count))
    assert said.exit_code == 2
    reason = t.plural("tui.analyze.over", count, round=0)
    assert said.stderr.splitlines() == invalid("--action", reason)
    said = refused(str(COMPLETE), "--round", "x", "--action", "0")
    assert said.exit_code == 2
    assert said.stderr.splitlines() == invalid("--round", t("tui.cli.not_whole", value="'x'"))
    # a record that breaks a rule: the checker's detail (the rule, in English, as replay
    # gives it) in the language's sentence, where it is too
    said = refused(str(RECORDS / "illegal_draw_with_a_play.json"), "--round", "0", "--action", "0")
    assert said.exit_code == 1
    first, second = said.stderr.splitlines()
    head = t("tui.analyze.illegal", detail="@").split("@")[0]
    where = t("tui.analyze.at_action", round=0, action=1, text="1:draw", reason="@").split("@")[0]
    assert first.startswith(head + where), first
    assert second == t("tui.analyze.counted_from_0")
    # (the rule's words name the record's seat, counted from 0: the footer says seats too)
    assert "seat 1 can't draw" in first, first
    assert {"fr": "les places", "it": "i posti", "fi": "paikat"}[lang] in second, second
    missing = str(RECORDS / "missing.json")
    said = refused(missing, "--round", "0", "--action", "0")
    assert said.exit_code == 2
    detail = t("tui.analyze.no_such_file", path=missing)
    assert said.stderr.splitlines() == [t("tui.analyze.not_a_record", detail=detail)]
    said = refused(str(RECORDS / "unreadable_tile.json"), "--round", "0", "--action", "0")
    assert said.exit_code == 2
    assert said.stderr.startswith(t("tui.analyze.not_a_record", detail="@").split("@")[0])


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_position_and_its_table_fit_80_columns(lang: str, tmp_path: Path) -> None:
    """A double-12 hand of 12 tiles took the first line to 112-125 columns, which a
    terminal breaks wherever its edge falls ("10-" at one line's end, "11" at the
    next's), and the headings took a French table to 89 columns, 88 in Italian and 83
    in Finnish. The text is broken at spaces, each tile whole, and a table too wide
    puts its headings wider than their figures on two lines (one is enough in English);
    the figures and words are those of the one-line text."""
    records = tmp_path / "records"
    bots = "greedy,greedy,greedy,greedy"
    job = ["--players", "4", "--bots", bots, "--games", "4", "--seed", "3", "--rounds", "1"]
    ran = CliRunner().invoke(main, ["simulate", *job, "--records", str(records)])
    assert ran.exit_code == 0, ran.output
    record = records / "game-000000.json"
    t = Translator(lang)
    args = (str(record), "--round", "0", "--action", "12", "--iterations", "20")
    shown = _say(*args, "--lang", lang)
    assert shown.exit_code == 0, shown.output
    lines = shown.stdout.splitlines()
    assert max(analyze_command._cells(line) for line in lines) <= 80, shown.stdout
    state = _position(record, 0, 12)
    view = state.view(state.current_seat)
    hand = [str(tile) for tile in view.hand]
    assert len(hand) == 12
    words = {word for line in lines for word in line.split(" ")}
    assert {tile for tile in hand if tile not in words} <= {hand[-1]}  # (the last ends ".")
    prose, heads, rows = _shown(shown.stdout, t)
    who = t("tui.analyze.named_seat", name="greedy", number=state.current_seat + 1)
    said = t("tui.analyze.position", round=0, action=12, who=who, hand=" ".join(hand))
    assert prose.startswith(f"{said} ")
    keys = ("action", "win", "interval", "pips", "visits")
    assert heads == [t(f"tui.analyze.head.{key}") for key in keys]
    assert len(rows) == len(view.legal_actions)
    table = shown.stdout.split("\n\n", 1)[1].splitlines()
    action = t("tui.analyze.head.action")
    assert next(i for i, line in enumerate(table) if line.startswith(action)) == (
        0 if lang == "en" else 1
    )


def test_the_text_is_laid_out_in_the_terminals_width(monkeypatch: pytest.MonkeyPatch) -> None:
    """In a terminal its width (never under 40 columns); elsewhere (a file, a pipe) 80,
    whatever the terminal, so the text is the same on every machine. Lines break at
    spaces only, a word longer than the line on a line of its own."""
    import os
    import shutil
    import sys

    monkeypatch.setattr(
        shutil, "get_terminal_size", lambda fallback=(80, 24): os.terminal_size((120, 40))
    )
    monkeypatch.setattr(sys.stdout, "isatty", lambda: False)
    assert analyze_command._width() == 80
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    assert analyze_command._width() == 120
    monkeypatch.setattr(
        shutil, "get_terminal_size", lambda fallback=(80, 24): os.terminal_size((20, 40))
    )
    assert analyze_command._width() == 40
    wrap = analyze_command._wrap
    assert wrap("0-6 0-9 1-11 2-6", 9) == "0-6 0-9\n1-11 2-6"
    assert wrap("a 123456789012 b", 5) == "a\n123456789012\nb"
    assert wrap("short", 80) == "short"
    assert wrap("漢字 漢字 x", 9) == "漢字 漢字\nx"  # (a wide character takes two columns)


@pytest.fixture(scope="module")
def long_trains(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A game of four bots all named "greedy": another seat's train is named by its seat
    ("10-7 sur le train de la place 4")."""
    records = tmp_path_factory.mktemp("records")
    bots = "greedy,greedy,greedy,greedy"
    job = ["--players", "4", "--bots", bots, "--games", "4", "--seed", "3", "--rounds", "1"]
    ran = CliRunner().invoke(main, ["simulate", *job, "--records", str(records)])
    assert ran.exit_code == 0, ran.output
    return records / "game-000000.json"


@pytest.mark.parametrize(
    ("lang", "width"), [("fr", 80), ("fr", 60), ("en", 60), ("it", 60), ("fi", 60)]
)
def test_a_row_naming_a_long_train_is_broken_to_fit(
    lang: str, width: int, long_trains: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A row naming another seat's train ("10-7 sur le train de la place 4") took a French
    table to 81 columns: a row was never broken. Its action is broken at spaces, the
    row's figures on its first line and the action's next lines indented, so every line
    fits the width; the action's words are all there, in order, and each row's figures
    are those of the one-line table."""
    monkeypatch.setattr(analyze_command, "_width", lambda: width)
    t = Translator(lang)
    args = (str(long_trains), "--round", "0", "--action", "58", "--iterations", "20")
    shown = _say(*args, "--lang", lang)
    assert shown.exit_code == 0, shown.output
    lines = shown.stdout.splitlines()
    assert max(analyze_command._cells(line) for line in lines) <= width, shown.stdout
    table = shown.stdout.split("\n\n", 1)[1].splitlines()
    foot = next(i for i, line in enumerate(table) if line.startswith(t("tui.analyze.head.action")))
    assert any(line.startswith("  ") for line in table[foot + 1 :]), shown.stdout  # (broken)
    _, heads, rows = _shown(shown.stdout, t)
    keys = ("action", "win", "interval", "pips", "visits")
    assert heads == [t(f"tui.analyze.head.{key}") for key in keys]
    state = _position(long_trains, 0, 58)
    view = state.view(state.current_seat)
    names = ["greedy"] * 4
    said = {analyze_command._action_words(a, view, names, t) for a in view.legal_actions}
    assert {row[0] for row in rows} == said
    monkeypatch.setattr(analyze_command, "_width", lambda: 1000)  # (on one line each)
    wide = _say(*args, "--lang", lang)
    _, _, whole = _shown(wide.stdout, t)
    assert rows == whole
