"""The fr/it/fi catalogs against the project's glossary of the game's own words.

Glossary words (fr / it / fi) checked here:
  the game / Mexican train: Train mexicain / Treno messicano / Meksikon juna
  tile: domino / tessera, domino / domino, nappula
  double: double / doppio / kaksinkertainen domino (colloquial: tupla)
  engine: moyeu / stazione / keskus
  personal train: train personnel / treno personale / oma juna
  marker: marqueur / segnalino / junamerkki
  boneyard: gare de triage (pioche) / cantiere del treno (mazzo) / ratapiha
  draw: tirer (piocher) / pescare / nostaa
  pass: passer / passare / ohittaa
  pips: pépins, points / puntini / pisteet
  round: tour (manche) / turno, round / kierros
  turn: tour / turno / vuoro
  open double: double ouvert / doppio aperto / avoin tupla
  a preset (a table's named rules; in English, "preset"): variante / regolamento / sääntöversio
"""

from __future__ import annotations

import json
import re
import string
from pathlib import Path

import pytest
from rich.cells import cell_len

from mextrain.i18n import LANGUAGES, NAMESPACES, catalog
from mextrain.rules.options import PRESET_NAMES
from mextrain.web.tables import bot_levels

OTHERS = [lang for lang in LANGUAGES if lang != "en"]
SRC = Path(__file__).resolve().parents[1] / "src" / "mextrain"
CATALOG_DIR = SRC / "i18n" / "catalogs"


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def line_of(namespace: str, lang: str, key: str) -> int:
    text = (CATALOG_DIR / f"{namespace}.{lang}.json").read_text(encoding="utf-8")
    for n, line in enumerate(text.splitlines(), 1):
        if line.strip().startswith(f'"{key}"'):
            return n
    return -1


def all_strings(lang: str) -> dict[str, str]:
    merged: dict[str, str] = {}
    for ns in NAMESPACES:
        merged.update(catalog(ns, lang))
    return merged


# --- (2) completeness, placeholders ------------------------------------------------------


@pytest.mark.parametrize("namespace", NAMESPACES)
@pytest.mark.parametrize("lang", OTHERS)
def test_same_keys_non_empty_same_placeholders(namespace: str, lang: str) -> None:
    en, other = catalog(namespace, "en"), catalog(namespace, lang)
    assert set(en) == set(other)
    for key, text in other.items():
        assert text.strip(), key
        assert placeholders(text) == placeholders(en[key]), key


# Strings that may legitimately be identical to English (symbols, loanwords, names).
_SAME_OK = {
    "game.total",
    "game.double",
    "game.round",
    "tui.name.bot",
    "tui.round_end.points.one",
    "tui.round_end.points.other",
    "web.table",
    "web.bot.expert",
    "tui.level.expert",
    "web.seat.bot",
    "web.hint.chance",
    "tui.hint.chance",
    "web.rounds",
    # Italian "Round" is a glossary word (round†)
    "tui.status.round",
    "tui.log.round",
    "tui.start.rounds.one",
    "web.rounds_count.one",
    # "Bot 2" is Italian too
    "web.bot_name",
    "web.bot_short",
    "web.stats.bot_level",
    "tui.stats.ranking_bot",
}
#: words one language has taken from English as they are
_SAME_OK_IN = {
    "it": {"web.offline"},  # Italian says "offline"
    # French writes "minute" and "minutes" as English does
    "fr": {"web.turn_time.minutes.one", "web.turn_time.minutes.other"},
}
# the bots' usual pace: "Normal" is French as it is English
_SAME_OK_IN["fr"] |= {"web.bot_pace.normal"}
# "plan" and "train" are French words too (the key bar's "v plan", "1-9 0 m o train")
_SAME_OK_IN["fr"] |= {"tui.keys.plan", "tui.keys.train"}
# --help's "[OPTIONS]" and "MODULE" in French, "FILE" in Italian (a file is "un file")
_SAME_OK_IN["fr"] |= {"tui.cli.help.options_metavar", "tui.cli.help.metavar.module"}
_SAME_OK_IN["it"] |= {"tui.cli.help.metavar.file"}
# Italian plays a "round" of the match, as English does ("round 2: ...")
_SAME_OK_IN["it"] |= {"tui.cli.fault_round"}
# a database is "un database" in Italian ("mextrain: database PATH")
_SAME_OK_IN["it"] |= {"tui.serve.database"}


