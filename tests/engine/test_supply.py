"""Supply (rulebook: "Supply", "Supply Sources", "Effects", the terrain table's supply
column; supplement: "Control zones and hex control")."""

from __future__ import annotations

import random
from collections import deque

from engine.hexgrid import NO_HEX
from engine.hexmap import Side, Terrain, WeatherZone
from engine.position import AT_START, build_world, put, setup
from engine.position import hex_at as hx
from engine.state import NO_UNIT, GameState, Unit, parse_date
from engine.supply import (
    SupplyMap,
    SupplyPhase,
    can_trace_supply,
    run_supply_phase,
    supplied_hexes,
    supply_class,
    supply_map,
    unit_in_supply,
)

CORRIDOR = build_world(
    """
    G:c G:c G:c G:c G:c
     ~ ~ P:c ~ ~
    """,
    cities={"Berlin": "0,0 capital"},
    resources=["0,0"],
)


def test_city_resource_hex_supplies_a_line_of_any_length() -> None:
    """Rulebook "Supply Sources": city resource hexes in a friendly country under friendly
    control are sources; "Supply": a supply line may be of any length."""
    state = setup(CORRIDOR, **AT_START)
    u = put(state, "Germany", "infantry", "4,0", strength=4)
    assert unit_in_supply(state, u)
    assert can_trace_supply(state, u)


def test_enemy_unit_cuts_the_line() -> None:
    """Rulebook "Supply": each hex of a supply line must be free from enemy units."""
    state = setup(CORRIDOR, **AT_START)
    u = put(state, "Germany", "infantry", "4,0", strength=4)
    put(state, "Poland", "infantry", "2,0", strength=4)  # in a German-controlled hex
    assert not unit_in_supply(state, u)


def test_enemy_control_zone_cuts_the_line_unless_friendly_land_units_stand_there() -> None:
    """Rulebook "Supply": a supply line may cross an enemy control zone only in hexes
    that contain friendly land units (supplement "Control zones": the zone is the unit's
    hex and the adjacent land hexes)."""
    state = setup(CORRIDOR, **AT_START)
    u = put(state, "Germany", "infantry", "4,0", strength=4)
    put(state, "Poland", "infantry", "2,1", strength=4)  # its zone covers 2,0 and 3,0
    assert not unit_in_supply(state, u)
    put(state, "Germany", "infantry", "2,0", strength=4)
    assert not unit_in_supply(state, u)  # 3,0 is still in the zone and empty
    put(state, "Germany", "infantry", "3,0", strength=4)
    assert unit_in_supply(state, u)


def test_enemy_controlled_and_neutral_hexes_cut_the_line() -> None:
    """Rulebook "Supply": hexes of a line must be controlled by a friendly country;
    supplement: neutral hexes can never be entered by supply lines."""
    state = setup(CORRIDOR, **AT_START)
    u = put(state, "Germany", "infantry", "4,0", strength=4)
    state.set_controller(hx(state, "2,0"), "Poland")
    assert not unit_in_supply(state, u)
    state.set_controller(hx(state, "2,0"), "Germany")
    assert unit_in_supply(state, u)
    neutral = build_world("G:c W:c G:c", cities={"Berlin": "0,0"}, resources=["0,0"])
    state = setup(neutral, allies=(), **AT_START)
    assert not unit_in_supply(state, put(state, "Germany", "infantry", "2,0", strength=4))


def test_tall_mountain_and_desert_are_entered_but_not_crossed() -> None:
    """Terrain table, supply column: supply lines may not be traced through tall mountain
    or desert hexes, but may be traced into them (also the land part of a coastal hex)."""
    for letter in ("M", "d"):
        world = build_world(f"G:c G:{letter} G:c", cities={"Berlin": "0,0"}, resources=["0,0"])
        state = setup(world, allies=(), **AT_START)
        inside, beyond = (
            put(state, "Germany", "infantry", "1,0", strength=4),
            put(state, "Germany", "infantry", "2,0", strength=4),
        )
        smap = supply_map(state, "axis")
        assert smap.in_supply(inside)
        assert not smap.in_supply(beyond)


def test_no_line_across_an_all_sea_hexside_unless_frozen_icecap_in_severe_winter() -> None:
    """Terrain table: supply lines may not cross all-sea hexsides; icecap: they may cross
    all-sea icecap hexsides in severe winter ("Severe Winter": icecap hexsides are frozen)."""
    world = build_world(
        "G:c G:i G:c",
        cities={"Berlin": "0,0"},
        resources=["0,0"],
        sides={("1,0", "2,0"): Side.SEA},
        weather=WeatherZone.POLAR,
    )
    state = setup(world, allies=(), **AT_START)
    u = put(state, "Germany", "infantry", "2,0", strength=4)
    state.date = parse_date("1940-07")
    assert not unit_in_supply(state, u)
    state.date = parse_date("1941-01")
    assert unit_in_supply(state, u)
    plain = build_world("G:c G:c G:c", cities={"Berlin": "0,0"}, resources=["0,0"], sides={("1,0", "2,0"): Side.SEA},
                        weather=WeatherZone.POLAR)  # fmt: skip
    state = setup(plain, allies=(), **AT_START)
    state.date = parse_date("1941-01")
    assert not unit_in_supply(state, put(state, "Germany", "infantry", "2,0", strength=4))


