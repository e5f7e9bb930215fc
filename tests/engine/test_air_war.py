"""Air combat, kamikaze, bombing and the atomic bomb in the combat phase (rulebook: "Naval
and Air Combat", "Damaged Units", "Kamikaze", "Bombing", "Atomic Bomb"; supplement: "Naval
and air combat", "Bombing and assaults", "Atomic bomb surrender")."""

from __future__ import annotations

import pytest

from engine import air_combat, api, atomic, bombing, economy, war
from engine.actions import Action, IllegalAction
from engine.position import hex_at, put, setup
from engine.state import CountryFlags, DeclaredAttack, GameState, parse_date
from engine.units import UnitType
from engine.world import CountryInfo
from tests.engine.strait import Draws

MAP = """
G:c G:c ~ P:c P:c
 G:c G:c ~ P:c P:c
"""
CITIES = {"Berlin": "0,0 capital", "Warsaw": "4,0 capital", "Lodz": "3,1"}


def game(**kw: object) -> GameState:
    return setup(MAP, step="axis.combat", cities=CITIES, resources=["3,1"], **kw)  # type: ignore[arg-type]


def fighter(state: GameState, country: str, at: str, **kw: object) -> int:
    return put(state, country, "fighter", at, **kw).id


def test_fighters_and_a_fighter_hit_each_other_with_the_same_odds() -> None:
    """ "When a naval or air combat takes place, the attacker and defender both attack each
    other with the same odds." """
    state = game()
    a = fighter(state, "Germany", "3,0")
    d = fighter(state, "Poland", "3,0")
    api.check(state, "axis", Action("air_attack", (d, a)))
    air_combat.apply(state, Action("air_attack", (d, a)))
    entry = state.combats[0]
    # k = 2 / (2 x 1) = 1 on both sides: damaged below 0.5, eliminated below 0.05
    lines = air_combat.resolve(state, Draws([0.4, 0.9, 0.4, 0.9]), entry)
    assert state.units[a].damaged and state.units[d].damaged
    assert "odds" not in lines[0] and "damaged" in lines[0]


def test_a_fighter_attacking_a_bomber_is_at_no_risk() -> None:
    """ "If the defender couldn't attack the attacker, there is no risk for losses for the
    attacker. This can be the case if ... a fighter attacks a non-fighter air unit" """
    state = game()
    a = fighter(state, "Germany", "3,0")
    bomber = put(state, "Poland", "fighter", "3,0", attack=0, bomber=3).id
    air_combat.apply(state, Action("air_attack", (bomber, a)))
    rng = Draws([0.01, 0.01])
    air_combat.resolve(state, rng, state.combats[0])
    assert bomber not in state.units and not state.units[a].damaged
    assert rng.draws == 2  # the attacker rolls nothing


def test_only_fighters_attack_air_units_and_only_in_their_hex() -> None:
    """ "Fighter air units may attack enemy air units in the same hex." """
    state = game()
    bomber = put(state, "Germany", "fighter", "3,0", attack=0, bomber=3).id
    far = fighter(state, "Germany", "1,0")
    d = fighter(state, "Poland", "3,0")
    with pytest.raises(IllegalAction) as e:
        api.check(state, "axis", Action("air_attack", (d, bomber)))
    assert e.value.rule == "air.not-fighter"
    with pytest.raises(IllegalAction) as e:
        api.check(state, "axis", Action("air_attack", (d, far)))
    assert e.value.rule == "air.not-in-hex"


def test_bombers_attack_the_naval_stack_each_ship_by_its_own_k() -> None:
    """ "Bomber air units may attack enemy naval units in the same hex." and "Losses are
    inflicted onto each defender individually" (k = strength / (defence x units))."""
    state = game()
    b = put(state, "Germany", "fighter", "2,0", attack=0, bomber=4).id
    s1 = put(state, "Poland", "destroyer", "2,0").id
    s2 = put(state, "Poland", "destroyer", "2,0").id
    assert Action("bomb_ships", (hex_at(state, "2,0"), b)) in api.legal_actions(state, "axis")
    air_combat.apply(state, Action("bomb_ships", (hex_at(state, "2,0"), b)))
    # k = 4 / (2 x 2) = 1: first ship damaged (0.4 < 0.5), second unharmed
    rng = Draws([0.4, 0.9, 0.6, 0.9])
    line = air_combat.resolve(state, rng, state.combats[0])[0]
    assert state.units[s1].damaged and not state.units[s2].damaged
    assert rng.draws == 4 and "no risk to the attackers" in line


