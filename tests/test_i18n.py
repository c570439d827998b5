"""Message catalogs: complete in every language, placeholders intact, errors translated."""

from __future__ import annotations

import errno
import random
import re
import string

import pytest

from mextrain.i18n import (
    LANGUAGES,
    NAMESPACES,
    Translator,
    accepted_language,
    accepted_values,
    catalog,
    detect_language,
    error_text,
    normalise_language,
    os_error_text,
    plural_form,
    whole_percent,
)
from mextrain.rules import (
    MEXICAN,
    PASS,
    Action,
    IllegalActionError,
    RoundState,
    Rules,
    Tile,
    tile_set,
)


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


@pytest.mark.parametrize("namespace", NAMESPACES)
@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_every_catalog_has_every_english_key(namespace: str, lang: str) -> None:
    english = catalog(namespace, "en")
    other = catalog(namespace, lang)
    assert english, f"{namespace}.en.json is empty"
    missing = sorted(set(english) - set(other))
    assert not missing, f"{namespace}.{lang}.json lacks {missing}"
    extra = sorted(set(other) - set(english))
    assert not extra, f"{namespace}.{lang}.json has keys English lacks: {extra}"
    for key, template in english.items():
        assert placeholders(other[key]) == placeholders(template), (lang, key)


def test_keys_live_in_their_namespace() -> None:
    for namespace in NAMESPACES:
        for key in catalog(namespace, "en"):
            assert key.startswith(namespace + "."), key


@pytest.mark.parametrize(
    ("env", "lang"),
    [
        ({"LANG": "fr_FR.UTF-8"}, "fr"),
        ({"LC_ALL": "it_IT.UTF-8", "LANG": "fr_FR.UTF-8"}, "it"),
        ({"LANG": "fi_FI"}, "fi"),
        ({"LANG": "de_DE.UTF-8"}, "en"),
        ({"LANG": "C", "LANGUAGE": "fi:en"}, "fi"),
        ({}, "en"),
    ],
)
def test_detect_language(env: dict[str, str], lang: str) -> None:
    assert detect_language(env) == lang


def test_normalise_language() -> None:
    assert normalise_language("FR-ca") == "fr"
    assert normalise_language("pt_BR") is None
    assert normalise_language(None) is None


def test_missing_key_falls_back_to_english_then_key() -> None:
    t = Translator("fi")
    assert t("game.no.such.key") == "game.no.such.key"
    assert Translator("xx").lang == "en"


@pytest.mark.parametrize(
    ("lang", "counts"),
    [
        ("en", {0: "other", 1: "one", 2: "other", 21: "other"}),
        ("fr", {0: "one", 1: "one", 2: "other", 21: "other"}),
        ("it", {0: "other", 1: "one", 2: "other", 11: "other"}),
        ("fi", {0: "other", 1: "one", 2: "other", 101: "other"}),
    ],
)
def test_plural_forms_follow_cldr(lang: str, counts: dict[int, str]) -> None:
    assert {n: plural_form(lang, n) for n in counts} == counts


@pytest.mark.parametrize(
    ("lang", "one", "two", "zero"),
    [
        ("en", "1 tile in hand", "2 tiles in hand", "0 tiles in hand"),
        ("fr", "1 domino en main", "2 dominos en main", "0 domino en main"),
        ("it", "1 tessera in mano", "2 tessere in mano", "0 tessere in mano"),
        ("fi", "1 domino kädessä", "2 dominoa kädessä", "0 dominoa kädessä"),
    ],
)
def test_a_count_takes_the_plural_form_of_its_number(
    lang: str, one: str, two: str, zero: str
) -> None:
    t = Translator(lang)
    assert [t.plural("tui.hand.tiles", n) for n in (1, 2, 0)] == [one, two, zero]


@pytest.mark.parametrize("namespace", NAMESPACES)
def test_every_plural_key_has_both_forms(namespace: str) -> None:
    keys = set(catalog(namespace, "en"))
    stems = {k.rsplit(".", 1)[0] for k in keys if k.endswith((".one", ".other"))}
    for stem in stems:
        assert {f"{stem}.one", f"{stem}.other"} <= keys, stem
        assert stem not in keys, f"{stem} is both a string and a plural"
        for form in ("one", "other"):
            assert placeholders(catalog(namespace, "en")[f"{stem}.{form}"]) >= {"count"}


def test_a_plurals_count_may_be_given_as_written() -> None:
    """The form is the number's; the words may write it as the language does ("1 000",
    a narrow no-break space in French), where ``count=`` was refused as given twice."""
    fr = Translator("fr")
    assert fr.plural("tui.solve.tiles", 1000, count=fr.whole(1000)) == "1\u202f000 dominos"
    assert fr.plural("tui.solve.tiles", 1, count="un") == "un domino"


def test_a_plural_missing_in_one_language_falls_back_to_english() -> None:
    assert Translator("fi").plural("tui.no.such", 3) == "tui.no.such"
    assert Translator("xx").plural("tui.plan.count", 1) == "1 tile"


