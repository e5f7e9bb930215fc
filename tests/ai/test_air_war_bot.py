"""The bot in the air war: fighters against aircraft, bombers against ships and resource
hexes, repairs, atomic bombs; the arena counts the air events."""

from __future__ import annotations

from engine import ai, api
from engine.ai.arena import AIR_EVENTS, air_text, summarize
from engine.position import hex_at, open_step, put, setup
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


ATOMIC_MAP = """
G:c G:c G:c P:c P:c P:c P:c P:c P:c P:c P:c P:c
 G:c G:c G:c P:c P:c P:c P:c P:c P:c P:c P:c P:c
"""
HE_177 = CountryInfo("Germany", atomic_bomb_from=parse_date("1947-06"), atomic_bomb_unit="He 177")


def atomic_game(step: str) -> GameState:
    """Berlin's He 177 reaches a Polish colony (3,0) and two Polish home cities, Lodz and
    Krakow, not the capital Warsaw (11,0)."""
    cities = {"Berlin": "0,0 capital", "Colonia": "3,0", "Lodz": "5,0", "Krakow": "4,1", "Warsaw": "11,0 capital"}
    return setup(
        ATOMIC_MAP,
        step=step,
        date="1947-06",
        countries=[HE_177],
        cities=cities,
        colonies={"Polish Coast": "Poland"},
        colony_hexes={"Polish Coast": ["3,0", "3,1"]},
    )


def test_the_bot_bombs_the_home_city_where_the_bomb_kills_most_never_a_colony() -> None:
    state = atomic_game("axis.first_movement")
    b = put(state, "Germany", "fighter", "0,0", attack=0, bomber=5, move=12, name="He 177").id
    put(state, "Poland", "infantry", "4,1")
    put(state, "Poland", "infantry", "3,0")
    actions = ai.decide(state, "axis", SEED)
    assert ("move", (b, hex_at(state, "4,1"))) in {(a.kind, a.args) for a in actions}
    for a in actions:
        api.apply(state, "axis", a)
    open_step(state, "axis.combat")
    actions = ai.decide(state, "axis", SEED)
    assert ("atomic", (hex_at(state, "4,1"), b)) in {(a.kind, a.args) for a in actions}


REBASE_MAP = """
G:c G:c G:c G:c G:c G:c G:c P:c P:c P:c P:c P:c
 G:c G:c G:c G:c G:c G:c G:c P:c P:c P:c P:c P:c
"""


def test_the_atomic_aircraft_flies_to_a_base_nearer_its_targets() -> None:
    # Warsaw is 9 hexes from Berlin, beyond a bombing flight of the He 177 (move 8);
    # Stettin brings it within 4
    cities = {"Berlin": "0,0 capital", "Stettin": "5,0", "Warsaw": "9,0 capital"}
    state = setup(REBASE_MAP, step="axis.first_movement", date="1947-05", countries=[HE_177], cities=cities)
    b = put(state, "Germany", "fighter", "0,0", attack=0, bomber=5, move=8, name="He 177").id
    first = ai.decide(state, "axis", SEED)
    assert not any(a.kind == "move" and a.args[0] == b for a in first)  # its bomb is a month away
    open_step(state, "axis.second_movement")
    actions = ai.decide(state, "axis", SEED)
    assert ("move", (b, hex_at(state, "5,0"))) in {(a.kind, a.args) for a in actions}


# Denmark (one home city) beside Germany's west end, Poland (two) beyond its east end: the
# He 177 in Berlin reaches a base within a bombing flight of Copenhagen in one flight,
# and one of Poland's only after three (Breslau, Posen, Konigsberg).
NEAR_FAR_MAP = " ".join(["D:c"] * 2 + ["G:c"] * 27 + ["P:c"] * 4)
NEAR_FAR_MAP = f"\n{NEAR_FAR_MAP}\n {NEAR_FAR_MAP}\n"


NEAR_FAR_CITIES = {"Copenhagen": "0,0 capital", "Flensburg": "2,0", "Berlin": "8,0 capital", "Breslau": "14,0"}
NEAR_FAR_CITIES |= {"Posen": "21,0", "Konigsberg": "28,0", "Warsaw": "30,0 capital", "Lodz": "31,1"}


def near_far(planes: int) -> tuple[GameState, list[int]]:
    """The Axis' second movement of 1947-05 on :data:`NEAR_FAR_MAP`, with ``planes`` He 177s
    in Berlin."""
    state = setup(
        NEAR_FAR_MAP,
        allies=("Poland", "Denmark"),
        step="axis.second_movement",
        date="1947-05",
        countries=[HE_177],
        cities=NEAR_FAR_CITIES,
    )
    return state, [
        put(state, "Germany", "fighter", "8,0", attack=0, bomber=5, move=8, name="He 177").id for _ in range(planes)
    ]


def test_the_bot_bombs_the_near_country_first_and_v1_the_one_worth_most_anywhere() -> None:
    went = {}
    for player in ("bot", "v1"):
        state, (b,) = near_far(1)
        moves = [a.args for a in ai.decide(state, "axis", SEED, player) if a.kind == "move" and a.args[0] == b]
        went[player] = moves[0][-1] if moves else None
        near, far = hex_at(state, "2,0"), hex_at(state, "14,0")
    # Poland's bomb is worth twice Denmark's (two cities), but a month away for every flight
    assert went == {"bot": near, "v1": far}


def test_a_second_atomic_aircraft_makes_for_another_country() -> None:
    state, planes = near_far(2)
    went = {a.args[0]: a.args[-1] for a in ai.decide(state, "axis", SEED) if a.kind == "move" and a.args[0] in planes}
    # the first to Denmark (worth most a month); Denmark counts half for the second: Poland
    assert [went.get(p) for p in planes] == [hex_at(state, "2,0"), hex_at(state, "14,0")]
