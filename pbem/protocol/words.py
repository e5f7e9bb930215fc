"""The game's names as a person reads them: phases in plain words and the sides in sentences
(``the Allies' orders``, never "allies's orders").  Light and low: every layer may use it."""

from __future__ import annotations


def phase_name(phase: str) -> str:
    """``axis.first_movement`` -> ``Axis first movement``; ``war_declaration`` -> ``War declaration``."""
    words = phase.replace(".", " ").replace("_", " ")
    words = words.replace("allies ", "Allied ", 1) if words.startswith("allies ") else words
    return words[:1].upper() + words[1:]


def sides(side: str) -> str:
    """A side as a sentence names it: ``the Axis``, ``the Allies``."""
    return {"axis": "the Axis", "allies": "the Allies"}.get(side, side)


def sides_of(side: str) -> str:
    """Its possessive: ``the Axis'``, ``the Allies'``."""
    return sides(side) + ("'" if side in ("axis", "allies") else "'s")
