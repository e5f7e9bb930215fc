"""Japan's war in China (issue 30): the army shuttled from the home islands to Japan's
coast on the mainland by sea transport, and the 1937 scenario's first months played by
the bot on both sides (docs/ai.md, "Ferries", and the measurements of issue 30 in 1937)."""

from __future__ import annotations

from collections import deque

from engine import ai
from engine.actions import Action
from engine.ai import ferry
from engine.ai.arena import play_game
from engine.position import hex_at, open_step, put
from engine.state import NO_UNIT, GameState, parse_date
from tests.ai import worlds

SEED = b"\x1e" * 32


def strait(pacific: bool = False) -> GameState:
    """The strait in 1937; ``pacific``: in 1941-12 with the United States (east) at war."""
    state = worlds.strait("1941-12" if pacific else "1937-09", pacific)
    # Japan's coast traces supply only where its units hold it against China's control zones
    for label in ("5,0", "5,1", "5,2"):
        put(state, "Japan", "infantry", label)
    put(state, "Japan", "infantry", "0,0")  # the capital's garrison
    return state


def play_movement(state: GameState, player: str) -> None:
    worlds.play_phase(state, "axis", player, SEED)


def test_one_transport_shuttles_two_units_from_a_home_port_to_the_mainland_in_one_movement() -> None:
    """Rulebook "Naval Units": a transport carries one land unit, which boards in a friendly
    port and lands in its ship's hex or next to it; nothing limits a transport to one
    voyage a movement.  The crossing is short, so the transport goes back for the second
    unit.  v1 (the frozen reference) lands none: its transport takes its unit off China's
    coast for an amphibious assault."""
    shipped = {}
    for player in ("bot", "v1"):
        state = strait()
        ship = put(state, "Japan", "transport", "1,1", move=20, in_port=True).id
        troops = [put(state, "Japan", "infantry", "1,1").id for _ in range(2)]
        open_step(state, "axis.first_movement")
        play_movement(state, player)
        mainland = {hex_at(state, f"5,{row}") for row in range(3)}
        ashore = [u for u in troops if state.units[u].carrier == NO_UNIT and state.units[u].hex in mainland]
        shipped[player] = len(ashore)
        assert state.units[ship].hex != NO_UNIT
    assert shipped == {"bot": 2, "v1": 0}


def test_the_units_land_by_disembarking_on_japanese_coast_not_by_assault() -> None:
    state = strait()
    ship = put(state, "Japan", "transport", "1,1", move=20, in_port=True).id
    troop = put(state, "Japan", "infantry", "1,1").id
    open_step(state, "axis.first_movement")
    actions = ai.decide(state, "axis", SEED)
    assert Action("embark", (troop, ship)) in actions
    landed = [a for a in actions if a.kind == "disembark" and a.args[0] == troop]
    assert landed and state.controller_of(int(landed[0].args[1])) == "Japan"


def test_a_transport_off_the_mainland_comes_back_for_troops_waiting_in_a_home_port() -> None:
    state = strait()
    ship = put(state, "Japan", "transport", "4,1", move=20).id
    troop = put(state, "Japan", "infantry", "1,1").id
    open_step(state, "axis.first_movement")
    play_movement(state, "bot")
    assert state.units[troop].carrier == NO_UNIT
    assert state.units[troop].hex in {hex_at(state, f"5,{row}") for row in range(3)}
    assert state.units[ship].hex != hex_at(state, "4,1")


def test_home_ports_within_a_crossing_ask_for_troops_for_the_shuttle() -> None:
    state = strait()
    put(state, "Japan", "transport", "5,1", move=20, in_port=True)
    open_step(state, "axis.first_movement")
    pic = ferry.Picture(state, "axis")
    assert hex_at(state, "1,1") in ferry.ports(pic, shuttle=True)
    assert hex_at(state, "1,1") not in ferry.ports(pic)


def test_japan_keeps_no_home_garrison_while_the_enemy_has_no_transport() -> None:
    """A landing is the only way into land without a front: China, without ships, cannot
    make one, so the home islands' strength goes to the front (v1 keeps the garrison)."""
    state = strait()
    open_step(state, "axis.first_movement")
    tokyo = hex_at(state, "0,0")
    pic = ferry.Picture(state, "axis")
    assert tokyo not in ferry.need(pic, shuttle=True)
    assert ferry.need(pic)[tokyo] == ferry.GARRISON
    put(state, "China", "transport", "3,1", move=20)
    assert ferry.need(ferry.Picture(state, "axis"), shuttle=True)[tokyo] == ferry.GARRISON


def test_from_the_pacific_war_on_the_transports_are_left_to_the_landings() -> None:
    """Once the United States is at war with Japan the shuttle stops (the islands to
    take lie beyond its reach): the home ports ask for no troops for it, and one
    transport embarks one unit at most, as v1's would."""
    state = strait(pacific=True)
    ship = put(state, "Japan", "transport", "1,1", move=20, in_port=True).id
    for _ in range(2):
        put(state, "Japan", "infantry", "1,1")
    open_step(state, "axis.first_movement")
    pic = ferry.Picture(state, "axis")
    assert ferry.ports(pic, shuttle=True) == ferry.ports(pic)
    embarked = [a for a in ai.decide(state, "axis", SEED) if a.kind == "embark" and a.args[1] == ship]
    assert len(embarked) <= 1


def _mainland(state: GameState) -> set[int]:
    """Land hexes joined by land to China's capital."""
    hexmap = state.world.map
    start = next(c.hex for c in hexmap.cities if c.name == "Chungking")
    seen, todo = {start}, deque([start])
    while todo:
        for n in hexmap.land_neighbours[todo.popleft()]:
            if n not in seen:
                seen.add(n)
                todo.append(n)
    return seen


def test_in_1937_japan_holds_mukden_with_its_army_on_the_mainland() -> None:
    """Seven months of the 1937 scenario, bot against bot, on seed 510, never used to tune
    the shuttle: Japan holds Mukden in 1938-01 with 52 land points on the mainland (seed
    511: 62; the tuning seeds 500-505: 59-95, docs/ai.md).  Before the shuttle, seed 510
    had 38 there (20 in 1937-07, with 104 in the home islands and at sea), seeds 500-505
    24-63, and China held Mukden in 1937-10 in two of those six games."""
    seen: dict[str, GameState] = {}
    play_game(
        "1937", parse_date("1938-01"), {"axis": "bot", "allies": "bot"}, 510, on_month=lambda s: seen.update(last=s)
    )
    state = seen["last"]
    mukden = next(c.hex for c in state.world.map.cities if c.name == "Mukden")
    assert state.controller_of(mukden) == "Japan"
    land = _mainland(state)
    ashore = sum(
        u.strength
        for u in state.units.values()
        if u.country == "Japan" and u.is_land and u.carrier == NO_UNIT and u.hex in land
    )
    assert ashore >= 45
