"""The bot's policies on small hand-made situations."""

from __future__ import annotations

from engine import ai, api
from engine.ai import declare
from engine.position import hex_at as hx
from engine.state import LandKey, parse_date
from engine.units import UnitType
from tests.ai.worlds import advance_to, at_war, infantry

SEED = b"\x02" * 32


def test_deployment_forms_full_units_at_the_front() -> None:
    state = at_war()
    infantry(state, "Poland", "3,3", 5)
    infantry(state, "Germany", "0,2", 3)  # Berlin is held: no new unit is wanted there first
    state.countries["Germany"].free_land = {LandKey(UnitType.INFANTRY, 3): 20}
    advance_to(state, "deployment")
    actions = ai.decide(state, "axis", SEED)
    placed = [a for a in actions if a.kind == "place_land"]
    assert sum(int(a.args[3]) for a in placed) == 20
    assert max(int(a.args[3]) for a in placed) == 8  # German infantry holds 8 points
    # the first (strongest) units go to the border column, next to the Polish army
    front = {hx(state, f"2,{r}") for r in range(1, 6)}
    assert int(placed[0].args[4]) in front


def test_supply_units_go_to_the_front_stacks_no_supply_unit_serves() -> None:
    def deployed(seed: bytes) -> list[str]:
        state = at_war()
        infantry(state, "Poland", "4,3", 5)
        for where, strength in (("2,2", 5), ("2,4", 4), ("0,1", 3)):
            infantry(state, "Germany", where, strength)
        state.countries["Germany"].free_land = {LandKey(UnitType.SUPPLY, 3): 3}
        advance_to(state, "deployment")
        return [api.format_action(state, a) for a in ai.decide(state, "axis", seed) if a.kind == "place_land"]

    placed = deployed(SEED)
    # one a front stack, the strongest first; the third, with no room left at the front
    # (one supply unit a hex), joins the stack nearest it rather than standing alone
    assert placed == [f"place_land Germany supply 3 1 {h}" for h in ("2,2", "2,4", "0,1")]
    assert deployed(SEED) == placed and deployed(b"\x07" * 32) == placed  # no draw: the same every time


def test_builds_spend_the_money_on_land_points() -> None:
    state = at_war()
    g = state.countries["Germany"]
    g.money, g.pool_land = 1500, {LandKey(UnitType.INFANTRY, 3): 40, LandKey(UnitType.ARMOR, 5): 20}
    advance_to(state, "build")
    money = state.countries["Germany"].money
    actions = ai.decide(state, "axis", SEED)
    buys = [a for a in actions if a.kind == "buy"]
    spent = sum(int(a.args[3]) * (200 if a.args[1] == "armor" else 100) for a in buys)
    assert {a.args[1] for a in buys} == {"infantry", "armor"}
    assert money - spent < 100


def test_axis_aims_follow_the_historical_order() -> None:
    state = at_war()
    state.countries["Poland"].at_war = False
    state.countries["Poland"].side = "neutral"
    state.date = parse_date("1939-09")
    assert declare.axis_targets(state) == ["Poland"]
    state.date = parse_date("1939-08")
    assert declare.axis_targets(state) == []


def test_allies_declare_no_war() -> None:
    state = at_war()
    state.countries["Poland"].at_war = False
    state.countries["Poland"].side = "neutral"
    state.date = parse_date("1939-09")
    advance_to(state, "war_declaration")
    assert [a.kind for a in ai.decide(state, "allies", SEED)] == ["pass"]
    assert "declare" in [a.kind for a in ai.decide(state, "axis", SEED)] or not api.legal_actions(state, "axis")