def wrong_end(train: int) -> IllegalActionError:
    """Seat 0 plays 0-1 on ``train``, whose open end is 4: the engine's refusal."""
    rules = Rules.preset("classic", max_pip=4, hand_size={"2": 3})
    hands = [[Tile(0, 4), Tile(0, 1), Tile(1, 2)], [Tile(2, 3), Tile(3, 3), Tile(1, 1)]]
    dealt = {*hands[0], *hands[1], Tile(4, 4)}
    boneyard = [t for t in tile_set(4).tiles if t not in dealt]
    state = RoundState.from_deal(rules, 2, 0, hands, boneyard, starter=0)
    with pytest.raises(IllegalActionError) as info:
        state.apply(Action.play(Tile(0, 1), train))
    return info.value


def test_italian_joins_su_to_the_article_of_a_train() -> None:
    # "su il treno" is not Italian: "sul treno"
    t = Translator("it")
    for train in (MEXICAN, 0, 1):
        text = t("tui.log.play", who="Ana", tile="1-2", train=t.train_label(train, 0, {1: "Ben"}))
        assert " sul " in text
        assert "su il" not in text
    assert "sul treno messicano" in error_text(wrong_end(MEXICAN), "it")
    assert (
        Translator("fr")("tui.log.play", who="A", tile="1-2", train="il") == "A\u00a0: 1-2 sur il"
    )


def every_error() -> list[IllegalActionError]:
    """Provoke a spread of rule errors from the engine."""
    rng = random.Random(3)
    errors = []
    state = RoundState.new(Rules.preset("classic"), 4, 0, rng)
    for action in (PASS, Action.play(Tile(0, 13), 0), Action.play(Tile(0, 1), 9)):
        try:
            state.apply(action)
        except IllegalActionError as err:
            errors.append(err)
    try:
        state.apply(PASS, seat=(state.current_seat + 1) % 4)
    except IllegalActionError as err:
        errors.append(err)
    return errors


@pytest.mark.parametrize("lang", LANGUAGES)
def test_engine_errors_are_translated(lang: str) -> None:
    errors = every_error()
    assert {e.code for e in errors} >= {"must_play", "not_in_set", "not_your_turn"}
    for err in errors:
        text = error_text(err, lang, {0: "Ana", 1: "Ben", 2: "Cy", 3: "Dee"})
        assert "{" not in text
        assert text != str(err) or lang == "en"


def test_every_error_code_has_a_message() -> None:
    import re
    from pathlib import Path

    import mextrain.rules.round as round_module

    source = Path(round_module.__file__).read_text(encoding="utf-8")
    codes = set(re.findall(r'err\(\s*"([a-z_]+)"', source))
    codes |= set(re.findall(r'IllegalActionError\(\s*"([a-z_]+)"', source))
    assert len(codes) > 15
    english = catalog("game", "en")
    missing = sorted(c for c in codes if f"game.error.{c}" not in english)
    assert not missing, missing


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", ["Ana", "0-1", "their own train", "4"]),
        ("fr", ["Ana", "0-1", "son propre train", "4"]),
        ("it", ["Ana", "0-1", "sul proprio treno", "4"]),
        ("fi", ["Ana", "0-1", "oma juna", "4"]),
    ],
)
def test_a_tile_that_does_not_fit_names_the_player(lang: str, words: list[str]) -> None:
    # "0-1 does not fit their own train" had no subject for "their"
    error = wrong_end(0)
    assert error.code == "wrong_end"
    text = error_text(error, lang, {0: "Ana", 1: "Ben"})
    assert text.startswith("Ana")
    for word in words[1:]:
        assert word in text


#: an example of the parameters of each rule error a seat can make on its own (``seat`` 1)
OWN_ERRORS: dict[str, dict[str, object]] = {
    "not_your_turn": {"current": 0},
    "must_play": {},
    "one_draw": {},
    "must_follow_up": {},
    "must_draw": {},
    "run_pass_after_first": {},
    "not_held": {"tile": "3-5"},
    "wrong_end": {"tile": "3-5", "train": 1, "end": 9},
    "no_going_out_on_double": {"tile": "4-4"},
    "run_own_train": {"train": MEXICAN},
    "mexican_after_own_train": {},
    "marker_down": {"train": 0},
    "own_train_first": {"train": 0},
    "drawn_tile_only": {"tile": "3-5", "drawn": "2-9"},
    "drawn_tile_fits_nowhere": {"tile": "3-5", "drawn": "2-9"},
}


def test_every_error_naming_its_player_has_words_for_that_player() -> None:
    english = catalog("game", "en")
    naming = {k.removeprefix("game.error.") for k, v in english.items() if "{who}" in v}
    naming = {code for code in naming if english.get(f"game.error.{code}")}
    yours = {k.removeprefix("game.error_you.") for k in english if k.startswith("game.error_you.")}
    assert naming == yours == set(OWN_ERRORS)
    for code in yours:
        assert "{who}" not in english[f"game.error_you.{code}"]