def test_a_convoy_hit_once_is_told_as_never_damaged() -> None:
    """Rulebook "Damaged Units": convoys "can't be damaged and are eliminated directly if
    they would have been damaged" - the log says so, not that it was damaged twice."""
    state = game()
    b = put(state, "Germany", "fighter", "2,0", attack=0, bomber=4).id
    convoy = put(state, "Poland", "transport", "2,0", type=UnitType.CONVOY).id
    air_combat.apply(state, Action("bomb_ships", (hex_at(state, "2,0"), b)))
    line = air_combat.resolve(state, Draws([0.1, 0.99]), state.combats[0])[0]
    assert convoy not in state.units
    assert "eliminated (cannot be damaged)" in line and "damaged twice" not in line


def test_ships_inside_a_major_port_defend_twice_as_well_against_aircraft() -> None:
    """Rulebook "Terrain", city with major port: "Naval units inside a major port have their
    defense strength doubled when attacked by air units." A bomber of strength 2 against a
    destroyer (defence 2): k = 2 / 2 = 1 in an ordinary port, 2 / 4 = 0.5 in a major port."""
    for flags, k in (("port", "k 0.50"), ("", "k 1.00")):
        state = setup(MAP, step="axis.combat", cities={**CITIES, "Gdynia": f"3,0 {flags}"})
        b = put(state, "Germany", "fighter", "3,0", attack=0, bomber=2).id
        put(state, "Poland", "destroyer", "3,0", in_port=True)
        air_combat.apply(state, Action("bomb_ships", (hex_at(state, "3,0"), b)))
        line = air_combat.resolve(state, Draws([0.9, 0.9]), state.combats[0])[0]
        assert k in line


def test_damaged_units_count_half() -> None:
    """ "Damaged units have their attack and defense strengths halved in subsequent combats." """
    state = game()
    u = put(state, "Germany", "fighter", "3,0", attack=4, damaged=True)
    assert air_combat.fighter_strength(u) == 2 and air_combat.defence(u) == 1


def test_kamikaze_only_after_the_allies_hold_a_japanese_city() -> None:
    """ "only if the Allies control at least one city hex in Japan or its colonies" """
    picture = """
    J:c J:c ~ A:c
     J:c J:c ~ A:c
    """
    state = setup(
        picture,
        axis=("Japan",),
        allies=("United States",),
        step="axis.combat",
        cities={"Tokyo": "0,0 capital", "Saipan": "1,1", "Washington": "3,0 capital"},
    )
    k = put(state, "Japan", "fighter", "2,0", attack=0, bomber=2).id
    ship = put(state, "United States", "destroyer", "2,0").id
    sea = hex_at(state, "2,0")
    with pytest.raises(IllegalAction) as e:
        api.check(state, "axis", Action("kamikaze", (sea, k)))
    assert e.value.rule == "kamikaze.not-yet"
    state.controller[hex_at(state, "1,1")] = state.world.country_no["United States"]
    api.check(state, "axis", Action("kamikaze", (sea, k)))
    air_combat.apply(state, Action("kamikaze", (sea, k)))
    # "the attack strength of the bomber unit is tripled": k = 6 / 2 = 3
    line = air_combat.resolve(state, Draws([0.99, 0.99]), state.combats[0])[0]
    assert "attack 6" in line
    # "but the bomber will always be eliminated"
    assert k not in state.units and ship in state.units


def test_k_units_attack_ships_only_as_kamikaze() -> None:
    """ "Air units with a "K" next to their bomber strength can only be used in kamikaze attacks." """
    state = game()
    k = put(state, "Germany", "fighter", "2,0", attack=0, bomber=3, kamikaze=True).id
    put(state, "Poland", "destroyer", "2,0")
    with pytest.raises(IllegalAction) as e:
        api.check(state, "axis", Action("bomb_ships", (hex_at(state, "2,0"), k)))
    assert e.value.rule == "air.kamikaze-only"
    with pytest.raises(IllegalAction) as e:
        api.check(state, "axis", Action("kamikaze", (hex_at(state, "2,0"), k)))
    assert e.value.rule == "kamikaze.not-japanese"


