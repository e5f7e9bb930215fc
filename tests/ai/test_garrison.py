"""Garrisons: capitals and home cities against what could walk into them within a month."""

from __future__ import annotations

from dataclasses import replace

from engine import ai, api
from engine.ai import arena, bot, garrison
from engine.ai.picture import Picture
from engine.ai.style import LATEST, Style
from engine.position import hex_at as hx
from engine.sequence import STEP_INDEX
from engine.state import AdvanceRight, GameState, LandKey
from engine.units import UnitType
from tests.ai.worlds import LONG_WORLD, advance_to, armor, at_war, infantry

SEED = b"\x05" * 32


def test_an_empty_capital_within_an_enemy_move_is_exposed() -> None:
    state = at_war()
    berlin, breslau = hx(state, "0,2"), hx(state, "2,5")
    tank = armor(state, "Poland", "5,2")  # armor moves 5: Berlin is 5 hexes away
    assert state.world.map.grid.distance(state.units[tank].hex, berlin) == 5
    assert garrison.exposed(Picture(state, "axis")) == {berlin: True, breslau: False}
    assert garrison.exposed(Picture(state, "allies")) == {}  # Warsaw: no German unit at all
    infantry(state, "Germany", "0,2")
    assert garrison.exposed(Picture(state, "axis")) == {breslau: False}
    state.units[tank].move = 4  # now it could reach Breslau only
    assert garrison.reachable(Picture(state, "axis"), [berlin, breslau]) == {breslau: 6}


def test_the_arena_counts_empty_capitals_as_their_side_hands_the_move_over() -> None:
    state = at_war()
    armor(state, "Poland", "5,2")
    capitals: dict[str, dict[str, int]] = {}
    home: dict[str, int] = {}
    arena.count_empty(state, "axis", capitals, home)
    arena.count_empty(state, "axis", capitals, home)
    arena.count_empty(state, "allies", capitals, home)  # Poland's cities are held: nothing to add
    assert capitals == {"axis": {"Berlin": 2}}
    assert home == {"axis": 2}
    text = arena.empty_text(capitals, home)
    assert text == (
        "empty within an enemy's reach (as the enemy was to move): capitals axis 2 (Berlin 2), allies 0; "
        "other home cities axis 2, allies 0"
    )


def test_each_side_is_counted_once_a_month_as_the_enemy_is_to_move() -> None:
    """The Axis hands the move over as the Allied turn begins, the Allies as the Axis turn
    begins (after the supply phase and the month's deployment and builds)."""
    state = at_war()
    counted: dict[str, int] = {}

    def at_step(state: GameState, step: str) -> None:
        state.step = STEP_INDEX[step]  # (the steps only: this small world would pass them over)

    at_step(state, "build")
    assert arena.handing_over(state, counted) == []  # the Allies may still build and place
    at_step(state, "axis.first_movement")
    assert arena.handing_over(state, counted) == ["allies"]
    at_step(state, "axis.second_movement")
    assert arena.handing_over(state, counted) == []  # once a month
    at_step(state, "allies.overrun")
    assert arena.handing_over(state, counted) == ["axis"]
    at_step(state, "allies.second_movement")
    assert arena.handing_over(state, counted) == []
    state.date += 1
    assert arena.handing_over(state, counted) == ["axis", "allies"]  # a new month (as the step stood)


def test_the_bot_keeps_the_last_unit_of_a_capital_an_enemy_could_reach_and_v1_does_not() -> None:
    state = at_war()
    armor(state, "Poland", "5,2")  # beyond the front's threat radius, within its own move of Berlin
    guard = infantry(state, "Germany", "0,2", 8)
    advance_to(state, "axis.first_movement")
    moved = {int(a.args[0]) for a in ai.decide(state, "axis", SEED, "v1") if a.kind in ("move", "rail")}
    assert guard in moved
    moved = {int(a.args[0]) for a in ai.decide(state, "axis", SEED, "bot") if a.kind in ("move", "rail")}
    assert guard not in moved


def test_the_bot_sends_a_unit_into_an_empty_capital_an_enemy_could_reach_and_v1_does_not() -> None:
    """Berlin empty, a Polish armor within its move of it: the bot's weakest German unit that
    can get there goes in before anything else moves."""
    state = at_war()
    berlin = hx(state, "0,2")
    armor(state, "Poland", "5,2")
    weak = infantry(state, "Germany", "1,3", 1)
    infantry(state, "Germany", "1,1", 8)
    advance_to(state, "axis.first_movement")
    assert garrison.exposed(Picture(state, "axis")).get(berlin) is True
    into = {int(a.args[0]) for a in ai.decide(state, "axis", SEED, "bot") if a.kind == "move" and a.args[-1] == berlin}
    assert into == {weak}
    into = {int(a.args[0]) for a in ai.decide(state, "axis", SEED, "v1") if a.kind == "move" and a.args[-1] == berlin}
    assert weak not in into


def test_a_capital_that_is_a_port_is_held_against_landings() -> None:
    from engine import api
    from engine.position import build_world
    from engine.war import enter_war

    world = build_world(
        """
        ~   ~   ~   ~   ~   ~
         G:c G:c G:c P:c P:c P:c
        G:c G:c G:c P:c P:c P:c
        """,
        cities={"Kiel": "1,1 capital", "Warsaw": "5,2 capital"},
    )
    state = api.new_game(world)
    enter_war(state, "Germany", "axis")
    enter_war(state, "Poland", "allies")
    kiel = hx(state, "1,1")
    assert world.map.is_port(kiel)
    assert garrison.hold(Picture(state, "axis")) == {kiel: garrison.HOLD}


