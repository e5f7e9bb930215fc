"""Land combat and overrun (rulebook: "Land Combat", "Overrun", "Supply Units in Combat";
supplement: "Combat mathematics", "Retreat", "Control zones and hex control")."""

from __future__ import annotations

from fractions import Fraction

import pytest

from engine import api, combat_math
from engine.actions import PASS, Action, IllegalAction
from engine.combat import (
    Advance,
    Combat,
    CombatRoll,
    Overrun,
    OverrunRoll,
    apply_retreat,
    apply_stand,
    attack_strength,
    check_retreat,
    check_stand,
    defence_strength,
    prune_stands,
    stand_actions,
    take_losses,
)
from engine.hexmap import Side, WeatherZone
from engine.position import build_world, put, setup
from engine.position import hex_at as hx
from engine.rng import Rng
from engine.sequence import STEP_INDEX
from engine.state import AdvanceRight, GameState, parse_date
from engine.supply import supply_map

WORLD = build_world(
    """
    G:c G:c P:c P:c
     G:c G:c P:c P:c
    G:c G:c P:c P:c
    """,
    cities={"Berlin": "0,0 capital", "Warsaw": "3,0 capital"},
    resources=["0,0", "3,0"],
)
ROW = build_world("G:c G:c P:c", cities={"Berlin": "0,0", "Posen": "2,0"}, resources=["0,0", "2,0"])


class ScriptedRng(Rng):
    """An Rng whose uniform draws are given by the test."""

    def __init__(self, *draws: float) -> None:
        super().__init__(bytes(32))
        self.script = [Fraction(d).limit_denominator(1 << 20) for d in draws]

    def uniform(self) -> Fraction:
        return self.script.pop(0)


def refusal(state: GameState, action: Action, phase: object = None) -> str:
    """The slug of the rule that refuses the Axis' action ("" when it is allowed)."""
    step = phase or Combat("axis")
    check = step if callable(step) else step.check  # type: ignore[attr-defined]
    try:
        check(state, "axis", action)
    except IllegalAction as exc:
        return exc.rule
    return ""


# --- combat mathematics ---------------------------------------------------------------


def test_defender_loss_probability_formula() -> None:
    """Supplement "Defender losses": P(loss >= s) = 1 - (1 + 2/s)^(-r)."""
    assert combat_math.defender_loss_chance(1, Fraction(1)) == pytest.approx(2 / 3)
    assert combat_math.defender_loss_chance(2, Fraction(2)) == pytest.approx(0.75)
    assert combat_math.defender_loss_chance(3, Fraction(2)) == pytest.approx(1 - 0.36)
    # one draw picks the largest s it reaches: r = 2 -> 0.889, 0.75, 0.64, ...
    assert combat_math.defender_loss(Fraction(7, 10), Fraction(2), 10) == 2
    assert combat_math.defender_loss(Fraction(95, 100), Fraction(2), 10) == 0
    assert combat_math.defender_loss(Fraction(1, 2), Fraction(2), 3) == 3  # capped at the stack


def test_attacker_loss_table() -> None:
    """Supplement "Attacker losses": u < max(0, 1 - r) eliminates every attacker; else
    < 1/4: 3 points, < 1/3: 2, < 1/2: 1, otherwise none."""
    two, half = Fraction(2), Fraction(1, 2)
    assert combat_math.attacker_loss(Fraction(1, 5), two) == 3
    assert combat_math.attacker_loss(Fraction(3, 10), two) == 2
    assert combat_math.attacker_loss(Fraction(2, 5), two) == 1
    assert combat_math.attacker_loss(Fraction(3, 5), two) == 0
    assert combat_math.attacker_loss(Fraction(2, 5), half) is None
    assert combat_math.attacker_loss(Fraction(3, 5), half) == 0


def test_draw_comparison_is_exact_at_the_boundary() -> None:
    """Supplement "Combat mathematics": 1 - 2^(-1) is exactly 1/2; draws on either side of
    it are decided exactly (the same on every machine)."""
    eps = Fraction(1, 1 << 48)
    assert not combat_math.draw_below(Fraction(1, 2), 2, 1)
    assert combat_math.draw_below(Fraction(1, 2) - eps, 2, 1)
    assert combat_math.draw_below(Fraction(3, 4) - eps, 2, 2)
    assert not combat_math.draw_below(Fraction(3, 4), 2, 2)
    # 1 - (5/3)^(-2) = 16/25 exactly
    assert not combat_math.draw_below(Fraction(16, 25), Fraction(5, 3), 2)


