"""War declarations and entries into the war (rulebook: "War Declaration, Conquest
and Liberation").

The Axis follows the historical order of aims: Poland as soon as Germany is at
war, the Low Countries and Scandinavia once Poland has fallen (the road to
France), the Balkans once France has fallen, and the Soviet Union in the summer
after that.  Scandinavia and the Balkans are side-shows whose month the bot's
judgement does not fix: each is declared in its first month or the next by a draw
from the turn's seeded stream, so the hidden list is not computable from the
position (docs/ai.md, "Mixed strategy").  Japan opens the Pacific war in December 1941 (:func:`pacific_war_due`):
the Axis declares war on the United States (and so on Panama), and on the United
Kingdom and the Netherlands if they are still neutral.  The Allies hold and never open
new fronts by declaring war.  Every offer that brings a country in on our side (Hungary,
Bulgaria, Romania, Thailand, Mongolia, Afghanistan, Vichy, Finland's surrender,
...) is taken as soon as it is offered, except Italy, which enters in June 1940
(or once France has fallen), and the Spanish gamble, which waits for France to fall.
Vichy France is attempted as soon as Paris falls: France is out at once (three times
in four) instead of after a campaign through its colonies.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from engine import vichy
from engine.ai import barbarossa, reading
from engine.ai.front import fallen
from engine.state import GameState, parse_date
from engine.units import Domain

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

#: Aims declared in their first month or, by a draw, up to this many months later: none
#: is on the road to France or the Soviet Union, so a month either way weighs nothing
#: the bot can judge.
SLACK = {"Denmark": 1, "Norway": 1, "Yugoslavia": 1, "Greece": 1}
#: The chance that an aim still within its slack is declared this month.
DRAW_NOW = Fraction(1, 2)

#: Gambles taken only once the named country has fallen: Spain's one 25% attempt pays
#: once France is beaten (Spain then faces no land front, and opens Gibraltar).
WAIT_FOR = {"Spain": "France"}
#: Entries taken from a month on, or earlier once the named country has fallen.  Italy
#: came in in June 1940 with France beaten; earlier it only opens Africa to the Allies.
NOT_BEFORE = {"Italy": ("1940-06", "France")}


#: The Pacific war: from this month, when the position allows (:func:`pacific_war_due`).
PACIFIC_WAR = "1941-12"
#: Countries the Axis declares war on when the Pacific war opens (those still neutral):
#: the United States (Panama with it), and the owners of Malaya, Borneo and the Indies.
PACIFIC_AIMS = ("United States", "United Kingdom", "Netherlands")
#: Japan strikes only with a fleet of at least this share of the American one.
FLEET_SHARE = 0.5


def war_declaration(turn: Turn) -> None:
    batch = turn.batch
    state = turn.state
    wanted = set(drawn_targets(turn)) | set(pacific_targets(state)) if turn.side == "axis" else set()
    if turn.side == "axis" and turn.style.ready_offensives and barbarossa.ready(state):
        wanted.add(barbarossa.SOVIET)
    if turn.side == "axis" and turn.style.anton and anton_due(state):
        wanted.add(vichy.FRANCE)
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


def drawn_targets(turn: Turn) -> list[str]:
    """The aims of :func:`axis_targets` declared this month: those within their
    :data:`SLACK` by a draw, the others all."""
    earliest = {country: parse_date(date) for country, date, _ in AXIS_AIMS}
    out = []
    for country in axis_targets(turn.state):
        late = turn.state.date >= earliest[country] + SLACK.get(country, 0)
        if late or turn.rng.chance(DRAW_NOW):
            out.append(country)
    return out


def holds_home(state: GameState, country: str) -> bool:
    """Does ``country`` hold every city of its home territory?"""
    return all(state.controller_of(h) == country for h in state.world.home_cities_of.get(country, ()))


def fleet_strength(state: GameState, country: str) -> int:
    """Surface and submarine attack of ``country``'s warships: on the map (a damaged ship
    counts half) and, for a neutral, those its pool will place when it enters."""
    total = 0
    for u in state.units_of(country):
        if u.is_naval:
            value = u.attack + u.sub_attack
            total += value // 2 if u.damaged else value
    c = state.countries[country]
    if not c.at_war:
        total += sum(p.attack + p.sub_attack for p in c.pool_units if p.type.domain is Domain.NAVAL)
    return total


def pacific_war_due(state: GameState) -> bool:
    """Should the Axis open the Pacific war now?  From :data:`PACIFIC_WAR` (December 1941,
    as in history), while Japan is an active Axis country holding all its home cities and
    its fleet is at least :data:`FLEET_SHARE` of the American one.

    Why at all: the Axis wins only once the United States is conquered ("Victory
    Conditions"), which takes a war with it, and only an Axis declaration brings it in
    (the Allies may not declare war on it).  Why then: by late 1941 the European war is
    decided for the year and Japan's fleet, complete since 1939, is at its strongest
    against the American one, which grows every year it stays neutral (its pool receives
    the scheduled ships while Canada draws $500B a month of lend-lease)."""
    us, japan = state.countries.get("United States"), state.countries.get("Japan")
    if us is None or japan is None or us.at_war or us.side != "neutral":
        return False
    if state.date < parse_date(PACIFIC_WAR) or japan.side != "axis" or not japan.active:
        return False
    if not holds_home(state, "Japan"):
        return False
    return fleet_strength(state, "Japan") >= FLEET_SHARE * fleet_strength(state, "United States")


def anton_due(state: GameState) -> bool:
    """Should the Axis declare war on Vichy France now?  While Germany is an active Axis
    country: from the month after Vichy France's creation (it is rolled after the month's
    declarations).

    Why: Vichy France's creation took France's units, pool and money for good
    (docs/rules-decisions.md), so the France a declaration brings back is an Allied country
    with no army: the four cities of the south are a march away, and with them the whole
    of mainland France (its conquest again counts the home cities only).  The colonies it
    brings back to the Allies hold no unit either."""
    germany = state.countries.get("Germany")
    return vichy.is_vichy(state) and germany is not None and germany.side == "axis" and germany.active


def pacific_targets(state: GameState) -> list[str]:
    """Countries the Axis declares war on as the Pacific war opens (those still neutral)."""
    if not pacific_war_due(state):
        return []
    return [n for n in PACIFIC_AIMS if n in state.countries and state.countries[n].side == "neutral"]
