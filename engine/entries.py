"""The other ways of entering the war: countries a player brings in on its own side
(rulebook "Other Ways of Entering the War").

Italy, Thailand, Hungary, Bulgaria, Romania (for either side), Mongolia (for either
side), Afghanistan and the Axis's one Spanish attempt are the order ``enter COUNTRY``
of the war declaration phase, given in the same secret list as the declarations and
carried out with them (the Axis's list first).  The conditions are checked when the
order is given and again when the lists are revealed, since the other side's list
may have changed the world in between (a country no longer neutral is skipped, as a
declaration on it is).

Spain's attempt succeeds with a 25% chance: the order only marks the attempt, and the
chance step :class:`SpainAttempt` right after the war declaration phase rolls it with
the dice both players seed, so nobody can predict it or roll it again; Spain then
enters in time for the deployment phase.  The automatic entries (the scenario's
countries at the start, Germany in September 1939) stay in :mod:`engine.war`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, ClassVar

from engine import war
from engine.actions import Action, IllegalAction, KindSpec, Refusal, rule_of
from engine.phase import AttemptRoll
from engine.sides import ALLIES, AXIS, NEUTRAL
from engine.state import NO_UNIT, GameState

if TYPE_CHECKING:
    from engine.rng import Rng

ENTER = KindSpec(
    "enter",
    ("country",),
    help="have a neutral country enter the war on your side (Italy, Spain, Thailand, ...)",
    words=("COUNTRY",),
    example="enter Italy",
)

SPAIN = "Spain"
#: Spain's attempt succeeds on 1 to SPAIN_ODDS of a hundred-sided die (25%).
SPAIN_ODDS = 25
#: The cities of which the Axis must hold one to bring Afghanistan in.
AFGHAN_CITIES = ("Karachi", "Urumchi", "Ashkhabad", "Tashkent")


# --------------------------------------------------------------------- facts


def _active(state: GameState, country: str) -> bool:
    c = state.countries.get(country)
    return c is not None and c.active


def _partner(state: GameState, country: str, side: str) -> bool:
    """Is ``country`` a partner of ``side`` (conquered or not)?"""
    c = state.countries.get(country)
    return c is not None and c.at_war and c.side == side


def has_land_unit_in(state: GameState, country: str, lands: tuple[str, ...]) -> bool:
    """Has ``country`` at least one land unit on the map (not embarked) in one of ``lands``?"""
    owner = state.world.map.country_of
    return any(
        u.is_land and u.country == country and u.on_map and u.carrier == NO_UNIT and owner[u.hex] in lands
        for u in state.units.values()
    )


_around: dict[str, frozenset[int]] = {}


def hexes_around(state: GameState, country: str) -> frozenset[int]:
    """Hexes outside ``country`` adjacent to one of its hexes (static, cached per world)."""
    key = f"{state.world.digest}/{country}"
    if key not in _around:
        hexmap = state.world.map
        inside = set(hexmap.hexes_of_country.get(country, ()))
        nbr = hexmap.neighbours
        found = {o for h in inside for o in nbr[h * 6 : h * 6 + 6] if o >= 0 and o not in inside}
        _around[key] = frozenset(found)
    return _around[key]


# ---------------------------------------------------------------- conditions


def _thailand(state: GameState, side: str) -> str:
    around = hexes_around(state, "Thailand")
    if any(u.is_land and u.country == "Japan" and u.carrier == NO_UNIT and u.hex in around
           for u in state.units.values()):  # fmt: skip
        return ""
    return "Japan has no land unit in a hex adjacent to Thailand"


def _italy(state: GameState, side: str) -> str:
    return "" if _active(state, "Germany") else "Germany is not at war, or is conquered"


def _spain(state: GameState, side: str) -> str:
    if state.countries[SPAIN].flags.entry_attempt:
        return "the Axis has already made its one attempt to bring Spain in"
    if _active(state, "Germany") or _active(state, "Italy"):
        return ""
    return "neither Germany nor Italy is at war and unconquered"


def _hungary(state: GameState, side: str) -> str:
    if has_land_unit_in(state, "Germany", ("Yugoslavia",)):
        return ""
    return "Germany has no land unit in Yugoslavia"


def _bulgaria(state: GameState, side: str) -> str:
    if has_land_unit_in(state, "Germany", ("Yugoslavia", "Greece")):
        return ""
    return "Germany has no land unit in Yugoslavia or Greece"


def _romania(state: GameState, side: str) -> str:
    if side == AXIS:
        if not _partner(state, "Soviet Union", ALLIES):
            return "the Soviet Union is not an Allied partner"
        if not has_land_unit_in(state, "Germany", ("Soviet Union",)):
            return "Germany has no land unit in the Soviet Union"
        return ""
    # "That country": the Axis partner among the three (Romania itself, neutral, cannot be entered).
    axis = tuple(n for n in ("Soviet Union", "Hungary", "Bulgaria") if _partner(state, n, AXIS))
    if not axis:
        return "none of the Soviet Union, Hungary or Bulgaria is an Axis partner"
    if not has_land_unit_in(state, "United Kingdom", axis):
        return f"the United Kingdom has no land unit in {' or '.join(axis)}"
    return ""


def _mongolia(state: GameState, side: str) -> str:
    soviet = state.countries.get("Soviet Union")
    if soviet is None or soviet.side != side or not soviet.active:
        return f"the Soviet Union is not an unconquered {'Axis' if side == AXIS else 'Allied'} partner"
    if side == ALLIES:
        germany = state.countries.get("Germany")
        if germany is None or not germany.conquered:
            return "Germany is not conquered"
    return ""


def _afghanistan(state: GameState, side: str) -> str:
    if _partner(state, "Soviet Union", AXIS) and _active(state, "Soviet Union"):
        return "the Soviet Union is an unconquered Axis partner"
    by_name = state.world.map.city_by_name
    for name in AFGHAN_CITIES:
        city = by_name.get(name.lower())
        if city is not None and state.side_controlling(city.hex) == AXIS:
            return ""
    return f"the Axis controls none of {', '.join(AFGHAN_CITIES)}"


#: Country -> (the sides that may bring it in, the condition: '' when met, else why not).
ENTRIES: dict[str, tuple[tuple[str, ...], Callable[[GameState, str], str]]] = {
    "Thailand": ((AXIS,), _thailand),
    "Italy": ((AXIS,), _italy),
    SPAIN: ((AXIS,), _spain),
    "Hungary": ((AXIS,), _hungary),
    "Bulgaria": ((AXIS,), _bulgaria),
    "Romania": ((AXIS, ALLIES), _romania),
    "Mongolia": ((AXIS, ALLIES), _mongolia),
    "Afghanistan": ((AXIS,), _afghanistan),
}


def refusal(state: GameState, side: str, country: str) -> str:
    """Why ``side`` may not have ``country`` enter the war on its side now ('' if it may)."""
    rule = ENTRIES.get(country)
    if rule is None or country not in state.countries:
        return Refusal("entry.no-such-entry", f"{country} does not enter the war by a player's choice")
    sides, condition = rule
    if side not in sides:
        who = "Axis" if sides[0] == AXIS else "Allies"
        return Refusal("entry.wrong-side", f"only the {who} may have {country} enter the war")
    c = state.countries[country]
    if c.at_war or c.side != NEUTRAL:
        return Refusal("war.not-neutral", f"{country} is not neutral")
    why = condition(state, side)
    return Refusal("entry.condition", f"{country} may not enter the war now: {why}") if why else ""


def enterable(state: GameState, side: str) -> list[str]:
    return [n for n in sorted(ENTRIES) if not refusal(state, side, n)]


def bring_in(state: GameState, side: str, country: str) -> None:
    """Carry out ``side``'s order to bring ``country`` in, if it may still be done."""
    if refusal(state, side, country):
        return
    if country == SPAIN:
        state.countries[SPAIN].flags.entry_attempt = "pending"
    else:
        war.enter_war(state, country, side)