def test_defender_loss_frequencies() -> None:
    """Supplement "Defender losses": with r = 1 the defender loses at least one point two
    times in three."""
    rng = Rng(bytes(range(32)))
    n = 3000
    hits = sum(combat_math.defender_loss(rng.uniform(), Fraction(1), 5) >= 1 for _ in range(n))
    assert abs(hits / n - 2 / 3) < 0.03


def test_other_formulas() -> None:
    """Supplement "Naval and air combat", "Bombing and assaults", "Atomic bomb surrender"."""
    assert combat_math.assault_chance(True, True, True) == 1
    assert combat_math.assault_chance(True, False, False) == Fraction(1, 2)
    assert combat_math.assault_chance(True, False, True) == Fraction(3, 4)
    assert combat_math.bombing_succeeds(Fraction(1, 3), Fraction(5))  # 1 - 2^-1 = 1/2
    assert not combat_math.bombing_succeeds(Fraction(2, 3), Fraction(5))
    assert combat_math.unit_k(Fraction(6), Fraction(2), 3) == 1
    assert combat_math.damaged(Fraction(49, 100), Fraction(1))
    assert not combat_math.eliminated(Fraction(6, 100), Fraction(1))  # 1 - 0.95 = 0.05
    assert combat_math.surrender(Fraction(3, 5), Fraction(1), False, 0) is False  # 50 %
    assert combat_math.surrender(Fraction(7, 10), Fraction(1), True, 0) is True  # 75 %


# --- strengths ------------------------------------------------------------------------


def test_attack_strength_with_bombers_and_ships() -> None:
    """Supplement "Land attack strength": land strength + bombers in full (half if
    damaged) + 1/5 of ships' surface attack (1/10 if damaged)."""
    state = setup(WORLD, step="axis.combat")
    inf = put(state, "Germany", "infantry", "1,1", strength=6, move=5)
    bomber = put(state, "Germany", "bomber", "2,1", attack=1, bomber=4, move=10)
    damaged = put(state, "Germany", "bomber", "2,1", attack=1, move=10)
    damaged.damaged = True
    ship = put(state, "Germany", "battleship", "2,1", attack=10, defense=2, move=30)
    total, _ = attack_strength(state, [inf], [bomber, damaged, ship])
    assert total == 6 + 4 + Fraction(3, 2) + 2
    ship.damaged = True
    assert attack_strength(state, [inf], [ship])[0] == 7


def test_defence_modifiers() -> None:
    """Supplement "Land defence strength": tall mountain x2, mountain or forest x1.5,
    fortification x2, spring or monsoon x2, out of supply /2; supply units add nothing."""
    world = build_world("G:c P:f P:M P:c", cities={"Warsaw": "3,0"}, resources=["3,0"],
                        weather=WeatherZone.NORTH_TEMPERATE)  # fmt: skip
    state = setup(world, step="axis.combat")
    forest, mountain = (
        put(state, "Poland", "infantry", "1,0", strength=4, move=5),
        put(state, "Poland", "infantry", "2,0", strength=4, move=5),
    )
    su = put(state, "Poland", "supply", "2,0", move=5)
    smap = supply_map(state, "allies")
    assert defence_strength(state, hx(state, "1,0"), [forest], smap)[0] == 6
    assert defence_strength(state, hx(state, "2,0"), state.units_at(hx(state, "2,0")), smap)[0] == 8
    state.forts[hx(state, "1,0")] = 0
    assert defence_strength(state, hx(state, "1,0"), [forest], smap)[0] == 12
    state.date = parse_date("1940-04")  # spring in the northern temperate zone
    value, notes = defence_strength(state, hx(state, "2,0"), [mountain], smap)
    assert value == 16 and "spring x2" in notes
    state.destroy(su)  # it was a source for its stack
    state.set_controller(hx(state, "3,0"), "Germany")  # Warsaw lost: out of supply
    assert defence_strength(state, hx(state, "2,0"), [mountain], supply_map(state, "allies"))[0] == 8


def test_soviet_winter_bonus_doubles_attack_and_defence() -> None:
    """Rulebook "Severe Winter": first winter after the Axis declares war on the Soviet
    Union, Soviet land units in severe winter attack and defend at double strength."""
    world = build_world("G:c S:c S:c", cities={"Moscow": "2,0"}, resources=["2,0"], weather=WeatherZone.POLAR)
    state = setup(world, allies=(), step="axis.combat")
    su = state.countries["Soviet Union"]
    su.side, su.at_war, su.entered = "allies", True, parse_date("1941-06")
    state.date = parse_date("1941-12")
    red = put(state, "Soviet Union", "infantry", "1,0", strength=5, move=5)
    assert attack_strength(state, [red], [])[0] == 10
    assert defence_strength(state, hx(state, "1,0"), [red], supply_map(state, "allies"))[0] == 10


