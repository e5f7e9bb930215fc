"""Attacks: good odds with combined strength, no hopeless attacks, holding cities."""

from __future__ import annotations

from engine import ai
from engine.actions import Action
from engine.position import hex_at as hx
from engine.position import put
from tests.ai.worlds import advance_to, armor, at_war, infantry

SEED = b"\x04" * 32


def _attacks(actions: list[Action]) -> list[tuple[int, set[int]]]:
    return [(int(a.args[0]), {int(x) for x in a.args[1:]}) for a in actions if a.kind == "attack"]


def test_attacks_at_good_odds_with_combined_strength() -> None:
    state = at_war()
    a = infantry(state, "Germany", "2,2", 4)
    b = infantry(state, "Germany", "2,3", 4)
    infantry(state, "Poland", "3,2", 5)  # clear: 8 against 5
    advance_to(state, "axis.combat")
    attacks = _attacks(ai.decide(state, "axis", SEED))
    assert attacks == [(hx(state, "3,2"), {a, b})]


def test_no_attack_from_a_hopeless_position() -> None:
    state = at_war()
    state.set_controller(hx(state, "3,2"), "Germany")
    infantry(state, "Germany", "3,2", 3)
    infantry(state, "Poland", "4,2", 5)  # forest: 3 against 7.5
    advance_to(state, "axis.combat")
    assert _attacks(ai.decide(state, "axis", SEED)) == []


def test_overwhelming_attack_leaves_spare_units_for_another_target() -> None:
    state = at_war()
    big = infantry(state, "Germany", "2,2", 8)
    other = infantry(state, "Germany", "2,3", 8)
    infantry(state, "Poland", "3,2", 1)  # next to both Germans
    infantry(state, "Poland", "3,3", 2)  # next to the second only
    advance_to(state, "axis.combat")
    attacks = dict(_attacks(ai.decide(state, "axis", SEED)))
    assert len(attacks) == 2
    assert attacks[hx(state, "3,3")] == {other}
    assert attacks[hx(state, "3,2")] == {big}


def test_overrun_only_with_armor_at_high_odds() -> None:
    state = at_war()
    tank = armor(state, "Germany", "2,2", 10)
    infantry(state, "Poland", "3,2", 2)
    advance_to(state, "axis.overrun")
    actions = ai.decide(state, "axis", SEED)
    assert [a for a in actions if a.kind == "overrun"] == [Action("overrun", (hx(state, "3,2"), tank))]


def test_cities_facing_the_enemy_are_held() -> None:
    state = at_war()
    infantry(state, "Germany", "1,3", 8)
    infantry(state, "Germany", "3,2", 8)
    infantry(state, "Poland", "4,1", 1)  # a target, so the Axis has a combat decision
    guard = infantry(state, "Germany", "2,5", 5)  # Breslau
    infantry(state, "Poland", "3,5", 5)
    advance_to(state, "axis.combat")
    actions = ai.decide(state, "axis", SEED)
    assert Action("stand", (hx(state, "2,5"), True)) in actions
    assert guard


def test_bombers_support_an_attack_and_fly_home() -> None:
    from engine import api

    state = at_war()
    a = infantry(state, "Germany", "2,2", 4)
    infantry(state, "Poland", "3,2", 5)  # 4 against 5: not enough alone
    infantry(state, "Germany", "2,5", 5)  # Breslau has its garrison
    infantry(state, "Germany", "0,2", 1)  # and Berlin (an empty capital would take the attacker first)
    bomber = put(state, "Germany", "bomber", "0,2", move=8)  # Berlin
    advance_to(state, "axis.first_movement")
    moves = ai.decide(state, "axis", SEED)
    assert Action("move", (bomber.id, hx(state, "3,2"))) in moves
    for action in moves:
        api.apply(state, "axis", action)
    advance_to(state, "axis.combat")
    actions = ai.decide(state, "axis", SEED)
    assert Action("attack", (hx(state, "3,2"), a)) in actions
    assert Action("support", (hx(state, "3,2"), bomber.id)) in actions
    for action in actions:
        api.apply(state, "axis", action)
    advance_to(state, "axis.second_movement")
    back = [x for x in ai.decide(state, "axis", SEED) if x.kind == "move" and x.args[0] == bomber.id]
    assert back == [Action("move", (bomber.id, hx(state, "0,2")))]


def test_the_atomic_aircraft_is_kept_from_land_attacks_when_its_bomb_is_near() -> None:
    import dataclasses

    from engine.world import CountryInfo
    from tests.ai.worlds import FRONT_WORLD

    start = at_war().date
    # the same position as above, Germany's bomb three months away
    germany = CountryInfo("Germany", atomic_bomb_from=start + 3, atomic_bomb_unit="He 177")
    infos = tuple(germany if c.name == "Germany" else c for c in FRONT_WORLD.countries)
    state = at_war(dataclasses.replace(FRONT_WORLD, countries=infos))
    infantry(state, "Germany", "2,2", 4)
    infantry(state, "Poland", "3,2", 5)
    infantry(state, "Germany", "2,5", 5)
    infantry(state, "Germany", "0,2", 1)
    bombers = [put(state, "Germany", "bomber", "0,2", name=name, move=8) for name in ("He 111", "He 177")]
    advance_to(state, "axis.first_movement")
    moved = {x.args[0] for x in ai.decide(state, "axis", SEED) if x.kind == "move"}
    assert bombers[0].id in moved and bombers[1].id not in moved
