"""The switches that set the heuristic players apart.

``v1`` is the bot as it stood when it was frozen as the reference player every
improvement is measured against: every switch off.  ``bot`` has the improvements made
since.  One code path with switches, rather than a copy of the bot, keeps ``v1``
playable without two bots to maintain; a switch's off side must keep v1's decisions
exactly (tests/ai/test_reference.py pins them).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Style:
    #: keep capitals and home cities held against the enemy land units that could reach them
    garrisons: bool = True
    #: place the free supply units at a deployment with the front stacks (v1 left them in the pool)
    supply_units: bool = True
    #: an empty capital an enemy could reach gets a unit before anything else moves
    capital_guard: bool = True
    #: until the Pacific war, Japan's transports shuttle between home ports and the
    #: mainland, several trips a movement, before any landing may take them, and its home
    #: islands keep no garrison against an enemy without transports (:func:`engine.ai.ferry.shuttle`)
    shuttle: bool = True


#: The latest bot: every switch on.
LATEST = Style()
#: The heuristic players by name.
STYLES: dict[str, Style] = {
    "bot": LATEST,
    "v1": Style(garrisons=False, supply_units=False, capital_guard=False, shuttle=False),
}
