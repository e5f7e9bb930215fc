"""What a scenario contains, told for people: the data behind `pbem scenario info`.

Everything here reads the scenario data (:mod:`engine.scenario`) and the map; nothing
decides a rule.
"""

from __future__ import annotations

from collections import Counter
from typing import TypedDict

from engine.hexmap import HexMap, Kind
from engine.scenario import Scenario, Units, format_date, scenario_digest
from engine.units import LAND_MOVE


class NamedUnit(TypedDict):
    name: str
    type: str
    profile: str


class PoolSummary(TypedDict):
    land: dict[str, int]
    supply: int
    naval: dict[str, int]
    air: dict[str, int]
    naval_units: list[NamedUnit]
    air_units: list[NamedUnit]


class CountryInfo(TypedDict):
    name: str
    code: str
    region: str
    partnership: str
    joins_at_start: str | None
    leans_allied: bool
    leans_axis: bool
    has_units: bool
    rail_capacity: int
    money: int
    colonies: list[str]
    pool: PoolSummary


class CityInfo(TypedDict):
    name: str
    country: str
    hex: str
    capital: bool
    major_port: bool
    resource: bool


class StartControl(TypedDict):
    temp_border: str
    country: str
    first_turn_placement: bool


class ScenarioInfo(TypedDict):
    """`pbem scenario info --json`'s document, as the engine makes it."""

    name: str
    title: str
    start: str
    start_phase: str
    data_digest: str
    map_digest: str
    hexes: int
    land_hexes: int
    resource_hexes: int
    start_control: list[StartControl]
    arrivals: int
    countries: list[CountryInfo]
    cities: list[CityInfo]


def pool_summary(units: Units) -> PoolSummary:
    """A pool in numbers: land points per type (``type/move`` when the move is unusual)."""
    land: dict[str, int] = {}
    for lp in units.land:
        key = lp.type.value if lp.move == LAND_MOVE[lp.type] else f"{lp.type.value}/{lp.move}"
        land[key] = land.get(key, 0) + lp.points
    return {
        "land": land,
        "supply": units.supply,
        "naval": dict(sorted(Counter(p.type.value for p in units.naval).items())),
        "air": dict(sorted(Counter(p.type.value for p in units.air).items())),
        "naval_units": [{"name": p.name, "type": p.type.value, "profile": p.text()} for p in units.naval],
        "air_units": [{"name": p.name, "type": p.type.value, "profile": p.text()} for p in units.air],
    }


def scenario_info(scenario: Scenario, world: HexMap) -> ScenarioInfo:
    """Everything `info --json` prints: the scenario and the map it is played on."""
    label = world.grid.label
    country_of = world.country_of
    colonies: dict[str, list[str]] = {}
    for t in world.territories:
        if t.colony:
            colonies.setdefault(t.country, []).append(t.name)
    countries: list[CountryInfo] = []
    for c in scenario.countries:
        countries.append(
            {
                "name": c.name,
                "code": c.code,
                "region": c.region,
                "partnership": scenario.partnership(c.name),
                "joins_at_start": scenario.joins_at_start.get(c.name),
                "leans_allied": c.leans_allied,
                "leans_axis": c.leans_axis,
                "has_units": c.has_units,
                "rail_capacity": c.rail_capacity,
                "money": scenario.money.get(c.name, 0),
                "colonies": sorted(colonies.get(c.name, [])),
                "pool": pool_summary(scenario.pool(c.name)),
            }
        )
    cities: list[CityInfo] = [
        {
            "name": city.name,
            "country": country_of[city.hex],
            "hex": label(city.hex),
            "capital": city.capital,
            "major_port": city.major_port,
            "resource": city.hex in world.resources,
        }
        for city in world.cities
    ]
    return {
        "name": scenario.name,
        "title": scenario.title,
        "start": format_date(scenario.start),
        "start_phase": scenario.start_phase,
        "data_digest": scenario_digest(scenario.name),
        "map_digest": world.digest(),
        "hexes": world.size,
        "land_hexes": sum(1 for k in world.kind if k != Kind.SEA),
        "resource_hexes": len(world.resources),
        "start_control": [
            {"temp_border": s.temp_border, "country": s.country, "first_turn_placement": s.first_turn_placement}
            for s in scenario.start_control
        ],
        "arrivals": len(scenario.arrivals),
        "countries": countries,
        "cities": cities,
    }
