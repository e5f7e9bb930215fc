"""The deployment phase (rulebook "Game Sequence", "Strength Points"; supplement
"Placement", "Placing units", "Installations and repairs")."""

from __future__ import annotations

import numpy as np
import pytest

from engine import api, supply
from engine import deployment as deployment_module
from engine.actions import PASS, Action, IllegalAction
from engine.deployment import Deployment, home_area, in_home_area
from engine.losses import send_home
from engine.position import build_world, put
from engine.sequence import STEP_INDEX, begin
from engine.state import NO_UNIT, GameState, LandKey
from engine.units import UnitProfile, UnitType
from engine.war import enter_war

WORLD = build_world(
    """
    ~   U:c U:c ~   ~   G:c G:c G:d P:c P:c S:c
     ~  U:c ~   ~   G:c G:c G:c G:c P:c P:c S:c
    ~   ~   ~   ~   G:c G:c G:c G:c P:c P:c S:c
    """,
    cities={
        "London": "1,0 capital port",
        "Hamburg": "5,0 port",
        "Berlin": "6,1 capital",
        "Warsaw": "9,0 capital",
        "Moscow": "10,1 capital",
    },
    resources=["1,0", "6,1", "6,2", "9,0", "10,1"],
    temp_borders={"poland_east": ["9,1", "9,2"]},
)
SHIP = UnitProfile(UnitType.DESTROYER, "Z1", attack=1, sub_attack=1, defense=1, move=30)
PLANE = UnitProfile(UnitType.FIGHTER, "Bf 109", attack=2, defense=2, move=8)


def hx(label: str) -> int:
    return WORLD.map.grid.parse_label(label)


def deployment(**pools: dict[LandKey, int]) -> GameState:
    """A state at the deployment phase with Germany (Axis) and Poland, UK (Allies) at war."""
    state = api.new_game(WORLD)
    for name, pool in pools.items():
        state.countries[name].pool_land = dict(pool)
    enter_war(state, "Germany", "axis")
    enter_war(state, "Poland", "allies")
    enter_war(state, "United Kingdom", "allies")
    state.step = STEP_INDEX["deployment"]
    begin(state)
    assert api.decision(state).phase == "deployment"
    return state


def deploy(state: GameState, axis: list[Action] = (), allies: list[Action] = ()) -> None:  # type: ignore[assignment]
    api.apply_simultaneous(state, {"axis": [*axis, PASS], "allies": [*allies, PASS]})


def land_at(state: GameState, label: str) -> list[tuple[str, str, int]]:
    return sorted((u.country, u.type, u.strength) for u in state.units_at(hx(label)) if u.is_land)


def test_land_points_are_merged_into_units_up_to_the_largest_size() -> None:
    """Rulebook "Strength Points": points are combined when placed, up to the table's maximum
    (Germany infantry with movement 3: 8); supplement "Placement": in the home country."""
    state = deployment(Germany={LandKey(UnitType.INFANTRY, 3): 12})
    with pytest.raises(IllegalAction) as refused:
        api.check(state, "axis", Action("place_land", ("Germany", "infantry", 3, 9, hx("6,1"))))
    assert refused.value.rule == "strength.maximum"
    with pytest.raises(IllegalAction) as refused:
        api.check(state, "axis", Action("place_land", ("Germany", "infantry", 3, 13, hx("6,1"))))
    assert refused.value.rule == "placement.pool"
    with pytest.raises(IllegalAction) as refused:
        api.check(state, "axis", Action("place_land", ("Germany", "infantry", 3, 2, hx("8,0"))))
    assert refused.value.rule == "placement.area"
    deploy(state, axis=[Action("place_land", ("Germany", "infantry", 3, 8, hx("6,1")))])
    assert land_at(state, "6,1") == [("Germany", "infantry", 8)]
    # The 4 points not placed went back to the pool that can be bought.
    assert state.countries["Germany"].free_land == {}
    assert state.countries["Germany"].pool_land == {LandKey(UnitType.INFANTRY, 3): 4}


def test_armor_may_not_be_placed_in_desert_and_stacking_counts() -> None:
    """Supplement "Placement": no armor in desert or icecap; "Stacking": 2 ordinary land units."""
    state = deployment(Germany={LandKey(UnitType.ARMOR, 5): 4, LandKey(UnitType.INFANTRY, 3): 3})
    with pytest.raises(IllegalAction) as refused:
        api.check(state, "axis", Action("place_land", ("Germany", "armor", 5, 1, hx("7,0"))))
    assert refused.value.rule == "terrain.armor"
    place = [Action("place_land", ("Germany", "infantry", 3, 1, hx("6,0"))) for _ in range(3)]
    with pytest.raises(IllegalAction) as refused:
        deploy(state, axis=place)
    assert refused.value.rule == "stacking.land"