@pytest.mark.parametrize(
    ("lang", "must_play"),
    [
        ("en", "You have a tile that fits and must play it."),
        ("fr", "Vous avez un domino qui convient et devez le jouer."),
        ("it", "Hai una tessera che si attacca e devi giocarla."),
        ("fi", "Sinulla on sopiva domino, joten sinun on pelattava se."),
    ],
)
def test_a_player_is_told_of_their_own_attempt_in_the_second_person(
    lang: str, must_play: str
) -> None:
    # "Player 1 has a tile that fits and must play it.", said to Player 1
    names = {0: "Ana", 1: "Ben"}
    for code, params in OWN_ERRORS.items():
        err = IllegalActionError(code, "", seat=1, **params)
        said = error_text(err, lang, names, reader=1)
        assert "Ben" not in said, (code, said)
        assert "{" not in said, (code, said)
        assert said == Translator(lang)(
            f"game.error_you.{code}",
            current="Ana",
            tile=params.get("tile"),
            drawn=params.get("drawn"),
            end=params.get("end"),
            train=_your_train(lang, params),
        )
        # to anyone else (a record, a replay, another seat) the seat is named
        for reader in (None, 0):
            assert "Ben" in error_text(err, lang, names, reader=reader), (code, reader)
    # an error the engine gives
    errors = {e.code: e for e in every_error()}
    refused = errors["must_play"]
    seat = refused.params["seat"]
    assert isinstance(seat, int)
    assert error_text(refused, lang, reader=seat) == must_play


def _your_train(lang: str, params: dict[str, object]) -> str | None:
    t = Translator(lang)
    train = params.get("train")
    if train is None:
        return None
    assert isinstance(train, int)
    return t("game.train.own") if train == 1 else t.train_label(train, 1, {0: "Ana", 1: "Ben"})


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "You can't play 0-1 on your train: its open end is 4."),
        ("fr", "Vous ne pouvez pas jouer 0-1 sur votre train\u00a0: le bout libre est 4."),
        ("it", "Non puoi giocare 0-1 sul tuo treno: l'estremità libera è 4."),
        ("fi", "Et voi pelata dominoa 0-1: oma junasi päättyy numeroon 4."),
    ],
)
def test_your_own_train_is_your_train_when_you_are_told(lang: str, said: str) -> None:
    assert error_text(wrong_end(0), lang, {0: "Ana", 1: "Ben"}, reader=0) == said


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "You can't play tile 0 and 1 on your train: its open end is 4."),
        ("fr", "Vous ne pouvez pas jouer 0 et 1 sur votre train\u00a0: le bout libre est 4."),
        ("it", "Non puoi giocare 0 e 1 sul tuo treno: l'estremità libera è 4."),
        ("fi", "Et voi pelata dominoa 0 ja 1: oma junasi päättyy numeroon 4."),
    ],
)
def test_a_screen_reader_is_told_a_rule_errors_tile_in_words(lang: str, said: str) -> None:
    # "0-1" may be read "0 minus 1"; what shows (a terminal, the page) stays "0-1"
    names = {0: "Ana", 1: "Ben"}
    assert error_text(wrong_end(0), lang, names, reader=0, spoken=True) == said
    assert "0-1" in error_text(wrong_end(0), lang, names, reader=0)
    # every tile a rule error names, in every sentence that names one
    for code, params in OWN_ERRORS.items():
        err = IllegalActionError(code, "", seat=1, **params)
        for reader in (0, 1):
            text = error_text(err, lang, names, reader=reader, spoken=True)
            assert not re.search(r"\d-\d", text), (code, text)
            assert text[:1] == text[:1].upper(), (code, text)
    for err in every_error():  # (a tile not in the set, one the seat does not hold)
        text = error_text(err, lang, names, spoken=True)
        assert not re.search(r"\d-\d", text), (err.code, text)
        assert text[:1] == text[:1].upper(), (err.code, text)
    double = IllegalActionError("open_double_first", "", seat=0, double="6-6", train=MEXICAN)
    assert "6-6" not in error_text(double, lang, names, reader=0, spoken=True)


@pytest.mark.parametrize(
    ("err", "said"),
    [
        (
            IllegalActionError("wrong_end", "", seat=1, tile="3-5", train=1, end=9),
            "Et voi pelata dominoa 3-5: oma junasi päättyy numeroon 9.",
        ),
        (
            IllegalActionError("wrong_end", "", seat=1, tile="3-5", train=MEXICAN, end=9),
            "Et voi pelata dominoa 3-5: Meksikon juna päättyy numeroon 9.",
        ),
        (
            IllegalActionError("wrong_end", "", seat=1, tile="3-5", train=0, end=0),
            "Et voi pelata dominoa 3-5: pelaajan Ana juna päättyy numeroon 0.",
        ),
        (
            IllegalActionError("marker_down", "", seat=1, train=0),
            "Et voi pelata tähän: tämä on pelaajan Ana juna, eikä sen junamerkki ole ylhäällä.",
        ),
        (
            IllegalActionError("marker_down", "", seat=1, train=2),
            "Et voi pelata tähän: tämä on pelaajan 3 juna, eikä sen junamerkki ole ylhäällä.",
        ),
    ],
)
def test_finnish_tells_a_player_of_a_train_in_a_sentence_that_reads_as_finnish(
    err: IllegalActionError, said: str
) -> None:
    """A train comes in the nominative ("oma junasi", "pelaajan Ana juna"), and was put
    in brackets after a bare "into the train" ("Et voi pelata dominoa 3-5 junaan (oma
    junasi)"), which reads as a form filled in: the train is the subject of a clause of
    its own."""
    assert error_text(err, "fi", {0: "Ana", 1: "Ben"}, reader=1) == said
    for key, text in catalog("game", "fi").items():
        if key.startswith("game.error_you."):
            assert "({train})" not in text, key


