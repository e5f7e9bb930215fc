"""Garrisons: a side's capitals and home cities against the enemy land units that could
walk into them within a month.

A land unit moves in one movement phase of a month (rulebook "Sequence of Play": the
second only if it did not move in the first), so a unit *could reach* a city when the
city lies within its movement allowance in hexes, through land that is not neutral.
Terrain costs and zones of control are ignored: the reach is an upper bound, which is
what a garrison must be planned against.  The arena counts the key cities left empty
within such reach (:func:`exposed`); the bot keeps them held (:func:`hold`).

A threat can also appear where no enemy unit stands yet: the enemy places new units in its
own land at its deployment, and a neutral that enters the war places its whole army in its
own land, both before we move again (and the Allies are counted after the Axis' deployment).
A capital within a move of land that is not ours is therefore *in danger* (:func:`endangered`):
it keeps a garrison ahead of any unit that could threaten it.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.ai.picture import Picture
from engine.units import UnitType

#: No land unit moves further than this in one movement (the longest allowance is armor's).
MAX_MOVE = 8
#: Strength wanted in a key city an enemy could reach, besides a share of that enemy's strength.
HOLD = 3.0
#: Strength wanted per point of enemy strength that could reach a key city.
HOLD_SHARE = 0.3


def key_cities(pic: Picture) -> dict[int, bool]:
    """Our capitals and home cities that we hold: hex -> is it a capital?"""
    state, world = pic.state, pic.state.world
    city_at = world.map.city_at
    out: dict[int, bool] = {}
    for name, c in state.countries.items():
        if c.side != pic.side or not c.at_war or c.conquered:
            continue
        for h in world.home_cities_of.get(name, ()):
            if pic.role(h) == "mine":
                out[h] = city_at[h].capital
    return out


def reachable(pic: Picture, hexes: list[int]) -> dict[int, int]:
    """Hex -> enemy land strength that could walk into it within a month (zero left out)."""
    movers: dict[int, list[tuple[int, int, str]]] = {}
    for u in pic.enemy_land:
        if u.type is not UnitType.SUPPLY and u.strength > 0:
            movers.setdefault(u.hex, []).append((max(1, u.move), u.strength, u.country))
    country_of = pic.map.country_of
    out: dict[int, int] = {}
    for h in hexes:
        barred = country_of[h] in pic.truce
        total = 0
        for o, d in pic.distances([h], limit=MAX_MOVE, passable="not_neutral").items():
            for move, strength, country in movers.get(o, ()):
                if d <= move and not (barred and country in pic.truce):
                    total += strength
        if total:
            out[h] = total
    return out


def exposed(pic: Picture) -> dict[int, bool]:
    """Our key cities with no land unit of ours that an enemy land unit could walk into
    within a month: hex -> is it a capital?"""
    cities = key_cities(pic)
    empty = sorted(h for h in cities if h not in pic.my_at)
    return {h: cities[h] for h in reachable(pic, empty)}


def endangered(pic: Picture) -> list[int]:
    """Our capitals within :data:`MAX_MOVE` hexes, over any land, of land that is not ours
    (the enemy's, or a neutral's that may enter the war): where a unit the enemy places at
    its next deployment could walk in within a month."""
    out = []
    for h, capital in sorted(key_cities(pic).items()):
        if capital and any(pic.role(o) != "mine" for o in pic.distances([h], limit=MAX_MOVE)):
            out.append(h)
    return out


def hold(pic: Picture, danger: Iterable[int] = ()) -> dict[int, float]:
    """Strength wanted in each key city an enemy could reach within a month, in each
    capital that is a port (a landing can reach it from far beyond a land unit's move), and
    in each capital of ``danger`` (:func:`endangered`, under the style switch ``capitals_ahead``)."""
    cities = key_cities(pic)
    want = {h: HOLD for h, capital in cities.items() if capital and pic.map.is_port(h)}
    want.update(dict.fromkeys(danger, HOLD))
    for h, s in reachable(pic, sorted(cities)).items():
        want[h] = HOLD + HOLD_SHARE * s
    return want