def test_supply_units_are_sources_for_other_units_only() -> None:
    """Rulebook "Supply Sources": supply units are sources for non-supply units; they need
    not be in supply themselves."""
    state = setup(CORRIDOR, **AT_START)
    state.set_controller(hx(state, "2,0"), "Poland")  # cut the corridor
    su = put(state, "Germany", "supply", "3,0")
    inf = put(state, "Germany", "infantry", "4,0", strength=4)
    smap = supply_map(state, "axis")
    assert smap.in_supply(inf)
    assert not smap.can_trace(su)


def test_fortification_supplies_the_units_inside_only() -> None:
    """Terrain table, fortification: land units in a fortified hex are always in supply;
    "Supply Sources": a fortification is a source only for units in it."""
    state = setup(CORRIDOR, **AT_START)
    state.set_controller(hx(state, "2,0"), "Poland")
    h = hx(state, "3,0")
    state.forts[h], state.fort_owner[h] = 0, "Germany"
    inside, outside = (
        put(state, "Germany", "infantry", "3,0", strength=4),
        put(state, "Germany", "infantry", "4,0", strength=4),
    )
    smap = supply_map(state, "axis")
    assert smap.in_supply(inside)
    assert not smap.in_supply(outside)
    state.forts[h] = 2  # under construction: no supply
    assert not unit_in_supply(state, inside)


def test_source_must_be_located_in_and_controlled_by_friendly_countries() -> None:
    """Rulebook "Supply Sources": a city resource hex located in a friendly country and
    controlled by a friendly country; a captured enemy city is no source for its captor."""
    state = setup(CORRIDOR, **AT_START)
    berlin = hx(state, "0,0")
    state.set_controller(berlin, "Poland")
    pole = put(state, "Poland", "infantry", "1,0", strength=4)
    state.set_controller(hx(state, "1,0"), "Poland")
    assert not unit_in_supply(state, pole)
    assert not unit_in_supply(state, put(state, "Germany", "infantry", "4,0", strength=4))


NATIONS = build_world(
    """
    U:c U:c S:c F:c J:c T:c C:c C:c
    """,
    legend={"T": "Thailand"},
    cities={"Minsk": "2,0", "Paris": "3,0", "Bangkok": "5,0", "Chengdu": "7,0"},
    resources=["2,0", "3,0", "5,0"],
)


def test_nationality_restrictions_on_sources() -> None:
    """Rulebook "Supply Sources": Soviet units use only Soviet sources, Chinese only
    Chinese, Japanese Japanese and Thai, other Allies any Allied source but Soviet and
    Chinese ones, other Axis any Axis source but Soviet, Japanese and Thai ones."""
    assert supply_class("Thailand") == supply_class("Japan") == "japanese"
    assert supply_class("France") == supply_class("United Kingdom") == "other"
    state = setup(
        NATIONS, axis=("Japan", "Thailand"), allies=("United Kingdom", "Soviet Union", "France", "China"), **AT_START
    )
    soviet, british = (
        put(state, "Soviet Union", "infantry", "1,0", strength=4),
        put(state, "United Kingdom", "infantry", "0,0", strength=4),
    )
    assert unit_in_supply(state, soviet)  # through British hexes to Minsk
    assert unit_in_supply(state, british)  # to Paris, through a Soviet hex
    state.set_controller(hx(state, "3,0"), "Japan")  # Paris lost: no Soviet source may serve the British
    assert not unit_in_supply(state, british)
    assert unit_in_supply(state, soviet)
    japanese = put(state, "Japan", "infantry", "4,0", strength=4)
    assert unit_in_supply(state, japanese)  # Bangkok is Thai
    chinese = put(state, "China", "infantry", "6,0", strength=4)
    assert unit_in_supply(state, chinese)  # Chengdu: any Chinese city, resource or not
    state.set_controller(hx(state, "5,0"), "China")  # Bangkok lost
    assert not unit_in_supply(state, japanese)


