"""An invalid rule set's error carries a code and its details, and every interface can say
it in the player's language: the English catalogue says exactly what ``str(err)`` says."""

from __future__ import annotations

import json
import pickle
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from mextrain.i18n import LANGUAGES, catalog, rules_error_text
from mextrain.rules import Rules, RulesError

SOURCE = Path(__file__).parents[1] / "src" / "mextrain" / "rules" / "options.py"
CODES = frozenset(re.findall(r'code="(\w+)"', SOURCE.read_text()))

# one way to meet each fault (code, option at fault, how)
CASES: list[tuple[str, str, Callable[[], object]]] = [
    ("unknown_preset", "preset", lambda: Rules.from_spec("nosuch")),
    ("not_rules", "rules", lambda: Rules.from_spec(5)),
    ("no_preset", "preset", lambda: Rules.from_spec({})),
    ("preset_not_name", "preset", lambda: Rules.from_spec({"preset": 3})),
    ("unknown_option", "bogus", lambda: Rules.preset("classic", bogus=1)),
    (
        "contradicts",
        "first_turn_run",
        lambda: Rules.preset("classic", first_turn_run=True, first_turn="single"),
    ),
    ("too_many_rounds", "rounds", lambda: Rules.preset("classic", rounds=14)),
    ("hand_size_needed", "hand_size", lambda: Rules.preset("classic", max_pip=6)),
    ("number_range", "max_pip", lambda: Rules.preset("classic", max_pip=40)),
    ("number_range", "max_pip", lambda: Rules(max_pip=40).validate()),
    ("seat_range", "players", lambda: Rules.preset("classic", players=[1, 4])),
    # (seats the preset's sizes do not cover: the seats are what was changed)
    ("no_hand_size", "players", lambda: Rules.preset("classic", players=[2, 9])),
    ("not_enough_tiles", "hand_size", lambda: Rules.preset("classic", hand_size={"2": 50})),
    ("no_rounds", "rounds", lambda: Rules(rounds=()).validate()),
    ("engine_not_in_set", "rounds", lambda: Rules.preset("classic", rounds=[13])),
    (
        "first_player_setup",
        "first_player",
        lambda: Rules.preset("classic", first_player="engine_holder"),
    ),
    ("players", "players", lambda: Rules.preset("cardinal").check_players(2)),
    (
        "players_exactly",
        "players",
        lambda: Rules.preset("classic", max_pip=6, hand_size={"2": 7}).check_players(3),
    ),
    ("choice", "first_turn", lambda: Rules.preset("classic", first_turn="x")),
    ("true_false", "own_train_first", lambda: Rules.preset("classic", own_train_first="yes")),
    (
        "double_blank",
        "double_blank_points",
        lambda: Rules.preset("classic", double_blank_points=30),
    ),
    (
        "points",
        "unsatisfied_double_penalty",
        lambda: Rules.preset("classic", unsatisfied_double_penalty=-1),
    ),
    ("seat_pair", "players", lambda: Rules.preset("classic", players="x")),
    ("hand_size_table", "hand_size", lambda: Rules.preset("classic", hand_size={})),
    ("hand_size_table", "hand_size", lambda: Rules.preset("classic", hand_size=7)),
    ("hand_size_count", "hand_size", lambda: Rules.preset("classic", hand_size={"x": 3})),
    ("hand_size_entry", "hand_size", lambda: Rules.preset("classic", hand_size={"1": 3})),
    (
        "hand_size_twice",
        "hand_size",
        lambda: Rules.preset("classic", hand_size={"2": 7, "02": 6}),
    ),
    (
        "points",
        "unsatisfied_double_penalty",
        lambda: Rules.preset("classic", unsatisfied_double_penalty=10**19),
    ),
    ("max_rounds", "rounds", lambda: Rules.preset("classic", rounds=[12] * 101)),
    ("min_rounds", "rounds", lambda: Rules.preset("classic", rounds=0)),
    ("rounds_list", "rounds", lambda: Rules.preset("classic", rounds="x")),
]


def fault(how: Callable[[], object]) -> RulesError:
    with pytest.raises(RulesError) as info:
        how()
    return info.value


def test_every_fault_is_met_by_a_case() -> None:
    assert len(CODES) >= 25
    assert {code for code, _, _ in CASES} == CODES


