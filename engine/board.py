"""The position as one side may see it, as plain data for a picture of the game.

A map renderer draws this record and nothing else, so it needs no rule of its own:
what a counter prints, who controls a hex, the weather of each zone and whether a unit
is out of supply are all decided here, by the engine.  Nothing here changes a state.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.hexgrid import NO_HEX
from engine.hexmap import HexMap
from engine.sequence import decision
from engine.state import GameState, date_text
from engine.supply import SupplyWords
from engine.weather import ZONE_NAMES, zone_conditions


@dataclass(frozen=True, slots=True)
class BoardUnit:
    """One counter: a unit on the map with the numbers it prints in its four corners."""

    id: int
    hex: int
    country: str
    side: str  # axis, allies or neutral
    type: str  # engine.units.UnitType value
    domain: str  # land, naval or air
    name: str
    #: the counter's corners as the rulebook places them: upper left, upper right,
    #: lower left, lower right ("" where the counter prints nothing)
    corners: tuple[str, str, str, str]
    label: str  # how a player names it in an order: "#12 Germany armor 8-5"
    supplied: bool  # in supply now, as the rules read it when the unit acts (not the last supply phase's record)
    damaged: bool
    aboard: int  # id of the ship or aircraft carrying it; NO_UNIT when it is not embarked
    in_port: bool


@dataclass(frozen=True, slots=True)
class Installation:
    hex: int
    owner: str
    finished: bool


@dataclass(frozen=True, slots=True)
class Board:
    """Everything a map of the game shows besides the static map (``map``)."""

    side: str  # whose view this is
    map: HexMap
    date: str  # YYYY-MM
    phase: str  # the step the game waits in, e.g. "axis.first_movement"
    acting: tuple[str, ...]
    #: (zone name, condition) for every weather zone, e.g. ("polar", "mild_winter")
    weather: tuple[tuple[str, str], ...]
    grounded: tuple[str, ...]  # weather zones whose aircraft are grounded this month
    countries: tuple[str, ...]  # country number -> name; number 0 is nobody
    sides: tuple[str, ...]  # country number -> its side ("" for nobody)
    controller: bytes  # per hex: number of the country that controls it
    home: bytes  # per hex: number of the country that owns its territory
    conquered: frozenset[str]
    forts: tuple[Installation, ...]
    airfields: tuple[Installation, ...]
    bombed: frozenset[int]  # installations bombed: no port, no airbase capacity
    units: tuple[BoardUnit, ...]
    winner: str | None


def _corners(text: str, domain: str) -> tuple[str, str, str, str]:
    parts = text.split("-")
    if domain == "land":
        return ("", "", parts[0], parts[1])
    # naval: surface attack, submarine attack, defence, move; air: fighter, bomber, defence, move
    first, second, defence, move = parts
    return (first, defence, second, move)


def board(state: GameState, side: str) -> Board:
    """What ``side`` sees of ``state``.  Hidden decisions (a sealed deployment before its
    reveal) never enter the state, so every unit on the map is seen by both sides."""
    world = state.world
    names = world.country_names
    units = []
    words = SupplyWords(state)
    for uid in sorted(state.units):
        u = state.units[uid]
        if u.hex == NO_HEX:
            continue
        text = u.profile().text()
        units.append(
            BoardUnit(
                id=u.id,
                hex=u.hex,
                country=u.country,
                side=state.countries[u.country].side,
                type=u.type.value,
                domain=u.domain.value,
                name=u.name,
                corners=_corners(text, u.domain.value),
                label=u.label(),
                supplied=not words.out(u),
                damaged=u.damaged,
                aboard=u.carrier,
                in_port=u.in_port,
            )
        )
    conditions = zone_conditions(state.date)
    return Board(
        side=side,
        map=world.map,
        date=date_text(state.date),
        phase=decision(state).phase,
        acting=tuple(state.acting),
        weather=tuple((ZONE_NAMES[z], conditions[z]) for z in sorted(ZONE_NAMES)),
        grounded=tuple(ZONE_NAMES[z] for z in sorted(ZONE_NAMES) if z in state.grounded_zones),
        countries=names,
        sides=("", *(state.countries[n].side for n in names[1:])),
        controller=bytes(state.controller),
        home=world.home_control,
        conquered=frozenset(n for n, c in state.countries.items() if c.conquered),
        forts=tuple(Installation(h, state.fort_owner.get(h, ""), m == 0) for h, m in sorted(state.forts.items())),
        airfields=tuple(
            Installation(h, state.airfield_owner.get(h, ""), m == 0) for h, m in sorted(state.airfields.items())
        ),
        bombed=frozenset(state.bombed),
        units=tuple(units),
        winner=state.winner,
    )