def test_chinese_cities_serve_chinese_units_only() -> None:
    """Rulebook "Supply Sources": Chinese cities are sources for Chinese units, even if
    not resource hexes; other nationalities need city resource hexes."""
    world = build_world("C:c C:c U:c", cities={"Chengdu": "0,0"})
    state = setup(world, axis=(), allies=("China", "United Kingdom"), **AT_START)
    assert unit_in_supply(state, put(state, "China", "infantry", "1,0", strength=4))
    assert not unit_in_supply(state, put(state, "United Kingdom", "infantry", "1,0", strength=4))


def test_supplied_hexes_structure() -> None:
    """Rulebook "Supply": the hexes from which a unit of a nationality can trace supply
    (used for placement, supplement "Placement")."""
    state = setup(CORRIDOR, **AT_START)
    state.set_controller(hx(state, "2,0"), "Poland")
    hexes = supplied_hexes(state, "Germany")
    assert hx(state, "1,0") in hexes and hx(state, "0,0") in hexes
    assert hx(state, "3,0") not in hexes
    assert sorted(hexes) == [hx(state, "0,0"), hx(state, "1,0")]
    assert len(hexes) == 2


# --- the supply phase ------------------------------------------------------------------


def cut_off() -> GameState:
    state = setup(CORRIDOR, **AT_START)
    state.set_controller(hx(state, "2,0"), "Poland")
    return state


def test_infantry_out_of_supply_loses_half_rounded_up() -> None:
    """Rulebook "Effects": land units out of supply at the supply phase lose half their
    strength, rounded up."""
    state = cut_off()
    five, one = (
        put(state, "Germany", "infantry", "3,0", strength=5),
        put(state, "Germany", "infantry", "4,0", strength=1),
    )
    fed = put(state, "Germany", "infantry", "1,0", strength=5)
    run_supply_phase(state)
    assert five.strength == 2
    assert one.id not in state.units
    assert fed.strength == 5 and fed.supplied


def test_armor_and_supply_units_suffer_only_from_the_second_check() -> None:
    """Rulebook "Effects" and "Supply": armor and supply units lose strength (supply
    units: are eliminated) only when already out of supply at the previous supply phase."""
    state = cut_off()
    armor = put(state, "Germany", "armor", "3,0", strength=6, move=3)
    run_supply_phase(state)
    assert armor.strength == 6 and not armor.supplied
    assert not unit_in_supply(state, armor)  # now out of supply: cannot attack
    run_supply_phase(state)
    assert armor.strength == 3
    state = cut_off()
    su = put(state, "Germany", "supply", "4,0")
    run_supply_phase(state)
    assert su.id in state.units and not su.supplied
    run_supply_phase(state)
    assert su.id not in state.units


def test_armor_stays_in_supply_until_the_next_supply_phase() -> None:
    """Rulebook "Supply": armor is out of supply only if it has not been able to trace
    supply since the last supply phase."""
    state = cut_off()
    armor = put(state, "Germany", "armor", "3,0", strength=6, move=3)
    assert armor.supplied  # traced at the last check (a fresh unit)
    assert unit_in_supply(state, armor)
    assert not can_trace_supply(state, armor)


def test_naval_units_are_out_of_supply_after_three_months_away_from_a_supplied_port() -> None:
    """Rulebook "Supply": naval units are out of supply if they have not been on a base
    able to trace supply for the past three months."""
    world = build_world("G:c ~ ~", cities={"Kiel": "0,0"}, resources=["0,0"])
    state = setup(world, allies=(), **AT_START)
    ship = put(state, "Germany", "destroyer", "2,0", sub_attack=1, move=30)
    for month in (1, 2):
        run_supply_phase(state)
        assert ship.unsupplied == month and unit_in_supply(state, ship)
    run_supply_phase(state)
    assert ship.unsupplied == 3 and not unit_in_supply(state, ship)
    state.place(ship, hx(state, "0,0"))
    assert unit_in_supply(state, ship)  # back in a supplied port
    run_supply_phase(state)
    assert ship.unsupplied == 0 and ship.supplied


def test_embarked_units_share_their_carriers_supply() -> None:
    """Rulebook "Supply": embarked units are in supply whenever their carrier is; out of
    supply at the supply phase they lose half their strength."""
    world = build_world("G:c ~ ~", cities={"Kiel": "0,0"}, resources=["0,0"])
    state = setup(world, allies=(), **AT_START)
    ship = put(state, "Germany", "transport", "2,0", attack=2, sub_attack=1, defense=2, move=30)
    troops = put(state, "Germany", "infantry", "2,0", strength=4)
    troops.carrier = ship.id
    ship.unsupplied = 2
    assert unit_in_supply(state, troops)
    run_supply_phase(state)  # the transport reaches three months away
    assert troops.strength == 2


