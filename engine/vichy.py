"""Vichy France (rulebook: "Vichy France", "Colonies and Conquest").

The Axis orders the attempt (``vichy``) in the war declaration phase while Paris is
theirs within two years of France entering the war; France's ``flags.entry_attempt`` is
then ``pending`` and the 75% roll is the chance step :class:`VichyAttempt`, after every
declaration is revealed and before the deployment (as Spain's attempt is rolled).  A success conquers France, divides
France and its colonies, sends foreign units in Vichy territory home, and leaves
France a neutral country (``flags.vichy``) that either side may declare war on.
"""

from __future__ import annotations

from fractions import Fraction

from engine.actions import KindSpec, Refusal
from engine.control import take_control
from engine.losses import remove_on_conquest, send_home
from engine.phase import AttemptRoll
from engine.rng import Rng
from engine.sides import ALLIES, AXIS, NEUTRAL
from engine.state import NO_UNIT, GameState
from engine.victory import check as check_victory

FRANCE = "France"
PARIS = "paris"
CHANCE = Fraction(3, 4)
#: "within two years of France entering the war": the attempt may be ordered while
#: fewer than this many months have passed since France entered.
WINDOW_MONTHS = 24
#: Temporary border whose hexes pass to Germany.
NORTH = "france_north"
TO_JAPAN = ("French Indochina",)
TO_UK = ("Lebanon-Syria", "French Cameroon", "French Equatorial Africa", "French Polynesia", "New Caledonia",
         "New Hebrides")  # fmt: skip

ATTEMPT = KindSpec("vichy", (), help="attempt to create Vichy France (75% chance)", words=(), example="vichy")


def refusal(state: GameState, side: str) -> str:
    """Why ``side`` may not attempt to create Vichy France now ('' if it may)."""
    france = state.countries.get(FRANCE)
    city = state.world.map.city_by_name.get(PARIS)
    if side != AXIS:
        return Refusal("vichy.axis-only", "only the Axis may attempt to create Vichy France")
    if france is None or city is None:
        return Refusal("vichy.no-france", "there is no France with Paris in this game")
    if france.flags.vichy_tried:
        return Refusal("vichy.tried", "Vichy France has already been attempted once in this game")
    if not france.at_war or france.conquered or france.side != ALLIES:
        return Refusal("vichy.france-not-fighting", "France is not an unconquered Allied country at war")
    if state.side_controlling(city.hex) != AXIS:
        return Refusal("vichy.paris", "the Axis does not control Paris")
    if state.date >= france.entered + WINDOW_MONTHS:
        return Refusal("vichy.too-late", "two years have passed since France entered the war")
    return ""


def attempt(state: GameState, rng: Rng) -> list[str]:
    """Roll the attempt (once in the game) and create Vichy France on a success."""
    france = state.countries[FRANCE]
    france.flags.vichy_tried = True
    draw = rng.below(100)
    made = draw < CHANCE * 100
    verdict = "Vichy France is created" if made else "the attempt fails and may never be made again"
    lines = [f"Vichy France: {int(CHANCE * 100)}% chance, rolled {draw + 1} of 100: {verdict}"]
    if made:
        create(state)
    return lines


def _germany(state: GameState) -> str:
    if "Germany" in state.countries:
        return "Germany"
    return state.controller_of(state.world.map.city_by_name[PARIS].hex)


def create(state: GameState) -> None:
    """Vichy France is created (rulebook "Vichy France")."""
    hexmap = state.world.map
    france = state.countries[FRANCE]
    remove_on_conquest(state, FRANCE)
    france.conquered = True
    france.flags.vichy = True
    france.side, france.at_war = NEUTRAL, False
    north = hexmap.temp_borders.get(NORTH, frozenset())
    german = _germany(state)
    french_land = set(hexmap.hexes_of_country.get(FRANCE, ()))
    for h in sorted(french_land):
        territory = hexmap.territories[hexmap.territory[h]].name
        if h in north:
            receiver = german
        elif territory in TO_JAPAN and "Japan" in state.countries:
            receiver = "Japan"
        elif territory in TO_UK and "United Kingdom" in state.countries:
            receiver = "United Kingdom"
        else:
            receiver = FRANCE
        take_control(state, h, receiver)
    if "United Kingdom" in state.countries:
        for h, c in enumerate(state.controller):
            if c and h not in french_land and state.world.country_names[c] == FRANCE:
                take_control(state, h, "United Kingdom")
    # Foreign units in what Vichy holds go home; carriers first, their cargo with them.
    for h in sorted(h for h in french_land if state.controller_of(h) == FRANCE):
        for u in sorted(state.units_at(h), key=lambda x: (x.carrier != NO_UNIT, x.id)):
            if u.id in state.units and u.hex == h:
                send_home(state, u)


def is_vichy(state: GameState) -> bool:
    """Is France the neutral Vichy France now?"""
    france = state.countries.get(FRANCE)
    return france is not None and france.flags.vichy and france.side == NEUTRAL


def liberated_now(state: GameState) -> bool:
    """Do the Allies hold every hex of mainland France north of the temporary border while
    Vichy France is neutral (rulebook "Vichy France")?"""
    if not is_vichy(state):
        return False
    north = state.world.map.temp_borders.get(NORTH, frozenset())
    return bool(north) and all(state.side_controlling(h) == ALLIES for h in north)


def join_allies(state: GameState) -> None:
    """France is liberated and Vichy France joins the Allies."""
    france = state.countries[FRANCE]
    france.side, france.at_war, france.entered = ALLIES, True, state.date


def declared_on(state: GameState, side: str) -> None:
    """``side`` declares war on Vichy France: France joins the other side, unconquered.
    Declared on by the Allies, it joins the Axis, which holds every Vichy hex already
    (they are France's)."""
    france = state.countries[FRANCE]
    france.side = AXIS if side == ALLIES else ALLIES
    france.at_war, france.entered, france.conquered = True, state.date, False


class VichyAttempt(AttemptRoll):
    """The roll of the Axis's attempt to create Vichy France, when it was ordered this month."""

    name = "vichy_attempt"
    country = FRANCE

    def roll(self, state: GameState, rng: Rng) -> list[str]:
        state.countries[FRANCE].flags.entry_attempt = ""
        why = refusal(state, AXIS)
        if why:
            # A declaration revealed with the order changed what it may do: no roll.
            return [f"Vichy France: the attempt lapses, {why}"]
        return attempt(state, rng)

    def leave(self, state: GameState) -> None:
        # The last step of the war declaration phase, whose end decides victory.
        check_victory(state)
