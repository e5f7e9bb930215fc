"""Issue 30's attacks at the odds the combat model rewards (switch ``model_odds``) and
landings only where they hold (switch ``sure_landings``): both on for the bot, off for v1."""

from __future__ import annotations

from fractions import Fraction

import pytest

from engine import ai, api
from engine.actions import Action
from engine.ai.arena import ODDS_BANDS, _count_attacks, attack_text, odds_band
from engine.ai.attack import Judge
from engine.ai.landings import SURE, hold_chance
from engine.ai.picture import Picture
from engine.ai.style import STYLES
from engine.position import hex_at as hx
from engine.position import open_step, put, setup
from engine.state import GameState
from tests.ai.worlds import advance_to, at_war, infantry

SEED = b"\x06" * 32


def _attacks(actions: list[Action]) -> list[tuple[int, set[int]]]:
    return [(int(a.args[0]), {int(x) for x in a.args[1:]}) for a in actions if a.kind == "attack"]


def test_the_switches_are_on_for_the_bot_and_deep_and_off_for_v1_and_gentle() -> None:
    assert all(STYLES[p].model_odds and STYLES[p].sure_landings for p in ("bot", "deep"))
    assert not any(STYLES[p].model_odds or STYLES[p].sure_landings for p in ("v1", "gentle"))


@pytest.mark.parametrize(
    ("side", "attacker", "here", "defender", "there"),
    [("axis", "Germany", "2,2", "Poland", "3,2"), ("allies", "Poland", "3,2", "Germany", "2,2")],
)
def test_an_attack_at_odds_of_one_point_two_that_v1_leaves_the_bot_makes(
    side: str, attacker: str, here: str, defender: str, there: str
) -> None:
    """6 against 5 on clear ground, not a city: v1 wants 1.5 there; from odds of 1 the model
    expects the defender to lose 2.5 points (and the hex, with chance 0.73) for 1.08 of ours."""
    state = at_war()
    mine = infantry(state, attacker, here, 6)
    infantry(state, defender, there, 5)
    open_step(state, f"{side}.combat")
    target = hx(state, there)
    est = Judge(state, side).estimate(target, [state.units[mine]], list(state.units_at(target)), side)
    assert est.ratio == pytest.approx(1.2)
    assert est.defender_loss > 2 * est.attacker_loss
    assert _attacks(ai.decide(state, side, SEED, "v1")) == []
    assert _attacks(ai.decide(state, side, SEED, "bot")) == [(target, {mine})]


def test_below_odds_of_one_the_bot_does_not_attack() -> None:
    """At 5 against 6 the attack table eliminates every attacker with chance 1/6."""
    state = at_war()
    infantry(state, "Germany", "2,2", 5)
    infantry(state, "Poland", "3,2", 6)
    advance_to(state, "axis.combat")
    assert _attacks(ai.decide(state, "axis", SEED, "bot")) == []


# --- landings -------------------------------------------------------------------------------

MAP = """
G:c G:c ~ ~ P:c P:c
 G:c G:c ~ ~ P:c P:c
"""
CITIES = {"Berlin": "0,0 capital", "Warsaw": "5,0 capital", "Lodz": "4,1", "Kiel": "1,0"}


def _at_sea(kind: str, strength: int) -> tuple[GameState, int]:
    """A German land unit aboard a transport off Poland's coast, next to the empty resource
    hex 4,0 and Lodz."""
    state = setup(MAP, step=None, cities=CITIES, resources=["4,0"])
    ship = put(state, "Germany", "transport", "3,0")
    unit = put(state, "Germany", kind, "3,0", strength=strength, carrier=ship.id).id
    return state, unit


def _assaults(state: GameState, player: str) -> list[Action]:
    return [a for a in ai.decide(state, "axis", SEED, player) if a.kind == "assault"]


def test_a_landing_at_even_chances_that_v1_makes_the_bot_refuses() -> None:
    """Infantry alone from the sea lands half the time (rulebook "Amphibious Assaults"),
    and Warsaw's garrison can walk onto the beach: the bot's estimate is far below 70 %."""
    state, inf = _at_sea("infantry", 3)
    put(state, "Poland", "infantry", "5,0", strength=2)
    open_step(state, "axis.amphibious")
    assert _assaults(state, "v1")
    assert _assaults(state, "bot") == []
    # 50 %; out of supply on the beach, the 3 points keep 1, defending at half: 2 points
    # of Polish infantry attack at odds of 4, and the hex (a resource hex: it stands) is
    # lost with any loss, 1 - 3 ** -4
    chance = hold_chance(Picture(state, "axis"), hx(state, "4,0"), [state.units[inf]], True, False)
    assert chance == pytest.approx(0.5 * 3**-4)


