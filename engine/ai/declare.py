"""War declarations and entries into the war (rulebook: "War Declaration, Conquest
and Liberation").

The Axis follows the historical order of aims: Poland as soon as Germany is at
war, the Low Countries and Scandinavia once Poland has fallen (the road to
France), the Balkans once France has fallen, and the Soviet Union in the summer
after that.  Japan keeps to China.  The Allies hold and never open new fronts by
declaring war.  Every offer that brings a country in on our side (Hungary,
Bulgaria, Romania, Thailand, Mongolia, Afghanistan, Vichy, Finland's surrender,
...) is taken as soon as it is offered, except Italy, which enters in June 1940
(or once France has fallen), and the Spanish gamble, which waits for France to fall.
Vichy France is attempted as soon as Paris falls: France is out at once (three times
in four) instead of after a campaign through its colonies.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.ai import reading
from engine.state import GameState, parse_date

if TYPE_CHECKING:
    from engine.ai.turn import Turn

#: (country, earliest date, countries that must have fallen first) in the Axis order of aims.
AXIS_AIMS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("Poland", "1939-09", ()),
    ("Denmark", "1940-04", ("Poland",)),
    ("Norway", "1940-04", ("Poland",)),
    ("Luxembourg", "1940-05", ("Poland",)),
    ("Belgium", "1940-05", ("Poland",)),
    ("Netherlands", "1940-05", ("Poland",)),
    ("Yugoslavia", "1941-04", ("France",)),
    ("Greece", "1941-04", ("France",)),
    ("Soviet Union", "1941-06", ("France",)),
)

#: Gambles taken only once the named country has fallen: Spain's one 25% attempt pays
#: once France is beaten (Spain then faces no land front, and opens Gibraltar).
WAIT_FOR = {"Spain": "France"}
#: Entries taken from a month on, or earlier once the named country has fallen.  Italy
#: came in in June 1940 with France beaten; earlier it only opens Africa to the Allies.
NOT_BEFORE = {"Italy": ("1940-06", "France")}


def war_declaration(turn: Turn) -> None:
    batch = turn.batch
    state = turn.state
    wanted = set(axis_targets(state)) if turn.side == "axis" else set()
    for action in batch.legal():
        if action.kind == "pass":
            continue
        country = reading.country(action)
        if is_declaration(action):
            if country in wanted:
                batch.offer(action)
        elif welcome(state, country):
            batch.offer(action)


def is_declaration(action: object) -> bool:
    kind = getattr(action, "kind", "")
    return "declare" in kind or kind == "war"


def welcome(state: GameState, country: str | None) -> bool:
    """Should we accept an offer about ``country`` (entry on our side, Vichy, surrender)?"""
    if country is None:
        return True
    if country in NOT_BEFORE:
        month, beaten = NOT_BEFORE[country]
        return state.date >= parse_date(month) or fallen(state, beaten)
    waits = WAIT_FOR.get(country)
    if waits is not None and waits in state.countries:
        return fallen(state, waits)
    return True


def fallen(state: GameState, country: str) -> bool:
    """Is ``country`` out of the fight: conquered (Vichy France included), or its home
    cities all held by its enemy (France after a failed Vichy attempt counts as conquered
    only with its colonies, yet no longer holds a front)?"""
    c = state.countries[country]
    if c.conquered:
        return True
    cities = state.world.home_cities_of.get(country, ())
    return c.at_war and bool(cities) and all(state.enemies(country, state.controller_of(h)) for h in cities)


def axis_targets(state: GameState) -> list[str]:
    """Countries the Axis wants to declare war on now."""
    if "Germany" not in state.countries or not state.countries["Germany"].active:
        return []
    out = []
    for country, date, after in AXIS_AIMS:
        c = state.countries.get(country)
        if c is None or c.at_war or c.side != "neutral":
            continue
        if state.date < parse_date(date):
            continue
        if all(fallen(state, p) for p in after if p in state.countries):
            out.append(country)
    return out
