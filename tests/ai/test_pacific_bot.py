"""Japan's war: the Pacific war declared in December 1941, and troops shipped from land
without a front to land with one (docs/ai.md, "War declaration" and "Ferries")."""

from __future__ import annotations

from engine import ai, api
from engine.actions import PASS, Action
from engine.ai import declare, ferry
from engine.ai.front import need_map
from engine.ai.picture import Picture
from engine.position import hex_at, open_step, parse, put
from engine.state import NO_UNIT, GameState
from engine.units import UnitProfile, UnitType
from tests.ai import worlds

SEED = b"\x0c" * 32

# Japan's islands (west), the sea, and the United States (east).
PACIFIC = """
J:c J:c ~ ~ ~ ~ A:c A:c
 J:c J:c ~ ~ ~ ~ A:c A:c
C:c C:c ~ ~ ~ ~ A:c A:c
"""
BATTLESHIP = UnitProfile(UnitType.BATTLESHIP, attack=5, sub_attack=1, defense=5, move=44)


def pacific(date: str, japan_ships: int = 3, us_ships: int = 4) -> GameState:
    state = parse(
        "\n".join(
            [
                PACIFIC,
                "city Tokyo 0,0 capital",
                "city Osaka 1,1",
                'city "San Francisco" 6,1 capital',
                "city Chungking 0,2 capital",
                "war axis Japan",
                "war allies China",
                f"date {date}",
                "step war_declaration",
            ]
        )
    )
    for _ in range(japan_ships):
        put(state, "Japan", "destroyer", "1,1", attack=5, sub_attack=1)
    state.countries["United States"].pool_units.extend([BATTLESHIP] * us_ships)
    return state


def declared(state: GameState) -> list[str]:
    return sorted(str(a.args[0]) for a in ai.decide(state, "axis", SEED) if a.kind == "declare")


def test_japan_opens_the_pacific_war_in_december_1941() -> None:
    """Rulebook "War Declaration": "Declaring war on the United States or Panama also declares
    war on the other one"; only the Axis may declare war on the United States.  The bot does
    so from December 1941, as in history."""
    assert declared(pacific("1941-11")) == []
    state = pacific("1941-12")
    assert declared(state) == ["United States"]
    api.apply_simultaneous(state, {"axis": [Action("declare", ("United States",)), PASS], "allies": [PASS]})
    us = state.countries["United States"]
    assert us.at_war and us.side == "allies"


def test_japan_does_not_strike_with_a_beaten_fleet_or_a_lost_home() -> None:
    """Strategy: no war on a fleet twice as strong as Japan's, nor while Japan's own
    home cities are in enemy hands."""
    weak = pacific("1942-03", japan_ships=1, us_ships=4)  # 6 against 24
    assert declare.fleet_strength(weak, "Japan") < declare.FLEET_SHARE * declare.fleet_strength(weak, "United States")
    assert declared(weak) == []
    lost = pacific("1942-03")
    lost.set_controller(hex_at(lost, "1,1"), "China")
    assert not declare.holds_home(lost, "Japan")
    assert declared(lost) == []


def strait() -> GameState:
    state = worlds.strait("1940-03")
    put(state, "Japan", "infantry", "5,1")  # holds Pusan, the mainland's supply source
    return state


def test_troops_on_an_island_without_a_front_are_shipped_to_the_mainland() -> None:
    """Rulebook "Naval Units": "Transport ships are used to transport land units over sea";
    a unit boards in a friendly port and lands in its ship's hex or next to it.  Units on
    land without a front are worth nothing there: the bot ships them to the front."""
    state = strait()
    ship = put(state, "Japan", "transport", "1,1", move=8, in_port=True).id
    troop = put(state, "Japan", "infantry", "1,1").id
    keep = put(state, "Japan", "infantry", "0,0").id  # the capital's garrison stays
    put(state, "China", "transport", "3,2", move=8)  # (a landing could reach it)
    open_step(state, "axis.first_movement")
    pic = Picture(state, "axis")
    assert ferry.stranded(pic, hex_at(state, "1,1")) and not ferry.stranded(pic, hex_at(state, "5,1"))
    actions = ai.decide(state, "axis", SEED)
    assert Action("embark", (troop, ship)) in actions
    for action in actions:
        api.apply(state, "axis", action)
        if api.decision(state).phase != "axis.first_movement":
            break
    unit = state.units[troop]
    assert unit.carrier == NO_UNIT
    assert unit.hex == hex_at(state, "5,1")
    assert state.units[keep].hex == hex_at(state, "0,0")