def test_losses_are_taken_from_the_strongest_unit_first() -> None:
    """Supplement "Defender losses": lost points are taken one at a time from the stack's
    units (largest first, docs/rules-decisions.md)."""
    state = setup(WORLD, step="axis.combat")
    a, b = put(state, "Poland", "infantry", "2,1", strength=5, move=5), put(state, "Poland", "infantry", "2,1", move=5)
    take_losses(state, [a, b], 3)  # 5,3 -> 4,3 -> 3,3 -> 2,3 (ties: the lower id)
    assert (a.strength, b.strength) == (2, 3)
    take_losses(state, [a, b], 4)  # -> 2,2 -> 1,2 -> 1,1 -> 0,1
    assert a.id not in state.units and b.strength == 1


# --- declaring attacks ------------------------------------------------------------------


def test_attack_refusals_name_unit_and_hex() -> None:
    """Rulebook "Land Combat": attackers adjacent, not across an all-sea hexside; "Supply":
    units out of supply cannot attack; "Supply Units in Combat": supply units cannot attack."""
    state = setup(WORLD, step="axis.combat")
    far = put(state, "Germany", "infantry", "0,1", strength=4, move=5)
    near = put(state, "Germany", "infantry", "1,1", strength=4, move=5)
    su = put(state, "Germany", "supply", "1,1", move=5)
    put(state, "Poland", "infantry", "2,1", strength=4, move=5)
    target = hx(state, "2,1")
    assert refusal(state, Action("attack", (target, far.id))) == "attack.not-adjacent"
    assert refusal(state, Action("attack", (target, su.id))) == "attack.supply-unit"
    assert refusal(state, Action("attack", (hx(state, "1,2"), near.id))) == "attack.no-enemy"
    assert refusal(state, Action("attack", (target, near.id))) == ""
    state.destroy(su)  # it was a source for its stack
    state.set_controller(hx(state, "0,0"), "Poland")  # Berlin lost: no source left
    assert refusal(state, Action("attack", (target, near.id))) == "supply.out-of-supply"


def test_no_attack_across_an_all_sea_hexside() -> None:
    """Rulebook "Land Combat": the hexside between attacker and defender may not be all sea."""
    world = build_world("G:c G:c P:c", cities={"Berlin": "0,0"}, resources=["0,0"],
                        sides={("1,0", "2,0"): Side.SEA})  # fmt: skip
    state = setup(world, step="axis.combat")
    u = put(state, "Germany", "infantry", "1,0", strength=4, move=5)
    put(state, "Poland", "infantry", "2,0", strength=4, move=5)
    assert refusal(state, Action("attack", (hx(state, "2,0"), u.id))) == "attack.not-adjacent"


def test_unit_attacks_once_per_phase_and_stack_may_be_attacked_twice() -> None:
    """Rulebook "Land Combat": attack by stack; each attacker attacks once; several attacks
    on one stack are allowed (docs/rules-decisions.md)."""
    state = setup(WORLD, step="axis.combat")
    state.set_controller(hx(state, "2,2"), "Germany")
    a, b = (
        put(state, "Germany", "infantry", "1,1", strength=4, move=5),
        put(state, "Germany", "infantry", "2,2", strength=4, move=5),
    )
    put(state, "Poland", "infantry", "2,1", strength=4, move=5)
    target = hx(state, "2,1")
    api.apply(state, "axis", Action("attack", (target, a.id)))
    assert a.attacked
    assert refusal(state, Action("attack", (target, a.id))) == "attack.already"
    api.apply(state, "axis", Action("attack", (target, b.id)))
    assert [e.attackers for e in state.combats] == [[a.id], [b.id]]


