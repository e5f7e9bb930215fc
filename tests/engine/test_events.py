"""The game log's events (engine/events.py): combat reports in full, and state comparisons."""

from __future__ import annotations

from fractions import Fraction

from engine import api
from engine.actions import Action
from engine.combat import CombatRoll
from engine.events import Event, changes
from engine.position import hex_at as hx
from engine.position import put, setup
from engine.sequence import STEP_INDEX, begin
from engine.state import LandKey
from engine.units import UnitType
from tests.engine.test_combat import WORLD, ScriptedRng
from tests.engine.test_deployment import deploy, deployment
from tests.engine.test_deployment import hx as dhx


def test_a_combat_report_holds_strengths_odds_draws_losses_and_retreats() -> None:
    state = setup(WORLD, step="axis.combat")
    att = put(state, "Germany", "infantry", "1,1", strength=6, move=5)
    dfd = put(state, "Poland", "infantry", "2,1", strength=3, move=5)
    api.apply(state, "axis", Action("attack", (hx(state, "2,1"), att.id)))
    state.step = STEP_INDEX["axis.combat_roll"]
    before = state.copy()
    (event,) = CombatRoll("axis").roll_events(state, ScriptedRng(0.7, 0.9))  # r = 2: loses 2
    c = event.combat
    assert c is not None and c.outcome == "resolved" and c.side == "axis"
    assert c.attack == 6 and c.defence == 3 and c.odds == Fraction(2)
    assert c.defender_draw == Fraction(0.7).limit_denominator(1 << 20)
    assert c.defender_loss == c.defender_points == 2 and not c.doubled
    assert [(h.unit, h.points, h.eliminated) for h in c.defender_hits] == [(dfd.id, 2, False)]
    assert c.retreats == ((dfd.id, hx(state, "3,0")),) and c.attacker_loss == 0
    assert c.hex_taken and c.advance == (att.id,)
    text = event.text(state.world.map)
    assert "odds 2.00" in text and "retreats" in text and "3,0 (Warsaw)" not in text  # retreat hexes as COL,ROW
    assert text.startswith("attack on 2,1 by #") and "2,1 passes to the Axis (may advance" in text
    data = event.to_json(state.world.map)
    assert data["combat"]["odds"] == "2/1" and data["combat"]["retreats"] == [{"unit": dfd.id, "to": "3,0"}]
    # The comparison of states leaves out what the combat told, and keeps the rest.
    after = changes(before, state, [event])
    kinds = {e.kind for e in after}
    assert "strength" not in kinds and "moved" not in kinds
    assert "control" in kinds
    untold = {e.kind for e in changes(before, state)}
    assert {"strength", "moved", "control"} <= untold


def test_changes_report_wars_placements_money_and_eliminations() -> None:
    state = setup(WORLD, step="axis.combat")
    before = state.copy()
    before.countries["Poland"].at_war = False
    gone = put(before, "Poland", "infantry", "2,1", strength=2, move=5)  # exists before only
    state.next_unit_id = before.next_unit_id
    placed = put(state, "Germany", "infantry", "1,1", strength=4, move=5)
    state.countries["Germany"].money += 7
    found = changes(before, state)
    assert [e.kind for e in found] == ["war", "eliminated", "placed", "money"]
    war, eliminated, new, money = found
    assert war.country == "Poland" and war.side == "allies"
    assert eliminated.units == (gone.id,) and new.units == (placed.id,)
    assert money.numbers[1] - money.numbers[0] == 7
    hexmap = state.world.map
    assert war.text(hexmap) == "Poland enters the war on the Allied side"
    assert eliminated.text(hexmap).endswith("eliminated at 2,1")
    assert new.text(hexmap).endswith("placed at 1,1")
    assert all(isinstance(e, Event) for e in found)


def test_unit_events_read_as_unit_phrase_and_place() -> None:
    hexmap = WORLD.map
    h = hexmap.grid.parse_label("2,1")
    unit = "#7 Germany infantry 3-3"

    def text(kind: str, hexes: tuple[int, ...] = ()) -> str:
        return Event(kind, "axis", "Germany", units=(7,), hexes=hexes, what=unit).text(hexmap)

    assert text("placed", (h,)) == f"{unit} placed at 2,1"
    assert text("landed", (h,)) == f"{unit} disembarked at 2,1"
    assert text("off_map", (h,)) == f"{unit} left the map from 2,1"
    assert text("eliminated", (h,)) == f"{unit} eliminated at 2,1"
    assert text("eliminated") == f"{unit} eliminated"
    assert text("out_of_supply", (h,)) == f"{unit} is out of supply at 2,1"
    assert text("in_supply") == f"{unit} is in supply again"
    assert text("damaged") == f"{unit} damaged"
    assert text("repaired") == f"{unit} repaired"
    assert text("raised") == f"{unit} is raised, off the map until placed"


def test_a_merge_and_an_arrival_are_not_reported_as_losses() -> None:
    """A unit merged into another of its hex, and a land purchase whose points reach the
    pool, leave the state without being eliminated: the log says what happened to them."""
    state = deployment(Germany={LandKey(UnitType.INFANTRY, 3): 10})
    deploy(
        state,
        axis=[
            Action("place_land", ("Germany", "infantry", 3, 5, dhx("6,1"))),
            Action("place_land", ("Germany", "infantry", 3, 3, dhx("6,1"))),
        ],
    )
    state.step = STEP_INDEX["deployment"]
    begin(state)
    a, b = sorted(state.units_at(dhx("6,1")), key=lambda u: u.id)
    before = state.copy()
    deploy(state, axis=[Action("merge", (a.id, b.id))])
    found = {e.kind: e for e in changes(before, state)}
    assert "eliminated" not in found
    hexmap = state.world.map
    assert found["merged"].units == (b.id, a.id)
    assert found["merged"].text(hexmap) == f"{b.label()} merged into #{a.id} at 6,1 (Berlin)"
    assert found["strength"].units == (a.id,)
    # The purchase reached the pool when the phase began, before ``before`` was taken: an
    # arrival is seen across the phase's start.
    state.step = STEP_INDEX["deployment"]
    late = put(state, "Germany", "infantry", None, strength=2)  # off the map, on its way
    state.countries["Germany"].transit.append((state.date, late.id))
    before = state.copy()
    begin(state)
    (arrival,) = [e for e in changes(before, state) if e.units == (late.id,)]
    assert arrival.kind == "arrived"
    assert arrival.text(hexmap) == f"{late.label()} arrives: its strength points join the pool to place"