def test_naval_units_need_a_port_and_polish_ships_may_use_british_ports() -> None:
    """Supplement "Placement": naval units in a port; "Placing units": Polish naval units
    may also be placed in the United Kingdom."""
    state = api.new_game(WORLD)
    state.countries["Germany"].pool_units = [SHIP]
    state.countries["Poland"].pool_units = [UnitProfile(UnitType.DESTROYER, "Grom", attack=1, defense=1, move=30)]
    enter_war(state, "Germany", "axis")
    enter_war(state, "Poland", "allies")
    enter_war(state, "United Kingdom", "allies")
    state.step = STEP_INDEX["deployment"]
    begin(state)
    (z1,) = state.countries["Germany"].free_units
    (grom,) = state.countries["Poland"].free_units
    with pytest.raises(IllegalAction) as refused:
        api.check(state, "axis", Action("place", (z1, hx("6,1"))))
    assert refused.value.rule == "placement.port"
    assert Action("place", (grom, hx("1,0"))) in api.legal_actions(state, "allies")
    deploy(state, axis=[Action("place", (z1, hx("5,0")))], allies=[Action("place", (grom, hx("1,0")))])
    assert state.units[z1].hex == hx("5,0") and state.units[z1].in_port
    assert state.units[grom].hex == hx("1,0")


def test_air_units_need_spare_airbase_capacity() -> None:
    """Supplement "Placement": air units need spare airbase capacity (a city gives 2)."""
    state = api.new_game(WORLD)
    state.countries["Germany"].pool_units = [PLANE, PLANE, PLANE]
    enter_war(state, "Germany", "axis")
    enter_war(state, "Poland", "allies")
    state.step = STEP_INDEX["deployment"]
    begin(state)
    a, b, c = state.countries["Germany"].free_units
    hamburg = hx("5,0")  # a city without a resource: 2 places
    with pytest.raises(IllegalAction) as refused:
        deploy(state, axis=[Action("place", (u, hamburg)) for u in (a, b, c)])
    assert refused.value.rule == "stacking.air"
    deploy(state, axis=[Action("place", (u, hamburg)) for u in (a, b)])
    assert sorted(u.id for u in state.units_at(hamburg)) == [a, b]
    # The third was not placed: it is back in the pool as a unit that can be bought.
    assert [p.name for p in state.countries["Germany"].pool_units] == ["Bf 109"]
    assert c not in state.units


def test_merge_and_split() -> None:
    """Rulebook "Strength Points": units of the same hex, type and nationality merge within
    the maximum; a unit may be split in two."""
    state = deployment(Germany={LandKey(UnitType.INFANTRY, 3): 10})
    deploy(
        state,
        axis=[
            Action("place_land", ("Germany", "infantry", 3, 5, hx("6,1"))),
            Action("place_land", ("Germany", "infantry", 3, 3, hx("6,1"))),
            Action("place_land", ("Germany", "infantry", 3, 2, hx("5,1"))),
        ],
    )
    state.step = STEP_INDEX["deployment"]
    begin(state)
    a, b = sorted(state.units_at(hx("6,1")), key=lambda u: u.id)
    (c,) = state.units_at(hx("5,1"))
    with pytest.raises(IllegalAction) as refused:
        api.check(state, "axis", Action("merge", (a.id, c.id)))
    assert refused.value.rule == "merge.mismatch"
    with pytest.raises(IllegalAction) as refused:
        api.check(state, "axis", Action("split", (a.id, 2)))
    assert refused.value.rule == "stacking.land"
    assert Action("merge", (a.id, b.id)) in api.legal_actions(state, "axis")
    deploy(state, axis=[Action("merge", (a.id, b.id)), Action("split", (a.id, 1))])
    assert land_at(state, "6,1") == [("Germany", "infantry", 1), ("Germany", "infantry", 7)]