def test_support_by_bombers_and_warships_in_the_defenders_hex() -> None:
    """Rulebook "Land Combat": bombers and non-submarine ships in the defender's hex may
    support; kamikaze-only units may not ("Kamikaze")."""
    world = build_world("G:c G:c P:c ~", cities={"Berlin": "0,0", "Danzig": "2,0 port"}, resources=["0,0"])
    state = setup(world, step="axis.combat")
    inf = put(state, "Germany", "infantry", "1,0", strength=4, move=5)
    put(state, "Poland", "infantry", "2,0", strength=4, move=5)
    bomber = put(state, "Germany", "bomber", "2,0", attack=1, bomber=4, move=10)
    sub = put(state, "Germany", "submarine", "2,0", attack=4, sub_attack=1, defense=2, move=30)
    ship = put(state, "Germany", "destroyer", "2,0", attack=4, sub_attack=1, move=30)
    target = hx(state, "2,0")
    assert refusal(state, Action("support", (target, bomber.id))) == "support.no-attack"
    api.apply(state, "axis", Action("attack", (target, inf.id)))
    assert refusal(state, Action("support", (target, sub.id))) == "support.submarine"
    legal = api.legal_actions(state, "axis")
    assert Action("support", (target, bomber.id)) in legal
    assert Action("support", (target, sub.id)) not in legal
    api.apply(state, "axis", Action("support", (target, bomber.id)))
    api.apply(state, "axis", Action("support", (target, ship.id)))
    assert state.combats[0].supports == [bomber.id, ship.id]
    assert refusal(state, Action("support", (target, bomber.id))) == "attack.already"


def test_legal_actions_all_pass_check() -> None:
    """Every action legal() lists is accepted by check (engine rule: they agree)."""
    state = setup(WORLD, step="axis.combat")
    put(state, "Germany", "infantry", "1,1", strength=4, move=5)
    put(state, "Germany", "armor", "1,0")
    put(state, "Germany", "infantry", "1,2", strength=4, move=5)
    put(state, "Poland", "infantry", "2,1", strength=4, move=5)
    put(state, "Poland", "infantry", "2,0", strength=4, move=5)
    legal = api.legal_actions(state, "axis")
    assert PASS in legal and legal == [PASS, *sorted(legal[1:], key=lambda a: (a.kind, a.args))]
    attacks = [a for a in legal if a.kind == "attack"]
    # 2,0 by the armor in 1,0 and the infantry in 1,1 (three groups), 2,1 by the infantry in 1,1
    assert len(attacks) == 4
    for action in legal:
        api.check(state, "axis", action)


# --- resolution -------------------------------------------------------------------------


def declare_and_roll(state: GameState, *draws: float, overrun: bool = False) -> list[str]:
    state.step = STEP_INDEX["axis.overrun_roll" if overrun else "axis.combat_roll"]
    roll = OverrunRoll("axis") if overrun else CombatRoll("axis")
    return roll.roll(state, ScriptedRng(*draws))


def test_defender_retreats_after_losses_toward_a_city() -> None:
    """Rulebook "Land Combat": a willing defender that loses points retreats one hex into a
    hex free of enemy control zones; supplement "Retreat" (engine picks: cities first)."""
    state = setup(WORLD, step="axis.combat")
    att = put(state, "Germany", "infantry", "1,1", strength=6, move=5)
    dfd = put(state, "Poland", "infantry", "2,1", move=5)
    api.apply(state, "axis", Action("attack", (hx(state, "2,1"), att.id)))
    log = declare_and_roll(state, 0.7, 0.9)  # r = 2: loses 2; attacker: nothing
    assert dfd.strength == 1 and dfd.hex == hx(state, "3,0")  # Warsaw
    assert att.strength == 6
    assert "odds 2.00" in log[0] and "retreats" in log[0]
    assert state.controller_of(hx(state, "2,1")) == "Germany"  # emptied: passes to the attacker
    assert state.memo.advances == [AdvanceRight(hx(state, "2,1"), [att.id], 0)]


def test_unwilling_defender_takes_double_losses() -> None:
    """Rulebook "Land Combat": a defender not willing to retreat has its losses doubled
    (supplement "Retreat": a standing order chosen before the roll)."""
    state = setup(WORLD, step="axis.combat")
    att = put(state, "Germany", "infantry", "1,1", strength=6, move=5)
    dfd = put(state, "Poland", "infantry", "2,1", strength=5, move=5)
    stand = Action("stand", (hx(state, "2,1"), True))
    assert refusal(state, stand, check_stand) == "stand.no-units"  # the Axis has none there
    check_stand(state, "allies", stand)
    apply_stand(state, "allies", stand)
    api.apply(state, "axis", Action("attack", (hx(state, "2,1"), att.id)))
    log = declare_and_roll(state, 0.7, 0.9)  # r = 1.2: 1 point, doubled
    assert dfd.strength == 3 and dfd.hex == hx(state, "2,1")
    assert "will not retreat, losses doubled" in log[0]


