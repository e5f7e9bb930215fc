"""Marines lead the landings (issue 30; switch ``spearheads``): a landing with a marine
succeeds three times in four, one without half the time, and only the first holds at the
bot's bar (:data:`engine.ai.landings.SURE`).  So a marine in a port that stages landings
waits there for one, and the ferries bring marines to staging ports that have none.  Once
a shore of ours joined to a front lies a short crossing away, Britain's transports shuttle
its army there several trips a movement (switch ``channel``)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.ai import ferry, staging
from engine.ai.picture import Picture
from engine.ai.style import LATEST, STYLES
from engine.position import hex_at, put
from engine.state import NO_UNIT, GameState
from engine.units import UnitType
from tests.ai.test_theatres import TWO_FRONTS, _first_movement, _position, french_front

# Britain (west) with London (1,1) and Glasgow (0,2), France across a short sea holding a
# front against Germany, and to the south an Italian shore with Tripoli (8,6).
PICTURE = TWO_FRONTS


def britain(marine_in: str) -> GameState:
    """London and Glasgow each hold a British 6 and an empty transport, and ``marine_in``
    a British marine too; Glasgow's transport is slow (it reaches no enemy shore in a
    movement, so only London stages landings: an empty Tripoli is within its transport's
    reach, with an Italian 6 beside it that no landing would hold against)."""
    cities = ["city London 1,1 capital port", "city Glasgow 0,2 port", "city Paris 4,1 capital"]
    cities += ["city Berlin 8,1 capital", "city Tripoli 8,6", "city Algiers 5,6 port", "resource 1,1 4,1 8,1 5,6"]
    state = _position(PICTURE, cities, "1942-03", axis="Germany Italy")
    french_front(state)
    put(state, "Italy", "infantry", "7,6", strength=6)
    for port, move in (("1,1", 12), ("0,2", 4)):
        put(state, "United Kingdom", "infantry", port, strength=6)
        put(state, "United Kingdom", "transport", port, in_port=True, move=move)
    put(state, "United Kingdom", "marine", marine_in, strength=1)
    return state


def _marine_at(state: GameState) -> int:
    """Where the British marine is (its ship's hex when aboard)."""
    [marine] = [u for u in state.units_of("United Kingdom") if u.type is UnitType.MARINE]
    return state.units[marine.carrier].hex if marine.carrier != NO_UNIT else marine.hex


def _moved(marine_in: str, spearheads: bool, monkeypatch: pytest.MonkeyPatch) -> GameState:
    """The position after the bot's first movement, with the switch as asked."""
    with monkeypatch.context() as patch:
        patch.setitem(STYLES, "bot", replace(LATEST, spearheads=spearheads))
        state = britain(marine_in)
        _first_movement(state, "bot")
    return state


def test_only_london_stages_landings_and_wants_a_marine_while_it_has_none() -> None:
    state = britain(marine_in="0,2")
    london = hex_at(state, "1,1")
    pic = Picture(state, "allies")
    assert set(staging.ports(pic)) == {london}
    assert ferry.spearheads(pic, staging.ports(pic)) == [london]
    held = britain(marine_in="1,1")
    assert ferry.spearheads(Picture(held, "allies"), [london]) == []


def test_a_marine_in_the_staging_port_waits_there_for_a_landing(monkeypatch: pytest.MonkeyPatch) -> None:
    stays = _moved("1,1", True, monkeypatch)
    assert _marine_at(stays) == hex_at(stays, "1,1")
    # without the switch it is London's one spare unit and sails for the front
    ships = _moved("1,1", False, monkeypatch)
    assert _marine_at(ships) != hex_at(ships, "1,1")


def test_a_marine_elsewhere_sails_for_the_staging_port(monkeypatch: pytest.MonkeyPatch) -> None:
    arrived = {}
    for on in (True, False):
        state = _moved("0,2", on, monkeypatch)
        arrived[on] = _marine_at(state) == hex_at(state, "1,1")
    # without the switch it is Glasgow's one spare unit and sails for the front
    assert arrived == {True: True, False: False}


def test_the_switch_is_on_for_the_bot_and_deep_only() -> None:
    assert {name for name, style in STYLES.items() if style.spearheads} == {"bot", "deep"}


def channel() -> GameState:
    """London holds a 6 (its garrison), three British 4s and one empty transport; France,
    across a short sea, holds a front against Germany."""
    cities = ["city London 1,1 capital port", "city Paris 4,1 capital", "city Berlin 8,1 capital"]
    state = _position(PICTURE, [*cities, "resource 1,1 4,1 8,1"], "1942-03")
    for row in "012":
        put(state, "France", "infantry", f"5,{row}", strength=5)
        put(state, "Germany", "infantry", f"6,{row}", strength=6)
    put(state, "United Kingdom", "infantry", "1,1", strength=6)
    for _ in range(3):
        put(state, "United Kingdom", "infantry", "1,1", strength=4)
    put(state, "United Kingdom", "transport", "1,1", in_port=True, move=12)
    return state


def _british_in_france(state: GameState) -> int:
    return sum(
        1
        for u in state.units_of("United Kingdom")
        if u.is_land and u.carrier == NO_UNIT and state.world.map.country_of[u.hex] == "France"
    )


def test_britain_shuttles_across_the_channel_several_trips_a_movement(monkeypatch: pytest.MonkeyPatch) -> None:
    landed = {}
    for on in (True, False):
        with monkeypatch.context() as patch:
            patch.setitem(STYLES, "bot", replace(LATEST, channel=on))
            state = channel()
            _first_movement(state, "bot")
        landed[on] = _british_in_france(state)
    # one transport, one unit a voyage: the ferry lands one; the shuttle goes back for more
    assert landed[False] == 1
    assert landed[True] >= 2
