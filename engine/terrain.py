"""The rulebook's Terrain table as data ("Terrain"; supplement: icecap), and the one
question every rule asks of it: may a land unit of this type enter this hex?

Movement, retreats, advances after combat, disembarking and deployment all ask
:func:`barred_terrain`; combat reads :data:`TERRAIN` for the defence factor and supply
for the hexes a supply line may pass through.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from engine.hexmap import HexMap, Terrain
from engine.units import UnitType


@dataclass(frozen=True, slots=True)
class TerrainEffects:
    """One row of the Terrain table."""

    name: str
    #: Armor units may not enter desert hexes (supplement: nor icecap hexes).
    armor_may_enter: bool = True
    #: Extra movement points a land unit pays to enter the hex.
    extra_move: int = 0
    #: Defending land units' strength is multiplied by this when losses are worked out.
    defence: Fraction = Fraction(1)
    #: Supply lines may be traced into the hex but not through it when False.
    supply_passes: bool = True
    #: Land units may move from one such hex in an enemy control zone to the next (forest).
    zoc_to_zoc: bool = False


TERRAIN: dict[Terrain, TerrainEffects] = {
    Terrain.SEA: TerrainEffects("sea"),
    Terrain.CLEAR: TerrainEffects("clear"),
    Terrain.FOREST: TerrainEffects("forest", defence=Fraction(3, 2), zoc_to_zoc=True),
    Terrain.MOUNTAIN: TerrainEffects("mountain", defence=Fraction(3, 2)),
    Terrain.TALL_MOUNTAIN: TerrainEffects("tall mountain", extra_move=1, defence=Fraction(2), supply_passes=False),
    Terrain.DESERT: TerrainEffects("desert", armor_may_enter=False, supply_passes=False),
    Terrain.ICECAP: TerrainEffects("icecap", armor_may_enter=False),
}


#: The same table by the raw terrain code of the map's bytes, for the inner loops of the
#: movement search (looking up an enum member costs more than the step it decides).
BY_CODE: tuple[TerrainEffects, ...] = tuple(TERRAIN[t] for t in sorted(Terrain))


def barred_terrain(hexmap: HexMap, unit_type: str, h: int) -> str:
    """The name of ``h``'s terrain if a land unit of ``unit_type`` may never enter it, else ''."""
    effects = BY_CODE[hexmap.terrain[h]]
    if not effects.armor_may_enter and unit_type == UnitType.ARMOR:
        return effects.name
    return ""