@pytest.mark.parametrize("lang", OTHERS)
def test_no_english_left_untranslated(lang: str) -> None:
    en, other = all_strings("en"), all_strings(lang)
    same = {
        k
        for k, v in other.items()
        if v == en[k]
        and k not in _SAME_OK | _SAME_OK_IN.get(lang, set())
        and re.search(r"[A-Za-z]{3}", re.sub(r"\{\w+\}", "", v))
    }
    assert same == set()


# --- code uses only keys that exist ------------------------------------------------------


def _js_keys() -> set[str]:
    keys: set[str] = set()
    for js in (SRC / "web" / "static").glob("*.js"):
        text = js.read_text(encoding="utf-8")
        keys |= set(re.findall(r"\bt(?:n|cap)?\(\"((?:game|web|tui)\.[a-z_.]+)\"", text))
    return keys


def _py_keys(folder: str) -> set[str]:
    keys: set[str] = set()
    for py in (SRC / folder).rglob("*.py"):
        keys |= set(
            re.findall(
                r"[\"']((?:game|tui|web)\.[a-z_]+\.?[a-z_.]*)[\"']", py.read_text(encoding="utf-8")
            )
        )
    return {k for k in keys if not k.endswith(".") and k.split(".")[1]}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_key_used_by_the_uis_exists(lang: str) -> None:
    strings = all_strings(lang)
    used = _js_keys() | _py_keys("tui") | _py_keys("cli")
    used = {k for k in used if k.split(".")[0] in NAMESPACES and not k.endswith((".py", ".json"))}
    assert used, "no keys found"
    # t.plural("tui.hand.tiles", n) uses the forms tui.hand.tiles.one and .other
    assert sorted(k for k in used if k not in strings and f"{k}.other" not in strings) == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_dynamic_keys_exist(lang: str) -> None:
    s = all_strings(lang)
    js = (SRC / "web" / "static" / "app.js").read_text(encoding="utf-8")
    house = re.findall(r"\"(\w+)\"", re.search(r"const HOUSE = \[(.*?)\]", js).group(1))
    needed = [f"web.house.{h}" for h in house]
    needed += [f"web.preset.{p}" for p in PRESET_NAMES] + [f"tui.preset.{p}" for p in PRESET_NAMES]
    needed += [f"web.bot.{b}" for b in bot_levels()] + [f"tui.level.{b}" for b in bot_levels()]
    assert [k for k in needed if k not in s] == []


# --- (3) encoding ------------------------------------------------------------------------

_MOJIBAKE = re.compile(r"Ã.|Â|â€|Ä[¤¶]|Ã¤|\ufffd|\\u00|&[a-z]+;")


@pytest.mark.parametrize("path", sorted(CATALOG_DIR.glob("*.json")), ids=lambda p: p.name)
def test_catalog_is_clean_utf8(path: Path) -> None:
    raw = path.read_bytes()
    assert not raw.startswith(b"\xef\xbb\xbf")
    text = raw.decode("utf-8")
    json.loads(text)
    assert not _MOJIBAKE.search(text)
    assert "\x00" not in text


@pytest.mark.parametrize("path", sorted((SRC / "web" / "static").glob("*.*")), ids=lambda p: p.name)
def test_static_files_are_utf8_without_mojibake(path: Path) -> None:
    if path.suffix not in {".js", ".html", ".css", ".svg"}:
        pytest.skip("not text")
    text = path.read_bytes().decode("utf-8")
    assert not re.search(r"Ã.|â€|\ufffd", text)


def test_french_accents_present() -> None:
    fr = all_strings("fr")
    assert fr["game.error.round_over"].startswith("La manche est terminée")
    assert "Échap" in fr["tui.close"]
    fi = all_strings("fi")
    assert fi["game.total"] == "Yhteensä"
    assert "päättyi" in fi["tui.round_end.title"]


# --- (1) glossary words in the game catalog (shared by all UIs) --------------------------