@pytest.mark.parametrize(
    ("err", "said"),
    [
        (
            IllegalActionError("wrong_end", "", seat=1, tile="3-5", train=MEXICAN, end=9),
            "Ben ei voi pelata dominoa 3-5: Meksikon juna päättyy numeroon 9.",
        ),
        (
            IllegalActionError("wrong_end", "", seat=1, tile="3-5", train=0, end=0),
            "Ben ei voi pelata dominoa 3-5: pelaajan Ana juna päättyy numeroon 0.",
        ),
        (
            IllegalActionError("marker_down", "", seat=1, train=0),
            "Ben ei voi pelata tähän: tämä on pelaajan Ana juna, eikä sen junamerkki ole ylhäällä.",
        ),
        (
            IllegalActionError("not_now", "", seat=1, tile="3-5", train=MEXICAN),
            "Dominoa 3-5 ei voi nyt pelata tähän: tämä on Meksikon juna.",
        ),
        (
            IllegalActionError("open_double_first", "", seat=1, double="6-6", train=0),
            "Ensin on peitettävä avoin tupla 6-6: pelaajan Ana juna päättyy siihen.",
        ),
    ],
)
def test_finnish_names_a_seats_train_as_it_tells_the_player_theirs(
    err: IllegalActionError, said: str
) -> None:
    """A record or a replay names the seat ("Ben ei voi pelata..."): its train is the
    subject of a clause of its own too, not a nominative in brackets after "junaan"
    ("Dominoa 3-5 ei voi nyt pelata junaan (Meksikon juna)", "Avoin tupla 6-6 (pelaajan
    Ana juna) on ensin peitettävä")."""
    assert error_text(err, "fi", {0: "Ana", 1: "Ben"}) == said
    for key, text in catalog("game", "fi").items():
        if key.startswith("game.error"):
            assert "({train})" not in text, key


def test_french_elides_de_before_a_vowel() -> None:
    t = Translator("fr")
    assert t.train_label(1, 0, {1: "Émile"}) == "le train d'Émile"
    assert t.train_label(1, 0, {1: "Ben"}) == "le train de Ben"
    # a name set apart for right-to-left text keeps its mark after the apostrophe
    assert t.train_label(1, 0, {1: "\u2068Anna\u2069"}) == "le train d'\u2068Anna\u2069"
    # y and h go either way in French names: left as they are
    assert t.train_label(1, 0, {1: "Hugo"}) == "le train de Hugo"
    assert Translator("it").train_label(1, 0, {1: "Anna"}) == "il treno di Anna"
    # a name of another language that starts with a vowel: "de Äänekoski" was left
    for name in ("Äänekoski", "Åsa", "Ágnes", "Ólafur", "Øystein", "Íris", "Úrsula"):
        assert t.train_label(1, 0, {1: name}) == f"le train d'{name}"


def test_italian_writes_ad_before_an_a() -> None:
    """ "Passa la tastiera a Anna", "tocca a Andrea": Italian writes "ad" for "a" before a
    word that starts with an a, "a" before any other; a value's own words stay as they
    are."""
    t = Translator("it")
    assert t("tui.pass.title", name="Anna") == "Passa la tastiera ad Anna"
    assert t("tui.pass.title", name="\u2068Àlex\u2069") == "Passa la tastiera ad \u2068Àlex\u2069"
    assert t("tui.pass.title", name="Ben") == "Passa la tastiera a Ben"
    assert t("tui.pass.title", name="Emma") == "Passa la tastiera a Emma"
    assert t("tui.prompt.paused", name="Andrea") == "In pausa: tocca ad Andrea."
    assert t("tui.status.turn", name="Ana a Anna") == "turno di Ana a Anna"
    assert Translator("en")("tui.pass.title", name="Anna") == "Pass the keyboard to Anna"


@pytest.mark.parametrize(
    ("lang", "label"),
    [
        ("en", "Seat 2's train"),
        ("fr", "le train du joueur 2"),
        ("it", "il treno del giocatore 2"),
        ("fi", "pelaajan 2 juna"),
    ],
)
def test_the_train_of_a_seat_without_a_name(lang: str, label: str) -> None:
    # not "le train de Joueur 2": a seat number is no name
    t = Translator(lang)
    assert t.train_label(1, 0) == label
    assert t.train_label(1, 0, {0: "Ana"}) == label


