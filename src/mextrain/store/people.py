"""Who a person is in the statistics: the name they played under, read as one person
whatever its case, the spaces around and inside it, or how its accents are encoded."""

from __future__ import annotations

import unicodedata

__all__ = ["person_key", "shown_person"]


def shown_person(name: str) -> str:
    """``name`` as the statistics show it: composed (NFC: an "é" typed as "e" and a
    combining accent is the one character "é"), no space around it and one space between
    its words."""
    return " ".join(unicodedata.normalize("NFC", name).split())


def person_key(name: str) -> str:
    """What tells people apart in the statistics: `shown_person`'s spelling, case folded
    (`str.casefold`), composed again (folding may decompose: "ǰ" folds to "j" and a
    combining caron). "Ana", "ana", " Ana " and "ANA" are one person; "Ana" and "Anna", or
    "Ana" and "Aña", are two. Stricter readings (look-alike letters of other scripts, as a
    table's names are refused with) are no business of the statistics: they count names
    people did play under, and a player who wants two to be one chooses one name."""
    return unicodedata.normalize("NFC", shown_person(name).casefold())
