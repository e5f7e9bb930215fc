"""A ferry port's garrison (issue 30; switch ``ferry_flow``): the weakest unit that makes the
garrison alone stays (or the strongest, when none does) and the port's other unit sails.
v1 kept the weakest added up, which kept both units of a 2 and a 4 against a garrison of 3
(a hex stacks two land units), so from 1940 Britain shipped nobody to the fronts and its
new army idled at home."""

from __future__ import annotations

from engine.ai import ferry
from engine.ai.picture import Picture
from engine.ai.style import STYLES, V1
from engine.position import hex_at, parse, put
from engine.state import NO_UNIT, GameState
from tests.ai.worlds import play_phase

SEED = b"\x2c" * 32

CHANNEL = """
U:c U:c ~ ~ F:c F:c G:c G:c
 U:c U:c ~ ~ F:c F:c G:c G:c
U:c U:c ~ ~ F:c F:c G:c G:c
"""


def channel() -> GameState:
    """Britain (west) across a sea from France, which holds a front against Germany; London
    is Britain's capital and port, with a 2 and a 4 and an empty transport."""
    state = parse(
        "\n".join(
            [
                CHANNEL,
                "city London 1,1 capital",
                "city Paris 4,1 capital",
                "city Berlin 7,1 capital",
                "resource 1,1 4,1 7,1",
                "war axis Germany",
                'war allies "United Kingdom" France',
                "date 1940-03",
                "step -",
            ]
        )
    )
    for label in ("5,0", "5,1", "5,2"):
        put(state, "France", "infantry", label)
        put(state, "Germany", "infantry", f"6,{label[-1]}")
    put(state, "United Kingdom", "infantry", "1,1", strength=2)
    put(state, "United Kingdom", "infantry", "1,1", strength=4)
    put(state, "United Kingdom", "transport", "1,1", in_port=True)
    return state


def test_the_weakest_unit_that_makes_the_garrison_alone_stays() -> None:
    state = channel()
    pic = Picture(state, "allies")
    london = hex_at(state, "1,1")
    assert ferry.stranded(pic, london) and ferry.garrisons(pic)[london] == ferry.GARRISON
    assert ferry.spare(pic, london) == []
    assert [u.strength for u in ferry.spare(pic, london, alone=True)] == [2]
    # no unit makes it alone: the strongest stays, and the hex has room for one to come
    weak = channel()
    for u, strength in zip((u for u in weak.units_at(london) if u.is_land), (1, 2), strict=True):
        u.strength = strength
    assert ferry.spare(Picture(weak, "allies"), london) == []
    assert [u.strength for u in ferry.spare(Picture(weak, "allies"), london, alone=True)] == [1]


def test_the_port_ships_a_unit_to_the_front() -> None:
    """The bot's first movement takes the 2 aboard and lands it in France; v1 ships nobody."""
    shipped = {}
    for player in ("bot", "v1"):
        state = channel()
        play_phase(state, "allies", player, SEED, "allies.first_movement")
        france = {h for h in range(len(state.controller)) if state.world.map.country_of[h] == "France"}
        shipped[player] = sorted(
            u.strength
            for u in state.units_of("United Kingdom")
            if u.is_land and (u.carrier != NO_UNIT or u.hex in france)
        )
    assert shipped == {"bot": [2], "v1": []}


def test_the_switch_is_on_for_the_bot_and_deep_only() -> None:
    assert STYLES["bot"].ferry_flow and STYLES["deep"].ferry_flow
    assert not V1.ferry_flow and not STYLES["gentle"].ferry_flow
