"""What a side has, told for people: its countries' money and pools, and its units with
where they stand.  Read by `pbem show` and `pbem where`; nothing here decides a rule.

Every hex is written as the order language takes it (``COL,ROW``, or a city as
``[Name]``), never as an internal hex number.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.hexgrid import NO_HEX
from engine.hexmap import City, HexMap
from engine.orders import parse_hex
from engine.state import NO_UNIT, GameState, Unit
from engine.supply import SupplyWords

#: A unit farther than this from every city is placed by its hex alone.
NEAR_CITY = 5


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
    id: int
    side: str
    country: str
    label: str  # how orders name it, with the counter's numbers: "#12 Germany armor 8-5"
    strength: str  # the counter's numbers alone: "8-5" (land), "3-1-3-52" (air and sea)
    hex: str  # COL,ROW; "" off the map
    city: str  # the city in that hex, else the nearest within NEAR_CITY hexes; "" if none
    city_distance: int  # hexes from that city (0: in it)
    aboard: int  # the carrying ship or aircraft, NO_UNIT if none
    flags: tuple[str, ...]  # "damaged", "out of supply"

    @property
    def where(self) -> str:
        """``161,52 [Berlin]``, ``163,55, 2 hexes from [Posen]``, ``off the map``."""
        if not self.hex:
            return "off the map"
        text = self.hex
        if self.city:
            far = self.city_distance
            text += f" [{self.city}]" if far == 0 else f", {far} hex{'es' if far > 1 else ''} from [{self.city}]"
        return text + (f" aboard #{self.aboard}" if self.aboard != NO_UNIT else "")


@dataclass(frozen=True, slots=True)
class Summary:
    countries: tuple[CountryLine, ...]
    units: tuple[UnitLine, ...]


@dataclass(frozen=True, slots=True)
class Near:
    """The units of both sides around one place, nearest first."""

    place: str  # the place as the order language writes it: "170,50 [Warsaw]"
    radius: int
    units: tuple[tuple[int, UnitLine], ...]  # (hexes away, unit)


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
    cities = Cities(state.world.map)
    words = SupplyWords(state)
    units = [
        _line(state, u, cities, words)
        for u in sorted(
            (u for u in state.units.values() if state.countries[u.country].side == side),
            key=lambda u: (u.country, u.hex, u.id),
        )
    ]
    return Summary(tuple(countries), tuple(units))


def near(state: GameState, place: str, radius: int) -> Near:
    """The units of both sides within ``radius`` hexes of ``place`` (``COL,ROW``, ``[City]``
    or a city's name); raises OrderError for a place the order language does not know."""
    hexmap = state.world.map
    text = place.strip()
    if text and not text.startswith("[") and not text[0].isdigit():
        text = f"[{text}]"  # a bare city name, as people ask for a city
    h = parse_hex(hexmap, text)
    city = hexmap.city_at.get(h)
    grid, cities, words = hexmap.grid, Cities(hexmap), SupplyWords(state)
    found = []
    for u in state.units.values():
        if u.on_map and state.countries[u.country].side in ("axis", "allies"):
            d = grid.distance(h, u.hex)
            if d <= radius:
                found.append((d, _line(state, u, cities, words)))
    found.sort(key=lambda du: (du[0], du[1].side, du[1].country, du[1].id))
    return Near(grid.label(h) + (f" [{city.name}]" if city else ""), radius, tuple(found))


def _line(state: GameState, u: Unit, cities: Cities, words: SupplyWords) -> UnitLine:
    side = state.countries[u.country].side
    flags = tuple(f for f, on in (("damaged", u.damaged), (SupplyWords.OUT, words.out(u))) if on)
    strength = u.profile().text()
    if not u.on_map:
        return UnitLine(u.id, side, u.country, u.label(), strength, "", "", 0, u.carrier, flags)
    city, far = cities.nearest(u.hex)
    return UnitLine(
        u.id, side, u.country, u.label(), strength, state.world.map.grid.label(u.hex), city, far, u.carrier, flags
    )


class Cities:
    """The nearest city to each hex asked about, by rings of hexes around it (a unit is
    usually in or close to a city, so few rings are searched), remembered per hex."""

    def __init__(self, hexmap: HexMap) -> None:
        self.city_at: dict[int, City] = hexmap.city_at
        self.neighbours: tuple[int, ...] = hexmap.neighbours
        self.known: dict[int, tuple[str, int]] = {}

    def nearest(self, h: int) -> tuple[str, int]:
        """The nearest city within NEAR_CITY hexes (ties: by name) and its distance; ("", 0) if none."""
        if h in self.known:
            return self.known[h]
        found: tuple[str, int] = ("", 0)
        city = self.city_at.get(h)
        if city is not None:
            found = (city.name, 0)
        else:
            seen, ring = {h}, [h]
            for d in range(1, NEAR_CITY + 1):
                outer = []
                for x in ring:
                    for y in self.neighbours[x * 6 : x * 6 + 6]:
                        if y != NO_HEX and y not in seen:
                            seen.add(y)
                            outer.append(y)
                ring = outer
                names = [self.city_at[y].name for y in ring if y in self.city_at]
                if names:
                    found = (min(names), d)
                    break
        self.known[h] = found
        return found