GAME_GLOSSARY = {
    "fr": {
        "game.name": ["Train mexicain"],
        "game.tile": ["domino"],
        "game.double": ["double"],
        "game.engine": ["moyeu"],
        "game.train.mexican": ["train mexicain"],
        "game.marker": ["marqueur"],
        "game.boneyard": ["gare de triage", "pioche"],
        "game.draw": ["tirer", "piocher"],
        "game.pass": ["passer"],
        "game.hint.draw": ["tirer", "piocher"],
        "game.hint.pass": ["passer"],
        "game.pips": ["pépins", "points"],
        "game.round": ["tour", "manche"],
        "game.turn": ["tour"],
        "game.open_double": ["double ouvert"],
    },
    "it": {
        "game.name": ["Treno messicano"],
        "game.tile": ["tessera", "domino"],
        "game.double": ["doppio"],
        "game.engine": ["stazione"],
        "game.train.own": ["treno"],
        "game.train.mexican": ["treno messicano"],
        "game.marker": ["segnalino"],
        "game.boneyard": ["cantiere del treno", "mazzo"],
        "game.draw": ["pesca"],
        "game.pass": ["passa"],
        "game.hint.draw": ["pesca"],
        "game.hint.pass": ["passa"],
        "game.pips": ["puntini"],
        "game.round": ["turno", "round"],
        "game.turn": ["turno"],
        "game.open_double": ["doppio aperto"],
    },
    "fi": {
        "game.name": ["Meksikon juna"],
        "game.tile": ["domino", "nappula"],
        "game.double": ["kaksinkertainen domino", "tupla"],
        "game.engine": ["keskus"],
        "game.train.own": ["oma juna"],
        "game.train.mexican": ["Meksikon juna"],
        "game.train.mexican_the": ["Meksikon juna"],
        "game.marker": ["junamerkki"],
        "game.boneyard": ["ratapiha"],
        "game.draw": ["nosta"],
        "game.pass": ["ohita"],
        "game.hint.draw": ["nosta"],
        "game.hint.pass": ["ohita"],
        "game.pips": ["pisteet"],
        "game.round": ["kierros"],
        "game.turn": ["vuoro"],
        "game.open_double": ["avoin tupla"],
    },
}


@pytest.mark.parametrize(
    ("lang", "key"), [(lang, key) for lang, m in GAME_GLOSSARY.items() for key in m]
)
def test_game_catalog_uses_glossary_word(lang: str, key: str) -> None:
    text = catalog("game", lang)[key].lower()
    assert any(word.lower() in text for word in GAME_GLOSSARY[lang][key]), (key, text)


# --- (1) the same words everywhere: terminal and web -------------------------------------

# Words that contradict the glossary / the game catalog, per language.
FORBIDDEN = {
    "fi": {
        # the game catalog says "Meksikon juna" (glossary: Meksikon juna†)
        "meksikolai": "Meksikon juna",
        # the game catalog says "domino" (glossary: domino†, nappula†)
        "laatta": "domino",
        "laatan": "domino",
    },
    "fr": {
        # the game catalog says "domino" (glossary: domino†)
        "tuile": "domino",
        "mexicaine": "train mexicain",
    },
    "it": {
        # a round is "Round" in game/tui (glossary: turno, round); "mano" is a hand
        r"\bman[oi]\b(?! nascost)": "round",
        "messicana": "treno messicano",
    },
}

# Strings where the word is legitimately something else ("mano" = hand in Italian).
_HAND_KEYS = {
    "web.your_hand",
    "tui.hand.hidden_title",
    "tui.hand.hidden",
    "tui.hand.watching",
    "tui.watching.no_hand",
    "tui.watch.hands",
    "tui.pass.body",
    "tui.pass.keys",
    "tui.hand.tiles.one",
    "tui.hand.tiles.other",
    "web.hand_count.one",
    "web.hand_count.other",
    "tui.hand.empty",
    "tui.help.keys",
    "game.rules_short",
    "web.help.page",
    "tui.error.tile_first",
    "tui.plan.none",
    "web.tiles_in_hand",
    "game.help.house.double_blank_points.one",
    "game.help.house.double_blank_points.other",
    "tui.cli.help.solve.about",  # ("the longest train a hand can lay")
}