@pytest.mark.parametrize(
    ("lang", "own", "other"),
    [
        (
            "en",
            "The open double 0-0 on your train must be answered first.",
            "The open double 0-0 on Ana's train must be answered first.",
        ),
        (
            "fr",
            "Il faut d'abord couvrir le double ouvert 0-0 sur votre train.",
            "Il faut d'abord couvrir le double ouvert 0-0 sur le train d'Ana.",
        ),
        (
            "it",
            "Prima bisogna coprire il doppio aperto 0-0 sul tuo treno.",
            "Prima bisogna coprire il doppio aperto 0-0 sul treno di Ana.",
        ),
    ],
)
def test_an_open_double_on_the_players_own_train_is_on_your_train(
    lang: str, own: str, other: str
) -> None:
    # the sentence has no subject ("il faut", "bisogna"): "son propre train" had no owner
    names = {0: "Ana", 1: "Ben"}
    on_own = IllegalActionError("open_double_first", "", seat=1, double="0-0", train=1)
    assert error_text(on_own, lang, names) == own
    on_other = IllegalActionError("open_double_first", "", seat=1, double="0-0", train=0)
    assert error_text(on_other, lang, names) == other


@pytest.mark.parametrize(
    ("text", "visible"),
    [
        ("Ana", True),
        ("Émile", True),
        ("e\u0302\u0323", True),  # "ệ" with its two accents apart
        ("👨\u200d👩\u200d👧", True),  # a family: emoji and their joiners
        ("Z" + "\u0301" * 3, True),
        ("Z" + "\u0301" * 4, False),  # a pile of accents over the lines around it
        ("\u0301", False),  # accents on nothing
        ("\u200d", False),  # joiners alone
        ("Ana\u3164", False),  # a Hangul filler: a second "Ana" to the eye
        ("\u2800", False),  # a blank Braille pattern
        ("   ", False),
        ("a\u202eb", False),  # turns what follows round
        ("a\nb", False),
        ("Ana\u200d", False),  # a joiner that joins nothing: "Ana" to the eye
        ("\u200dAna", False),
        ("A\u200d\u200dna", False),
        ("Ana\u200d\ufe0f", False),  # a selector after the joiner hides it
        ("Ana\u200d\U000e0067", False),
        ("\ufe0fAna", False),  # a selector of nothing
        ("\u2764\ufe0f", True),  # a red heart: its selector comes last
        ("\U0001f441\ufe0f\u200d\U0001f5e8\ufe0f", True),  # eye in a speech bubble
        ("\U0001f3f4\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f", True),
        ("\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645", True),  # Persian: ZWNJ
    ],
)
def test_visible_text(text: str, visible: bool) -> None:
    from mextrain.i18n import is_visible_text

    assert is_visible_text(text) is visible


def test_names_told_apart_by_what_shows() -> None:
    from mextrain.i18n import name_key

    assert name_key("Ana") == name_key("ana\u200d") == name_key("ANA")
    assert name_key("Ana") == name_key("\uff21\uff4e\uff41")  # full-width letters
    assert name_key("Ana") != name_key("Anna")
    # characters that show nothing after a name do not make it another one: the grapheme
    # joiner, variation selectors (Mongolian's and the supplement's too), a soft hyphen
    for hidden in ("\u034f", "\ufe00", "\u180b", "\U000e0100", "\u00ad", "\u2060"):
        assert name_key("Ana" + hidden) == name_key("Ana"), hex(ord(hidden))
        assert name_key("A" + hidden + "na") == name_key("Ana")
    assert name_key("Ana\u0301") != name_key("Ana")  # an accent shows: Aná is another name
    # letters of other scripts that look like Latin ones: Cyrillic, Greek, Armenian
    assert name_key("\u0410n\u0430") == name_key("Ana")  # Cyrillic А, а
    assert name_key("\u0391na") == name_key("Ana")  # Greek Α
    assert name_key("J\u043e\u0435") == name_key("Joe")  # Cyrillic о, е
    assert name_key("R\u03bfb\u0585t") == name_key("Robot")  # Greek ο, Armenian օ
    assert name_key("\u041d\u0435l\u0435n") == name_key("Helen")  # Cyrillic Н: "H"
    # accents still count, on a look-alike too: Cyrillic ё is ë, not e
    assert name_key("Zo\u0451") == name_key("Zoë") != name_key("Zoe")
    # a name in another script that does not look Latin stays itself, in any case
    assert name_key("\u0410\u043d\u043d\u0430") != name_key("Anna")  # Анна
    assert name_key("\u0410\u043d\u043d\u0430") == name_key("\u0410\u041d\u041d\u0410")
    assert name_key("\u041d\u0438\u043d\u0430") == name_key("\u041d\u0418\u041d\u0410")


