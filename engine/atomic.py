"""The atomic bomb (rulebook: "Atomic Bomb"; supplement: "Atomic bomb surrender").

``atomic HEX UNIT`` (combat phase): the country's atomic aircraft, flying in HEX from the
country's first atomic month on, drops a bomb there.  Resolved by the combat roll:

* land units, based air units and naval units in a port in HEX are eliminated, never to
  be bought back (whoever owns them);
* a city or resource hex is destroyed for good (``GameState.atomized``: no port, no
  airbase capacity, no income, no repair); fortifications and airfields are destroyed;
* outside a colony, the hex's country may surrender: ``1 - 2^(-c*o*(n+1))``.  A surrender
  records the bombing country in ``CountryFlags.atomic_surrender``; the next war declaration
  phase conquers the country for it, never to be liberated (:func:`engine.war.check_conquests`);
  every bomb counts in ``CountryFlags.atomic_bombs``.
"""

from __future__ import annotations

from fractions import Fraction

from engine import combat_math, stacking
from engine.actions import Action, IllegalAction, KindSpec, Refusal
from engine.air_combat import InSupply, declared_units, flying
from engine.losses import eliminate
from engine.ownership import owned
from engine.rng import Rng
from engine.state import NO_UNIT, DeclaredAttack, GameState, Unit, date_text
from engine.supply import unsupplied
from engine.war import at_war_with

ATOMIC = KindSpec(
    "atomic",
    ("hex", "unit"),
    help="drop an atomic bomb on HEX with your atomic aircraft there",
    words=("HEX", "UNIT"),
    example="atomic [Hiroshima] #1502",
)
ORDERS = (ATOMIC,)
KIND = "atomic"

#: Supplement "Atomic bomb surrender": ``c`` by country, 1 for the others.
SURRENDER_FACTOR = {"Japan": Fraction(1, 2), "China": Fraction(1, 2), "Italy": Fraction(2), "France": Fraction(2)}


def _hex(state: GameState, h: int) -> str:
    return state.world.map.grid.label(h)


def may_carry(state: GameState, u: Unit) -> bool:
    """Is ``u`` its country's atomic aircraft, on or after the country's first atomic month?"""
    info = state.world.info.get(u.country)
    if info is None or info.atomic_bomb_from is None:
        return False
    return u.is_air and u.name == info.atomic_bomb_unit and state.date >= info.atomic_bomb_from


def refusal(state: GameState, side: str, h: int, uid: int, in_supply: InSupply) -> str:
    u = owned(state, side, uid, state.units.get(uid))
    if isinstance(u, Refusal):
        return u
    label = u.label()
    if not may_carry(state, u):
        info = state.world.info.get(u.country)
        when = (
            f"{info.atomic_bomb_unit} from {date_text(info.atomic_bomb_from)}"
            if info is not None and info.atomic_bomb_from is not None
            else "no aircraft"
        )
        return Refusal("atomic.not-available", f"{label} cannot carry an atomic bomb ({u.country}: {when})")
    if not flying(u) or u.hex != h:
        return Refusal("air.not-in-hex", f"{label} is not flying in hex {_hex(state, h)}")
    if uid in declared_units(state):
        return Refusal("attack.already", f"{label} already attacks in this phase")
    owner = state.world.country_names[state.controller[h]]
    if not owner or not at_war_with(state, u.country, owner):
        return Refusal("atomic.not-enemy", f"hex {_hex(state, h)} is not held by a country at war with {u.country}")
    if any(e.kind == KIND and e.hex == h for e in state.combats):
        return Refusal("atomic.twice", f"an atomic bomb is already declared on hex {_hex(state, h)}")
    if not in_supply(u):
        return unsupplied(label)
    return ""


def check(state: GameState, side: str, action: Action, in_supply: InSupply) -> None:
    h, uid = action.args
    assert isinstance(h, int) and isinstance(uid, int)
    if not 0 <= h < state.world.map.size:
        raise IllegalAction(f"hex {h} is not on the map", rule="hex.off-map")
    why = refusal(state, side, h, uid, in_supply)
    if why:
        raise IllegalAction(why)


def apply(state: GameState, action: Action) -> None:
    h, uid = action.args
    state.combats.append(DeclaredAttack(KIND, int(h), [int(uid)]))
    state.units[int(uid)].attacked = True


def actions(state: GameState, side: str, in_supply: InSupply) -> list[Action]:
    out = []
    for u in sorted(state.units.values(), key=lambda x: x.id):
        if u.is_air and flying(u) and may_carry(state, u) and not refusal(state, side, u.hex, u.id, in_supply):
            out.append(Action("atomic", (u.hex, u.id)))
    return out


def _struck(state: GameState, u: Unit) -> bool:
    if u.carrier != NO_UNIT:
        return False  # cargo shares its carrier's fate
    return u.is_land or stacking.is_based(u) or (u.is_naval and u.in_port)


def surrender_chance(state: GameState, country: str, side: str) -> tuple[Fraction, int, int]:
    """(c, o, n) of the supplement's formula for a bomb on ``country`` dropped by ``side``."""
    c = SURRENDER_FACTOR.get(country, Fraction(1))
    home = state.world.home_cities_of.get(country, ())
    o = 2 if any(state.side_controlling(h) == side for h in home) else 1
    return c, o, state.countries[country].flags.atomic_bombs


def resolve(state: GameState, rng: Rng, entry: DeclaredAttack) -> list[str]:
    h, where = entry.hex, _hex(state, entry.hex)
    bomber = state.units.get(entry.attackers[0])
    if bomber is None or bomber.hex != h:
        return [f"atomic bomb on {where}: the aircraft is gone"]
    side = state.countries[bomber.country].side
    hexmap = state.world.map
    victims = sorted((u for u in state.units_at(h) if _struck(state, u)), key=lambda u: u.id)
    for u in victims:
        eliminate(state, u, buy_back=False)
    parts = [f"atomic bomb on {where} by {bomber.label()}"]
    parts.append("eliminated for good: " + (", ".join(u.label() for u in victims) if victims else "no units"))
    if h in hexmap.city_at or h in hexmap.resources:
        state.atomized.add(h)
        parts.append("the city/resource hex is destroyed and can never be repaired")
    for table, owners in ((state.forts, state.fort_owner), (state.airfields, state.airfield_owner)):
        if h in table:
            del table[h]
            owners.pop(h, None)
            parts.append("installation destroyed")
    country = hexmap.country_of[h]
    target = state.countries.get(country)
    if target is None or hexmap.is_colony(h) or target.conquered or not at_war_with(state, bomber.country, country):
        parts.append("no surrender roll (a colony, or a country not at war)")
        return ["; ".join(parts)]
    c, o, n = surrender_chance(state, country, side)
    draw = rng.uniform()
    chance = combat_math.probability(Fraction(2), c * o * (n + 1))
    surrenders = combat_math.surrender(draw, c, o == 2, n)
    target.flags.atomic_bombs = n + 1
    verdict = f"{country} surrenders" if surrenders else f"{country} does not surrender"
    parts.append(
        f"surrender chance {chance:.3f} (c {float(c):g}, o {o}, earlier bombs {n}), draw {float(draw):.3f}: {verdict}"
    )
    if surrenders:
        target.flags.atomic_surrender = bomber.country
    return ["; ".join(parts)]
