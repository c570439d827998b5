"""The rule options, the three presets, and their validation.

Every rule a table may set is a named field of `Rules`. A rule set is a preset plus
overrides; anything contradictory or out of range raises `RulesError` naming the option,
never a silent fallback.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Any, Literal

from .tiles import show_text, show_value, tile_set

__all__ = ["PRESETS", "PRESET_NAMES", "Rules", "RulesError", "check_rules"]

EngineSetup = Literal["set_aside", "holder_starts"]
FirstPlayer = Literal["rotate", "engine_holder"]
FirstTurn = Literal["single", "run"]
FollowUp = Literal["any", "no_double"]
MarkerRule = Literal["forced_pass", "no_own_play"]

_CHOICES: dict[str, tuple[str, ...]] = {
    "engine_setup": ("set_aside", "holder_starts"),
    "first_player": ("rotate", "engine_holder"),
    "first_turn": ("single", "run"),
    "double_follow_up": ("any", "no_double"),
    "marker_rule": ("forced_pass", "no_own_play"),
}
_FLAGS = (
    "open_doubles_block",
    "own_train_first",
    "mexican_after_own_train",
    "mexican_after_first_round_of_turns",
    "no_going_out_on_double",
    "draw_until_playable",
)
_POINTS = ("double_blank_points", "unsatisfied_double_penalty")
#: the most points a house penalty may charge for one double (a house rule of 10, 25 or
#: 50 is usual; the bound keeps a match's totals ordinary numbers everywhere they go)
MAX_PENALTY = 1000
#: the most rounds a match may have: any engine sequence, repeats allowed, within reason
MAX_ROUNDS = 100
#: what a hand_size table looks like, as a refusal shows it (players to tiles per hand)
HAND_SIZE_EXAMPLE = '{"2": 7, "3": 6, "4": 5}'


class RulesError(ValueError):
    """An invalid rule set; ``option`` names the option at fault.

    ``str(err)`` is ``"option: what is wrong"`` in English; ``code`` names the fault and
    ``params`` holds its details (numbers, or the offending value as written), so that
    interfaces can say it in the player's language (``game.rules_error.CODE``).
    """

    def __init__(self, option: str, message: str, *, code: str, **params: object) -> None:
        super().__init__(f"{option}: {message}")
        self.option = option
        self.message = message
        self.code = code
        self.params = params

    def __reduce__(self) -> tuple[object, ...]:
        return (_rebuild_rules_error, (self.option, self.message, self.code, self.params))


def _rebuild_rules_error(
    option: str, message: str, code: str, params: dict[str, object]
) -> RulesError:
    return RulesError(option, message, code=code, **params)


_CLASSIC_HANDS = {2: 16, 3: 16, 4: 15, 5: 14, 6: 12, 7: 10, 8: 9}
_CARDINAL_HANDS = {4: 15, 5: 12, 6: 12, 7: 10, 8: 10, 9: 8, 10: 8}


@dataclass(frozen=True, slots=True)
class Rules:
    """A complete rule set. Build one with `Rules.from_spec` or `Rules.preset`."""

    preset_name: str = "classic"
    max_pip: int = 12
    players: tuple[int, int] = (2, 8)
    hand_size: tuple[tuple[int, int], ...] = tuple(_CLASSIC_HANDS.items())
    engine_setup: EngineSetup = "set_aside"
    first_player: FirstPlayer = "rotate"
    first_turn: FirstTurn = "single"
    double_follow_up: FollowUp = "any"
    open_doubles_block: bool = True
    own_train_first: bool = False
    marker_rule: MarkerRule = "forced_pass"
    rounds: tuple[int, ...] = tuple(range(12, -1, -1))
    double_blank_points: int = 0
    mexican_after_own_train: bool = False
    mexican_after_first_round_of_turns: bool = False
    no_going_out_on_double: bool = False
    draw_until_playable: bool = False
    unsatisfied_double_penalty: int = 0

    # -- construction -------------------------------------------------------------------

    @classmethod
    def preset(cls, name: str, **overrides: Any) -> Rules:
        """A preset by name, with option overrides on top."""
        if name not in PRESETS:
            choices = ", ".join(PRESET_NAMES)
            raise RulesError(
                "preset",
                f"unknown preset {show_value(name)}; choose one of {choices}",
                code="unknown_preset",
                value=show_value(name),
                choices=choices,
            )
        if not overrides:
            return PRESETS[name]
        return PRESETS[name].with_options(**overrides)

    @classmethod
    def from_spec(cls, spec: object) -> Rules:
        """Read the ``rules`` field of a record: a preset name or ``{"preset": NAME, ...}``;
        anything else is a `RulesError` saying so (``not_rules``)."""
        if isinstance(spec, str):
            return cls.preset(spec)
        if not isinstance(spec, Mapping):
            choices = ", ".join(PRESET_NAMES)
            raise RulesError(
                "rules",
                f"must be a preset name ({choices}) or an object with a 'preset'",
                code="not_rules",
                choices=choices,
            )
        if "preset" not in spec:
            raise RulesError("preset", "the rules object needs a 'preset' name", code="no_preset")
        name = spec["preset"]
        if not isinstance(name, str):
            raise RulesError("preset", "must be a preset name", code="preset_not_name")
        overrides = {k: v for k, v in spec.items() if k != "preset"}
        return cls.preset(name, **overrides)

    def with_options(self, **overrides: Any) -> Rules:
        """This rule set with some options changed, validated as a whole."""
        known = {f.name for f in fields(self)} - {"preset_name"}
        known.add("first_turn_run")
        changes: dict[str, Any] = {}
        for key, value in overrides.items():
            if key not in known:  # (named as given; a long name shortened, `show_text`)
                raise RulesError(show_text(key, str), "unknown option", code="unknown_option")
            changes[key] = _normalise(key, value)
        if "first_turn_run" in changes:
            run = changes.pop("first_turn_run")
            wanted = "run" if run else "single"
            if changes.get("first_turn", wanted) != wanted:
                raise RulesError(
                    "first_turn_run",
                    "contradicts first_turn",
                    code="contradicts",
                    other="first_turn",
                )
            changes["first_turn"] = wanted
        if changes.get("max_pip") == self.max_pip:
            # the set this rule set already plays: its engines and hand sizes stand
            del changes["max_pip"]
        max_pip = changes.get("max_pip", self.max_pip)
        if "max_pip" in changes and "rounds" not in changes:
            changes["rounds"] = tuple(range(max_pip, -1, -1))
        rounds = changes.get("rounds")
        if isinstance(rounds, int):
            if rounds > max_pip + 1:
                raise RulesError(
                    "rounds",
                    f"a double-{max_pip} set has only {max_pip + 1} engines",
                    code="too_many_rounds",
                    max_pip=max_pip,
                    engines=max_pip + 1,
                )
            changes["rounds"] = tuple(range(max_pip, max_pip - rounds, -1))
        if "max_pip" in changes and "hand_size" not in changes and changes["max_pip"] != 12:
            setup = changes.get("engine_setup", self.engine_setup)
            have = tile_set(changes["max_pip"]).size - (setup == "set_aside")
            example = _hand_size_example(have)
            raise RulesError(
                "hand_size",
                f"a double-{changes['max_pip']} set needs its own hand_size table "
                f"(the preset's sizes are for double-12): tiles per hand by number of "
                f"players, like {example}; the set has {have} tiles to deal",
                code="hand_size_needed",
                max_pip=changes["max_pip"],
                example=example,
                have=have,
            )
        if "hand_size" in changes and "players" not in changes:
            counts = [n for n, _ in changes["hand_size"]]
            changes["players"] = (min(counts), max(counts))
        rules = replace(self, **changes)
        try:
            rules.validate()
        except RulesError as err:
            # two options that must agree: name the one this change set, not its partner
            if (
                err.code == "first_player_setup"
                and "engine_setup" in changes
                and "first_player" not in changes
            ):
                raise RulesError("engine_setup", err.message, code=err.code, **err.params) from None
            if (
                err.code == "no_hand_size"
                and "players" in overrides
                and "hand_size" not in overrides
            ):
                raise RulesError("players", err.message, code=err.code, **err.params) from None
            raise
        return rules

    # -- validation ---------------------------------------------------------------------

    def validate(self) -> None:
        """Raise `RulesError` naming the first option that is out of range or contradictory."""
        if not 1 <= self.max_pip <= 30:
            raise RulesError(
                "max_pip",
                f"must be a whole number from 1 to 30, not {show_value(self.max_pip)}",
                code="number_range",
                low=1,
                high=30,
                value=show_value(self.max_pip),
            )
        ntiles = tile_set(self.max_pip).size
        lo, hi = self.players
        if not 2 <= lo <= hi:
            raise RulesError(
                "players",
                f"must be a range of at least 2 seats, not {lo}-{hi}",
                code="seat_range",
                low=lo,
                high=hi,
            )
        sizes = dict(self.hand_size)
        set_aside = 1 if self.engine_setup == "set_aside" else 0
        for n in range(lo, hi + 1):
            if n not in sizes:
                raise RulesError(
                    "hand_size", f"no hand size for {n} players", code="no_hand_size", players=n
                )
            if sizes[n] * n > ntiles - set_aside:
                raise RulesError(
                    "hand_size",
                    f"{n} hands of {sizes[n]} need {sizes[n] * n} tiles; "
                    f"the double-{self.max_pip} set has {ntiles - set_aside} to deal",
                    code="not_enough_tiles",
                    players=n,
                    size=sizes[n],
                    need=sizes[n] * n,
                    max_pip=self.max_pip,
                    have=ntiles - set_aside,
                )
        if not self.rounds:
            raise RulesError("rounds", "needs at least one round", code="no_rounds")
        if len(self.rounds) > MAX_ROUNDS:
            raise RulesError(
                "rounds",
                f"a match has at most {MAX_ROUNDS} rounds, not {len(self.rounds)}",
                code="max_rounds",
                high=MAX_ROUNDS,
                count=len(self.rounds),
            )
        for pip in self.rounds:
            if not 0 <= pip <= self.max_pip:
                raise RulesError(
                    "rounds",
                    f"engine {pip} is not a double of the double-{self.max_pip} set",
                    code="engine_not_in_set",
                    pip=pip,
                    max_pip=self.max_pip,
                )
        holder = self.engine_setup == "holder_starts"
        if holder != (self.first_player == "engine_holder"):
            raise RulesError(
                "first_player",
                "engine_holder goes with engine_setup holder_starts, and rotate with set_aside",
                code="first_player_setup",
            )

    # -- derived ------------------------------------------------------------------------

    def hand_size_for(self, players: int) -> int:
        self.check_players(players)
        return dict(self.hand_size)[players]

    def allows_players(self, players: int) -> bool:
        return self.players[0] <= players <= self.players[1]

    def check_players(self, players: int) -> None:
        if isinstance(players, bool) or not isinstance(players, int):
            raise TypeError(f"players is a whole number of seats, not {players!r}")
        if not self.allows_players(players):
            lo, hi = self.players
            if lo == hi:  # (not "for 2 to 2 players")
                raise RulesError(
                    "players",
                    f"these rules are for {lo} players, not {players}",
                    code="players_exactly",
                    low=lo,
                    players=players,
                )
            raise RulesError(
                "players",
                f"these rules are for {lo} to {hi} players, not {players}",
                code="players",
                low=lo,
                high=hi,
                players=players,
            )

    @property
    def round_count(self) -> int:
        return len(self.rounds)

    def engine_for(self, round_index: int) -> int:
        return self.rounds[round_index]

    @property
    def overrides(self) -> tuple[tuple[str, Any], ...]:
        """The options that differ from the preset, in JSON form (`to_spec` order)."""
        base = PRESETS[self.preset_name]
        out = []
        for f in fields(self):
            if f.name == "preset_name":
                continue
            value = getattr(self, f.name)
            if value != getattr(base, f.name):
                out.append((f.name, _json_value(f.name, value)))
        return tuple(out)

    def to_spec(self) -> str | dict[str, Any]:
        """The ``rules`` field of a record: the preset name, or the preset plus the options
        that differ from it, as few and as plain as possible (``"rounds": 4`` for the first
        four engines; no ``players`` where the ``hand_size`` table implies it).
        ``Rules.from_spec(rules.to_spec()) == rules`` always."""
        overrides = dict(self.overrides)
        if not overrides:
            return self.preset_name
        # `with_options` works out an option left out from another one given: the engines
        # and the hand_size table (required) from max_pip, the seats from hand_size. So
        # where that other one is written, these are too, even if they are the preset's
        # (a double-13 set played with the engines 12 to 0 read as 13 to 0 without them);
        # below they are left out again where reading would work out the same value.
        for given, implied in (("max_pip", ("hand_size", "rounds")), ("hand_size", ("players",))):
            if given in overrides:
                for key in implied:
                    overrides.setdefault(key, _json_value(key, getattr(self, key)))
        order = [f.name for f in fields(self)]
        spec: dict[str, Any] = {
            "preset": self.preset_name,
            **dict(sorted(overrides.items(), key=lambda item: order.index(item[0]))),
        }
        count = len(self.rounds)
        if "rounds" in spec and self.rounds == tuple(range(self.max_pip, self.max_pip - count, -1)):
            spec["rounds"] = count
        for key in ("players", "rounds", "hand_size"):
            if key in spec:
                shorter = {k: v for k, v in spec.items() if k != key}
                try:
                    same = Rules.from_spec(shorter) == self
                except RulesError:
                    same = False
                if same:
                    spec = shorter
        return spec

    def describe(self) -> dict[str, Any]:
        """Every option and its value (for docs and UIs)."""
        return {f.name: _json_value(f.name, getattr(self, f.name)) for f in fields(self)}


def _json_value(name: str, value: Any) -> Any:
    if name == "hand_size":
        return {str(k): v for k, v in value}
    if isinstance(value, tuple):
        return list(value)
    return value


def _hand_size_example(have: int) -> str:
    """A hand_size table that a set with ``have`` tiles to deal can play, for 2 to 4
    players (`HAND_SIZE_EXAMPLE`, its hands made smaller where the set is too small)."""
    table = json.loads(HAND_SIZE_EXAMPLE)
    sizes = {n: min(size, have // int(n)) for n, size in table.items()}
    return json.dumps({n: size for n, size in sizes.items() if size >= 1})


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _normalise(key: str, value: Any) -> Any:
    """Check one option's type and range; return it in the form `Rules` stores."""
    if key in _CHOICES:
        if value not in _CHOICES[key]:
            choices = ", ".join(_CHOICES[key])
            raise RulesError(
                key,
                f"must be one of {choices}, not {show_value(value)}",
                code="choice",
                choices=choices,
                value=show_value(value),
            )
        return value
    if key in (*_FLAGS, "first_turn_run"):
        if not isinstance(value, bool):
            raise RulesError(
                key,
                f"must be true or false, not {show_value(value)}",
                code="true_false",
                value=show_value(value),
            )
        return value
    if key == "double_blank_points":
        if not _is_int(value) or value not in (0, 25, 50):
            raise RulesError(
                key,
                f"the double blank counts 25 or 50 points (0: off), not {show_value(value)}",
                code="double_blank",
                value=show_value(value),
            )
        return value
    if key in _POINTS:
        if not _is_int(value) or not 0 <= value <= MAX_PENALTY:
            raise RulesError(
                key,
                f"must be a whole number of points from 0 to {MAX_PENALTY}, "
                f"not {show_value(value)}",
                code="points",
                high=MAX_PENALTY,
                value=show_value(value),
            )
        return value
    if key == "max_pip":
        if not _is_int(value) or not 1 <= value <= 30:
            raise RulesError(
                key,
                f"must be a whole number from 1 to 30, not {show_value(value)}",
                code="number_range",
                low=1,
                high=30,
                value=show_value(value),
            )
        return value
    if key == "players":
        if isinstance(value, list | tuple) and len(value) == 2 and all(_is_int(v) for v in value):
            return (int(value[0]), int(value[1]))
        if _is_int(value):
            return (value, value)
        raise RulesError(
            key,
            f"must be [fewest, most] seats, not {show_value(value)}",
            code="seat_pair",
            value=show_value(value),
        )
    if key == "hand_size":
        if not isinstance(value, Mapping) or not value:
            raise RulesError(
                key,
                f"must be a table of player count to tiles per hand, like {HAND_SIZE_EXAMPLE}, "
                f"not {show_value(value)}",
                code="hand_size_table",
                example=HAND_SIZE_EXAMPLE,
                value=show_value(value),
            )
        table: dict[int, int] = {}
        for k, v in value.items():
            try:
                if isinstance(k, str) and not (k.isascii() and k.isdigit()):
                    raise ValueError(k)  # " 2", "+5", "٢": a count is written in digits
                n = int(k)
            except (TypeError, ValueError):
                raise RulesError(
                    key,
                    f"{show_value(k)} is not a player count",
                    code="hand_size_count",
                    entry=show_value(k),
                ) from None
            if isinstance(k, bool) or n < 2 or not _is_int(v) or v < 1:
                raise RulesError(
                    key,
                    f"{show_value(k)}: {show_value(v)} is not a player count and hand size "
                    "(2 players or more, 1 tile or more)",
                    code="hand_size_entry",
                    entry=show_value(k),
                    value=show_value(v),
                    fewest=2,
                    least=1,
                )
            if n in table:  # "2" and "02": two sizes for one count contradict each other
                raise RulesError(
                    key,
                    f"two hand sizes for {n} players",
                    code="hand_size_twice",
                    players=n,
                )
            table[n] = v
        return tuple(sorted(table.items()))
    if key == "rounds":
        if _is_int(value):
            if value < 1:
                raise RulesError(
                    key, f"must be at least 1 round, not {value}", code="min_rounds", value=value
                )
            return value
        if isinstance(value, list | tuple) and value and all(_is_int(v) for v in value):
            return tuple(value)
        raise RulesError(
            key,
            "must be a number of rounds (like 4) or a list of engine pips (like [12, 11, 10]), "
            f"not {show_value(value)}",
            code="rounds_list",
            value=show_value(value),
        )
    raise RulesError(key, "unknown option", code="unknown_option")  # pragma: no cover


_BASE = Rules()

PRESETS: dict[str, Rules] = {
    "classic": _BASE,
    "relaxed": replace(
        _BASE, preset_name="relaxed", double_follow_up="no_double", open_doubles_block=False
    ),
    "cardinal": replace(
        _BASE,
        preset_name="cardinal",
        players=(4, 10),
        hand_size=tuple(_CARDINAL_HANDS.items()),
        engine_setup="holder_starts",
        first_player="engine_holder",
        first_turn="run",
        open_doubles_block=False,
        own_train_first=True,
        marker_rule="no_own_play",
    ),
}
PRESET_NAMES: tuple[str, ...] = tuple(PRESETS)

for _rules in PRESETS.values():
    _rules.validate()


def check_rules(rules: object) -> None:
    """Raise a `TypeError` saying what ``rules`` must be, unless it is a `Rules` (a preset's
    name is not: ``Rules.preset("classic")`` makes its rules)."""
    if not isinstance(rules, Rules):
        raise TypeError(f"rules are a Rules, e.g. Rules.preset('classic'), not {rules!r}")