def test_defender_that_cannot_retreat_takes_double_losses() -> None:
    """Rulebook "Land Combat": if not all defenders can retreat, losses are doubled."""
    state = setup(ROW, step="axis.combat")
    att = put(state, "Germany", "infantry", "1,0", strength=6, move=5)
    dfd = put(state, "Poland", "infantry", "2,0", strength=5, move=5)
    api.apply(state, "axis", Action("attack", (hx(state, "2,0"), att.id)))
    log = declare_and_roll(state, 0.7, 0.9)  # r = 1.2: loses 1, doubled
    assert dfd.strength == 3 and "cannot retreat" in log[0]


def test_eliminated_defender_hex_passes_to_attacker_and_allows_advance() -> None:
    """Supplement "Advance after combat": up to two attacking land units may advance into
    the emptied hex; "Hex control": a hex a land unit moves into passes to its side."""
    state = setup(WORLD, step="axis.combat")
    for label in ("2,0", "2,2"):
        state.set_controller(hx(state, label), "Germany")
    a, b, c = (put(state, "Germany", "infantry", label, strength=6, move=5) for label in ("1,1", "2,0", "2,2"))
    dfd = put(state, "Poland", "infantry", "2,1", strength=2, move=5)
    target = hx(state, "2,1")
    api.apply(state, "axis", Action("attack", (target, a.id, b.id, c.id)))
    declare_and_roll(state, 0.5, 0.9)
    assert dfd.id not in state.units
    state.step = STEP_INDEX["axis.advance"]
    step = Advance("axis")
    assert step.needed(state, "axis")
    assert refusal(state, Action("advance", (target, a.id, b.id, c.id)), step) == "advance.too-many"
    assert Action("advance", (target, a.id, b.id)) in step.legal(state, "axis")
    step.check(state, "axis", Action("advance", (target, a.id)))
    step.apply(state, "axis", Action("advance", (target, a.id)))
    assert a.hex == target
    assert refusal(state, Action("advance", (target, a.id)), step) == "advance.not-eligible"
    step.apply(state, "axis", Action("advance", (target, b.id)))
    assert refusal(state, Action("advance", (target, c.id)), step) == "advance.too-many"
    step.leave(state)
    assert state.memo.advances is None


def test_attackers_can_all_be_eliminated_at_low_odds() -> None:
    """Supplement "Attacker losses": with r < 1, u < 1 - r eliminates every attacker."""
    state = setup(WORLD, step="axis.combat")
    att = put(state, "Germany", "infantry", "1,1", strength=2, move=5)
    put(state, "Poland", "infantry", "2,1", strength=4, move=5)
    api.apply(state, "axis", Action("attack", (hx(state, "2,1"), att.id)))
    log = declare_and_roll(state, 0.99, 0.3)  # r = 1/2
    assert att.id not in state.units and "every attacker is eliminated" in log[0]


def test_attacker_loses_three_points() -> None:
    """Supplement "Attacker losses": u < 1/4 costs the attacker 3 points."""
    state = setup(WORLD, step="axis.combat")
    att = put(state, "Germany", "infantry", "1,1", strength=6, move=5)
    put(state, "Poland", "infantry", "2,1", move=5)
    api.apply(state, "axis", Action("attack", (hx(state, "2,1"), att.id)))
    declare_and_roll(state, 0.99, 0.2)
    assert att.strength == 3


def test_stack_of_supply_units_alone_is_eliminated_without_a_roll() -> None:
    """Rulebook "Supply Units in Combat": a stack of supply units only is always
    eliminated, with no attacker losses."""
    state = setup(WORLD, step="axis.combat")
    att = put(state, "Germany", "infantry", "1,1", strength=1, move=5)
    su = put(state, "Poland", "supply", "2,1", move=5)
    api.apply(state, "axis", Action("attack", (hx(state, "2,1"), att.id)))
    rng = ScriptedRng()
    state.step = STEP_INDEX["axis.combat_roll"]
    CombatRoll("axis").roll(state, rng)
    assert su.id not in state.units and att.strength == 1


def test_supply_unit_retreats_with_its_stack_and_falls_with_it() -> None:
    """Rulebook "Supply Units in Combat": the supply unit adds no defence, retreats with
    the stack, and is eliminated if and only if the whole stack is."""
    state = setup(WORLD, step="axis.combat")
    att = put(state, "Germany", "infantry", "1,1", strength=6, move=5)
    dfd = put(state, "Poland", "infantry", "2,1", move=5)
    su = put(state, "Poland", "supply", "2,1", move=5)
    api.apply(state, "axis", Action("attack", (hx(state, "2,1"), att.id)))
    declare_and_roll(state, 0.7, 0.9)
    assert dfd.hex == su.hex == hx(state, "3,0")
    state = setup(WORLD, step="axis.combat")
    att = put(state, "Germany", "infantry", "1,1", strength=6, move=5)
    put(state, "Poland", "infantry", "2,1", move=5)
    su = put(state, "Poland", "supply", "2,1", move=5)
    api.apply(state, "axis", Action("attack", (hx(state, "2,1"), att.id)))
    declare_and_roll(state, 0.5, 0.9)  # 3 points: the stack is gone
    assert su.id not in state.units


