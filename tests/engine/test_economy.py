"""Income, money exchange and builds (rulebook "Money", "Money Exchange", "Buying Units",
"Buying Back Eliminated Units"; supplement "Installations and repairs")."""

from __future__ import annotations

import pytest

from engine import api
from engine.actions import PASS, Action, IllegalAction
from engine.economy import Build, income_of
from engine.losses import eliminate, lose_points
from engine.position import AT_START, begin_at, build_world, put, setup
from engine.sequence import STEP_INDEX
from engine.state import GameState, LandKey
from engine.units import UnitProfile, UnitType
from engine.war import enter_war
from engine.world import CountryInfo

WORLD = build_world(
    """
    U:c ~   G:c G:c I:c ~   J:c J:c ~   A:c X:c
     K:c ~  G:c G:c I:c ~  Q:c C:c C:M  A:c A:c
    U:c ~   ~   ~   ~   ~   C:c C:c U:c  ~  ~
    """,
    legend={"Q": "Thailand", "X": "Mexico"},
    cities={"London": "0,0 capital", "Berlin": "2,0 capital", "Rome": "4,0 capital", "Tokyo": "6,0 capital"},
    resources=["0,0", "0,2", "2,0", "3,0", "4,0", "6,0", "7,0", "9,0"],
    colonies={"Burma": "United Kingdom", "Egypt": "United Kingdom"},
    colony_hexes={"Burma": ["8,2"], "Egypt": ["0,2"]},
    countries=[
        CountryInfo("Japan", region="asia"),
        CountryInfo("Thailand", region="asia"),
        CountryInfo("China", region="asia"),
        CountryInfo("United States", region="americas", leans_allied=True),
        CountryInfo("Canada", region="americas", leans_allied=True),
        CountryInfo("Mexico", region="americas"),
    ],
)
SHIP = UnitProfile(UnitType.DESTROYER, "Z1", attack=1, sub_attack=1, defense=1, move=30)


def hx(label: str) -> int:
    return WORLD.map.grid.parse_label(label)


def at_war() -> GameState:
    axis = ("Germany", "Italy", "Japan", "Thailand")
    return setup(WORLD, axis=axis, allies=("United Kingdom", "Canada", "China", "United States", "Mexico"), **AT_START)


def enter(state: GameState, phase: str) -> None:
    begin_at(state, phase)
    assert api.decision(state).phase == phase


def run(state: GameState, axis: list[Action] = (), allies: list[Action] = ()) -> None:  # type: ignore[assignment]
    orders = {"axis": [*axis, PASS], "allies": [*allies, PASS]}
    api.apply_simultaneous(state, {s: orders[s] for s in api.decision(state).sides})


def test_resource_hexes_pay_50_and_the_home_rates() -> None:
    """Rulebook "Money": $50B per resource hex; Germany $100B and Japan $200B for home ones;
    the United States $100B, $150B after a year at war; China +$600B."""
    state = at_war()
    assert income_of(state, "Germany") == 200
    assert income_of(state, "Italy") == 50
    assert income_of(state, "Japan") == 400
    assert income_of(state, "United States") == 100
    state.date += 12
    assert income_of(state, "United States") == 150
    assert income_of(state, "China") == 600


def test_captured_and_bombed_resource_hexes() -> None:
    """Rulebook "Money": a captured home hex pays the captor $50B, not the home rate;
    strategically bombed hexes pay nothing until repaired."""
    state = at_war()
    state.set_controller(hx("3,0"), "United Kingdom")
    assert income_of(state, "Germany") == 100
    assert income_of(state, "United Kingdom") == 50 + 50 + 50
    state.strategic.add(hx("2,0"))
    assert income_of(state, "Germany") == 0


def test_uk_home_resources_pay_double_after_convoy_money() -> None:
    """Rulebook "Money": UK home resource hexes pay $100B if it received convoy money
    during the past turn (colonies still $50B)."""
    state = at_war()
    assert income_of(state, "United Kingdom") == 100
    state.countries["United Kingdom"].received_convoy_money = True
    assert income_of(state, "United Kingdom") == 150
    enter(state, "income")
    assert not state.countries["United Kingdom"].received_convoy_money


def test_canada_receives_lend_lease_while_the_us_is_neutral_and_neutrals_nothing() -> None:
    """Rulebook "Money": Canada +$500B while the United States is neutral; income goes
    only to countries at war and not conquered."""
    state = api.new_game(WORLD)
    enter_war(state, "Canada", "allies")
    assert income_of(state, "Canada") == 500
    assert income_of(state, "United States") == 0
    enter_war(state, "United States", "allies")
    assert income_of(state, "Canada") == 0
    state.countries["Canada"].conquered = True
    assert income_of(state, "Canada") == 0