def test_a_ferry_port_asks_for_troops_and_the_capital_for_a_garrison() -> None:
    state = strait()
    put(state, "Japan", "transport", "1,1", move=8, in_port=True)
    open_step(state, "axis.first_movement")
    need = need_map(Picture(state, "axis"))
    assert need[hex_at(state, "1,1")] == ferry.SLOT_STRENGTH
    assert need[hex_at(state, "0,0")] == ferry.GARRISON


def test_a_long_voyage_goes_on_over_the_months() -> None:
    """A transport that cannot reach a landing place in one movement sails towards it
    with its unit aboard, and lands it when it gets there."""
    state = strait()
    ship = put(state, "Japan", "transport", "1,1", move=2, in_port=True).id
    troop = put(state, "Japan", "infantry", "1,1").id
    open_step(state, "axis.first_movement")
    grid = state.world.map.grid
    before = grid.distance(hex_at(state, "1,1"), hex_at(state, "5,1"))
    actions = ai.decide(state, "axis", SEED)
    assert Action("embark", (troop, ship)) in actions
    assert not any(a.kind == "disembark" for a in actions)
    for action in actions:
        api.apply(state, "axis", action)
        if api.decision(state).phase != "axis.first_movement":
            break
    assert state.units[troop].carrier == ship
    assert grid.distance(state.units[ship].hex, hex_at(state, "5,1")) < before
    open_step(state, "axis.second_movement")
    actions = ai.decide(state, "axis", SEED)
    landed = [a for a in actions if a.kind == "disembark" and a.args[0] == troop]
    moved = [a for a in actions if a.kind == "move" and a.args[0] == ship]
    assert landed and moved


def test_an_empty_transport_at_sea_comes_back_to_a_port_where_troops_wait() -> None:
    state = strait()
    put(state, "Japan", "infantry", "1,1")
    ship = put(state, "Japan", "transport", "3,1", move=8).id
    open_step(state, "axis.second_movement")
    moves = [a for a in ai.decide(state, "axis", SEED) if a.kind == "move" and a.args[0] == ship]
    assert moves and moves[0].args[-1] == hex_at(state, "1,1")


def test_the_japanese_soviet_border_is_no_front_under_the_truce() -> None:
    """Rulebook "Japanese/Soviet Relations": "As long as Mongolia is neutral ... Japanese
    units may not enter or attack into the Soviet Union, and Soviet units may not enter or
    attack into Japan or its colonies."  So the bot holds no front there, sends no
    troops there, and fears no Soviet attack across it."""
    state = parse(
        "\n".join(
            [
                "J:c J:c S:c S:c",
                " J:c J:c S:c S:c",
                "city Tokyo 0,0 capital",
                "city Moscow 3,1 capital",
                "war axis Japan",
                'war allies "Soviet Union"',
                "step -",
                'unit "Soviet Union" infantry 2,0 strength=5',
                "unit Japan infantry 1,0",
            ]
        )
    )
    japan = Picture(state, "axis")
    assert japan.truce and not japan.frontier
    assert not any(state.world.map.country_of[h] == "Japan" for h in japan.threat)
    assert not Picture(state, "allies").frontier
    state.countries["Mongolia"] = state.countries["Japan"].__class__("Mongolia", side="allies", at_war=True)
    assert not Picture(state, "axis").truce and Picture(state, "axis").frontier
