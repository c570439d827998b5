"""The rules core: pure, standard library only, no I/O and no global randomness.

Everything else in mextrain asks this package what is legal and applies actions through it.
"""

from .actions import DRAW, MEXICAN, PASS, Action, ActionFormatError, parse_action, train_name
from .errors import DealError, IllegalActionError, RulesError
from .match import Match, winners_of
from .options import PRESET_NAMES, PRESETS, Rules
from .round import RoundEnd, RoundState, ScoreParts, deal_round
from .tiles import (
    Shortened,
    Tile,
    TileFormatError,
    TileSet,
    iter_bits,
    parse_tile,
    show_text,
    show_value,
    tile_set,
)
from .turn import TurnState
from .view import SeatView, TrainView

__all__ = [
    "DRAW",
    "MEXICAN",
    "PASS",
    "PRESETS",
    "PRESET_NAMES",
    "Action",
    "ActionFormatError",
    "DealError",
    "IllegalActionError",
    "Match",
    "RoundEnd",
    "RoundState",
    "Rules",
    "RulesError",
    "ScoreParts",
    "SeatView",
    "Shortened",
    "Tile",
    "TileFormatError",
    "TileSet",
    "TrainView",
    "TurnState",
    "deal_round",
    "iter_bits",
    "parse_action",
    "parse_tile",
    "show_text",
    "show_value",
    "tile_set",
    "train_name",
    "winners_of",
]
