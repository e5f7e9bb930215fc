"""What a side has, told for people: its countries' money and pools, and its units with
where they stand.  Read by `pbem show`; nothing here decides a rule."""

from __future__ import annotations

from dataclasses import dataclass

from engine.state import NO_UNIT, GameState


@dataclass(frozen=True, slots=True)
class CountryLine:
    name: str
    money: int
    status: str  # "at war", "not at war" or "conquered"
    to_place: str  # land points and units waiting to be placed, as text ("-" for none)
    pool_points: int
    pool_units: int


@dataclass(frozen=True, slots=True)
class UnitLine:
    label: str
    where: str  # "off the map", or the hex with its city and carrier
    flags: tuple[str, ...]  # "damaged", "out of supply"


@dataclass(frozen=True, slots=True)
class Summary:
    countries: tuple[CountryLine, ...]
    units: tuple[UnitLine, ...]


def summary(state: GameState, side: str) -> Summary:
    """The countries of ``side`` (by name) and its units (by country, hex and id)."""
    countries = []
    for name in sorted(state.countries):
        c = state.countries[name]
        if c.side != side:
            continue
        status = "conquered" if c.conquered else "at war" if c.at_war else "not at war"
        free = ", ".join(f"{n} {k}" for k, n in sorted(c.free_land.items()) if n)
        to_place = (free or "-") + (f" + {len(c.free_units)} units" if c.free_units else "")
        countries.append(CountryLine(name, c.money, status, to_place, sum(c.pool_land.values()), len(c.pool_units)))
    grid, cities = state.world.map.grid, state.world.map.city_at
    units = []
    for u in sorted(
        (u for u in state.units.values() if state.countries[u.country].side == side),
        key=lambda u: (u.country, u.hex, u.id),
    ):
        if u.hex < 0:
            where = "off the map"
        else:
            city = cities.get(u.hex)
            where = grid.label(u.hex) + (f" [{city.name}]" if city else "")
            if u.carrier != NO_UNIT:
                where += f" aboard #{u.carrier}"
        flags = tuple(f for f, on in (("damaged", u.damaged), ("out of supply", not u.supplied)) if on)
        units.append(UnitLine(u.label(), where, flags))
    return Summary(tuple(countries), tuple(units))