# --- overrun ----------------------------------------------------------------------------


def test_overrun_only_armor_and_not_in_spring() -> None:
    """Rulebook "Overrun": only armor; "Spring": overruns are prohibited if the attacker's
    or the defender's hex has spring conditions (monsoon: the same)."""
    world = build_world(
        """
        G:c G:c P:c P:c
         G:c G:c P:c P:c
        """,
        cities={"Berlin": "0,0", "Warsaw": "3,0"},
        resources=["0,0", "3,0"],
        weather={"2,1": WeatherZone.NORTH_TEMPERATE},
    )
    state = setup(world, step="axis.overrun")
    inf = put(state, "Germany", "infantry", "1,1", strength=4, move=5)
    armor = put(state, "Germany", "armor", "1,1", strength=6)
    put(state, "Poland", "infantry", "2,1", move=5)
    phase = Overrun("axis")
    target = hx(state, "2,1")
    assert refusal(state, Action("overrun", (target, inf.id)), phase) == "overrun.not-armor"
    assert "support" not in {a.kind for a in phase.legal(state, "axis")}
    state.date = parse_date("1940-04")
    assert refusal(state, Action("overrun", (target, armor.id)), phase) == "overrun.weather"
    state.date = parse_date("1940-07")
    assert refusal(state, Action("overrun", (target, armor.id)), phase) == ""


def test_successful_overrun_lets_armor_ignore_control_zones() -> None:
    """Rulebook "Overrun": if the defender lost at least one strength point, the attacking
    armor may ignore control zones in the following movement phase (Unit.overran)."""
    state = setup(WORLD, step="axis.overrun")
    armor = put(state, "Germany", "armor", "1,1", strength=6)
    put(state, "Poland", "infantry", "2,1", move=5)
    api.apply(state, "axis", Action("overrun", (hx(state, "2,1"), armor.id)))
    log = declare_and_roll(state, 0.7, 0.9, overrun=True)
    assert armor.overran and armor.attacked
    assert log[0].startswith("overrun on 2,1")
    assert state.memo.advances is None  # overruns have no advance step


def test_failed_overrun_sets_nothing() -> None:
    """Rulebook "Overrun": no loss for the defender, no free movement."""
    state = setup(WORLD, step="axis.overrun")
    armor = put(state, "Germany", "armor", "1,1", strength=6)
    put(state, "Poland", "infantry", "2,1", move=5)
    api.apply(state, "axis", Action("overrun", (hx(state, "2,1"), armor.id)))
    declare_and_roll(state, 0.99, 0.9, overrun=True)
    assert not armor.overran


# --- through the public interface -------------------------------------------------------


def test_combat_through_the_api_is_deterministic_and_logged() -> None:
    """Supplement "Combat mathematics": the resolution depends only on the state and the
    chance seed; the log tells the players the odds, draws and losses."""
    results = []
    for _ in range(2):
        state = setup(WORLD, step="axis.combat")
        att = put(state, "Germany", "infantry", "1,1", strength=6, move=5)
        put(state, "Poland", "infantry", "2,1", move=5)
        api.apply(state, "axis", Action("attack", (hx(state, "2,1"), att.id)))
        api.apply(state, "axis", PASS)
        assert api.decision(state).phase == "axis.combat_roll"
        log = api.apply_chance(state, bytes([5]) * 32)
        assert "odds 2.00" in log[0] and "defender draw" in log[0] and "attacker draw" in log[0]
        assert state.combats == []
        results.append(api.state_hash(state))
    assert results[0] == results[1]


def test_stand_orders_survive_serialisation() -> None:
    """Supplement "Retreat": the standing order is part of the game state."""
    state = setup(WORLD, step="axis.combat")
    put(state, "Poland", "infantry", "2,1", strength=4, move=5)
    apply_stand(state, "allies", Action("stand", (hx(state, "2,1"), True)))
    again = api.deserialize(api.serialize(state), WORLD)
    assert again.stands == {hx(state, "2,1"): "allies"}
    assert api.serialize(again) == api.serialize(state)


