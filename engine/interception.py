"""Interception (rulebook: "Interception", "Naval and Air Combat", "Damaged Units";
supplement: "Naval and air combat", "Sequence and who acts").

Order of the interception phase::

    intercept #7 #31 40,12    air unit #7 flies to 40,12, a hex enemy unit #31 passed,
                              and intercepts it there

Fighters intercept air units, bombers intercept naval units (never submarines), one
interceptor against one target.  The side that did not move declares first, against
the units that moved in the first movement phase (at any hex of their path); then the
sides take turns, each against the units the other has just sent to intercept (at the
hex where they intercept), until one side declares nothing.  An interceptor flies there
as on a mission: it must keep a base within its remaining allowance, and lands with
the other air units later in the main phase.

The interception roll resolves the last declared first.  Both sides hit each other as
in air combat; a target that survives sees its mission cancelled with probability
``1 - 2^(-A/D)`` (the interceptor's strength against the target's defence): it goes
back to the hex it started the first movement phase in (an interceptor: the hex it
took off from), and its own interceptions do not take place.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import numpy as np

from engine import combat, combat_math, naval
from engine.actions import PASS, Action, IllegalAction, KindSpec, Refusal
from engine.air_combat import bomber_strength, defence, fighter_strength, flying, is_bomber, is_fighter, take_hits
from engine.hexgrid import NO_HEX
from engine.ownership import owned
from engine.phase import Phase
from engine.reach import air_search, base_within
from engine.rng import Rng
from engine.sides import other
from engine.stacking import friendly_port
from engine.state import NO_UNIT, GameState, Intercept, Unit
from engine.supply import SupplyMap, unsupplied
from engine.units import UnitType
from engine.war import at_war_with, japan_soviet_refusal

INTERCEPT = KindSpec(
    "intercept",
    ("unit", "unit", "hex"),
    help="an air unit intercepts an enemy unit at a hex it passed",
    words=("UNIT", "TARGET", "HEX"),
    example="intercept #97 #812 160,50",
)


def _hex(state: GameState, h: int) -> str:
    return state.world.map.grid.label(h)


def declared(state: GameState) -> list[Intercept]:
    return state.memo.intercepts or []


def round_now(state: GameState) -> int:
    return state.memo.intercept_round or 0


def targets(state: GameState, side: str) -> dict[int, list[int]]:
    """The enemy units ``side`` may intercept in the current round, with the hexes where.

    Round 0: the units that moved in the first movement phase, at any hex of their path;
    later rounds: the units the other side sent to intercept in the round before, at the
    hex where they intercept."""
    r = round_now(state)
    if r == 0:
        paths = {uid: hexes for uid, hexes in (state.memo.paths or {}).items()}
    else:
        paths = {}
        for i in declared(state):
            if i.round == r - 1:
                paths[i.interceptor] = [i.hex]
    out: dict[int, list[int]] = {}
    for uid in sorted(paths):
        u = state.units.get(uid)
        if u is None or u.hex == NO_HEX or state.side_of(u.country) != other(side) or not _interceptable(u):
            continue
        out[uid] = sorted(set(paths[uid]))
    return out


def _interceptable(u: Unit) -> bool:
    """Submarines cannot be intercepted; carried units fly or sail with their carrier."""
    if u.carrier != NO_UNIT or u.type == UnitType.SUBMARINE:
        return False
    return u.is_naval or (u.is_air and flying(u))


def strength(interceptor: Unit, target: Unit) -> Fraction:
    return fighter_strength(interceptor) if target.is_air else bomber_strength(interceptor)


def interceptor_refusal(
    state: GameState, side: str, u: Unit | None, uid: int, target: Unit, smap: SupplyMap | None = None
) -> str:
    """Why unit ``uid`` may not intercept ``target`` (wherever), '' if it may.  ``smap``
    may be passed in when many units are asked about."""
    found = owned(state, side, uid, u, on_map=True)
    if isinstance(found, Refusal):
        return found
    u = found
    label = u.label()
    if not state.countries[u.country].active:
        return Refusal("war.not-at-war", f"{label} belongs to a country that is not at war")
    if not u.is_air:
        return Refusal("intercept.not-air", f"{label} is not an air unit; only air units intercept")
    if target.is_air and not is_fighter(u):
        return Refusal("intercept.not-fighter", f"{label} has no fighter strength; only fighters intercept air units")
    if target.is_naval and (not is_bomber(u) or u.kamikaze):
        return Refusal(
            "intercept.not-bomber", f"{label} has no bomber strength for regular attacks; only bombers intercept ships"
        )
    if any(i.interceptor == u.id for i in declared(state)):
        return Refusal("intercept.already", f"{label} already intercepts in this phase")
    if state.world.map.weather[u.hex] in state.grounded_zones:
        return Refusal("weather.grounded", f"{label} is grounded by the weather in hex {_hex(state, u.hex)}")
    if not at_war_with(state, u.country, target.country):
        return Refusal("war.not-at-war", f"{label} is not at war with {target.country}")
    if not (smap or combat.side_supply(state, side)).in_supply(u):
        return unsupplied(label)
    return ""


def flight_refusal(state: GameState, side: str, u: Unit, h: int) -> tuple[str, int]:
    """Can ``u`` fly to ``h`` and still reach a base?  Returns (refusal, flying steps)."""
    allowance = max(0, u.move - u.mp_used)
    if h == u.hex:
        cost = 0
    else:
        search = air_search(state, u, allowance, target=h)
        if h not in search.cost:
            if why := japan_soviet_refusal(state, u, h):
                return why, 0
            return Refusal(
                "intercept.unreachable", f"{u.label()} cannot reach hex {_hex(state, h)} with {allowance} points"
            ), 0
        cost = search.cost[h]
    if not base_within(state, u, h, allowance - cost, side):
        return Refusal(
            "air.no-base-in-reach",
            f"{u.label()} may not fly to {_hex(state, h)}: no friendly base with room would be within "
            f"its {allowance - cost} remaining movement points",
        ), cost
    return "", cost


def check(state: GameState, side: str, action: Action) -> int:
    """Raise IllegalAction if the interception may not be declared; returns its flying cost."""
    uid, tid, h = (int(a) for a in action.args)
    target = state.units.get(tid)
    hexes = targets(state, side).get(tid)
    if target is None or hexes is None:
        what = "moved in the first movement phase" if round_now(state) == 0 else "was sent to intercept"
        raise IllegalAction(
            f"unit #{tid} is not an enemy unit that {what} and may be intercepted (submarines never)",
            rule="intercept.no-target",
        )
    if h not in hexes:
        raise IllegalAction(f"{target.label()} did not pass hex {_hex(state, h)}", rule="intercept.not-on-path")
    u = state.units.get(uid)
    why = interceptor_refusal(state, side, u, uid, target)
    if why:
        raise IllegalAction(why)
    assert u is not None
    why, cost = flight_refusal(state, side, u, h)
    if why:
        raise IllegalAction(why)
    return cost


def apply(state: GameState, action: Action, cost: int) -> None:
    uid, tid, h = (int(a) for a in action.args)
    u = state.units[uid]
    if u.origin == NO_HEX:
        u.origin = u.hex  # takes off: it will land with the other air units
    u.carrier = NO_UNIT
    state.place(u, h)
    u.mp_used += cost
    state.memo.intercepts = [*declared(state), Intercept(uid, tid, h, round_now(state))]


def actions(state: GameState, side: str, first_only: bool = False) -> list[Action]:
    """Every interception ``side`` may declare now (``first_only``: stop at the first)."""
    out: list[Action] = []
    found = targets(state, side)
    if not found:
        return out
    mine = sorted(
        (u for u in state.side_units(side) if u.is_air and (is_fighter(u) or is_bomber(u))), key=lambda u: u.id
    )
    smap = combat.side_supply(state, side)
    # Every target hex, and the target passing it, in the order of ``found``
    spots = np.array([h for hexes in found.values() for h in hexes], dtype=np.int64)
    whose = np.array([t for t, hexes in found.items() for _ in hexes], dtype=np.int64)
    grid = state.world.map.grid
    for u in mine:
        allowance = max(0, u.move - u.mp_used)
        # A flight costs a point a hex (air_search), so a target hex farther than the
        # allowance is out of reach whatever the search would find: the search, most of the
        # work here, is made only by a unit with a target within that distance.
        near = set(whose[grid.distances(u.hex, spots) <= allowance].tolist())
        able = [t for t in found if t in near and not interceptor_refusal(state, side, u, u.id, state.units[t], smap)]
        if not able:
            continue
        cost = dict(air_search(state, u, allowance).cost)
        cost[u.hex] = 0
        home: dict[int, bool] = {}
        for tid in able:
            for h in found[tid]:
                if h not in cost:
                    continue
                if h not in home:
                    home[h] = base_within(state, u, h, allowance - cost[h], side)
                if home[h]:
                    out.append(Action("intercept", (u.id, tid, h)))
                    if first_only:
                        return out
    return out


class Interception(Phase):
    name = "interception"
    prompt = "intercept enemy units (fighters against aircraft, bombers against ships), or pass"
    orders = (INTERCEPT,)

    def actors(self, state: GameState) -> tuple[str, ...]:
        # round 0 is the side that did not move; the sides then take turns
        return (other(self.mover) if round_now(state) % 2 == 0 else self.mover,)

    def enter(self, state: GameState) -> None:
        state.memo.intercepts = None
        state.memo.intercept_round = None

    def needed(self, state: GameState, side: str) -> bool:
        return bool(actions(state, side, first_only=True))

    def legal(self, state: GameState, side: str) -> list[Action]:
        return [PASS, *sorted(actions(state, side), key=lambda a: a.args)]

    def check(self, state: GameState, side: str, action: Action) -> Callable[[], None]:
        # The checked interception is carried out from its check's result: checking it again
        # (its targets, the interceptor's supply and flight) was half of an interception file.
        cost = check(state, side, action)
        return lambda: apply(state, action, cost)

    def apply(self, state: GameState, side: str, action: Action) -> None:
        apply(state, action, check(state, side, action))

    def next_actor(self, state: GameState, side: str) -> str:
        """The other side declares next if this side declared something this round and the
        other side has something it could intercept (supplement "Sequence and who acts")."""
        r = round_now(state)
        if not any(i.round == r for i in declared(state)):
            return ""
        state.memo.intercept_round = r + 1
        if actions(state, other(side), first_only=True):
            return other(side)
        return ""


class InterceptionRoll(Phase):
    name = "interception_roll"
    kind = "chance"

    def needed(self, state: GameState, side: str) -> bool:
        return bool(declared(state))

    def roll(self, state: GameState, rng: Rng) -> list[str]:
        lines: list[str] = []
        cancelled: set[int] = set()
        for i in reversed(declared(state)):
            lines.append(resolve(state, rng, i, cancelled))
        state.memo.intercepts = None
        state.memo.intercept_round = None
        return lines

    def leave(self, state: GameState) -> None:
        state.memo.intercepts = None
        state.memo.intercept_round = None


def resolve(state: GameState, rng: Rng, i: Intercept, cancelled: set[int]) -> str:
    """One interception: both sides' hits, then the chance that the target's mission is
    cancelled.  ``cancelled`` holds the units whose missions were cancelled so far."""
    where = _hex(state, i.hex)
    u, target = state.units.get(i.interceptor), state.units.get(i.target)
    if i.interceptor in cancelled:
        return f"interception in {where} by #{i.interceptor} does not take place: its own mission was cancelled"
    if u is None or u.hex != i.hex:
        return f"interception in {where} by #{i.interceptor} does not take place: the interceptor is gone"
    if target is None or target.hex == NO_HEX or i.target in cancelled:
        return f"interception in {where} by {u.label()} does not take place: the target is gone or turned back"
    attack = strength(u, target)
    back = fighter_strength(target) if target.is_air and is_fighter(target) else Fraction(0)
    parts = [
        f"interception in {where}: {u.label()} against {target.label()}: attack {_num(attack)}, "
        f"strength back {_num(back)}",
        *take_hits(state, rng, [target], attack),
    ]
    if back > 0:
        parts += take_hits(state, rng, [u], back)
    else:
        parts.append("no risk to the interceptor: the target cannot hit back")
    if i.target not in state.units:
        return "; ".join(parts)
    d = defence(target) if target.is_air else naval.defence(target)
    draw = rng.uniform()
    chance = combat_math.probability(Fraction(2), attack / d)
    if combat_math.draw_below(draw, 2, attack / d):
        back_to = target.origin
        if back_to != NO_HEX:
            state.place(target, back_to)
            if target.is_naval:
                target.in_port = friendly_port(state, back_to, state.side_of(target.country))
        cancelled.add(target.id)
        parts.append(
            f"mission draw {float(draw):.3f} below {chance:.2f}: mission cancelled, "
            f"{target.label()} goes back to {_hex(state, back_to) if back_to != NO_HEX else 'where it was'}"
        )
    else:
        parts.append(f"mission draw {float(draw):.3f}, needed below {chance:.2f}: the mission goes on")
    return "; ".join(parts)


def _num(x: Fraction) -> str:
    if x.denominator == 1:
        return str(x.numerator)
    return f"{float(x):.2f}".rstrip("0").rstrip(".")