def _violations(lang: str, namespaces: tuple[str, ...]) -> list[str]:
    found = []
    for ns in namespaces:
        for key, text in catalog(ns, lang).items():
            for pattern, want in FORBIDDEN[lang].items():
                if lang == "it" and key in _HAND_KEYS:
                    continue
                if re.search(pattern, text, re.IGNORECASE):
                    found.append(
                        f"{ns}.{lang}.json:{line_of(ns, lang, key)} {key}={text!r} (want {want})"
                    )
    return found


@pytest.mark.parametrize("lang", OTHERS)
def test_game_and_tui_catalogs_are_consistent_with_glossary(lang: str) -> None:
    assert _violations(lang, ("game", "tui")) == []


@pytest.mark.parametrize("lang", OTHERS)
def test_web_catalog_is_consistent_with_glossary(lang: str) -> None:
    assert _violations(lang, ("web",)) == []


@pytest.mark.parametrize("lang", OTHERS)
def test_web_marker_word_matches_game(lang: str) -> None:
    marker = catalog("game", lang)["game.marker"].lower()
    assert marker in catalog("web", lang)["web.marker_up"].lower()


#: where a tile goes (a move, a hint: "5-9 on the Mexican train") and the train's name
TO_TRAIN = {"mexican": "mexican_the", "of": "of", "theirs": "own_the", "yours": "own"}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_where_a_tile_goes_is_said_in_words_as_a_destination(lang: str) -> None:
    """The train a move or a hint puts a tile on is the train's own name in English,
    French and Italian ("su" + "il treno messicano" joins as ever); Finnish says where it
    goes in the illative ("Meksikon junaan", "omaan junaasi"), where its "5-9 → Meksikon
    juna" was read "right arrow" by a screen reader."""
    web, game = catalog("web", lang), catalog("game", lang)
    for to, name in TO_TRAIN.items():
        words = web[f"web.to_train.{to}"]
        if lang == "fi":
            assert words != game[f"game.train.{name}"], to
            assert re.search(r"\bjunaan|\bjunaa(si|nsa)\b", words), (to, words)
        else:
            assert words == game[f"game.train.{name}"], to
    for key in ("web.log.play", "web.hint.play"):
        assert "\u2192" not in web[key], key


