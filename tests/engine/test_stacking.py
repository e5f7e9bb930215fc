"""Stacking limits and airbase capacity (supplement: "Stacking")."""

from __future__ import annotations

from engine.position import hex_at as hx
from engine.position import put
from engine.position import setup as game
from engine.stacking import UNLIMITED, air_room, airbase_capacity, can_stack_land, naval_room

MAP = """
    G:c G:c ~ ~
     G:c G:c ~ ~
    """


def test_two_ordinary_one_paratrooper_one_supply_every_owner() -> None:
    """Supplement "Stacking": at most 2 ordinary land units plus 1 paratrooper plus 1
    supply unit, counting every owner."""
    s = game(MAP, axis=("Germany", "Italy"))
    h = hx(s, "0,0")
    a = put(s, "Germany", "infantry", "0,0")
    put(s, "Italy", "armor", "0,0")
    extra = s.new_unit("Germany", a.profile())
    para = s.new_unit("Germany", put(s, "Germany", "paratrooper", "1,0").profile())
    sup = s.new_unit("Germany", put(s, "Germany", "supply", "1,1").profile())
    assert not can_stack_land(s, h, [extra])
    assert can_stack_land(s, h, [para, sup])
    assert not can_stack_land(s, h, [para, s.new_unit("Germany", para.profile())])
    assert can_stack_land(s, h, [a])  # a unit already there counts once


def test_embarked_units_do_not_count() -> None:
    """Supplement "Stacking": embarked units do not count."""
    s = game(MAP, cities={"Kiel": "1,0 port"})
    tr = put(s, "Germany", "transport", "1,0")
    put(s, "Germany", "infantry", "1,0", carrier=tr.id)
    put(s, "Germany", "infantry", "1,0")
    newcomer = s.new_unit("Germany", put(s, "Germany", "infantry", "0,0").profile())
    assert can_stack_land(s, hx(s, "1,0"), [newcomer])


def test_airbase_capacity() -> None:
    """Supplement "Stacking" (air): a city gives 2, a resource hex 1, an airfield 2; a
    destroyed or atomic-bombed site 0; only for the side controlling the hex
    (docs/rules-decisions.md: the places add up)."""
    s = game(MAP, cities={"Berlin": "0,0"}, resources=["0,0", "0,1"], airfields=["1,1"])
    assert airbase_capacity(s, hx(s, "0,0"), "axis") == 3
    assert airbase_capacity(s, hx(s, "0,1"), "axis") == 1
    assert airbase_capacity(s, hx(s, "1,1"), "axis") == 2
    assert airbase_capacity(s, hx(s, "1,0"), "axis") == 0
    assert airbase_capacity(s, hx(s, "0,0"), "allies") == 0
    s.bombed.add(hx(s, "0,0"))
    assert airbase_capacity(s, hx(s, "0,0"), "axis") == 0
    s.atomized.add(hx(s, "1,1"))
    assert airbase_capacity(s, hx(s, "1,1"), "axis") == 0
    s.airfields[hx(s, "0,1")] = 1  # under construction: no places yet
    assert airbase_capacity(s, hx(s, "0,1"), "axis") == 1


def test_only_based_air_units_use_places() -> None:
    """Supplement "Stacking": capacity limits only units that are based."""
    s = game(MAP, cities={"Berlin": "0,0"})
    h = hx(s, "0,0")
    put(s, "Germany", "fighter", "0,0")
    assert air_room(s, h, "axis") == 1
    put(s, "Germany", "fighter", "0,0", origin=hx(s, "1,0"))  # on a mission, passing over
    assert air_room(s, h, "axis") == 1


def test_naval_stacking() -> None:
    """Supplement "Stacking" (naval): at most 5 a hex; no limit inside a friendly major port."""
    s = game(MAP, cities={"Kiel": "1,0 port", "Lubeck": "1,1"})
    for _ in range(4):
        put(s, "Germany", "destroyer", "2,0")
    assert naval_room(s, hx(s, "2,0"), "axis") == 1
    put(s, "Poland", "destroyer", "2,0")
    assert naval_room(s, hx(s, "2,0"), "axis") == 0
    assert naval_room(s, hx(s, "1,0"), "axis") == UNLIMITED
    assert naval_room(s, hx(s, "1,0"), "allies") == 5
    assert naval_room(s, hx(s, "1,1"), "axis") == 5  # a port, not a major one