def test_fortifications_and_airfields_take_three_months_and_sites_are_repaired() -> None:
    """Supplement "Installations and repairs": fortification $500B, airfield $400B, both
    3 months; repairing a bombed site $200B, immediate."""
    state = deployment()
    state.countries["Germany"].money = 1200
    state.strategic.add(hx("6,2"))
    with pytest.raises(IllegalAction) as refused:
        api.check(state, "axis", Action("fortify", (hx("8,0"),)))
    assert refused.value.rule == "build.not-controlled"
    deploy(
        state,
        axis=[
            Action("fortify", (hx("6,0"),)),
            Action("build_airfield", (hx("5,1"),)),
            Action("repair_site", (hx("6,2"),)),
        ],
    )
    assert state.countries["Germany"].money == 1200 - 500 - 400 - 200 + 200  # + the next income phase
    assert state.forts[hx("6,0")] == 3 and state.airfields[hx("5,1")] == 3
    assert hx("6,2") not in state.strategic
    for months_left in (2, 1, 0):
        state.step = STEP_INDEX["deployment"]
        begin(state)
        assert state.forts[hx("6,0")] == months_left == state.airfields[hx("5,1")]


def test_bought_units_arrive_at_the_deployment_phase_of_their_arrival_date() -> None:
    """Rulebook "Buying Units": units arrive at a deployment phase after their delay."""
    state = deployment()
    u = put(state, "Germany", "armor", None)  # bought: off the map
    state.countries["Germany"].transit = [(state.date + 1, u.id)]
    deploy(state)
    state.date += 1
    state.step = STEP_INDEX["deployment"]
    begin(state)
    assert state.countries["Germany"].free_land == {LandKey(UnitType.ARMOR, 5): 4}
    assert state.countries["Germany"].transit == []


def test_soviet_units_may_use_the_border_hexes_in_the_first_turn_after_entry() -> None:
    """Supplement "Placing units": in the first turn after the Soviet Union enters the war,
    its units may also be placed in the border hexes it controls."""
    state = api.new_game(WORLD)
    state.countries["Soviet Union"].pool_land = {LandKey(UnitType.INFANTRY, 3): 4}
    for h in ("9,1", "9,2"):
        state.set_controller(hx(h), "Soviet Union")
    enter_war(state, "Germany", "axis")
    enter_war(state, "Soviet Union", "allies")
    state.step = STEP_INDEX["deployment"]
    begin(state)
    order = Action("place_land", ("Soviet Union", "infantry", 3, 2, hx("9,1")))
    api.check(state, "allies", order)
    state.date += 1
    state.countries["Soviet Union"].free_land = {LandKey(UnitType.INFANTRY, 3): 2}
    with pytest.raises(IllegalAction) as refused:
        api.check(state, "allies", order)
    assert refused.value.rule == "placement.area"


def test_placement_needs_supply_except_supply_units_on_the_turn_of_entry(monkeypatch: pytest.MonkeyPatch) -> None:
    """Supplement "Placement": in a hex in supply; "Placing units": on the turn of entry
    supply units may be placed out of supply, and hexes connected to them count as supplied."""

    def supplied(state: GameState, country: str) -> supply.Supplied:
        mask = np.zeros(state.world.map.size + 1, dtype=bool)
        mask[hx("5,1")] = True
        return supply.Supplied(mask)

    monkeypatch.setattr(supply, "supplied_hexes", supplied, raising=False)
    state = deployment(Germany={LandKey(UnitType.INFANTRY, 3): 3, LandKey(UnitType.SUPPLY, 3): 1})
    far = Action("place_land", ("Germany", "infantry", 3, 1, hx("7,2")))
    with pytest.raises(IllegalAction) as refused:
        api.check(state, "axis", far)
    assert refused.value.rule == "placement.area"
    deploy(state, axis=[Action("place_land", ("Germany", "supply", 3, 1, hx("7,1"))), far])
    assert land_at(state, "7,2") == [("Germany", "infantry", 1)]
    assert land_at(state, "7,1") == [("Germany", "supply", 0)]


def test_legal_actions_agree_with_check() -> None:
    """Every action legal() lists passes check() (engine rule: check agrees with legal)."""
    state = deployment(Germany={LandKey(UnitType.INFANTRY, 3): 3, LandKey(UnitType.ARMOR, 5): 2})
    state.countries["Germany"].money = 500
    legal = api.legal_actions(state, "axis")
    assert legal == sorted(legal, key=lambda a: (a.kind, a.args))
    kinds = {a.kind for a in legal}
    assert {"place_land", "fortify", "build_airfield", "pass"} <= kinds
    for action in legal:
        api.check(state, "axis", action)