def test_retreat_prefers_friendly_units_even_inside_an_enemy_zone() -> None:
    """Rulebook "Land Combat": a retreat may end in an enemy control zone if friendly land
    units are there; supplement "Retreat": the engine picks for the defender (friendly
    units first, docs/rules-decisions.md)."""
    state = setup(WORLD, step="axis.combat")
    att = put(state, "Germany", "infantry", "1,1", strength=6, move=5)
    dfd = put(state, "Poland", "infantry", "2,1", move=5)
    friend = put(state, "Poland", "infantry", "2,2", strength=1, move=5)  # in the German zone of 1,1
    api.apply(state, "axis", Action("attack", (hx(state, "2,1"), att.id)))
    declare_and_roll(state, 0.7, 0.9)
    assert dfd.hex == friend.hex == hx(state, "2,2")


def _retreat_to(target: str | None, *, also: tuple[str, ...] = ()) -> tuple[GameState, str]:
    """Where the Polish stack in 2,1, beaten from 1,1, retreats under the order ``retreat target also``."""
    state = setup(WORLD, step="axis.combat")
    att = put(state, "Germany", "infantry", "1,1", strength=6, move=5)
    dfd = put(state, "Poland", "infantry", "2,1", move=5)
    if target is not None:
        order = Action("retreat", tuple(hx(state, h) for h in (target, *also)))
        check_retreat(state, "allies", order)
        apply_retreat(state, "allies", order)
    api.apply(state, "axis", Action("attack", (hx(state, "2,1"), att.id)))
    declare_and_roll(state, 0.7, 0.9)  # r = 2: loses 2, retreats
    return state, state.world.map.grid.label(dfd.hex)


def test_the_defender_s_retreat_order_picks_among_the_legal_hexes() -> None:
    """Supplement "Retreat": "When several retreat hexes are legal, the defender picks them."
    The order ranks the legal hexes by their distance to its hexes; without it the engine's
    choice stands (Warsaw, a city), and it never makes an illegal hex legal."""
    assert _retreat_to(None)[1] == "3,0"
    assert _retreat_to("3,2")[1] == "3,2"
    assert _retreat_to("3,1")[1] == "3,1"
    # 2,2 is in the German zone of 1,1: never entered; the legal hex nearest it is 3,2
    assert _retreat_to("2,2")[1] == "3,2"
    # the stack's own hex is one hex from every neighbour: the engine's order decides,
    # and the order's next hex breaks that tie
    assert _retreat_to("2,1")[1] == "3,0"
    assert _retreat_to("2,1", also=("3,1",))[1] == "3,1"
    assert _retreat_to("2,1", also=("0,2",))[1] == "3,2"
    # Berlin, behind the attacker: the legal hex nearest it
    assert _retreat_to("0,0")[1] == "3,0"


def test_retreat_orders_are_checked_kept_and_withdrawn() -> None:
    """The order is part of the state (fixed before the roll, like ``stand``), written into
    the state's bytes only while given: a state without it keeps the bytes it always had."""
    state = setup(WORLD, step="axis.combat")
    put(state, "Poland", "infantry", "2,1", strength=4, move=5)
    before = api.serialize(state)
    assert b"toward" not in before
    warsaw = hx(state, "3,0")
    assert refusal(state, Action("retreat", ()), check_retreat) == "retreat.unchanged"
    assert refusal(state, Action("retreat", (999,)), check_retreat) == "hex.off-map"
    assert refusal(state, Action("retreat", (warsaw, warsaw)), check_retreat) == "retreat.repeated"
    assert refusal(state, Action("retreat", tuple(range(9))), check_retreat) == "retreat.too-many"
    apply_retreat(state, "axis", Action("retreat", (warsaw,)))
    assert refusal(state, Action("retreat", (warsaw,)), check_retreat) == "retreat.unchanged"
    again = api.deserialize(api.serialize(state), WORLD)
    assert again.toward == {"axis": (warsaw,)} and state.copy().toward == again.toward
    apply_retreat(state, "axis", Action("retreat", ()))
    assert state.toward == {} and api.serialize(state) == before


def test_a_retreat_order_is_accepted_in_any_decision_of_its_side() -> None:
    """Like ``stand``, a standing order the side may give in any of its decisions."""
    state = setup(WORLD, step="allies.first_movement")
    put(state, "Poland", "infantry", "2,1", strength=4, move=5)
    order = Action("retreat", (hx(state, "3,2"),))
    api.apply(state, "allies", order)
    assert state.toward == {"allies": (hx(state, "3,2"),)}
    with pytest.raises(IllegalAction) as refused:
        api.check(state, "axis", Action("retreat", ()))
    assert refused.value.rule == "decision.not-your-turn"


