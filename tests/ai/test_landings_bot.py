"""The bot's interceptions, escorts, amphibious assaults and paradrops; the arena counts
interceptions and landings, tried and succeeded, per side."""

from __future__ import annotations

from engine import ai, api
from engine.actions import Action
from engine.ai.arena import LANDING_EVENTS, _count_landings, _settle_landings, landing_text, summarize
from engine.ai.intercept import worth_it
from engine.position import hex_at, open_step, put, setup
from engine.state import Assault, GameState

SEED = b"\x05" * 32
MAP = """
G:c G:c ~ ~ P:c P:c
 G:c G:c ~ ~ P:c P:c
"""
CITIES = {"Berlin": "0,0 capital", "Warsaw": "5,0 capital", "Lodz": "4,1", "Kiel": "1,0"}
#: The landings made on any fair chance, as v1 makes them: the bot's ``sure_landings`` (tested
#: at the end of this file) refuses these coin-flip landings of infantry and paratroopers alone.
LANDER = "v1"


def game(step: str | None) -> GameState:
    return setup(MAP, step=step, cities=CITIES, resources=["4,0"])


def kinds(actions: list[Action]) -> set[tuple[str, tuple[object, ...]]]:
    return {(a.kind, a.args) for a in actions}


def test_the_bot_intercepts_a_bomber_and_not_a_stronger_fighter() -> None:
    state = game(None)
    bomber = put(state, "Germany", "fighter", "1,0", attack=0, bomber=3).id
    ace = put(state, "Germany", "fighter", "1,0", attack=4).id
    mine = put(state, "Poland", "fighter", "5,0", move=10).id
    open_step(state, "axis.first_movement")
    api.apply(state, "axis", Action("move", (bomber, hex_at(state, "2,0"))))
    api.apply(state, "axis", Action("move", (ace, hex_at(state, "2,0"))))
    api.apply(state, "axis", Action("pass", ()))
    assert api.decision(state).phase == "axis.interception"
    actions = ai.decide(state, "allies", SEED)
    chosen = [a for a in actions if a.kind == "intercept"]
    assert len(chosen) == 1 and chosen[0].args[:2] == (mine, bomber)
    assert not worth_it(state.units[mine], state.units[ace])


def test_the_bot_escorts_its_bombers() -> None:
    state = game("axis.first_movement")
    bomber = put(state, "Germany", "fighter", "1,0", attack=0, bomber=3, move=6).id
    escort = put(state, "Germany", "fighter", "1,0", move=8).id
    put(state, "Poland", "destroyer", "2,0")
    actions = ai.decide(state, "axis", SEED)
    assert ("move", (bomber, hex_at(state, "2,0"))) in kinds(actions)
    assert ("move", (escort, hex_at(state, "2,0"))) in kinds(actions)


def test_the_bot_ships_a_unit_to_an_empty_enemy_city_and_lands() -> None:
    state = game("axis.first_movement")
    ship = put(state, "Germany", "transport", "1,0", move=6).id
    inf = put(state, "Germany", "infantry", "1,0").id
    put(state, "Germany", "infantry", "0,0")
    put(state, "Poland", "infantry", "5,0")
    actions = ai.decide(state, "axis", SEED, LANDER)
    assert ("embark", (inf, ship)) in kinds(actions)
    for a in actions:
        api.apply(state, "axis", a)
        if api.decision(state).phase != "axis.first_movement":
            break
    assert api.decision(state).phase == "axis.amphibious"
    landing = ai.decide(state, "axis", SEED, LANDER)
    assert any(a.kind == "assault" and inf in a.args[1:] for a in landing)


def test_the_bot_drops_paratroopers_on_an_empty_enemy_hex() -> None:
    state = game("axis.first_movement")
    plane = put(state, "Germany", "air_transport", "1,0", move=8).id
    para = put(state, "Germany", "paratrooper", "1,0").id
    put(state, "Poland", "infantry", "5,0")
    actions = ai.decide(state, "axis", SEED, LANDER)
    assert ("embark", (para, plane)) in kinds(actions)
    assert any(a.kind == "move" and a.args[0] == plane for a in actions)


def test_the_bot_does_not_assault_a_strong_defence() -> None:
    state = game(None)
    ship = put(state, "Germany", "transport", "3,1")
    inf = put(state, "Germany", "infantry", "3,1", carrier=ship.id).id
    put(state, "Poland", "infantry", "4,1", strength=3)
    open_step(state, "axis.amphibious")
    assert any(inf in a.args[1:] for a in api.legal_actions(state, "axis") if a.kind == "assault")
    chosen = [a for a in ai.decide(state, "axis", SEED, LANDER) if a.kind == "assault"]
    # it lands on the empty resource hex next to the transport instead
    assert chosen == [Action("assault", (hex_at(state, "4,0"), inf))]


def test_the_arena_counts_landings_tried_and_succeeded() -> None:
    state = game(None)
    ship = put(state, "Germany", "transport", "3,0")
    inf = put(state, "Germany", "infantry", "3,0", carrier=ship.id).id
    open_step(state, "axis.amphibious")
    counts = {side: dict.fromkeys(LANDING_EVENTS, 0) for side in ("axis", "allies")}
    pending: list[tuple[str, Assault]] = []
    action = Action("assault", (hex_at(state, "4,0"), inf))
    api.apply(state, "axis", action)
    _count_landings(state, "axis", action, pending, counts)
    _settle_landings(state, pending, counts)  # not yet: the engine still holds the assault
    assert counts["axis"]["amphibious assaults tried"] == 1 and pending
    # the landing succeeds: the unit holds the hex once the engine forgets the assault
    state.memo.assaults = None
    state.units[inf].carrier = -1
    state.place(state.units[inf], hex_at(state, "4,0"))
    state.set_controller(hex_at(state, "4,0"), "Germany")
    _settle_landings(state, pending, counts)
    assert counts["axis"]["amphibious assaults succeeded"] == 1 and counts["axis"]["paradrops tried"] == 0
    assert "amphibious assaults succeeded 1" in landing_text(counts)