AHEAD_OFF = replace(LATEST, capitals_ahead=False)


def _moves_into(state: GameState, h: int, style: Style) -> set[int]:
    actions = bot.decide(api.view(state, "axis"), "axis", SEED, None, style)
    return {int(a.args[0]) for a in actions if a.kind in ("move", "rail") and a.args[-1] == h}


def test_a_capital_within_a_move_of_land_not_ours_is_in_danger() -> None:
    state = at_war()
    assert garrison.endangered(Picture(state, "axis")) == [hx(state, "0,2")]  # Berlin, 3 hexes from Poland
    assert garrison.endangered(Picture(state, "allies")) == [hx(state, "6,2")]
    far = at_war(LONG_WORLD)  # Berlin 9 hexes and more from Poland
    assert garrison.endangered(Picture(far, "axis")) == []
    assert garrison.endangered(Picture(far, "allies")) == [hx(far, "12,2")]


def test_the_bot_fills_a_capital_in_danger_before_any_enemy_unit_could_reach_it() -> None:
    """No Polish unit anywhere (Berlin is not exposed), yet Poland may place one next to the
    border at its deployment: with ``capitals_ahead`` the weakest German unit goes in."""
    state = at_war()
    berlin = hx(state, "0,2")
    weak = infantry(state, "Germany", "1,3", 1)
    infantry(state, "Germany", "1,1", 8)
    advance_to(state, "axis.first_movement")
    assert garrison.exposed(Picture(state, "axis")) == {}
    assert _moves_into(state, berlin, LATEST) == {weak}
    assert _moves_into(state, berlin, AHEAD_OFF) == set()


def test_the_guard_takes_the_last_unit_of_a_lesser_city_for_a_capital_when_no_other_can() -> None:
    """Breslau's only unit is the only one that can reach empty Berlin, with a Polish armor
    able to walk into both: the capital comes first."""
    state = at_war()
    berlin = hx(state, "0,2")
    armor(state, "Poland", "5,2")
    guard = armor(state, "Germany", "2,5", 2)  # Breslau, four hexes from Berlin
    advance_to(state, "axis.first_movement")
    pic = Picture(state, "axis")
    assert garrison.exposed(pic) == {berlin: True}
    assert hx(state, "2,5") in garrison.hold(pic, garrison.endangered(pic))  # Breslau's last unit is a guard
    assert _moves_into(state, berlin, LATEST) == {guard}
    assert _moves_into(state, berlin, AHEAD_OFF) == set()


def test_the_deployment_places_a_unit_in_an_empty_capital_in_danger_first() -> None:
    state = at_war()
    berlin = hx(state, "0,2")
    state.countries["Germany"].free_land = {LandKey(UnitType.ARMOR, 5): 6, LandKey(UnitType.INFANTRY, 3): 20}
    advance_to(state, "deployment")

    def placed(style: Style) -> list[tuple[str, int, int]]:
        actions = bot.decide(api.view(state, "axis"), "axis", SEED, None, style)
        return [(str(a.args[1]), int(a.args[3]), int(a.args[4])) for a in actions if a.kind == "place_land"]

    with_guard = placed(LATEST)
    assert with_guard[0] == ("infantry", 8, berlin)  # a full infantry unit, not the armor
    assert sum(p for _, p, _ in with_guard) == 26
    assert all(h != berlin for _, _, h in placed(AHEAD_OFF))


def test_the_last_unit_of_a_capital_does_not_advance_out_of_it() -> None:
    """A Polish unit next to Berlin is wiped out: Berlin's only unit may advance into the
    emptied hex under ``v1`` and the bot without the switch, never with it."""
    state = at_war()
    berlin, target = hx(state, "0,2"), hx(state, "1,2")
    state.controller[target] = state.world.country_no["Poland"]
    guard = infantry(state, "Germany", "0,2", 8)
    advance_to(state, "axis.first_movement")
    state.memo.advances = [AdvanceRight(target, [guard])]
    state.step = STEP_INDEX["axis.advance"]  # as if the attack had emptied the hex
    assert api.decision(state).phase == "axis.advance"

    def advances(style: Style) -> list[object]:
        actions = bot.decide(api.view(state, "axis"), "axis", SEED, None, style)
        return [a.args for a in actions if a.kind == "advance"]

    assert advances(AHEAD_OFF) == [(target, guard)]
    assert advances(LATEST) == []
    assert berlin in garrison.key_cities(Picture(state, "axis"))


def test_a_lesser_city_keeps_its_last_unit_for_a_capital_only_in_danger() -> None:
    """Breslau's only unit could reach empty Berlin, but no enemy could walk into Berlin this
    month while one could into Breslau: the unit stays."""
    state = at_war()
    berlin, breslau = hx(state, "0,2"), hx(state, "2,5")
    infantry(state, "Poland", "4,5", 3)  # two hexes from Breslau, out of Berlin's reach
    guard = armor(state, "Germany", "2,5", 2)
    advance_to(state, "axis.first_movement")
    pic = Picture(state, "axis")
    assert garrison.exposed(pic) == {} and berlin in garrison.endangered(pic)
    assert breslau in garrison.hold(pic, garrison.endangered(pic))
    assert guard not in _moves_into(state, berlin, LATEST)