def test_the_area_is_the_state_s_as_it_stands_a_unit_placed_before_opening_a_control_zone() -> None:
    """Supplement "Placement": a hex in supply when the order is checked.  A Soviet unit
    placed in a border hex of its first turn (no supply needed there) that stands in a
    German control zone opens the hex to supply, and the home hex beyond it, reached only
    through the border hex, may take the list's next unit (docs/rules-decisions.md)."""
    world = build_world(
        """
        ~   S:c P:c S:c ~
         ~   G:c ~   ~   ~
        """,
        cities={"Moscow": "1,0 capital", "Berlin": "1,1 capital"},
        resources=["1,0", "1,1"],
        temp_borders={"poland_east": ["2,0"]},
    )
    at = world.map.grid.parse_label
    state = api.new_game(world)
    state.countries["Soviet Union"].pool_land = {LandKey(UnitType.INFANTRY, 3): 3}
    state.set_controller(at("2,0"), "Soviet Union")
    enter_war(state, "Germany", "axis")
    enter_war(state, "Soviet Union", "allies")
    put(state, "Germany", "infantry", "1,1")
    put(state, "Soviet Union", "infantry", "1,0")  # Moscow held open in the zone
    state.step = STEP_INDEX["deployment"]
    begin(state)
    beyond = Action("place_land", ("Soviet Union", "infantry", 3, 1, at("3,0")))
    with pytest.raises(IllegalAction) as refused:
        api.check(state, "allies", beyond)  # the border hex in the German zone cuts it off
    assert refused.value.rule == "placement.area"
    draft = api.draft(state, "allies")
    draft.offer(Action("place_land", ("Soviet Union", "infantry", 3, 1, at("2,0"))))
    draft.offer(beyond)
    assert sorted(u.hex for u in draft.state.units_of("Soviet Union")) == [at("1,0"), at("2,0"), at("3,0")]


def test_a_ship_sent_home_leaves_its_cargo_behind_it_and_is_placed_alone() -> None:
    """A unit sent home (Vichy France, Greenland, Finland's surrender) sends its cargo home
    on its own, so an arrival carries nothing and the deployment places it without looking
    for cargo (GameState.place_alone): a carrier and its aircraft come back as two free
    units, each placed where its order says."""
    state = deployment()
    ship = put(state, "Germany", "carrier", "5,0")
    plane = put(state, "Germany", "navy_fighter", "5,0", carrier=ship.id)
    send_home(state, ship)
    assert plane.carrier == NO_UNIT and not state.cargo_of(ship)
    assert sorted(state.countries["Germany"].free_units) == sorted([ship.id, plane.id])
    deploy(state, axis=[Action("place", (ship.id, hx("5,0"))), Action("place", (plane.id, hx("6,1")))])
    assert (state.units[ship.id].hex, state.units[plane.id].hex) == (hx("5,0"), hx("6,1"))


def test_an_area_kept_for_a_list_does_not_outlive_an_enemy_unit_placed_beside_it() -> None:
    """A kept area answers only while nothing could narrow it (engine.deployment._Kept):
    a German unit placed beside a Polish hex puts it in a German control zone, and the hex
    leaves Poland's area at once, on the same state."""
    state = deployment(Germany={LandKey(UnitType.INFANTRY, 3): 3})
    assert in_home_area(state, "Poland", hx("8,1"))
    Deployment().apply(state, "axis", Action("place_land", ("Germany", "infantry", 3, 1, hx("7,1"))))
    assert not in_home_area(state, "Poland", hx("8,1"))
    assert hx("8,1") not in home_area(state, "Poland") and hx("9,1") in home_area(state, "Poland")


def test_a_hex_no_area_of_the_country_holds_is_refused_without_a_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """The computer player offers a ship every friendly port: a port abroad is never in
    the country's area, and asking about it after the list has placed units (which
    changes the supply map's stamp) must not search the areas again."""
    state = deployment(Poland={LandKey(UnitType.INFANTRY, 3): 3})
    draft = api.draft(state, "allies")
    draft.offer(Action("place_land", ("Poland", "infantry", 3, 1, hx("9,1"))))
    searched: list[str] = []
    compute = deployment_module._compute_area

    def counting(s: GameState, country: str) -> frozenset[int]:
        searched.append(country)
        return compute(s, country)

    monkeypatch.setattr(deployment_module, "_compute_area", counting)
    assert not in_home_area(draft.state, "Poland", hx("1,0"))  # London
    assert not in_home_area(draft.state, "Poland", hx("5,1"))  # Germany
    assert searched == []
    assert in_home_area(draft.state, "Poland", hx("9,2")) and searched == []  # kept from before the unit