def test_marines_land_where_no_enemy_can_reach_them_and_not_where_one_can() -> None:
    state, marine = _at_sea("marine", 2)
    open_step(state, "axis.amphibious")
    landed = _assaults(state, "bot")
    assert [a.args[1:] for a in landed] == [(marine,)]
    assert hold_chance(Picture(state, "axis"), int(landed[0].args[0]), [state.units[marine]], True, False) == 0.75

    state, marine = _at_sea("marine", 2)
    put(state, "Poland", "infantry", "5,1", strength=1)
    open_step(state, "axis.amphibious")
    assert _assaults(state, "bot") == []
    assert _assaults(state, "v1")


def test_the_bot_boards_marines_for_a_landing_and_leaves_infantry_ashore() -> None:
    def world(kind: str) -> tuple[GameState, int, int]:
        state = setup(MAP, step="axis.first_movement", cities=CITIES, resources=["4,0"])
        ship = put(state, "Germany", "transport", "1,0", move=6).id
        # two points: a lone point out of supply on the beach would not outlast the supply phase
        unit = put(state, "Germany", kind, "1,0", strength=2).id
        put(state, "Germany", "infantry", "0,0")
        return state, ship, unit

    state, ship, inf = world("infantry")
    assert Action("embark", (inf, ship)) in ai.decide(state, "axis", SEED, "v1")
    assert Action("embark", (inf, ship)) not in ai.decide(state, "axis", SEED, "bot")
    state, ship, marine = world("marine")
    actions = ai.decide(state, "axis", SEED, "bot")
    assert Action("embark", (marine, ship)) in actions
    for a in actions:
        api.apply(state, "axis", a)
        if api.decision(state).phase != "axis.first_movement":
            break
    assert api.decision(state).phase == "axis.amphibious"
    assert any(marine in a.args[1:] for a in _assaults(state, "bot"))


def test_a_defended_hex_counts_the_chance_of_clearing_it() -> None:
    """On a defended hex the landed units must clear it in the combat phase: the estimate
    multiplies the landing's chance by the combat table's chance of emptying the hex."""
    state, marine = _at_sea("marine", 3)
    put(state, "Poland", "infantry", "4,0", strength=1)
    pic = Picture(state, "axis")
    beach = hx(state, "4,0")
    clear = 1 - 3.0**-3  # 3 against 1 on clear ground: any loss makes a willing defender retreat
    # then the 1 Polish point (it retreats and can walk back) against the 1 point the
    # landed 3 keep out of supply, at half: odds of 2, the standing stack lost with any loss
    held = 3.0**-2
    assert hold_chance(pic, beach, [state.units[marine]], True, False) == pytest.approx(0.75 * clear * held)
    assert hold_chance(pic, beach, [state.units[marine]], True, False) < SURE


# --- the arena's count of attacks by odds ----------------------------------------------------


def test_the_arena_counts_each_land_combat_by_its_band_of_odds_with_both_sides_losses() -> None:
    assert [odds_band(Fraction(x)) for x in ("1/2", "1", "6/5", "3/2", "2", "5/2", "3", "9")] == [
        "below 1",
        "1-1.5",
        "1-1.5",
        "1.5-2",
        "2-3",
        "2-3",
        "3 up",
        "3 up",
    ]
    state = at_war()
    mine = infantry(state, "Germany", "2,2", 6)
    theirs = infantry(state, "Poland", "3,2", 5)
    open_step(state, "axis.combat")
    api.apply(state, "axis", Action("attack", (hx(state, "3,2"), mine)))
    api.apply(state, "axis", Action("pass", ()))
    counts = {side: {band: [0, 0, 0] for _, band in ODDS_BANDS} for side in ("axis", "allies")}
    strengths = {u: state.units[u].strength for u in (mine, theirs)}
    _count_attacks(api.apply_chance_events(state, b"\x01" * 32), counts)
    lost = {u: strengths[u] - (state.units[u].strength if u in state.units else 0) for u in (mine, theirs)}
    assert counts["axis"]["1-1.5"] == [1, lost[theirs], lost[mine]]
    assert sum(n for n, _, _ in counts["axis"].values()) == 1
    assert not any(n for n, _, _ in counts["allies"].values())
    assert "axis below 1 0 (0/0), 1-1.5 1" in attack_text(counts)