@pytest.mark.parametrize(("code", "option", "how"), CASES, ids=[c[0] for c in CASES])
def test_each_fault_has_its_code_and_says_the_same_in_english(
    code: str, option: str, how: Callable[[], object]
) -> None:
    err = fault(how)
    assert (err.code, err.option) == (code, option)
    assert str(err) == f"{option}: {err.message}"
    assert rules_error_text(err, "en") == str(err)
    # the details are plain values an interface can send on (numbers, or text as written)
    assert all(isinstance(v, int | str) for v in err.params.values())


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
@pytest.mark.parametrize(("code", "option", "how"), CASES, ids=[c[0] for c in CASES])
def test_each_fault_is_said_in_each_language(
    lang: str, code: str, option: str, how: Callable[[], object]
) -> None:
    err = fault(how)
    key = f"game.rules_error.{code}"
    assert key in catalog("game", lang)
    text = rules_error_text(err, lang)
    assert text != str(err)
    assert text.startswith(option)
    # every field filled: no brace left but those of the values put in (an example table)
    left = text
    for value in sorted(map(str, err.params.values()), key=len, reverse=True):
        left = left.replace(value, "")
    assert "{" not in left
    assert "}" not in left
    for value in err.params.values():
        if isinstance(value, int) and key != "game.rules_error.seat_range":
            assert str(value) in text


def test_words_of_one_fault() -> None:
    err = fault(lambda: Rules.preset("classic", rounds=14))
    assert rules_error_text(err, "fr") == "rounds\u00a0: un jeu double-12 n'a que 13 moyeux"
    assert rules_error_text(err, "it") == "rounds: un set doppio 12 ha solo 13 stazioni"
    assert rules_error_text(err, "fi") == "rounds: tupla-12-sarjassa on vain 13 keskusta"
    err = fault(lambda: Rules.preset("cardinal").check_players(2))
    assert (
        rules_error_text(err, "fr")
        == "players\u00a0: ces règles se jouent de 4 à 10 joueurs, pas à 2"
    )


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_refused_set_size_or_hand_size_says_what_a_table_looks_like(lang: str) -> None:
    """`--option max_pip=6` and `--option hand_size=7` were refused without saying what
    the hand_size table is written like; a table entry out of range, without its bounds."""
    example = '{"2": 7, "3": 6, "4": 5}'
    text = rules_error_text(fault(lambda: Rules.preset("classic", max_pip=6)), lang)
    assert example in text
    assert "27" in text
    assert Rules.preset("classic", max_pip=6, hand_size=json.loads(example)).max_pip == 6
    text = rules_error_text(fault(lambda: Rules.preset("classic", hand_size=7)), lang)
    assert example in text
    assert text.endswith(" 7")
    text = rules_error_text(fault(lambda: Rules.preset("classic", hand_size={"1": 3})), lang)
    assert re.search(r"\D2 .*\D1 ", text), text
    text = rules_error_text(fault(lambda: Rules.preset("classic", max_pip=40)), lang)
    assert re.search(r"\b1\b.*\b30\b", text), text


@pytest.mark.parametrize("preset", ["classic", "cardinal"])
def test_the_table_a_refused_set_size_shows_is_one_that_set_plays(preset: str) -> None:
    for max_pip in range(1, 31):
        if max_pip == 12:
            continue
        err = fault(lambda pip=max_pip: Rules.preset(preset, max_pip=pip))
        assert err.code == "hand_size_needed"
        table = json.loads(str(err.params["example"]))
        assert table
        assert set(table) <= {"2", "3", "4"}
        rules = Rules.preset(preset, max_pip=max_pip, hand_size=table)
        assert str(err.params["example"]) in str(err)
        assert f"has {err.params['have']} tiles to deal" in str(err)
        assert rules.hand_size_for(int(min(table))) >= 1


def test_a_fault_without_words_falls_back_to_english() -> None:
    err = RulesError("max_pip", "something new", code="not_in_any_catalogue")
    assert rules_error_text(err, "fi") == "max_pip: something new"


def test_the_code_and_details_cross_processes() -> None:
    err = fault(lambda: Rules.preset("classic", hand_size={"2": 50}))
    back = pickle.loads(pickle.dumps(err))
    assert isinstance(back, RulesError)
    assert (back.code, back.option, back.params, str(back)) == (
        err.code,
        err.option,
        err.params,
        str(err),
    )