def test_the_summary_sums_landings() -> None:
    from engine.ai.arena import play_game

    r = play_game(game("axis.first_movement").world, 0, {"axis": "bot", "allies": "bot"}, 1, setup=lambda s: None)
    assert set(r.landings["axis"]) == set(LANDING_EVENTS)
    assert summarize([r, r]).landings["axis"] == {e: 2 * r.landings["axis"][e] for e in LANDING_EVENTS}


# --- landings prepared over several months (engine/ai/staging.py) ---------------------------


def test_a_port_with_an_empty_transport_and_a_target_in_reach_asks_for_troops() -> None:
    """Rulebook "Amphibious Assaults and Paradrops": "land units embarked on naval units can do
    amphibious assaults" - and they embark only in a port (docs/rules-decisions.md), so the
    need map asks for units where the transports lie."""
    from engine.ai.front import need_map
    from engine.ai.picture import Picture
    from engine.ai.staging import SLOT_STRENGTH

    state = game("axis.first_movement")
    kiel = hex_at(state, "1,0")
    put(state, "Germany", "transport", "1,0", move=6)
    put(state, "Poland", "infantry", "5,0")
    assert need_map(Picture(state, "axis")).get(kiel) == SLOT_STRENGTH
    # every Polish hex within reach held in strength: no landing pays, no troops asked for
    for label in ("4,0", "4,1", "5,1"):
        put(state, "Poland", "infantry", label, strength=9)
    assert kiel not in need_map(Picture(state, "axis"))


def test_the_transports_of_a_port_sail_together_with_an_escort() -> None:
    state = game("axis.first_movement")
    ships = [put(state, "Germany", "transport", "1,0", move=6).id for _ in range(2)]
    troops = [put(state, "Germany", "infantry", "1,0").id for _ in range(2)]
    escort = put(state, "Germany", "destroyer", "1,0", move=6).id
    put(state, "Poland", "infantry", "5,0")
    actions = ai.decide(state, "axis", SEED, LANDER)
    assert {("embark", (troops[0], ships[0])), ("embark", (troops[1], ships[1]))} <= kinds(actions)
    paths = {a.args[1:] for a in actions if a.kind == "move" and a.args[0] in (*ships, escort)}
    assert len(paths) == 1  # one destination, one path for the three ships
    moved = {a.args[0] for a in actions if a.kind == "move"}
    assert {*ships, escort} <= moved


def test_a_defended_hex_is_a_target_when_our_units_next_to_it_make_the_odds() -> None:
    """Rulebook: "During the subsequent combat phase, the assaulting land units must attack
    the enemy units in their hex" - units next to the hex may join that attack."""
    from engine.ai.landings import value

    state = game(None)
    lodz = hex_at(state, "4,1")
    put(state, "Poland", "infantry", "4,1", strength=3)
    assert value(state, "axis", lodz, 3) == 0
    for label in ("5,1", "5,0"):
        state.set_controller(hex_at(state, label), "Germany")
        put(state, "Germany", "armor", label, strength=4)
    assert value(state, "axis", lodz, 3) == 3


def test_a_paratrooper_marches_to_a_waiting_transport_aircraft_and_stays_there() -> None:
    state = game("axis.first_movement")
    plane = put(state, "Germany", "air_transport", "0,0", move=8).id
    para = put(state, "Germany", "paratrooper", "1,1").id
    put(state, "Poland", "infantry", "4,0", strength=9)
    put(state, "Poland", "infantry", "4,1", strength=9)
    actions = ai.decide(state, "axis", SEED)
    assert ("move", (para, hex_at(state, "0,0"))) in kinds(actions)
    for a in actions:
        api.apply(state, "axis", a)
        if api.decision(state).phase != "axis.first_movement":
            break
    from engine.ai.staging import stationed

    assert state.units[para].hex == state.units[plane].hex and stationed(state, state.units[para])


def test_a_transport_aircraft_flies_to_a_paratrooper_in_the_second_movement() -> None:
    state = game("axis.second_movement")
    plane = put(state, "Germany", "air_transport", "1,0", move=8).id
    put(state, "Germany", "paratrooper", "0,0")
    put(state, "Poland", "infantry", "5,0")
    actions = ai.decide(state, "axis", SEED)
    assert ("move", (plane, hex_at(state, "0,0"))) in kinds(actions)


def test_no_drop_into_enemy_fighters_without_an_escort() -> None:
    """Rulebook "Interception": a transport aircraft intercepted and shot down takes its
    paratrooper with it, so the bot drops only where its fighters can match the enemy's."""
    state = game("axis.first_movement")
    plane = put(state, "Germany", "air_transport", "1,0", move=8).id
    para = put(state, "Germany", "paratrooper", "1,0").id
    put(state, "Poland", "infantry", "5,0")
    put(state, "Poland", "fighter", "5,1", move=6)
    assert ("embark", (para, plane)) not in kinds(ai.decide(state, "axis", SEED, LANDER))
    put(state, "Germany", "fighter", "0,0", move=8)
    assert ("embark", (para, plane)) in kinds(ai.decide(state, "axis", SEED, LANDER))