def test_air_units_need_a_base_that_traces_supply() -> None:
    """Rulebook "Supply": air units are out of supply if they have not been on a base able
    to trace supply since the last supply phase."""
    world = build_world("G:c G:c P:c G:c", cities={"Berlin": "0,0", "Breslau": "3,0"}, resources=["0,0"])
    state = setup(world, **AT_START)
    home, away = (
        put(state, "Germany", "bomber", "0,0", attack=2, move=10),
        put(state, "Germany", "bomber", "3,0", attack=2, move=10),
    )
    run_supply_phase(state)
    assert home.supplied and not away.supplied
    assert not unit_in_supply(state, away)


def test_supply_phase_resets_the_months_unit_flags() -> None:
    """Rulebook "Game Sequence": the month's movement and combat bookkeeping ends with the
    supply phase (docs/rules-decisions.md)."""
    state = setup(CORRIDOR, **AT_START)
    u = put(state, "Germany", "infantry", "1,0", strength=4)
    u.moved = u.attacked = u.overran = u.railed = True
    u.mp_used = 3
    phase = SupplyPhase()
    phase.enter(state)
    phase.leave(state)
    assert (u.moved, u.attacked, u.overran, u.railed, u.mp_used) == (False, False, False, False, 0)


# --- the fast search agrees with a plain one ---------------------------------------------


def _reference(state: GameState, side: str, country: str) -> set[int]:
    """Plain breadth-first search straight from the rulebook's wording."""
    hexmap = state.world.map
    enemy = "allies" if side == "axis" else "axis"
    cls = supply_class(country)

    def units(h: int) -> list[Unit]:
        return state.units_at(h)

    def enemy_zoc(h: int) -> bool:
        if any(u.is_land and u.carrier == NO_UNIT and state.countries[u.country].side == side for u in units(h)):
            return False
        for x in (h, *hexmap.land_neighbours[h]):
            for u in units(x):
                if (u.is_land and u.type != "supply" and u.carrier == NO_UNIT
                        and state.countries[u.country].side == enemy
                        and state.side_controlling(x) == enemy):  # fmt: skip
                    return True
        return False

    def passable(h: int) -> bool:
        return (
            hexmap.has_land(h)
            and state.side_controlling(h) == side
            and not any(state.countries[u.country].side == enemy for u in units(h))
            and not enemy_zoc(h)
        )

    def through(h: int) -> bool:
        return hexmap.terrain[h] not in (Terrain.TALL_MOUNTAIN, Terrain.DESERT)

    sources = [
        h
        for h in hexmap.city_at
        if h in hexmap.resources
        and state.countries[hexmap.country_of[h]].side == side
        and supply_class(hexmap.country_of[h]) == cls
        and passable(h)
    ]
    sources += [
        u.hex
        for u in state.units.values()
        if u.type == "supply" and u.hex != NO_HEX and supply_class(u.country) == cls and passable(u.hex)
        and state.countries[u.country].side == side
    ]  # fmt: skip
    seen = set(sources)
    queue = deque(sources)
    src = set(sources)
    while queue:
        h = queue.popleft()
        if h not in src and not through(h):
            continue
        for o in hexmap.land_neighbours[h]:
            if o not in seen and passable(o):
                seen.add(o)
                queue.append(o)
    return seen


def test_fast_search_agrees_with_a_plain_search_on_random_positions() -> None:
    """Rulebook "Supply": the vectorised search gives exactly the hexes a plain reading
    of the supply-line rules gives."""
    rnd = random.Random(7)
    for trial in range(12):
        rows = []
        for _ in range(9):
            row = []
            for c in range(12):
                if rnd.random() < 0.12:
                    row.append("~")
                else:
                    owner = "G" if c < 6 else "P"
                    row.append(f"{owner}:{rnd.choice('cccfmMd')}")
            rows.append(" ".join(row))
        land = [(c, r) for r, row in enumerate(rows) for c, tok in enumerate(row.split()) if tok != "~"]
        picks = rnd.sample(land, 10)
        world = build_world(
            "\n".join(rows),
            cities={f"C{i}": f"{c},{r}" for i, (c, r) in enumerate(picks[:6])},
            resources=[f"{c},{r}" for c, r in picks[:6]],
        )
        state = setup(world, **AT_START)
        for c, r in rnd.sample(land, 16):
            country = "Germany" if rnd.random() < 0.5 else "Poland"
            kind = "supply" if rnd.random() < 0.15 else "infantry"
            u = put(state, country, kind, f"{c},{r}", strength=0 if kind == "supply" else 4)
            if rnd.random() < 0.7:
                state.set_controller(u.hex, u.country)
        for side, country in (("axis", "Germany"), ("allies", "Poland")):
            smap = SupplyMap(state, side)
            fast = {h for h in range(world.map.size) if smap.hex_traces(country, h) and h not in smap.forts}
            assert fast == _reference(state, side, country), f"trial {trial} {side}"