def bomber_over(state: GameState, at: str, strength: int = 5) -> int:
    return put(state, "Germany", "fighter", at, attack=0, bomber=strength).id


def test_installation_bombing_takes_away_port_and_airbase() -> None:
    """ "If installation bombing succeeds against a city or resource hex, the city/resource hex
    doesn't contribute to airbase capacity and can't be used as a port." """
    state = game()
    b = bomber_over(state, "3,1")
    h = hex_at(state, "3,1")
    action = Action("bomb", (h, "installation", b))
    assert action in api.legal_actions(state, "axis")
    api.check(state, "axis", action)
    bombing.apply(state, action)
    # S = 5: success below 1 - 2^-1 = 0.5; then no bomber damage above 0.2
    line = bombing.resolve(state, Draws([0.3, 0.5]), state.combats[0])[0]
    assert h in state.bombed and "succeeds" in line and "no bomber damaged" in line


def test_strategic_bombing_stops_income_and_may_damage_a_bomber() -> None:
    """ "If strategic bombing succeeds against a resource hex, that resource hex doesn't
    contribute to its controller's income." and "There is then a 20% chance that one
    attacking bomber is damaged." """
    state = game()
    b = bomber_over(state, "3,1")
    h = hex_at(state, "3,1")
    before = economy.income_of(state, "Poland")
    bombing.apply(state, Action("bomb", (h, "strategic", b)))
    bombing.resolve(state, Draws([0.3, 0.1]), state.combats[0])
    assert h in state.strategic and economy.income_of(state, "Poland") < before
    assert state.units[b].damaged


def test_bombing_fails_above_its_chance_and_destroys_airfields() -> None:
    """ "If installation bombing succeeds against an airfield or fortification, that
    installation is destroyed." """
    state = game()
    h = hex_at(state, "4,1")
    state.airfields[h] = 0
    b = bomber_over(state, "4,1")
    bombing.apply(state, Action("bomb", (h, "airfield", b)))
    bombing.resolve(state, Draws([0.6, 0.9]), state.combats[0])
    assert h in state.airfields
    state.combats = []
    b2 = bomber_over(state, "4,1")
    bombing.apply(state, Action("bomb", (h, "airfield", b2)))
    bombing.resolve(state, Draws([0.1, 0.9]), state.combats[0])
    assert h not in state.airfields


def test_bombing_needs_an_enemy_hex_with_something_to_bomb() -> None:
    state = game()
    b = bomber_over(state, "4,1")
    with pytest.raises(IllegalAction) as e:
        api.check(state, "axis", Action("bomb", (hex_at(state, "4,1"), "strategic", b)))
    assert e.value.rule == "bomb.nothing"
    own = bomber_over(state, "1,0")
    with pytest.raises(IllegalAction) as e:
        api.check(state, "axis", Action("bomb", (hex_at(state, "1,0"), "installation", own)))
    assert e.value.rule == "bomb.not-enemy"


ATOMIC_GERMANY = CountryInfo("Germany", atomic_bomb_from=parse_date("1947-06"), atomic_bomb_unit="He 177")


def atomic_game(date: str) -> GameState:
    return setup(
        MAP,
        step="axis.combat",
        cities=CITIES,
        resources=["3,1"],
        date=date,
        countries=[ATOMIC_GERMANY],
    )


def test_atomic_bombs_only_from_their_date_with_their_aircraft() -> None:
    """ "Germany: June 1947, HE-177" """
    early = atomic_game("1947-05")
    b = put(early, "Germany", "fighter", "4,0", attack=0, bomber=5, name="He 177", origin=0).id
    with pytest.raises(IllegalAction) as e:
        api.check(early, "axis", Action("atomic", (hex_at(early, "4,0"), b)))
    assert e.value.rule == "atomic.not-available"
    state = atomic_game("1947-06")
    b = put(state, "Germany", "fighter", "4,0", attack=0, bomber=5, name="He 177", origin=0).id
    other = put(state, "Germany", "fighter", "4,0", attack=0, bomber=5, name="Ju 88", origin=0).id
    assert Action("atomic", (hex_at(state, "4,0"), b)) in api.legal_actions(state, "axis")
    with pytest.raises(IllegalAction) as e:
        api.check(state, "axis", Action("atomic", (hex_at(state, "4,0"), other)))
    assert e.value.rule == "atomic.not-available"


