"""The bot in the air war: fighters against aircraft, bombers against ships and resource
hexes, repairs, atomic bombs; the arena counts the air events."""

from __future__ import annotations

from engine import ai
from engine.ai.arena import AIR_EVENTS, air_text, summarize
from engine.position import hex_at, put, setup
from engine.state import GameState, parse_date
from engine.world import CountryInfo

SEED = b"\x03" * 32
MAP = """
G:c G:c ~ P:c P:c
 G:c G:c ~ P:c P:c
"""
CITIES = {"Berlin": "0,0 capital", "Warsaw": "4,0 capital", "Lodz": "3,1"}


def game(step: str, **kw: object) -> GameState:
    return setup(MAP, step=step, cities=CITIES, resources=["3,1"], **kw)  # type: ignore[arg-type]


def test_the_bot_attacks_aircraft_and_ships_in_the_combat_phase() -> None:
    state = game("axis.combat")
    f = put(state, "Germany", "fighter", "3,0", origin=0).id
    enemy = put(state, "Poland", "fighter", "3,0").id
    b = put(state, "Germany", "fighter", "2,0", attack=0, bomber=3, origin=0).id
    put(state, "Poland", "destroyer", "2,0")
    actions = ai.decide(state, "axis", SEED)
    kinds = {(a.kind, a.args) for a in actions}
    assert ("air_attack", (enemy, f)) in kinds
    assert ("bomb_ships", (hex_at(state, "2,0"), b)) in kinds


def test_the_bot_bombs_resource_hexes_strategically() -> None:
    state = game("axis.combat")
    b = put(state, "Germany", "fighter", "3,1", attack=0, bomber=3, origin=0).id
    actions = ai.decide(state, "axis", SEED)
    assert ("bomb", (hex_at(state, "3,1"), "strategic", b)) in {(a.kind, a.args) for a in actions}


def test_the_bot_flies_bombers_to_enemy_ships() -> None:
    state = game("axis.first_movement")
    b = put(state, "Germany", "fighter", "1,0", attack=0, bomber=3, move=6).id
    put(state, "Poland", "destroyer", "2,0")
    actions = ai.decide(state, "axis", SEED)
    assert ("move", (b, hex_at(state, "2,0"))) in {(a.kind, a.args) for a in actions}


def test_the_bot_drops_an_atomic_bomb_when_it_has_one() -> None:
    info = CountryInfo("Germany", atomic_bomb_from=parse_date("1947-06"), atomic_bomb_unit="He 177")
    state = game("axis.combat", date="1947-06", countries=[info])
    b = put(state, "Germany", "fighter", "4,0", attack=0, bomber=5, name="He 177", origin=0).id
    actions = ai.decide(state, "axis", SEED)
    assert ("atomic", (hex_at(state, "4,0"), b)) in {(a.kind, a.args) for a in actions}


def test_the_bot_repairs_bombed_sites() -> None:
    state = game("deployment")
    h = hex_at(state, "3,1")
    state.strategic.add(h)
    state.countries["Poland"].money = 1000
    actions = ai.decide(state, "allies", SEED)
    assert ("repair_site", (h,)) in {(a.kind, a.args) for a in actions}


def test_the_arena_reports_air_events_per_side() -> None:
    text = air_text({"axis": {"bombing raids": 2}, "allies": {}})
    assert "axis air combats 0, interceptions 0, bombing raids 2, atomic bombs 0" in text
    assert "allies air combats 0" in text
    assert summarize([]).air == {s: dict.fromkeys(AIR_EVENTS, 0) for s in ("axis", "allies")}