def test_money_exchange_partners_and_limits() -> None:
    """Rulebook "Money Exchange": Germany with Axis Europe (at most $500B a month out);
    Thailand to Japan; the US and UK send at most a third of their money."""
    state = at_war()
    for name in state.countries:
        state.countries[name].money = 900
    enter(state, "income")
    base_us = state.countries["United States"].money
    with pytest.raises(IllegalAction) as refused:
        api.apply_simultaneous(
            state,
            {
                "axis": [Action("send", ("Germany", "Italy", 400)), Action("send", ("Germany", "Italy", 101))],
                "allies": [],
            },
        )
    assert refused.value.rule == "money.send-limit"
    with pytest.raises(IllegalAction) as refused:
        api.check(state, "axis", Action("send", ("Japan", "Thailand", 10)))
    assert refused.value.rule == "money.send-route"
    api.check(state, "allies", Action("send", ("United States", "Mexico", base_us // 3)))
    with pytest.raises(IllegalAction) as refused:
        api.check(state, "allies", Action("send", ("United States", "Mexico", base_us // 3 + 1)))
    assert refused.value.rule == "money.send-limit"
    api.apply_simultaneous(
        state,
        {
            "axis": [Action("send", ("Thailand", "Japan", 900)), Action("send", ("Italy", "Germany", 50)), PASS],
            "allies": [Action("send", ("Canada", "United States", 10)), PASS],
        },
    )
    assert state.countries["Thailand"].money == 0


def test_legal_lists_representative_send_amounts_and_check_accepts_any() -> None:
    """Rulebook "Money Exchange" sets only limits; listing every amount up to them made
    the income list thousands of actions long.  ``legal`` lists all, half, a quarter and
    fixed steps; every listed amount passes ``check``, and ``check`` still accepts any
    amount within the limit (docs/rules-decisions.md, "Income and money exchange")."""
    state = at_war()
    for name in state.countries:
        state.countries[name].money = 900
    enter(state, "income")
    legal = api.legal_actions(state, "axis")
    amounts = sorted(int(a.args[2]) for a in legal if a.kind == "send" and a.args[:2] == ("Germany", "Italy"))
    # Germany may send $500B a month: all of it, half, a quarter and the steps below it.
    assert amounts == [50, 100, 125, 200, 250, 300, 500]
    for action in legal:
        api.check(state, "axis", action)
    api.check(state, "axis", Action("send", ("Germany", "Italy", 37)))
    assert len(legal) < 100


def test_china_receives_us_and_uk_money_over_the_burma_road() -> None:
    """Rulebook "Money Exchange": while the Allies hold adjacent non-tall-mountain hexes in
    China and Burma, the US and UK may send money to China."""
    state = at_war()
    state.countries["United Kingdom"].money = 600
    enter(state, "income")
    api.check(state, "allies", Action("send", ("United Kingdom", "China", 10)))
    for h in ("7,1", "7,2"):  # Burma's Chinese neighbours except the tall mountain 8,1
        state.set_controller(hx(h), "Japan")
    with pytest.raises(IllegalAction) as refused:
        api.check(state, "allies", Action("send", ("United Kingdom", "China", 10)))
    assert refused.value.rule == "money.send-route"


def test_buying_land_points_and_their_arrival() -> None:
    """Rulebook "Buying Units": land points cost per point and arrive after the delay
    (infantry $100B, 1 month; armor $200B, 3 months); money never goes negative."""
    state = at_war()
    g = state.countries["Germany"]
    g.money, g.pool_land = 700, {LandKey(UnitType.INFANTRY, 3): 10, LandKey(UnitType.ARMOR, 5): 5}
    enter(state, "build")
    with pytest.raises(IllegalAction) as refused:
        api.check(state, "axis", Action("buy", ("Germany", "armor", 5, 4)))
    assert refused.value.rule == "money.short"
    with pytest.raises(IllegalAction) as refused:
        api.check(state, "axis", Action("buy", ("Germany", "infantry", 3, 11)))
    assert refused.value.rule == "buy.pool"
    legal = api.legal_actions(state, "axis")
    assert Action("buy", ("Germany", "armor", 5, 3)) in legal
    assert Action("buy", ("Germany", "armor", 5, 4)) not in legal
    date = state.date
    run(state, axis=[Action("buy", ("Germany", "armor", 5, 2)), Action("buy", ("Germany", "infantry", 3, 3))])
    g = state.countries["Germany"]
    assert g.money == 0 and g.pool_land == {LandKey(UnitType.INFANTRY, 3): 7, LandKey(UnitType.ARMOR, 5): 3}
    # Nothing else happens in this world, so play ran on to the next deployment phase,
    # where the infantry (1 month) has arrived and the armor (3 months) is on its way.
    assert (state.date - date, api.decision(state).phase) == (1, "deployment")
    assert g.free_land == {LandKey(UnitType.INFANTRY, 3): 3}
    assert [d - date for d, _ in g.transit] == [3]


def test_conquered_and_neutral_countries_cannot_buy() -> None:
    """Rulebook "Conquest": a conquered country may not buy units."""
    state = at_war()
    state.countries["Italy"].money = 500
    state.countries["Italy"].pool_land = {LandKey(UnitType.INFANTRY, 3): 3}
    state.countries["Italy"].conquered = True
    state.step = STEP_INDEX["build"]
    with pytest.raises(IllegalAction) as refused:
        Build().check(state, "axis", Action("buy", ("Italy", "infantry", 3, 1)))
    assert refused.value.rule == "country.conquered"
    state.countries["Italy"].conquered = False
    state.countries["Italy"].at_war = False
    with pytest.raises(IllegalAction) as refused:
        Build().check(state, "axis", Action("buy", ("Italy", "infantry", 3, 1)))
    assert refused.value.rule == "country.not-at-war"


def test_buying_named_units_a_carrier_brings_its_air_unit() -> None:
    """Rulebook "Buying Units": a carrier ($1400B, 12 months) includes its carrier-based air unit."""
    state = at_war()
    j = state.countries["Japan"]
    plane = UnitProfile(UnitType.FIGHTER, "A6M", attack=2, defense=2, move=10, carrier_based=True)
    j.money = 1500
    j.pool_units = [UnitProfile(UnitType.CARRIER, "Akagi", defense=3, move=30), plane, SHIP]
    enter(state, "build")
    with pytest.raises(IllegalAction) as refused:
        api.check(state, "axis", Action("buy_unit", ("Japan", "Yamato")))
    assert refused.value.rule == "buy.pool"
    date = state.date
    run(state, axis=[Action("buy_unit", ("Japan", "Akagi"))])
    j = state.countries["Japan"]
    assert j.money == 100 and [p.name for p in j.pool_units] == ["Z1"]
    assert sorted((d - date, state.units[u].name) for d, u in j.transit) == [(12, "A6M"), (12, "Akagi")]


def test_repair_naval_in_port_and_air_anywhere() -> None:
    """Supplement "Installations and repairs": $200B; naval units must be in a port."""
    world = build_world("G:c G:c ~", cities={"Kiel": "1,0 port"})
    state = setup(world, allies=(), **AT_START)
    state.countries["Germany"].money = 400
    ship = put(state, "Germany", "destroyer", "2,0", name="Z1", attack=1, sub_attack=1, defense=1, move=30)
    plane = put(state, "Germany", "bomber", "0,0", name="He 111", bomber=2, defense=1, move=8)
    ship.damaged = plane.damaged = True
    enter(state, "build")
    with pytest.raises(IllegalAction) as refused:
        api.check(state, "axis", Action("repair", (ship.id,)))
    assert refused.value.rule == "repair.not-in-port"
    state.place(ship, world.map.grid.parse_label("1,0"))
    ship.in_port = True
    run(state, axis=[Action("repair", (ship.id,)), Action("repair", (plane.id,))])
    assert not state.units[ship.id].damaged and not state.units[plane.id].damaged
    assert state.countries["Germany"].money == 0


def test_buy_back_rules() -> None:
    """Rulebook "Buying Back Eliminated Units": land points always; ships only if in port
    (convoys and transports always); air units only if based."""
    state = at_war()
    g = state.countries["Germany"]
    inf = put(state, "Germany", "infantry", "2,0", strength=5)
    lose_points(state, inf, 2)
    assert inf.strength == 3 and g.pool_land == {LandKey(UnitType.INFANTRY, 3): 2}
    eliminate(state, inf)
    assert g.pool_land == {LandKey(UnitType.INFANTRY, 3): 5} and inf.id not in state.units
    at_sea = put(state, "Germany", "destroyer", "1,0", name="Z1", attack=1, sub_attack=1, defense=1, move=30)
    eliminate(state, at_sea)
    transport = put(state, "Germany", "transport", "1,0", name="T1", move=20)
    eliminate(state, transport)
    flying = put(state, "Germany", "fighter", "2,0", name="Bf 109", move=8)
    flying.origin = hx("3,0")  # on a mission
    eliminate(state, flying)
    based = put(state, "Germany", "fighter", "2,0", name="Bf 110", move=8)
    eliminate(state, based)
    assert [p.name for p in g.pool_units] == ["T1", "Bf 110"]
