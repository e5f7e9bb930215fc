"""Unit types and their numbers: the rulebook's "Types of Units", "Buying Units"
and "Strength Points" tables.

A *profile* (:class:`UnitProfile`) is what a counter prints: a named unit of one
country with its strengths and movement allowance.  Land units are bought and
lose strength one point at a time, so a land profile's ``strength`` is the unit's
current number of strength points; naval and air profiles are fixed.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Domain(StrEnum):
    LAND = "land"
    NAVAL = "naval"
    AIR = "air"


class UnitType(StrEnum):
    # land
    INFANTRY = "infantry"
    ARMOR = "armor"
    PARATROOPER = "paratrooper"
    MARINE = "marine"
    SUPPLY = "supply"
    # naval
    BATTLESHIP = "battleship"
    BATTLECRUISER = "battlecruiser"
    HEAVY_CRUISER = "heavy_cruiser"
    LIGHT_CRUISER = "light_cruiser"
    DESTROYER = "destroyer"
    DESTROYER_ESCORT = "destroyer_escort"
    KAIBOKAN = "kaibokan"
    SUBMARINE = "submarine"
    CARRIER = "carrier"
    TRANSPORT = "transport"
    CONVOY = "convoy"
    # air
    FIGHTER = "fighter"
    BOMBER = "bomber"
    FIGHTER_BOMBER = "fighter_bomber"
    AIR_TRANSPORT = "air_transport"
    BOMBER_TRANSPORT = "bomber_transport"

    @property
    def domain(self) -> Domain:
        return _DOMAIN[self]


_LAND = {UnitType.INFANTRY, UnitType.ARMOR, UnitType.PARATROOPER, UnitType.MARINE, UnitType.SUPPLY}
_AIR = {
    UnitType.FIGHTER,
    UnitType.BOMBER,
    UnitType.FIGHTER_BOMBER,
    UnitType.AIR_TRANSPORT,
    UnitType.BOMBER_TRANSPORT,
}
_DOMAIN = {t: Domain.LAND if t in _LAND else Domain.AIR if t in _AIR else Domain.NAVAL for t in UnitType}

#: Ships that cannot attack: transports, carriers and convoys ("T", "C", "$").
NON_COMBAT_SHIPS = frozenset({UnitType.CARRIER, UnitType.TRANSPORT, UnitType.CONVOY})


@dataclass(frozen=True, slots=True)
class Cost:
    price: int  # $B; for land units, per strength point
    delay: int  # months from the build phase to the deployment phase of arrival


#: "Buying Units" table.  Land costs are per strength point (the paratrooper is one point).
COSTS: dict[UnitType, Cost] = {
    UnitType.INFANTRY: Cost(100, 1),
    UnitType.ARMOR: Cost(200, 3),
    UnitType.MARINE: Cost(200, 3),
    UnitType.PARATROOPER: Cost(300, 3),
    UnitType.SUPPLY: Cost(0, 1),
    UnitType.FIGHTER: Cost(800, 4),
    UnitType.FIGHTER_BOMBER: Cost(800, 4),
    UnitType.BOMBER: Cost(600, 4),
    UnitType.BOMBER_TRANSPORT: Cost(600, 4),
    UnitType.AIR_TRANSPORT: Cost(300, 2),
    UnitType.CARRIER: Cost(1400, 12),  # includes its carrier-based air unit
    UnitType.CONVOY: Cost(50, 2),
    UnitType.DESTROYER_ESCORT: Cost(400, 3),
    UnitType.DESTROYER: Cost(500, 6),
    UnitType.KAIBOKAN: Cost(150, 3),
    UnitType.LIGHT_CRUISER: Cost(200, 6),
    UnitType.SUBMARINE: Cost(500, 6),
    UnitType.TRANSPORT: Cost(400, 2),
    UnitType.BATTLECRUISER: Cost(1400, 12),
    UnitType.BATTLESHIP: Cost(1400, 12),
    UnitType.HEAVY_CRUISER: Cost(1400, 12),
}

REPAIR_COST = 200  # damaged naval or air unit, or a bombed city/resource hex
FORTIFICATION_COST, FORTIFICATION_DELAY = 500, 3
AIRFIELD_COST, AIRFIELD_DELAY = 400, 3

#: Default movement allowances of land units (the rulebook's counters: infantry 3;
#: armor is faster).  Scenario data may give other values per profile.
LAND_MOVE = {
    UnitType.INFANTRY: 3,
    UnitType.MARINE: 3,
    UnitType.PARATROOPER: 3,
    UnitType.SUPPLY: 3,
    UnitType.ARMOR: 5,
}


#: The rulebook's "Strength Points" table: the most points one land unit of an owner may
#: hold, as (before 1943, from 1943) per column; 0 where the owner has no such unit.
#: Germany's infantry has two rows: movement allowance 3 and movement allowance 2.
STRENGTH_POINTS: dict[str, dict[str, tuple[int, int]]] = {
    #                 infantry/marine  armor     paratrooper
    "China":          {"infantry": (3, 3), "armor": (0, 0),   "paratrooper": (0, 0)},
    "France":         {"infantry": (6, 6), "armor": (8, 8),   "paratrooper": (0, 0)},
    "Germany":        {"infantry": (8, 8), "armor": (10, 12), "paratrooper": (1, 1), "infantry/2": (5, 5)},
    "Soviet Union":   {"infantry": (5, 6), "armor": (8, 8),   "paratrooper": (1, 1)},
    "United Kingdom": {"infantry": (6, 8), "armor": (8, 10),  "paratrooper": (1, 1)},
    "United States":  {"infantry": (8, 8), "armor": (12, 12), "paratrooper": (1, 1)},
    "Other":          {"infantry": (5, 5), "armor": (8, 8),   "paratrooper": (1, 1)},
}  # fmt: skip


def max_strength(country: str, unit_type: UnitType, year: int, move: int = 3) -> int:
    """Largest number of strength points one land unit may hold ("Strength Points" table).

    ``move`` distinguishes Germany's late-war infantry (movement 2, at most 5 points).
    """
    if unit_type is UnitType.SUPPLY:
        return 0
    row = STRENGTH_POINTS.get(country, STRENGTH_POINTS["Other"])
    if unit_type in (UnitType.INFANTRY, UnitType.MARINE):
        column = "infantry"
    else:
        column = "paratrooper" if unit_type is UnitType.PARATROOPER else "armor"
    if column == "infantry" and move == 2 and "infantry/2" in row:
        column = "infantry/2"
    before, since = row[column]
    return before if year < 1943 else since


@dataclass(frozen=True, slots=True)
class UnitProfile:
    """What a counter shows.  Unused numbers are 0.

    land:  ``strength`` (strength points) and ``move``;
    naval: ``attack`` (surface), ``sub_attack``, ``defense``, ``move``;
    air:   ``attack`` (fighter strength), ``bomber``, ``defense``, ``move``,
           ``carrier_based`` ("C" by the movement allowance), ``kamikaze`` ("K": kamikaze only).
    """

    type: UnitType
    name: str = ""
    strength: int = 0
    attack: int = 0
    sub_attack: int = 0
    bomber: int = 0
    defense: int = 0
    move: int = 0
    carrier_based: bool = False
    kamikaze: bool = False

    @property
    def domain(self) -> Domain:
        return self.type.domain

    def words(self) -> str:
        """The counter's numbers named, as the rulebook names the corners ("Units")."""
        if self.domain is Domain.LAND:
            return f"strength {self.strength}, movement {self.move}"
        rest = f"defence {self.defense}, movement {self.move}"
        if self.domain is Domain.NAVAL:
            # a transport, carrier or convoy has a letter where a warship has its surface attack
            lettered = self.type in (UnitType.TRANSPORT, UnitType.CARRIER, UnitType.CONVOY)
            surface = "" if lettered else f"surface attack {self.attack}, "
            return f"{surface}submarine attack {self.sub_attack}, {rest}"
        fighter = "" if self.type in (UnitType.AIR_TRANSPORT, UnitType.BOMBER_TRANSPORT) else f"fighter {self.attack}, "
        return f"{fighter}bomber {self.bomber}, {rest}"

    def text(self) -> str:
        """The counter's numbers as a player reads them, e.g. ``3-1-3-52``."""
        if self.domain is Domain.LAND:
            return f"{self.strength}-{self.move}"
        if self.domain is Domain.NAVAL:
            first = {UnitType.TRANSPORT: "T", UnitType.CARRIER: "C", UnitType.CONVOY: "$"}.get(self.type)
            return f"{first or self.attack}-{self.sub_attack}-{self.defense}-{self.move}"
        first = "T" if self.type in (UnitType.AIR_TRANSPORT, UnitType.BOMBER_TRANSPORT) else str(self.attack)
        bomber = f"{self.bomber}K" if self.kamikaze else str(self.bomber)
        move = f"{self.move}C" if self.carrier_based else str(self.move)
        return f"{first}-{bomber}-{self.defense}-{move}"