def test_two_names_are_one_when_they_read_as_one() -> None:
    from mextrain.i18n import same_name

    # case, in every script: "Анна" and "АННА", "Νίκος" and "ΝΊΚΟΣ"
    assert same_name("\u0410\u043d\u043d\u0430", "\u0410\u041d\u041d\u0410")
    assert same_name("\u039d\u03af\u03ba\u03bf\u03c2", "\u039d\u038a\u039a\u039f\u03a3")
    assert same_name("Ana", "ANA")
    # small letters read by their own look too: Greek ν, υ, η, γ, Cyrillic п, г, ѵ
    assert same_name("E\u03bda", "Eva")
    assert same_name("J\u03c5an", "Juan")
    assert same_name("I\u0475an", "Ivan")
    assert same_name("\u0433o\u03b7a", "rona")
    assert same_name("\u03b3oko", "yoko")
    # and by their capital's, as `name_key` does: Cyrillic т, к, м, н, в; Greek τ, μ, β
    assert same_name("B\u043e\u0442 1", "BOT 1")
    assert same_name("\u043c\u0430\u0440\u043a", "MAPK")
    assert same_name("\u03b2\u03bf\u03c4", "BOT")
    # Latin's own look-alikes: I, l, 1 and |; O, o and 0; rn and m; vv and w
    assert same_name("Ian", "lan")
    assert same_name("Al", "AI")
    assert same_name("B0b", "Bob")
    assert same_name("0lga", "Olga")
    assert same_name("Arnie", "Amie")
    assert same_name("Evva", "Ewa")
    assert same_name("Player1", "Playerl")
    # what does not read as one is not
    assert not same_name("\u0410\u043d\u043d\u0430", "Anna")
    assert not same_name("Zo\u0451", "Zoe")
    assert not same_name("Ana", "Anna")
    # a look-alike read as one does not make other letters one: "I" is no "L", nor "M"
    # an "RN", whatever the case
    assert not same_name("Ian", "LAN")
    assert not same_name("Ian", "Lan")
    assert not same_name("ARNIE", "AMIE")
    assert not same_name("Arnie", "AMIE")
    assert not same_name("Tom", "Tim")


@pytest.mark.parametrize(
    ("lang", "decimal", "percent"),
    [
        ("en", "15.3", "40%"),
        ("fr", "15,3", "40\u00a0%"),
        ("it", "15,3", "40%"),
        ("fi", "15,3", "40\u00a0%"),
    ],
)
def test_numbers_are_written_the_languages_way(lang: str, decimal: str, percent: str) -> None:
    """A percentage as the browser's ``Intl.NumberFormat`` writes it: French and Finnish
    with a no-break space before the sign (it was a plain one, and a line could wrap
    before the "%")."""
    t = Translator(lang)
    assert t.decimal(15.26) == decimal
    assert t.percent(0.4) == percent
    assert t.decimal(2.0, 0) == "2"
    space = percent.removeprefix("40").removesuffix("%")
    assert t.percent_range(0.06, 0.79) == f"6-79{space}%"


#: shares and the whole percentage the browser writes of them (``new
#: Intl.NumberFormat(lang, {style: "percent", maximumFractionDigits: 0})``, Chromium and
#: Node): a half goes up, on the share as its shortest decimal writes it
INTL_PERCENT = [
    (0.0, 0),
    (1e-20, 0),
    (0.005, 1),
    (0.0249999, 2),
    (0.125, 13),
    (0.145, 15),
    (0.285, 29),
    (1 / 3, 33),
    (0.375, 38),
    (0.4, 40),
    (0.625, 63),
    (2 / 3, 67),
    (0.995, 100),
    (1.0, 100),
]


@pytest.mark.parametrize(("share", "whole"), INTL_PERCENT)
def test_a_percentage_is_rounded_as_the_browser_rounds_it(share: float, whole: int) -> None:
    """The terminal's statistics rounded a win rate of 1 in 8 to 12% (Python rounds a
    half to even) where the page's said 13%."""
    assert whole_percent(share) == whole
    assert Translator("en").percent(share) == f"{whole}%"
    assert Translator("fr").percent(share) == f"{whole}\u00a0%"


