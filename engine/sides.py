"""The two sides of the war, as the engine names them at its seam.

``Side`` members compare equal to (and pack as) their plain strings, which is what
turn files, saved states and the protocol carry.
"""

from __future__ import annotations

from enum import StrEnum


class Side(StrEnum):
    AXIS = "axis"
    ALLIES = "allies"


AXIS, ALLIES = Side.AXIS, Side.ALLIES
SIDES = (AXIS, ALLIES)
#: a country's partnership before it joins a side
NEUTRAL = "neutral"


def other(side: str) -> Side:
    return ALLIES if side == AXIS else AXIS