# --------------------------------------------------------------------- the steps


class WarDeclaration(war.WarDeclaration):
    """The war declaration phase with the entries of this module beside the declarations."""

    orders: ClassVar[tuple[KindSpec, ...]] = (*war.WarDeclaration.orders, ENTER)

    def needed(self, state: GameState, side: str) -> bool:
        return super().needed(state, side) or bool(enterable(state, side))

    def legal(self, state: GameState, side: str) -> list[Action]:
        done = set((state.memo.declared or {}).get(side, ()))
        out = [*super().legal(state, side), *(Action("enter", (n,)) for n in enterable(state, side) if n not in done)]
        return sorted(out, key=lambda a: (a.kind, a.args))

    def check(self, state: GameState, side: str, action: Action) -> None:
        if action.kind != "enter":
            super().check(state, side, action)
            return
        (country,) = action.args
        assert isinstance(country, str)
        if country in (state.memo.declared or {}).get(side, ()):
            raise IllegalAction(f"{country} is already named in this list", rule="war.declared-twice")
        why = refusal(state, side, country)
        if why:
            raise IllegalAction(f"{why}.", rule=rule_of(why))

    def carry_out(self, state: GameState, side: str, action: Action) -> None:
        # The Axis's list first, then the Allies' (docs/rules-decisions.md), each in its order.
        if action.kind == "enter":
            bring_in(state, side, str(action.args[0]))
        else:
            super().carry_out(state, side, action)


class SpainAttempt(AttemptRoll):
    """The roll of the Axis's attempt to bring Spain in, when it was made this month."""

    name = "spain_attempt"
    country = SPAIN

    def roll(self, state: GameState, rng: Rng) -> list[str]:
        spain = state.countries[SPAIN]
        die = rng.below(100) + 1
        if die <= SPAIN_ODDS:
            spain.flags.entry_attempt = ""
            war.enter_war(state, SPAIN, AXIS)
            result = "Spain enters the war on the side of the Axis"
        else:
            spain.flags.entry_attempt = "failed"
            result = "Spain stays neutral, and the Axis may not try again"
        odds = f"{SPAIN_ODDS}% chance: {SPAIN_ODDS} or less on 1-100"
        return [f"Spain: the Axis's attempt ({odds}): rolled {die}; {result}"]
