"""Game records (docs/RECORDS.md): write a match down, read one back, replay it under its rules.

Depends only on `mextrain.rules`: the engine decides what is legal, this package reads,
writes and compares.
"""

from .errors import IllegalRecordError, RecordError, RecordFormatError, shorten_numbers
from .record import (
    FORMAT,
    RECORD_SHAPE,
    VERSION,
    GameRecord,
    RecordedAction,
    RecordResult,
    RoundRecord,
    dumps_pretty,
    load_record,
    parse_json,
    show_number,
)
from .replay import ReplayResult, RoundOutcome, replay_record

__all__ = [
    "FORMAT",
    "RECORD_SHAPE",
    "VERSION",
    "GameRecord",
    "IllegalRecordError",
    "RecordError",
    "RecordFormatError",
    "RecordResult",
    "RecordedAction",
    "ReplayResult",
    "RoundOutcome",
    "RoundRecord",
    "dumps_pretty",
    "load_record",
    "parse_json",
    "replay_record",
    "shorten_numbers",
    "show_number",
]
