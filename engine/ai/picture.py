"""What the computer player knows about the board: one pass over the state per decision.

Everything is derived from the side's own view (:func:`engine.api.view`) and
kept in plain dicts and lists so that the policies can ask cheap questions:
where the enemy is, where our front line runs, how far each hex is from it,
which cities and resource hexes matter.  Searches are breadth-first over the
map's precomputed land neighbour table, one multi-source search per question
rather than one per unit.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from functools import cached_property

from engine.hexgrid import NO_HEX
from engine.sides import other
from engine.state import NO_UNIT, GameState, Unit
from engine.supply import SupplyMap, supply_of_side
from engine.units import UnitType
from engine.war import JAPAN_SOVIET, japan_soviet_truce

#: How far (in hexes) threat from enemy land units is counted.
THREAT_RADIUS = 4
UNREACHED = 1 << 20


class Picture:
    def __init__(self, state: GameState, side: str) -> None:
        self.state = state
        self.side = side
        self.enemy = other(side)
        world = state.world
        self.map = world.map
        self.nbr = self.map.land_neighbours
        names = world.country_names
        countries = state.countries
        # country number -> "mine" / "enemy" / "" (neutral or not at war)
        self.role_of_no: list[str] = []
        for name in names:
            c = countries.get(name) if name else None
            if c is None or not c.at_war:
                self.role_of_no.append("")
            elif c.side == side:
                self.role_of_no.append("mine")
            elif c.side == self.enemy:
                self.role_of_no.append("enemy")
            else:
                self.role_of_no.append("")
        self.my_land: list[Unit] = []
        self.enemy_land: list[Unit] = []
        self.my_air: list[Unit] = []
        self.my_naval: list[Unit] = []
        self.my_at: dict[int, int] = {}  # hex -> our land strength there
        self.my_count_at: dict[int, int] = {}  # hex -> number of our non-supply land units
        self.enemy_at: dict[int, int] = {}  # hex -> enemy land strength there
        for u in state.units.values():
            if u.hex == NO_HEX or u.carrier != NO_UNIT:
                continue
            c = countries[u.country]
            if c.side == side and c.at_war:
                if u.is_land:
                    self.my_land.append(u)
                    self.my_at[u.hex] = self.my_at.get(u.hex, 0) + u.strength
                    if u.type is not UnitType.SUPPLY:
                        self.my_count_at[u.hex] = self.my_count_at.get(u.hex, 0) + 1
                elif u.is_air:
                    self.my_air.append(u)
                else:
                    self.my_naval.append(u)
            elif c.side == self.enemy and c.at_war and u.is_land:
                self.enemy_land.append(u)
                self.enemy_at[u.hex] = self.enemy_at.get(u.hex, 0) + u.strength

    # --- control -------------------------------------------------------------

    def role(self, h: int) -> str:
        """'mine', 'enemy' or '' for who controls hex ``h`` as far as the war goes."""
        return self.role_of_no[self.state.controller[h]]

    @cached_property
    def objectives(self) -> dict[int, int]:
        """Value of each city and resource hex: what holding it is worth to a side."""
        m = self.map
        value: dict[int, int] = {}
        for city in m.cities:
            value[city.hex] = 6 if city.capital else 3
        for h in m.resources:
            value[h] = value.get(h, 0) + 3
        return value

    # --- the front ---------------------------------------------------------------

    @cached_property
    def truce(self) -> frozenset[str]:
        """{"Japan", "Soviet Union"} while the Japanese/Soviet restriction holds (rulebook
        "Japanese/Soviet Relations": neither may enter or attack into the other's land, its
        colonies included), else empty: the border between them is then no front."""
        return frozenset(JAPAN_SOVIET) if japan_soviet_truce(self.state) else frozenset()

    def barred(self, a: int, b: int) -> bool:
        """Is the step between hexes ``a`` and ``b`` a Japanese/Soviet border under the truce?"""
        if not self.truce:
            return False
        country_of = self.map.country_of
        x, y = country_of[a], country_of[b]
        return x != y and x in self.truce and y in self.truce

    @cached_property
    def frontier(self) -> set[int]:
        """Our land hexes next to land the enemy controls or stands on: the front line."""
        out: set[int] = set()
        nbr = self.nbr
        for h in self._enemy_edge:
            for o in nbr[h]:
                if self.role(o) == "mine" and o not in self.enemy_at and not self.barred(h, o):
                    out.add(o)
        return out

    @cached_property
    def _enemy_edge(self) -> set[int]:
        """Enemy-controlled or enemy-occupied land hexes that touch our land."""
        out: set[int] = set()
        nbr = self.nbr
        candidates = set(self.enemy_at)
        for h in self._my_hexes_near_enemy:
            candidates.update(o for o in nbr[h] if self.role(o) == "enemy")
        for h in candidates:
            if any(self.role(o) == "mine" and not self.barred(h, o) for o in nbr[h]):
                out.add(h)
        return out

    @cached_property
    def _my_hexes_near_enemy(self) -> list[int]:
        """Our land hexes with an enemy-controlled neighbour (scan of our units' surroundings
        and our cities is enough: fronts form where armies are)."""
        seeds: set[int] = set(self.my_at) | set(self.enemy_at)
        m = self.map
        for city in m.cities:
            if self.role(city.hex):
                seeds.add(city.hex)
        # grow seeds by a few rings so fronts a little away from units are still seen
        ring = set(seeds)
        for _ in range(4):
            nxt: set[int] = set()
            for h in ring:
                nxt.update(self.nbr[h])
            nxt -= seeds
            seeds |= nxt
            ring = nxt
        nbr = self.nbr
        return [h for h in seeds if self.role(h) == "mine" and any(self.role(o) == "enemy" for o in nbr[h])]

    def distances(
        self, sources: Iterable[int], limit: int = UNREACHED, passable: str = "any", avoid: str = ""
    ) -> dict[int, int]:
        """Land distance in hexes from the nearest source.

        ``passable``: ``any`` (every land hex), ``mine`` (only our hexes) or
        ``not_neutral`` (ours and the enemy's, never a neutral's); never the land of
        country ``avoid``.
        """
        country_of = self.map.country_of
        dist: dict[int, int] = {}
        queue: deque[int] = deque()
        for h in sources:
            if h not in dist:
                dist[h] = 0
                queue.append(h)
        nbr = self.nbr
        role = self.role_of_no
        ctrl = self.state.controller
        while queue:
            h = queue.popleft()
            d = dist[h] + 1
            if d > limit:
                continue
            for o in nbr[h]:
                if o in dist or (avoid and country_of[o] == avoid):
                    continue
                if passable != "any":
                    r = role[ctrl[o]]
                    if r == "" or (passable == "mine" and r != "mine"):
                        continue
                dist[o] = d
                queue.append(o)
        return dist

    @cached_property
    def to_front(self) -> dict[int, int]:
        """Distance of our hexes from the front line, through our own land."""
        return self.distances(self.frontier, passable="mine")

    @cached_property
    def threat(self) -> dict[int, float]:
        """Enemy land strength that could reach each hex soon, weighted by nearness (a
        Japanese or Soviet unit under the truce threatens no land of the other)."""
        by: dict[tuple[int, str], int] = {}
        for u in self.enemy_land:
            avoid = JAPAN_SOVIET[u.country] if u.country in self.truce else ""
            by[(u.hex, avoid)] = by.get((u.hex, avoid), 0) + u.strength
        out: dict[int, float] = {}
        for (h, avoid), s in sorted(by.items()):
            for o, d in self.distances([h], limit=THREAT_RADIUS, passable="not_neutral", avoid=avoid).items():
                out[o] = out.get(o, 0.0) + s / (1 + d)
        return out

    @cached_property
    def supply(self) -> SupplyMap:
        """The engine's supply map of our side."""
        return supply_of_side(self.state, self.side)

    def supplied_near(self, country: str, h: int) -> bool:
        """Could a unit of ``country`` in ``h`` trace supply now, or next to it (the hexes it
        passes on the way will be ours, so one step beyond our supplied land is fine)?"""
        trace = self.supply.hex_traces
        return trace(country, h) or any(trace(country, o) for o in self.nbr[h])

    def enemy_neighbours(self, h: int) -> list[int]:
        return [o for o in self.nbr[h] if o in self.enemy_at]
