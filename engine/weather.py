"""Weather zones and conditions by month, and grounding of air units (rulebook: "Weather").

The condition of a hex depends only on its weather zone and the month, so every
query is two table look-ups; hot loops (movement, supply) can also take
:func:`zone_conditions` once and index it by ``HexMap.weather`` themselves.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from engine.hexmap import HexMap, WeatherZone
from engine.phase import Phase

if TYPE_CHECKING:
    from engine.rng import Rng
    from engine.state import GameState

NONE = "none"
SEVERE_WINTER = "severe_winter"
MILD_WINTER = "mild_winter"
SPRING = "spring"
MONSOON = "monsoon"

# Rulebook "Weather Zones" table: condition per season, seasons being
# December-February, March-May, June-August, September-November.
_BY_SEASON: dict[WeatherZone, tuple[str, str, str, str]] = {
    WeatherZone.POLAR: (SEVERE_WINTER, SPRING, NONE, MILD_WINTER),
    WeatherZone.NORTH_TEMPERATE: (MILD_WINTER, SPRING, NONE, NONE),
    WeatherZone.SOUTH_TEMPERATE: (NONE, NONE, MILD_WINTER, SPRING),
    WeatherZone.INDUSTRIAL: (NONE, NONE, NONE, NONE),
    WeatherZone.FAIR: (NONE, NONE, NONE, NONE),
    WeatherZone.TROPICAL: (NONE, NONE, MONSOON, NONE),
}
_ZONES = tuple(sorted(WeatherZone))
ZONE_NAMES = {
    WeatherZone.POLAR: "polar",
    WeatherZone.NORTH_TEMPERATE: "northern temperate",
    WeatherZone.SOUTH_TEMPERATE: "southern temperate",
    WeatherZone.INDUSTRIAL: "industrialized",
    WeatherZone.FAIR: "fair",
    WeatherZone.TROPICAL: "tropical",
}


def _season(month: int) -> int:
    """0 = Dec-Feb, 1 = Mar-May, 2 = Jun-Aug, 3 = Sep-Nov (month 0 = January)."""
    return (month + 1) % 12 // 3


#: ``_TABLE[month][zone]`` -> condition; month 0 is January.
_TABLE: tuple[tuple[str, ...], ...] = tuple(tuple(_BY_SEASON[z][_season(m)] for z in _ZONES) for m in range(12))

#: Chance of air units being grounded for a month with this condition.
GROUNDING: dict[str, Fraction] = {
    SEVERE_WINTER: Fraction(60, 100),
    MILD_WINTER: Fraction(30, 100),
    SPRING: Fraction(30, 100),
    MONSOON: Fraction(60, 100),
}

#: Conditions that cost one extra movement point to enter ("Mild Winter", "Spring", "Monsoon").
SLOW = frozenset({MILD_WINTER, SPRING, MONSOON})
#: Conditions that double land defence and prohibit overruns ("Spring"; "Monsoon": same effects).
MUD = frozenset({SPRING, MONSOON})


def zone_conditions(date: int) -> tuple[str, ...]:
    """Condition of every weather zone (indexed by zone number) in the month ``date``."""
    return _TABLE[date % 12]


def condition(state: GameState, h: int) -> str:
    """Weather condition of hex ``h`` this month."""
    return _TABLE[state.date % 12][state.world.map.weather[h]]


def extra_move_cost(state: GameState, h: int) -> int:
    """Extra movement points to enter hex ``h`` (spring, mild winter, monsoon: +1)."""
    return 1 if _TABLE[state.date % 12][state.world.map.weather[h]] in SLOW else 0


def mud(state: GameState, h: int) -> bool:
    """Spring or monsoon in hex ``h``: defence doubled, no overrun into or out of it."""
    return _TABLE[state.date % 12][state.world.map.weather[h]] in MUD


def air_grounded(state: GameState, h: int) -> bool:
    """Are air units grounded in hex ``h`` this month (rolled at the last supply phase)?"""
    return state.world.map.weather[h] in state.grounded_zones


def icecap_frozen(state: GameState, h: int) -> bool:
    """Severe winter in hex ``h``: its icecap hexsides are frozen.

    A land step or supply line along ``HexMap.frozen_neighbours`` from ``a`` to ``b``
    is open when both ``a`` and ``b`` are frozen (docs/rules-decisions.md)."""
    return _TABLE[state.date % 12][state.world.map.weather[h]] == SEVERE_WINTER


def frozen_zones(date: int) -> frozenset[int]:
    """Weather zones whose icecap hexsides are frozen in the month ``date``."""
    row = _TABLE[date % 12]
    return frozenset(z for z in _ZONES if row[z] == SEVERE_WINTER)


# --- Soviet/Finnish winter bonus ("Severe Winter") --------------------------------

WINTER_NATIONS = frozenset({"Soviet Union", "Finland"})


def _winter_of(date: int) -> int | None:
    """The winter a date falls in, named by the year of its January (None outside Dec-Feb)."""
    month = date % 12
    if month == 11:
        return date // 12 + 1
    if month in (0, 1):
        return date // 12
    return None


def soviet_invasion_date(state: GameState) -> int | None:
    """Date the Axis declared war on the Soviet Union, or None.

    The Soviet Union's ``axis_war`` flag (set by whoever records the declaration)
    wins; otherwise the date the Soviet Union entered the war on the Allied side,
    which only an Axis declaration can cause (rulebook "War Declaration")."""
    su = state.countries.get("Soviet Union")
    if su is None:
        return None
    if su.flags.axis_war is not None:
        return su.flags.axis_war
    if su.side == "allies" and su.at_war and su.entered >= 0:
        return su.entered
    return None


def winter_bonus(state: GameState, country: str, h: int) -> tuple[int, int]:
    """(attack factor, defence factor) of the Soviet/Finnish winter bonus for a land
    unit of ``country`` in hex ``h`` this month: (2, 2) in the first winter after the
    Axis declared war on the Soviet Union, (1, 2) in the second, else (1, 1)."""
    if country not in WINTER_NATIONS or condition(state, h) != SEVERE_WINTER:
        return 1, 1
    invaded = soviet_invasion_date(state)
    if invaded is None or invaded > state.date:
        return 1, 1
    now = _winter_of(state.date)
    assert now is not None  # severe winter only occurs December to February
    during = _winter_of(invaded)
    if during is None:
        first: tuple[int, ...] = (invaded // 12 + 1,)  # the coming winter
    elif invaded % 12 == 11:
        first = (during,)  # invaded in December: only this winter
    else:
        first = (during, during + 1)  # invaded in January or February: this winter and the next
    second = first[-1] + 1
    if now in first:
        return 2, 2
    if now == second:
        return 1, 2
    return 1, 1


# --- the weather roll -------------------------------------------------------------


def _grounding_chances(hexmap: HexMap, date: int) -> list[tuple[int, Fraction]]:
    """Zones of the map rolled for the month ``date`` and their chances, in zone order.

    The industrialized zone is not rolled: it follows the northern temperate zone."""
    row = _TABLE[date % 12]
    zones = hexmap.weather_zones
    return [(z, GROUNDING[row[z]]) for z in _ZONES if row[z] in GROUNDING and z in zones]


class WeatherRoll(Phase):
    """Which weather zones ground air units next month (rolled at the end of the supply phase)."""

    name = "weather"
    kind = "chance"

    def enter(self, state: GameState) -> None:
        # The month's grounding is over: every movement of the month is done.
        state.grounded_zones = set()

    def needed(self, state: GameState, side: str) -> bool:
        # The date advances right after this step, so the roll is for date + 1; no dice
        # when no zone of the map has grounding weather then (only on test maps).
        return bool(_grounding_chances(state.world.map, state.date + 1))

    def roll(self, state: GameState, rng: Rng) -> list[str]:
        nxt = state.date + 1
        row = _TABLE[nxt % 12]
        month = f"{nxt // 12:04d}-{nxt % 12 + 1:02d}"
        grounded: set[int] = set()
        log = []
        for zone, chance in _grounding_chances(state.world.map, nxt):
            hit = rng.chance(chance)
            what = row[zone].replace("_", " ")
            zname = ZONE_NAMES[WeatherZone(zone)]
            verdict = "grounded" if hit else "may fly"
            log.append(f"weather {month}: {zname} zone ({what}, {int(chance * 100)}% chance): air units {verdict}")
            if hit:
                grounded.add(int(zone))
        if WeatherZone.NORTH_TEMPERATE in grounded:
            grounded.add(int(WeatherZone.INDUSTRIAL))
            log.append(f"weather {month}: industrialized zone: air units grounded with the northern temperate zone")
        state.grounded_zones = grounded
        return log