def test_armor_does_not_retreat_into_desert_and_nobody_into_neutral_hexes() -> None:
    """Terrain table: armor may not enter desert hexes; supplement "Control zones and hex
    control": neutral hexes are never entered, retreats included."""
    world = build_world("G:c G:c P:c P:d W:c", cities={"Berlin": "0,0", "Posen": "2,0"}, resources=["0,0", "2,0"])
    state = setup(world, step="axis.combat")
    att = put(state, "Germany", "infantry", "1,0", strength=6, move=5)
    dfd = put(state, "Poland", "armor", "2,0", strength=5)
    api.apply(state, "axis", Action("attack", (hx(state, "2,0"), att.id)))
    log = declare_and_roll(state, 0.7, 0.9)  # r = 1.2: 1 point; no retreat hex for armor: doubled
    assert dfd.strength == 3 and dfd.hex == hx(state, "2,0") and "cannot retreat" in log[0]
    state = setup(world, step="axis.combat")
    att = put(state, "Germany", "infantry", "1,0", strength=6, move=5)
    inf = put(state, "Poland", "infantry", "2,0", strength=5, move=5)
    api.apply(state, "axis", Action("attack", (hx(state, "2,0"), att.id)))
    declare_and_roll(state, 0.7, 0.9)
    assert inf.strength == 4 and inf.hex == hx(state, "3,0")  # infantry may retreat into the desert
    neutral = build_world("G:c G:c P:c W:c", cities={"Berlin": "0,0", "Posen": "2,0"}, resources=["0,0", "2,0"])
    state = setup(neutral, step="axis.combat")
    att = put(state, "Germany", "infantry", "1,0", strength=6, move=5)
    inf = put(state, "Poland", "infantry", "2,0", strength=5, move=5)
    api.apply(state, "axis", Action("attack", (hx(state, "2,0"), att.id)))
    log = declare_and_roll(state, 0.7, 0.9)
    assert inf.strength == 3 and inf.hex == hx(state, "2,0") and "cannot retreat" in log[0]  # not into Sweden


def test_no_attack_on_a_country_not_at_war() -> None:
    """Rulebook "War Declaration": neutral countries' units cannot be attacked."""
    world = build_world("G:c G:c W:c", cities={"Berlin": "0,0"}, resources=["0,0"])
    state = setup(world, allies=(), step="axis.combat")
    u = put(state, "Germany", "infantry", "1,0", strength=4, move=5)
    put(state, "Sweden", "infantry", "2,0", strength=4, move=5)
    assert refusal(state, Action("attack", (hx(state, "2,0"), u.id))) == "attack.no-enemy"


def test_log_names_the_modifiers() -> None:
    """Supplement "Land defence strength": the players see which modifiers applied."""
    world = build_world("G:c G:c P:f", cities={"Berlin": "0,0", "Posen": "2,0"}, resources=["0,0", "2,0"])
    state = setup(world, step="axis.combat")
    att = put(state, "Germany", "infantry", "1,0", strength=6, move=5)
    put(state, "Poland", "infantry", "2,0", strength=4, move=5)
    api.apply(state, "axis", Action("attack", (hx(state, "2,0"), att.id)))
    log = declare_and_roll(state, 0.99, 0.9)
    assert "defence 6 (forest x1.5)" in log[0] and "odds 1.00" in log[0] and "no defender losses" in log[0]


def test_stand_orders_toggle_and_are_dropped_with_their_stack() -> None:
    """Supplement "Retreat": a standing order per stack that its owner may change at any time
    before the roll; `stand HEX yes` holds, `stand HEX no` returns to retreating."""
    state = setup(WORLD, step="axis.combat")
    u = put(state, "Poland", "infantry", "2,1", strength=4, move=5)
    h = hx(state, "2,1")
    assert stand_actions(state, "allies") == [Action("stand", (h, True))]
    with pytest.raises(IllegalAction) as refused:
        check_stand(state, "allies", Action("stand", (h, False)))
    assert refused.value.rule == "stand.unchanged"
    apply_stand(state, "allies", Action("stand", (h, True)))
    assert stand_actions(state, "allies") == [Action("stand", (h, False))]
    with pytest.raises(IllegalAction) as refused:
        check_stand(state, "allies", Action("stand", (h, True)))
    assert refused.value.rule == "stand.unchanged"
    state.place(u, hx(state, "3,1"))
    prune_stands(state)
    assert state.stands == {}
