"""Convoys carry money between overseas partners (rulebook "Convoys", "Money")."""

from __future__ import annotations

import pytest

from engine import api
from engine.actions import PASS, Action, IllegalAction
from engine.convoys import deliver
from engine.losses import eliminate
from engine.position import begin_at, put, setup
from engine.state import GameState
from engine.world import CountryInfo

PICTURE = """
K:c ~ ~ U:c G:c
 K:c ~ ~ U:c G:c
"""


def game() -> GameState:
    state = setup(
        PICTURE,
        axis=("Germany",),
        allies=("United Kingdom", "Canada"),
        step=None,
        countries=[CountryInfo("Canada", region="americas", leans_allied=True)],
        cities={"Halifax": "0,0 port", "London": "3,0 capital port", "Berlin": "4,0 capital"},
        resources=["3,0", "3,1"],
    )
    state.countries["Canada"].money = 1000
    state.countries["United Kingdom"].money = 0
    return state


def test_money_is_placed_on_a_convoy_in_a_port_of_the_sender() -> None:
    """ "the money is immediatly subtracted from the sender's money and placed on the
    convoy. When sending the money, the convoy must be located in a port in the sending
    country." - Canada can send money to the United Kingdom."""
    state = game()
    ship = put(state, "Canada", "convoy", "0,0", in_port=True)
    begin_at(state, "income")
    before = state.countries["Canada"].money
    assert Action("convoy", ("Canada", "United Kingdom", 1000, ship.id)) in api.legal_actions(state, "allies")
    orders = {"axis": [PASS], "allies": [Action("convoy", ("Canada", "United Kingdom", 800, ship.id)), PASS]}
    api.apply_simultaneous(state, {s: orders[s] for s in api.decision(state).sides})
    ship = state.units[ship.id]
    assert (ship.cargo, ship.cargo_to) == (800, "United Kingdom")
    assert state.countries["Canada"].money == before - 800


def test_routes_ports_and_amounts_are_checked() -> None:
    """Only the listed pairs ("Canada can send money to the United Kingdom", not the other
    way), only from a port of the sender, and no more than the sender has."""
    state = game()
    state.countries["United Kingdom"].money = 500
    in_halifax, at_sea, in_london = (
        put(state, "Canada", "convoy", "0,0", in_port=True),
        put(state, "Canada", "convoy", "1,0", in_port=True),
        put(state, "Canada", "convoy", "3,0", in_port=True),
    )
    at_sea.in_port = False
    begin_at(state, "income")
    for action, rule in (
        (Action("convoy", ("United Kingdom", "Canada", 10, in_halifax.id)), "convoy.not-in-port"),
        (Action("convoy", ("Canada", "United Kingdom", 10, at_sea.id)), "convoy.not-in-port"),
        (Action("convoy", ("Canada", "United Kingdom", 10, in_london.id)), "convoy.not-in-port"),
        (Action("convoy", ("Canada", "United Kingdom", 5000, in_halifax.id)), "money.short"),
        (Action("convoy", ("Canada", "Germany", 10, in_halifax.id)), "country.not-active"),
    ):
        with pytest.raises(IllegalAction) as exc:
            api.preview(state, "allies", [action])
        assert exc.value.rule == rule


def test_money_arrives_in_a_port_of_the_receiver_and_doubles_uk_home_income() -> None:
    """ "When the convoy enters a port in the receiving country, the money is added to the
    receiving country's money." and "If the United Kingdom has received money from convoys
    during the past turn, it gets $100B per month for each resource hex located inside the
    United Kingdom"."""
    state = game()
    ship = put(state, "Canada", "convoy", "3,0", in_port=True)
    ship.cargo, ship.cargo_to = 700, "United Kingdom"
    begin_at(state, "income")
    assert state.countries["United Kingdom"].money == 700 + 2 * 100
    assert (ship.cargo, ship.cargo_to) == (0, "")


def test_money_at_sea_waits_and_is_lost_with_the_convoy() -> None:
    """ "If a convoy unit is eliminated while transporting money, that money is lost." """
    state = game()
    ship = put(state, "Canada", "convoy", "1,0", in_port=True)
    ship.in_port = False
    ship.cargo, ship.cargo_to = 700, "United Kingdom"
    assert deliver(state) == []
    eliminate(state, ship)
    begin_at(state, "income")
    assert state.countries["United Kingdom"].money == 2 * 50


def test_money_for_a_conquered_receiver_goes_to_the_convoys_owner() -> None:
    """ "If the country a convoy is transporting money to is conquered, the money remains on
    the convoy but must be transported to the convoy's owner instead." """
    state = game()
    ship = put(state, "Canada", "convoy", "0,0", in_port=True)
    ship.cargo, ship.cargo_to = 300, "United Kingdom"
    state.countries["United Kingdom"].conquered = True
    done = deliver(state)
    assert [(r, n) for _, r, n in done] == [("Canada", 300)]
    assert state.countries["Canada"].money == 1300


def test_the_cargo_survives_the_wire_and_old_rows_are_unchanged() -> None:
    """The money rides on the unit record; a unit without cargo keeps its old wire row."""
    state = game()
    ship = put(state, "Canada", "convoy", "1,0", in_port=True)
    before = state.to_bytes()
    ship.cargo, ship.cargo_to = 250, "United Kingdom"
    copy = GameState.from_bytes(state.to_bytes(), state.world)
    assert (copy.units[ship.id].cargo, copy.units[ship.id].cargo_to) == (250, "United Kingdom")
    ship.cargo, ship.cargo_to = 0, ""
    assert state.to_bytes() == before