#: shares and what the browser's page writes of them in every language (its one helper,
#: ``percent.js``, and Chromium's ``Intl.NumberFormat``: tests/e2e/test_browser_play.py
#: checks the same shares there), a hint's chance of 0.145 among them
PAGE_PERCENT = [
    (0.145, 15),
    (0.125, 13),
    (0.285, 29),
    (0.005, 1),
    (0.015, 2),
    (0.575, 58),
    (0.995, 100),
    (0.0, 0),
    (0.4, 40),
    (1.0, 100),
]
#: the sign after the number: a no-break space before it in French and Finnish
PAGE_SIGN = {"en": "%", "fr": "\u00a0%", "it": "%", "fi": "\u00a0%"}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_terminal_writes_a_percentage_as_the_page_does(lang: str) -> None:
    """The page rounded a hint's chances with ``Math.round`` (0.145 was 14%) where the
    terminal said 15%; both now write every percentage as ``Intl.NumberFormat`` does."""
    t = Translator(lang)
    assert [t.percent(share) for share, _ in PAGE_PERCENT] == [
        f"{whole}{PAGE_SIGN[lang]}" for _, whole in PAGE_PERCENT
    ]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_systems_usual_refusals_are_said_in_the_players_words(lang: str) -> None:
    """Permission, a full or read-only disk, a missing folder: in the player's language,
    whatever the system's locale; anything rarer in the system's own words."""
    t = Translator(lang)
    said = {
        os_error_text(PermissionError(errno.EACCES, "Permission denied"), lang),
        os_error_text(OSError(errno.ENOSPC, "No space left on device"), lang),
        os_error_text(OSError(errno.EROFS, "Read-only file system"), lang),
        os_error_text(FileNotFoundError(errno.ENOENT, "No such file or directory"), lang),
        os_error_text(NotADirectoryError(errno.ENOTDIR, "Not a directory"), lang),
    }
    assert said == {
        t(f"game.os_error.{key}")
        for key in ("denied", "no_space", "read_only", "not_found", "not_a_folder")
    }
    assert os_error_text(OSError(errno.EPERM, "Operation not permitted"), lang) == t(
        "game.os_error.denied"
    )
    assert os_error_text(OSError(errno.EIO, "Input/output error"), lang) == "Input/output error"
    assert os_error_text(OSError("no errno at all"), lang) == "no errno at all"
    # every reason has words of its own in every language
    keys = [k for k in catalog("game", "en") if k.startswith("game.os_error.")]
    assert len(keys) >= 7
    assert len({t(k) for k in keys}) == len(keys)


# -- a text or a number too long to quote whole ------------------------------------------


@pytest.mark.parametrize(
    ("lang", "written"),
    [
        ("en", ["7", "999", "3,000", "12,345", "1,234,567", "-3,000"]),
        ("fr", ["7", "999", "3\u202f000", "12\u202f345", "1\u202f234\u202f567", "-3\u202f000"]),
        ("it", ["7", "999", "3000", "12.345", "1.234.567", "-3000"]),
        ("fi", ["7", "999", "3\u00a0000", "12\u00a0345", "1\u00a0234\u00a0567", "-3\u00a0000"]),
    ],
)
def test_a_whole_number_is_written_as_the_language_writes_it(lang: str, written: list[str]) -> None:
    """As the browser's ``Intl.NumberFormat`` writes them (CLDR)."""
    t = Translator(lang)
    assert [t.whole(n) for n in (7, 999, 3000, 12345, 1234567, -3000)] == written


@pytest.mark.parametrize(
    ("lang", "written"),
    [
        ("en", ["1,000,000", "1,500", "0.5", "12,345.678", "-0.25", "0.00001", "0.1"]),
        (
            "fr",
            [
                "1\u202f000\u202f000",
                "1\u202f500",
                "0,5",
                "12\u202f345,678",
                "-0,25",
                "0,00001",
                "0,1",
            ],
        ),
        ("it", ["1.000.000", "1500", "0,5", "12.345,678", "-0,25", "0,00001", "0,1"]),
        (
            "fi",
            [
                "1\u00a0000\u00a0000",
                "1\u00a0500",
                "0,5",
                "12\u00a0345,678",
                "-0,25",
                "0,00001",
                "0,1",
            ],
        ),
    ],
)
def test_a_number_whole_or_not_is_written_as_the_language_writes_it(
    lang: str, written: list[str]
) -> None:
    """A command line's range bounds (``Translator.number``): a whole one as `whole` writes
    it, an int or a float; a decimal its shortest, never with an exponent ("1e-05")."""
    t = Translator(lang)
    numbers = (1_000_000, 1500.0, 0.5, 12345.678, -0.25, 1e-05, 0.1)
    assert [t.number(n) for n in numbers] == written