#: the terminal's words for where a tile goes, and the train names they stand for
TUI_TO_TRAIN = {
    "mexican": "game.train.mexican_the",
    "of": "game.train.of",
    "of_seat": "game.train.of_seat",
    "theirs": "game.train.own_the",
    "yours": "tui.table.your_train_the",
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_terminal_says_where_a_tile_goes_as_the_web_does(lang: str) -> None:
    """The log and the hint: the train's own name in English, French and Italian, the
    illative in Finnish ("Ben: 5-9 Meksikon junaan"), not "5-9 → Meksikon juna"."""
    from mextrain.i18n import Translator
    from mextrain.rules import MEXICAN, Action, Tile
    from mextrain.tui.render import describe_action, hint_words

    tui, game = catalog("tui", lang), catalog("game", lang)
    for to, name in TUI_TO_TRAIN.items():
        words = tui[f"tui.to_train.{to}"]
        if lang == "fi":
            assert re.search(r"\bjunaan|\bjunaa(si|nsa)\b", words), (to, words)
        else:
            assert words == (tui if name.startswith("tui.") else game)[name], to
    for key in ("tui.log.play", "tui.hint.play"):
        assert "\u2192" not in tui[key], key
    if lang == "fi":
        t = Translator("fi")
        names = ["Ana", "Ben", "Cy"]
        assert describe_action(1, Action.play(Tile(5, 9), MEXICAN), t, names) == (
            "Ben: 5-9 Meksikon junaan"
        )
        assert describe_action(1, Action.play(Tile(5, 9), 2), t, names) == (
            "Ben: 5-9 pelaajan Cy junaan"
        )
        assert hint_words(Action.play(Tile(5, 9), 0), 0, t, names) == "5-9 omaan junaasi"


@pytest.mark.parametrize("lang", OTHERS)
def test_tui_uses_game_words(lang: str) -> None:
    g, t = catalog("game", lang), catalog("tui", lang)
    assert g["game.engine"].lower() in t["tui.status.engine"].lower()
    assert g["game.boneyard"].lower() in t["tui.status.boneyard"].lower()
    assert g["game.round"].lower() in t["tui.status.round"].lower()
    assert g["game.round"].lower() in t["tui.log.round"].lower()
    assert g["game.open_double"].lower()[:8] in t["tui.table.open_doubles"].lower()
    assert g["game.marker"].lower() in t["tui.help.keys"].lower()
    assert g["game.marker"].lower() in g["game.rules_short"].lower()
    assert g["game.train.mexican"].lower() in g["game.rules_short"].lower()
    assert g["game.train.mexican"].lower() in t["tui.house.mexican_after_own_train"].lower()


@pytest.mark.parametrize("lang", OTHERS)
def test_round_word_same_in_tui_and_web(lang: str) -> None:
    """The web and the terminal name a round with the same word."""
    g = catalog("game", lang)["game.round"].lower()
    w = catalog("web", lang)
    for key in ("web.round_end", "web.round_over"):
        assert g in w[key].lower(), (key, w[key])


# --- key bar: each language advertises the same keys --------------------------------------


@pytest.mark.parametrize("lang", OTHERS)
def test_key_bar_lists_same_keys(lang: str) -> None:
    """Every entry of the table's key bar names the same key as in English, then a word
    or two of its own, whole (the bar leaves entries out where they do not fit, never
    cuts one short)."""
    en, other = catalog("tui", "en"), catalog("tui", lang)
    entries = [k for k in en if k.startswith("tui.keys.")]
    assert len(entries) == 13  # (a player's ten; a watcher's pause, play on, next move)
    for key in entries:
        keys = "1-9 0 m o" if key == "tui.keys.train" else en[key].split(" ")[0]
        assert en[key].startswith(keys + " ")
        assert other[key].startswith(keys + " "), (key, other[key])
        words = other[key].removeprefix(keys + " ")
        assert words.strip() == words
        assert words
        assert "  " not in words
        assert "." not in words


@pytest.mark.parametrize("lang", OTHERS)
def test_help_keys_lists_same_keys(lang: str) -> None:
    def letters(text: str) -> set[str]:
        return {ln.split()[0] for ln in text.splitlines()[1:] if re.match(r"[a-z?] ", ln)}

    en = catalog("tui", "en")["tui.help.keys"]
    other = catalog("tui", lang)["tui.help.keys"]
    assert len(other.splitlines()) == len(en.splitlines())
    assert letters(other) == letters(en) == set("mo dphvutsq?".replace(" ", ""))


@pytest.mark.parametrize("lang", OTHERS)
def test_the_watchers_help_keys_are_the_same_keys(lang: str) -> None:
    en = catalog("tui", "en")["tui.help.watching_keys"]
    other = catalog("tui", lang)["tui.help.watching_keys"]
    assert [line.split()[0] for line in other.splitlines()] == ["p", "n"]
    assert [line.split()[0] for line in en.splitlines()] == ["p", "n"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_help_keys_line_up(lang: str) -> None:
    # the keys on the left, what they do in one column on the right (the watcher's rows,
    # shown with them, too)
    strings = catalog("tui", lang)
    text = strings["tui.help.keys"] + "\n" + strings["tui.help.watching_keys"]
    columns = set()
    for line in text.splitlines()[1:]:
        found = re.match(r"^(.*?\S)( {2,})(\S.*)$", line)
        if found:
            columns.add(cell_len(found.group(1)) + len(found.group(2)))
    assert len(columns) == 1, (lang, sorted(columns))


# --- (1) every sentence that names a game word uses the glossary's --------------------------

#: the game's words, as the English names them, and the glossary's word in each language (a
#: stem: "ratapihalta", "junamerkkisi", "keskuksesta", "doppi", "kierroksen" inflect it)
GLOSSARY_STEMS = {
    "boneyard": (r"\bboneyard\b", {"fr": r"pioche", "it": r"\bmazz[oi]\b", "fi": r"ratapih"}),
    "marker": (r"\bmarkers?\b", {"fr": r"marqueur", "it": r"segnalin[oi]", "fi": r"junamerk"}),
    "engine": (r"\bengines?\b", {"fr": r"moyeux?\b", "it": r"stazion[ei]", "fi": r"kesku[sk]"}),
    "Mexican train": (
        r"\bmexican train\b",
        {"fr": r"train mexicain", "it": r"treno messicano", "fi": r"meksikon jun"},
    ),
    # (not the set's name, "double-12", which is a set's and not a tile's)
    "double": (r"\bdoubles?\b(?!-)", {"fr": r"\bdoubles?\b", "it": r"\bdopp[ioi]", "fi": r"tupl"}),
    "round": (r"\brounds?\b", {"fr": r"\bmanches?\b", "it": r"\bround\b", "fi": r"kierro"}),
}


@pytest.mark.parametrize("lang", OTHERS)
@pytest.mark.parametrize("concept", GLOSSARY_STEMS)
def test_every_string_naming_a_game_word_uses_the_glossarys(concept: str, lang: str) -> None:
    """Wherever the English says "boneyard" (a rule error, the status line, the web's
    count, the help), the language says its one glossary word for it: two words for the
    boneyard, the marker or the engine between the terminal, the page and the engine's
    errors read as two different things."""
    english, want = GLOSSARY_STEMS[concept][0], GLOSSARY_STEMS[concept][1][lang]
    missing = []
    for ns in NAMESPACES:
        en, other = catalog(ns, "en"), catalog(ns, lang)
        for key, text in en.items():
            if re.search(english, re.sub(r"\{\w+\}", "", text), re.IGNORECASE) and not (
                re.search(want, other[key], re.IGNORECASE)
            ):
                missing.append(f"{ns}.{lang}.json:{line_of(ns, lang, key)} {key}={other[key]!r}")
    assert missing == []


#: the word for a table's named set of rules (classic, relaxed, cardinal), as a player says
#: it, and the words it replaced: one thing met under four names ("jeu de règles", "règles
#: prédéfinies", "préréglage", "variantes de règles") reads as four things. English says
#: "preset", the word the command line's --rules and its refusals use, where the page's and
#: the terminal's help said "rule set". ("'preset'", quoted, is the rules object's own key
#: and stays as it is.)
PRESET_WORD = {
    "en": (
        r"\bpresets?\b",
        r"\brules? ?sets?\b|\bsets? of rules\b|\bvariants?\b",
    ),
    "fr": (
        r"\bvariantes?\b",
        r"pr[ée]r[ée]glage|\bjeux? de r[èe]gles|r[èe]gles pr[ée]d[ée]finies|variantes? de r[èe]gles"
        r"|ensembles? de r[èe]gles|(?<!')\bpresets?\b(?!')",
    ),
    "it": (
        r"\bregolament[oi]\b",
        r"insiem[ei] di regole|regole predefinite|\bset di regole|variant[ei] (di|delle) regole"
        r"|(?<!')\bpresets?\b(?!')",
    ),
    "fi": (
        r"sääntöversio",
        r"sääntökokoelm|\bvalmi(s|it|iden|isiin|ista) sään|sääntöjen nimi|tuntemattomat säännöt"
        r"|säännöstö|sääntömuunnelm|(?<!')\bpresets?\b(?!')",
    ),
}
_SPEAKS_OF_A_PRESET = r"\bpresets?\b|\brule sets?\b"


def _preset_keys() -> list[tuple[str, str]]:
    return [
        (ns, key)
        for ns in NAMESPACES
        for key, text in catalog(ns, "en").items()
        if re.search(_SPEAKS_OF_A_PRESET, re.sub(r"\{\w+\}", "", text), re.IGNORECASE)
    ]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_one_word_for_a_preset_in_each_language(lang: str) -> None:
    """Wherever the English speaks of a preset (the terminal's --help, the engine's rule
    errors, the page's help), each language says its one word for it: French said
    "jeu de règles", "règles prédéfinies", "préréglage" and "variantes de règles" for the
    same three named presets, and English itself said "preset" on the command line and
    "rule set" in the help ("The three rule sets", "whatever the rule set")."""
    want, others = PRESET_WORD[lang]
    keys = _preset_keys()
    assert len(keys) >= 8, keys
    assert {ns for ns, _ in keys} == set(NAMESPACES)
    missing = []
    for ns, key in keys:
        text = catalog(ns, lang)[key]
        if not re.search(want, text, re.IGNORECASE):
            missing.append(f"{ns}.{lang}.json:{line_of(ns, lang, key)} {key}={text!r}")
    assert missing == []
    other_words = [
        f"{ns}.{lang}.json:{line_of(ns, lang, key)} {key}={text!r}"
        for ns in NAMESPACES
        for key, text in catalog(ns, lang).items()
        if re.search(others, re.sub(r"\{\w+\}", "", text), re.IGNORECASE)
    ]
    assert other_words == []


#: the other register's words: the catalogs say "vous" in French, "tu" in Italian and
#: "sinä" in Finnish, to the player and in the words players say to each other
OTHER_REGISTER = {
    "fr": r"\b(tu|toi|ton|ta|tes|te)\b",
    "it": r"\b(Lei|Suo|Sua|Suoi|Sue|scelga|prema|clicchi|tocchi|aspetti|attenda|riprovi)\b",
    "fi": r"\b(Te|Teidän|Teille|Teitä|olette|voitte|valitkaa|painakaa)\b",
}


@pytest.mark.parametrize("lang", OTHERS)
def test_one_register_in_each_language(lang: str) -> None:
    """The page's quick word "Your turn!" said "À toi de jouer !" in French, where every
    other string says "vous"."""
    found = [
        f"{key}={text!r}"
        for key, text in all_strings(lang).items()
        if re.search(OTHER_REGISTER[lang], text, 0 if lang == "it" else re.IGNORECASE)
    ]
    assert found == []


@pytest.mark.parametrize("lang", OTHERS)
def test_a_house_rule_has_the_same_words_in_the_terminal_and_on_the_page(lang: str) -> None:
    """A house rule the two interfaces name alike in English is named alike in each
    language (Italian had "Pesca finché una tessera non va" in the terminal and "Pescare
    finché una tessera non si attacca" on the page)."""
    en_tui, en_web = catalog("tui", "en"), catalog("web", "en")
    tui, web = catalog("tui", lang), catalog("web", lang)
    both = [
        rule
        for rule in (k.removeprefix("tui.house.") for k in en_tui if k.startswith("tui.house."))
        if en_web.get(f"web.house.{rule}") == en_tui[f"tui.house.{rule}"]
    ]
    assert len(both) >= 3
    assert {r: tui[f"tui.house.{r}"] for r in both} == {r: web[f"web.house.{r}"] for r in both}


# --- French typography -------------------------------------------------------------------

#: a French text's "high" punctuation, and its guillemets: a no-break space (U+00A0) sets
#: them apart from the word, so that a line never starts with ":" or "!" where it wraps
_FRENCH_HIGH = "[:;!?»]"


@pytest.mark.parametrize("namespace", NAMESPACES)
def test_french_puts_a_no_break_space_before_high_punctuation(namespace: str) -> None:
    """ "Pioche : 12", "Bien joué !", "« Piocher »": a no-break space, never a plain one
    (nor none at all) between a word and : ; ! ? », or after «. A mark standing for
    itself in a list ("· ! dernier domino", the help's marks) is no punctuation."""
    wrong = []
    for key, text in catalog(namespace, "fr").items():
        plain = re.search(rf"[^\s·][ \t\u202f]{_FRENCH_HIGH}|«[ \t\u202f]", text)
        # (a word's own punctuation: "https://" and "5-12:" in a spec are no French)
        none = re.search(rf"[\w)}}\]'’…%](?<!https){_FRENCH_HIGH}(?=\s|$|\)|\xa0)|«\S", text)
        found = plain or none
        if found:
            where = f"{namespace}.fr.json:{line_of(namespace, 'fr', key)}"
            wrong.append(f"{where} {key} {found.group()!r}")
    assert wrong == []


@pytest.mark.parametrize("namespace", NAMESPACES)
@pytest.mark.parametrize("lang", ["fr", "fi"])
def test_a_percent_sign_follows_a_no_break_space(namespace: str, lang: str) -> None:
    """ "95 %", "{chance} %": a no-break space between a number and its percent sign in
    French and Finnish, as the browser's ``Intl.NumberFormat`` writes a percentage (a
    plain one let a line wrap before the sign). "Voitto-%" is no number's sign."""
    wrong = []
    for key, text in catalog(namespace, lang).items():
        found = re.search(r"[0-9}](?:[ \t\u202f]|)%", text)
        if found:
            where = f"{namespace}.{lang}.json:{line_of(namespace, lang, key)}"
            wrong.append(f"{where} {key} {found.group()!r}")
    assert wrong == []
