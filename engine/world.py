"""The static world a game is played in: the map plus the facts about countries.

Nothing here changes during a game.  A world is identified by its digest, which
covers the map and the country and scenario data, so a saved game or a turn file
made with other data is recognised and refused.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Protocol

from engine.hexmap import HexMap

if TYPE_CHECKING:
    from engine.scenario import Arrival


class Schedule(Protocol):
    """The monthly arrivals of new available units (a scenario's, or a test's stand-in)."""

    def arrivals_due(self, date: int, entries: Mapping[str, int]) -> Sequence[Arrival]: ...


@dataclass(frozen=True, slots=True)
class CountryInfo:
    name: str
    region: str = "europe"  # europe, asia, africa, oceania, americas
    leans_allied: bool = False  # the Allies may not declare war on it
    has_units: bool = True
    rail_capacity: int = 0  # units it may move by rail per turn
    leans_axis: bool = False  # the Axis may not declare war on it
    atomic_bomb_from: int | None = None  # first month it may drop atomic bombs (rulebook "Atomic Bomb")
    atomic_bomb_unit: str = ""  # the air unit that carries them


@dataclass(frozen=True, eq=False)
class World:
    map: HexMap
    countries: tuple[CountryInfo, ...]
    name: str = "custom"
    #: extra bytes that identify the data beyond the map and the countries (e.g. the scenario files)
    data_digest: str = ""
    #: the scenario's arrivals, when the world belongs to one (covered by ``data_digest``)
    schedule: Schedule | None = None

    @cached_property
    def digest(self) -> str:
        h = hashlib.sha256(b"pbem/world/v1\0")
        h.update(self.map.digest().encode())
        for c in self.countries:
            # leans_axis came later and is left out so that saved games keep their digest;
            # a packaged scenario's data_digest covers it through its country file.
            h.update(repr((c.name, c.region, c.leans_allied, c.has_units, c.rail_capacity)).encode())
        h.update(self.data_digest.encode())
        return h.hexdigest()

    @cached_property
    def country_names(self) -> tuple[str, ...]:
        """Country number -> name; number 0 is nobody (the sea)."""
        return ("", *(c.name for c in self.countries))

    @cached_property
    def country_no(self) -> dict[str, int]:
        return {n: i for i, n in enumerate(self.country_names)}

    @cached_property
    def home_control(self) -> bytes:
        """Country number controlling each hex at the start: the owner of its territory."""
        by_territory = [self.country_no.get(t.country, 0) for t in self.map.territories]
        return bytes(by_territory[t] for t in self.map.territory)

    @cached_property
    def info(self) -> dict[str, CountryInfo]:
        return {c.name: c for c in self.countries}

    @cached_property
    def cities_of(self) -> dict[str, tuple[int, ...]]:
        """City hexes of each country, colonies included."""
        out: dict[str, list[int]] = {}
        for city in self.map.cities:
            out.setdefault(self.map.country_of[city.hex], []).append(city.hex)
        return {k: tuple(sorted(v)) for k, v in out.items()}

    @cached_property
    def home_cities_of(self) -> dict[str, tuple[int, ...]]:
        """City hexes of each country's home territory (no colonies)."""
        out: dict[str, list[int]] = {}
        for city in self.map.cities:
            if not self.map.is_colony(city.hex):
                out.setdefault(self.map.country_of[city.hex], []).append(city.hex)
        return {k: tuple(sorted(v)) for k, v in out.items()}