@pytest.mark.parametrize(
    ("lang", "characters", "digits"),
    [
        ("en", "(5,000 characters)", "77777777…(3,000 digits)"),
        ("fr", "(5\u202f000 caractères)", "77777777…(3\u202f000 chiffres)"),
        ("it", "(5000 caratteri)", "77777777…(3000 cifre)"),
        ("fi", "(5\u00a0000 merkkiä)", "77777777…(3\u00a0000 numeroa)"),
    ],
)
def test_a_shortened_text_or_number_says_its_length_in_the_messages_language(
    lang: str, characters: str, digits: str
) -> None:
    """The rules core quotes a long text shortened with its length in English ("(5,000
    characters)", `show_text`), and a long number so too ("(3,000 digits)"): put into
    words in another language, the length was still English ("preset : règles "xxx…"
    (5,000 characters) inconnues"). It is said in the message's language, the rules core
    keeping its English."""
    from mextrain.bots import BotSpecError, make_bot
    from mextrain.i18n import bot_error_text, rules_error_text
    from mextrain.records import shorten_numbers, show_number
    from mextrain.rules import RulesError, show_text

    t = Translator(lang)
    long = "x" * 5000
    with pytest.raises(RulesError) as preset:
        Rules.preset(long)
    assert "(5,000 characters)" in str(preset.value)  # (the core's own words)
    with pytest.raises(RulesError) as option:
        Rules.preset("classic").with_options(draw_until_playable=long)
    with pytest.raises(BotSpecError) as bot:
        make_bot(long)
    for said in (
        rules_error_text(preset.value, lang),
        rules_error_text(option.value, lang),
        bot_error_text(bot.value, lang),
        t("tui.solve.not_a_tile", text=show_text(long)),
    ):
        assert characters in said, said
        assert long[:41] not in said
        if lang != "en":
            assert "characters" not in said, said
    huge = int("7" * 3000)
    assert digits in t("tui.solve.start_range", start=show_number(huge), max_pip=12)
    assert shorten_numbers(f"not {'7' * 3000}", t.count_words) == f"not {digits}"
    assert shorten_numbers(f"not {'7' * 3000}") == "not 77777777…(3,000 digits)"


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("digits", [41, 4300, 4301, 5000])
def test_a_long_pip_in_a_rule_error_says_its_length_in_the_messages_language(
    lang: str, digits: int
) -> None:
    """A pip of more than the 4,300 digits Python reads is written shortened by the
    engine itself ("5-77777777…(5,000 digits) is not in the double-12 set"): put into
    another language, its length stayed English ("… (5,000 digits) ne fait pas partie du
    jeu double-12"), where one of fewer digits, written out and shortened afterwards
    (`shorten_numbers`), was said in the language. Shown and said alike."""
    from mextrain.records import shorten_numbers
    from mextrain.rules import parse_tile

    t = Translator(lang)
    state = RoundState.new(Rules.preset("classic"), 2, 0, random.Random(1))
    tile = parse_tile(f"5-{'7' * digits}")
    with pytest.raises(IllegalActionError) as caught:
        state.copy().apply(Action.play(tile, state.seat), state.seat)
    short = f"77777777…({t.count_words('digits', digits)})"
    for spoken in (False, True):
        said = shorten_numbers(
            error_text(caught.value, lang, None, state.seat, spoken=spoken), t.count_words
        )
        assert short in said, said
        if lang != "en":
            assert "digits" not in said, said
    # the engine's own words stay English (past Python's digits it shortens the pip
    # itself; it writes one it reads in full)
    engine = f"…({digits:,} digits)" if digits > 4300 else "7" * digits
    assert engine in str(caught.value)


def test_the_unit_of_a_count_takes_its_plural_form() -> None:
    assert Translator("en").count_words("characters", 1) == "1 character"
    assert Translator("fr").count_words("digits", 1) == "1 chiffre"
    assert Translator("fr").count_words("digits", 0) == "0 chiffre"
    assert Translator("it").count_words("digits", 41) == "41 cifre"


@pytest.mark.parametrize(
    ("header", "values"),
    [
        (None, []),
        ("", []),
        ("fr", [("fr", 1.0)]),  # (no q: 1)
        ("fr;q=0", [("fr", 0.0)]),
        ("fr;q=0.0", [("fr", 0.0)]),
        ("fr;q=0.000", [("fr", 0.0)]),
        ("fr; Q = 0.5", [("fr", 0.5)]),
        ("fr;q=.5", [("fr", 0.5)]),
        ("fr;q=1.", [("fr", 1.0)]),
        ("fr;q=3", [("fr", 1.0)]),  # (over 1: 1)
        ("fr;q=-0.5", [("fr", 0.0)]),  # (no number from 0 to 1: not wanted)
        ("fr;q=1e-3", [("fr", 0.0)]),
        ("fr;q=inf", [("fr", 0.0)]),
        ("fr;q=nan", [("fr", 0.0)]),
        ("fr;q=", [("fr", 0.0)]),
        ("fr;q=abc", [("fr", 0.0)]),
        ("text/html;level=1;q=0.7", [("text/html", 0.7)]),  # (other parameters left out)
        ("*;q=0.1, , it ,*/*", [("*", 0.1), ("it", 1.0), ("*/*", 1.0)]),
    ],
)
def test_a_weighted_header_reads_each_values_q(
    header: str | None, values: list[tuple[str, float]]
) -> None:
    """One reading of ``q`` for ``Accept`` and ``Accept-Language`` (the web server read
    the one by the spellings of 0 it listed, the other as a number)."""
    assert accepted_values(header) == values


@pytest.mark.parametrize(
    ("header", "lang"),
    [
        ("fr;q=0, it", "it"),
        ("fr;q=0.0, it", "it"),
        ("fr;q=0.000, it", "it"),
        ("fi;q=0.5, fr", "fr"),  # (no q is 1)
        ("fr;q=inf, it;q=0.5", "it"),  # (a bad weight: not wanted; it was the first)
        ("fr;q=1e3, it;q=0.9", "it"),  # (an exponent too: it was a weight of 1000)
        ("fr;q=1e-3, it;q=0.1", "it"),
        ("fr;q=2, it", "fr"),  # (over 1: read as 1, then in order)
        ("it;q=0.5, fr;q=0.5", "it"),
        ("*", "en"),  # (a wildcard names none of ours)
        ("*, fi;q=0.1", "fi"),
        ("fr;q=0, *", "en"),
    ],
)
def test_the_language_a_browser_asks_for_reads_q_as_every_weighted_header(
    header: str, lang: str
) -> None:
    assert accepted_language(header) == lang