def test_an_atomic_bomb_destroys_for_good_and_may_force_surrender() -> None:
    """ "Land units, based air units, and naval units in a port are elimniated and can't be
    bought back." / "the city and the resource hex are destroyed and can't be repaired" /
    "If a country surrenders due to an atomic bomb, it can't be liberated." """
    state = atomic_game("1947-06")
    h = hex_at(state, "4,0")
    state.forts[h] = 0
    b = put(state, "Germany", "fighter", "4,0", attack=0, bomber=5, name="He 177", origin=0).id
    troops = put(state, "Poland", "infantry", "4,0").id
    atomic.apply(state, Action("atomic", (h, b)))
    # Poland: c = 1, o = 1, n = 0: surrender below 0.5
    line = atomic.resolve(state, Draws([0.4]), state.combats[0])[0]
    assert troops not in state.units and not state.countries["Poland"].pool_land
    assert h in state.atomized and h not in state.forts
    flags = state.countries["Poland"].flags
    assert flags.atomic_surrender and flags.atomic_bombs == 1 and "Poland surrenders" in line
    assert b in state.units  # the aircraft on its mission is not based, and flies home


def test_surrender_grows_with_earlier_bombs_and_home_cities_held() -> None:
    """Supplement: ``1 - 2^(-c*o*(n+1))``."""
    state = atomic_game("1947-06")
    state.countries["Poland"].flags.atomic_bombs = 2
    state.controller[hex_at(state, "3,1")] = state.world.country_no["Germany"]
    assert atomic.surrender_chance(state, "Poland", "axis") == (1, 2, 2)
    h = hex_at(state, "4,0")
    b = put(state, "Germany", "fighter", "4,0", attack=0, bomber=5, name="He 177", origin=0).id
    atomic.apply(state, Action("atomic", (h, b)))
    # 1 - 2^-6 = 0.984: a draw of 0.98 surrenders
    atomic.resolve(state, Draws([0.98]), state.combats[0])
    assert state.countries["Poland"].flags.atomic_surrender


def test_an_atomic_surrender_conquers_the_country_for_the_bomber_for_good() -> None:
    """ "If a country surrenders due to an atomic bomb, it can't be liberated." """
    state = atomic_game("1947-06")
    h = hex_at(state, "4,0")
    b = put(state, "Germany", "fighter", "4,0", attack=0, bomber=5, name="He 177", origin=0).id
    atomic.apply(state, Action("atomic", (h, b)))
    atomic.resolve(state, Draws([0.4]), state.combats[0])
    poland = state.countries["Poland"]
    assert poland.flags.atomic_surrender == "Germany" and not poland.conquered
    assert war.check_conquests(state) == ["Poland"]
    assert poland.conquered and poland.never_liberate
    # Poland's own cities pass to the country it surrendered to...
    assert state.controller_of(hex_at(state, "3,1")) == "Germany"
    # ...and holding every one of them again does not liberate it.
    for city in ("4,0", "3,1"):
        state.controller[hex_at(state, city)] = state.world.country_no["Poland"]
    assert war.check_liberations(state) == [] and poland.conquered


def test_atomic_flags_keep_old_bytes_and_round_trip() -> None:
    assert CountryFlags().to_wire() == []
    f = CountryFlags(atomic_bombs=2, atomic_surrender="United States")
    assert CountryFlags.from_wire(f.to_wire()) == f


def test_air_orders_go_through_the_combat_roll() -> None:
    """Declared in the combat phase, resolved by its dice like the land attacks."""
    state = game()
    a = fighter(state, "Germany", "3,0")
    d = fighter(state, "Poland", "3,0")
    api.apply(state, "axis", Action("air_attack", (d, a)))
    assert state.combats == [DeclaredAttack("air", hex_at(state, "3,0"), [a], [d])]
    api.apply(state, "axis", Action("pass", ()))
    log = api.apply_chance(state, bytes(32))
    assert any("air combat" in line for line in log) and not state.combats
