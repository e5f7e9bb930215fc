"""Land combat and overrun (rulebook: "Land Combat", "Overrun", "Supply Units in Combat";
supplement: "Combat mathematics", "Retreat").

Orders of the moving side, and the defender's standing order ``stand`` (accepted by the
engine in any decision of its side, see :mod:`engine.api`):

* ``overrun HEX UNIT [UNIT ...]`` (overrun phase): armor attacks the enemy stack in HEX;
* ``attack HEX UNIT [UNIT ...]`` (combat phase): land units attack the enemy stack in HEX;
* ``support HEX UNIT``: a bomber or warship in HEX joins the last attack declared on HEX;
* ``advance HEX UNIT [UNIT]`` (advance step): attackers move into a hex their attack emptied;
* ``stand HEX yes|no``: the standing order of a side's own stack in HEX - ``yes`` means
  it will not retreat (its losses are doubled instead), ``no`` (the default) that it
  retreats (docs/rules-decisions.md);
* ``retreat [HEX ...]``: the standing order of where a side's stacks retreat when several
  hexes are legal (supplement "Retreat": the defender picks): toward the first HEX, among
  hexes as near to it toward the next; no HEX: the engine picks again.

Attacks are declared first and resolved together by the following chance step, in
the order they were declared (``GameState.combats``).  Each resolution returns a
:class:`~engine.events.CombatReport`: the strengths and their modifiers, the odds, both
draws, each unit's losses, the retreats and the right to advance; its line is what the
players read.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from typing import TYPE_CHECKING, ClassVar

from engine import air_war, assaults, combat_math, weather
from engine.actions import PASS, Action, IllegalAction, KindSpec, Refusal, prefixed
from engine.control import pass_to_side, resolve_pockets, take_control
from engine.events import CombatReport, Event, Hit
from engine.events import number_text as _num
from engine.hexmap import Terrain
from engine.losses import eliminate, lose_points
from engine.ownership import no_unit, owned
from engine.phase import Phase
from engine.sides import other
from engine.stacking import LAND_LIMIT_TEXT, can_stack_land
from engine.state import NO_UNIT, AdvanceRight, DeclaredAttack, GameState, Unit
from engine.supply import HexSupply, SupplyMap, UnitSupply, supply_of_side, unsupplied
from engine.terrain import TERRAIN, barred_terrain
from engine.units import NON_COMBAT_SHIPS, UnitType
from engine.war import at_war_with, japan_soviet_refusal, may_enter_country
from engine.zoc import in_enemy_land_zoc

if TYPE_CHECKING:
    from engine.rng import Rng

OVERRUN = KindSpec(
    "overrun",
    ("hex", "unit"),
    variadic=True,
    help="overrun the enemy stack in HEX with armor",
    words=("HEX", "UNIT"),
    example="overrun 166,52 #31 #32",
)
ATTACK = KindSpec(
    "attack",
    ("hex", "unit"),
    variadic=True,
    help="attack the enemy stack in HEX with land units",
    words=("HEX", "UNIT"),
    example="attack [Warsaw] #14 #15 #16",
)
SUPPORT = KindSpec(
    "support",
    ("hex", "unit"),
    help="add a bomber or warship in HEX to your attack on HEX",
    words=("HEX", "UNIT"),
    example="support [Warsaw] #88",
)
ADVANCE = KindSpec(
    "advance",
    ("hex", "unit"),
    variadic=True,
    help="move up to two attackers into HEX, emptied by their attack",
    words=("HEX", "UNIT"),
    example="advance [Warsaw] #14 #15",
)
STAND = KindSpec(
    "stand",
    ("hex", "bool"),
    help="a standing order: your stack in HEX holds when attacked (its losses doubled) or retreats",
    words=("HEX", "YES/NO"),
    example="stand [Warsaw] yes",
)
RETREAT = KindSpec(
    "retreat",
    ("hex",),
    variadic=True,
    help="a standing order: where several retreat hexes are legal, your stacks retreat toward HEX "
    "(then toward the next HEX among equally near ones); no HEX: the engine picks again",
    words=("HEX",),
    example="retreat [Warsaw]",
)
#: The most hexes one ``retreat`` order names (a tie-break needs few).
MAX_TOWARD = 8

MAX_ADVANCE = 2
#: Above this many possible attackers of one hex, legal() lists single attackers and all of them.
MAX_LISTED_SUBSETS = 5

# --- small helpers -----------------------------------------------------------------


def _hex(state: GameState, h: int) -> str:
    return state.world.map.grid.label(h)


def land_defenders(state: GameState, h: int, side: str) -> list[Unit]:
    """Land units of ``side``'s enemies in hex ``h`` (not embarked), by id."""
    enemy = other(side)
    return sorted(
        (u for u in state.units_at(h) if u.is_land and u.carrier == NO_UNIT and state.side_of(u.country) == enemy),
        key=lambda u: u.id,
    )


def _land_units_of(state: GameState, h: int, side: str) -> list[Unit]:
    return [u for u in state.units_at(h) if u.is_land and u.carrier == NO_UNIT and state.side_of(u.country) == side]


def _crossing(state: GameState, a: int, b: int, armor: bool) -> bool:
    """May a land unit in ``a`` attack or retreat into the adjacent hex ``b``?  Not across an
    all-sea hexside, except frozen icecap hexsides in severe winter for units other than armor."""
    hexmap = state.world.map
    if b in hexmap.land_neighbours[a]:
        return True
    return (
        not armor
        and b in hexmap.frozen_neighbours[a]
        and weather.icecap_frozen(state, a)
        and weather.icecap_frozen(state, b)
    )


def side_supply(state: GameState, side: str) -> SupplyMap:
    """``side``'s supply map during a combat step (shared with the naval combat; kept in
    :mod:`engine.supply`, which the placement areas share)."""
    return supply_of_side(state, side)


# --- standing orders: stand HEX yes|no ------------------------------------------------


def check_stand(state: GameState, side: str, action: Action) -> None:
    """Check a ``stand`` order of ``side`` (callable from any phase)."""
    h, hold = action.args
    assert isinstance(h, int) and isinstance(hold, bool)
    if not 0 <= h < state.world.map.size:
        raise IllegalAction(f"hex {h} is not on the map", rule="hex.off-map")
    if not _land_units_of(state, h, side):
        raise IllegalAction(
            f"you have no land units in hex {_hex(state, h)} to give a standing order to", rule="stand.no-units"
        )
    current = state.stands.get(h) == side
    if current and hold:
        raise IllegalAction(f"your stack in hex {_hex(state, h)} already will not retreat", rule="stand.unchanged")
    if not current and not hold:
        raise IllegalAction(
            f"your stack in hex {_hex(state, h)} already retreats when attacked", rule="stand.unchanged"
        )


def apply_stand(state: GameState, side: str, action: Action) -> None:
    h, hold = action.args
    assert isinstance(h, int)
    if hold:
        state.stands[h] = side
    else:
        state.stands.pop(h, None)


def check_retreat(state: GameState, side: str, action: Action) -> None:
    """Check a ``retreat`` order of ``side`` (callable from any phase)."""
    if len(action.args) > MAX_TOWARD:
        raise IllegalAction(f"a retreat order names at most {MAX_TOWARD} hexes", rule="retreat.too-many")
    hexes = tuple(int(h) for h in action.args)  # the shape check let only hexes (ints) through
    for h in hexes:
        if not 0 <= h < state.world.map.size:
            raise IllegalAction(f"hex {h} is not on the map", rule="hex.off-map")
    if len(set(hexes)) != len(hexes):
        raise IllegalAction("a retreat order names each hex once", rule="retreat.repeated")
    if state.toward.get(side, ()) == hexes:
        where = ", ".join(_hex(state, h) for h in hexes) if hexes else "where the engine picks"
        raise IllegalAction(f"your stacks already retreat toward {where}", rule="retreat.unchanged")


def apply_retreat(state: GameState, side: str, action: Action) -> None:
    hexes = tuple(int(h) for h in action.args)
    if hexes:
        state.toward[side] = hexes
    else:
        state.toward.pop(side, None)


def check_standing(state: GameState, side: str, action: Action) -> None:
    """Check a standing order (``stand`` or ``retreat``) of ``side``, from any phase."""
    (check_retreat if action.kind == RETREAT.name else check_stand)(state, side, action)


def apply_standing(state: GameState, side: str, action: Action) -> None:
    (apply_retreat if action.kind == RETREAT.name else apply_stand)(state, side, action)


def stand_actions(state: GameState, side: str) -> list[Action]:
    """The ``stand`` orders ``side`` may give now (each changes a standing order)."""
    out = []
    for h in sorted(state.occupied_hexes()):
        if _land_units_of(state, h, side):
            out.append(Action("stand", (h, state.stands.get(h) != side)))
    return out


def prune_stands(state: GameState) -> None:
    """Drop standing orders of stacks that are gone (their side has no land units there)."""
    for h in sorted(state.stands):
        if not _land_units_of(state, h, state.stands[h]):
            del state.stands[h]


# --- declaring attacks ------------------------------------------------------------------


def declared_units(state: GameState) -> set[int]:
    """Units already attacking or supporting in the current step."""
    out: set[int] = set()
    for entry in state.combats:
        out.update(entry.attackers)
        out.update(entry.supports)
    return out


def attacker_refusal(
    state: GameState,
    side: str,
    u: Unit | None,
    uid: int,
    h: int,
    overrun: bool,
    smap: SupplyMap | None = None,
    declared: set[int] | None = None,
) -> str:
    """Why unit ``uid`` may not attack hex ``h`` now ('' if it may).  ``smap`` and
    ``declared`` may be passed in when many units are asked about."""
    where = _hex(state, h)
    found = owned(state, side, uid, u)
    if isinstance(found, Refusal):
        return found
    u = found
    label = u.label()
    if not u.is_land:
        return Refusal("attack.not-land", f"{label} is not a land unit; ships and bombers can only support an attack")
    if u.type == UnitType.SUPPLY:
        return Refusal("attack.supply-unit", f"{label} is a supply unit, and supply units cannot attack")
    if overrun and u.type != UnitType.ARMOR:
        return Refusal("overrun.not-armor", f"{label} is not armor; only armor can overrun")
    if not u.on_map or u.carrier != NO_UNIT:
        return Refusal("unit.not-on-map", f"{label} is not on the map (or is embarked) and cannot attack")
    if u.id in (declared_units(state) if declared is None else declared):
        return Refusal("attack.already", f"{label} already attacks in this phase")
    landed = assaults.attack_refusal(state, u, h)
    if landed:
        return landed
    if landed is None and not _crossing(state, u.hex, h, u.type == UnitType.ARMOR):
        return Refusal(
            "attack.not-adjacent", f"{label} in hex {_hex(state, u.hex)} is not adjacent to hex {where} across land"
        )
    if why := japan_soviet_refusal(state, u, h, "attack into"):
        return prefixed(f"{label} ", why)
    if not may_enter_country(state, u, h):
        return Refusal("attack.across-sea", f"{label} may not attack into hex {where}")
    for d in land_defenders(state, h, side):
        if not at_war_with(state, u.country, d.country):
            return Refusal("war.not-at-war", f"{label} is not at war with {d.country}, whose units are in hex {where}")
    if overrun and (weather.mud(state, u.hex) or weather.mud(state, h)):
        return Refusal(
            "overrun.weather",
            f"{label} may not overrun: spring or monsoon weather in hex {_hex(state, u.hex)} or {where}",
        )
    # Units landed by an assault attack with the supply they brought (docs/rules-decisions.md).
    if landed is None and not (smap or side_supply(state, side)).in_supply(u):
        return unsupplied(label)
    return ""


def check_attack(state: GameState, side: str, action: Action, overrun: bool) -> None:
    h = action.args[0]
    assert isinstance(h, int)
    ids = action.args[1:]
    if not 0 <= h < state.world.map.size:
        raise IllegalAction(f"hex {h} is not on the map", rule="hex.off-map")
    where = _hex(state, h)
    verb = "overrun" if overrun else "attack"
    if not ids:
        raise IllegalAction(f"name the units that {verb} hex {where}", rule="attack.no-units")
    if len(set(ids)) != len(ids):
        raise IllegalAction(f"a unit is named twice in the {verb} on hex {where}", rule="attack.named-twice")
    if not land_defenders(state, h, side):
        raise IllegalAction(f"there are no enemy land units in hex {where} to {verb}", rule="attack.no-enemy")
    smap, declared = side_supply(state, side), declared_units(state)
    for uid in ids:
        assert isinstance(uid, int)
        why = attacker_refusal(state, side, state.units.get(uid), uid, h, overrun, smap, declared)
        if why:
            raise IllegalAction(why)


def apply_attack(state: GameState, action: Action, overrun: bool) -> None:
    h, *ids = action.args
    state.combats.append(DeclaredAttack("overrun" if overrun else "attack", int(h), sorted(int(i) for i in ids)))
    for uid in ids:
        state.units[int(uid)].attacked = True


def _support_target(state: GameState, h: int) -> DeclaredAttack | None:
    """The last attack declared on ``h`` in this step."""
    for entry in reversed(state.combats):
        if entry.hex == h:
            return entry
    return None


def support_refusal(state: GameState, side: str, uid: int, h: int) -> str:
    where = _hex(state, h)
    if _support_target(state, h) is None:
        return Refusal("support.no-attack", f"declare an attack on hex {where} before supporting it")
    return supporter_refusal(state, side, uid, h)


def supporter_refusal(
    state: GameState, side: str, uid: int, h: int, smap: SupplyMap | None = None, declared: set[int] | None = None
) -> str:
    """Why unit ``uid`` may not support an attack on hex ``h`` now ('' if it may), whatever
    attack it would join.  ``smap`` and ``declared`` as for :func:`attacker_refusal`."""
    where = _hex(state, h)
    found = owned(state, side, uid, state.units.get(uid))
    if isinstance(found, Refusal):
        return found
    u = found
    label = u.label()
    if u.hex != h or u.carrier != NO_UNIT:
        return Refusal(
            "support.not-in-hex", f"{label} is not in hex {where}; supporting units must be in the defender's hex"
        )
    if u.id in (declared_units(state) if declared is None else declared):
        return Refusal("attack.already", f"{label} already takes part in an attack in this phase")
    if u.is_air:
        if u.bomber <= 0:
            return Refusal("support.no-bomber", f"{label} has no bomber strength to support a land attack")
        if u.kamikaze:
            return Refusal(
                "support.kamikaze-only", f"{label} can only make kamikaze attacks and cannot support land combat"
            )
    elif u.is_naval:
        if u.type == UnitType.SUBMARINE:
            return Refusal("support.submarine", f"{label} is a submarine, and submarines cannot support land combat")
        if u.type in NON_COMBAT_SHIPS or u.attack <= 0:
            return Refusal("support.no-surface-attack", f"{label} has no surface attack to support a land attack")
        if u.in_port:
            return Refusal("support.in-port", f"{label} is inside a port and cannot attack")
    else:
        return Refusal("support.land-unit", f"{label} is a land unit; land units attack, they do not support")
    if not (smap or side_supply(state, side)).in_supply(u):
        return unsupplied(label)
    return ""


def attack_candidates(state: GameState, side: str, overrun: bool) -> dict[int, list[int]]:
    """Enemy hexes ``side`` may attack now, with the units that may attack each."""
    targets: dict[int, list[int]] = {}
    for h, uid in _attack_pairs(state, side, overrun):
        targets.setdefault(h, []).append(uid)
    return {h: sorted(set(v)) for h, v in targets.items()}


def may_attack(state: GameState, side: str, overrun: bool) -> bool:
    """Has ``side`` any attack to declare now?  (The step asks it each time it begins: it
    stops at the first attack found instead of listing them all.)"""
    return next(_attack_pairs(state, side, overrun), None) is not None


def _attack_pairs(state: GameState, side: str, overrun: bool) -> Iterator[tuple[int, int]]:
    """(enemy hex, unit of ``side`` that may attack it), hexes in the order of the units'
    hexes and their neighbours, then the landed assaults'."""
    hexmap = state.world.map
    smap: SupplyMap | None = None
    declared = declared_units(state)
    for h, ids in sorted(state.occupied_hexes().items()):
        mine = [state.units[i] for i in ids]
        mine = [u for u in mine if u.is_land and u.carrier == NO_UNIT and state.side_of(u.country) == side]
        if not mine:
            continue
        near = set(hexmap.land_neighbours[h]) | set(hexmap.frozen_neighbours[h])
        for o in sorted(near):
            if not land_defenders(state, o, side):
                continue
            if smap is None:
                smap = side_supply(state, side)
            for u in mine:
                if not attacker_refusal(state, side, u, u.id, o, overrun, smap, declared):
                    yield o, u.id
    if not overrun:
        for h, ids in assaults.landed_targets(state, side).items():
            if smap is None:
                smap = side_supply(state, side)
            for uid in ids:
                if not attacker_refusal(state, side, state.units[uid], uid, h, overrun, smap, declared):
                    yield h, uid


def attack_actions(state: GameState, side: str, overrun: bool) -> list[Action]:
    verb = "overrun" if overrun else "attack"
    out: list[Action] = []
    for h, ids in attack_candidates(state, side, overrun).items():
        if len(ids) <= MAX_LISTED_SUBSETS:
            groups = [c for n in range(1, len(ids) + 1) for c in combinations(ids, n)]
        else:
            groups = [(i,) for i in ids] + [tuple(ids)]
        out.extend(Action(verb, (h, *g)) for g in groups)
    return out


def support_actions(state: GameState, side: str) -> list[Action]:
    out = []
    for h in sorted({e.hex for e in state.combats}):
        for u in sorted(state.units_at(h), key=lambda x: x.id):
            if not u.is_land and not support_refusal(state, side, u.id, h):
                out.append(Action("support", (h, u.id)))
    return out


def _sorted(actions: Iterable[Action]) -> list[Action]:
    return sorted(actions, key=lambda a: (a.kind, a.args))


# --- resolving one combat ---------------------------------------------------------------


def _terrain_factor(state: GameState, h: int) -> tuple[Fraction, list[str]]:
    """Defence factor of the hex for its terrain, fortification and weather ("Land defence strength")."""
    terrain = TERRAIN[Terrain(state.world.map.terrain[h])]  # a coastal hex records its land part's terrain
    factor, notes = Fraction(1), []
    if terrain.defence != 1:
        factor *= terrain.defence
        notes.append(f"{terrain.name} x{float(terrain.defence):g}")
    if state.forts.get(h) == 0:
        factor *= 2
        notes.append("fortification x2")
    cond = weather.condition(state, h)
    if cond in weather.MUD:
        factor *= 2
        notes.append(f"{cond} x2")
    return factor, notes


def attack_strength(state: GameState, attackers: list[Unit], supports: list[Unit]) -> tuple[Fraction, list[str]]:
    total, notes = Fraction(0), []
    for u in attackers:
        bonus = weather.winter_bonus(state, u.country, u.hex)[0]
        total += u.strength * bonus
        if bonus != 1:
            notes.append(f"#{u.id} winter x{bonus}")
    for u in supports:
        if u.is_air:
            value = Fraction(u.bomber, 2) if u.damaged else Fraction(u.bomber)
        else:
            value = Fraction(u.attack, 10) if u.damaged else Fraction(u.attack, 5)
        total += value
        notes.append(f"#{u.id} +{_num(value)}")
    return total, notes


def defence_strength(state: GameState, h: int, defenders: list[Unit], smap: UnitSupply) -> tuple[Fraction, list[str]]:
    """Modified defence of the stack (supply units add nothing)."""
    factor, notes = _terrain_factor(state, h)
    total = Fraction(0)
    for u in defenders:
        if u.type == UnitType.SUPPLY:
            continue
        value = Fraction(u.strength) * weather.winter_bonus(state, u.country, h)[1]
        if value != u.strength:
            notes.append(f"#{u.id} winter x2")
        if not smap.in_supply(u):
            value /= 2
            notes.append(f"#{u.id} out of supply /2")
        total += value
    return total * factor, notes


@dataclass(frozen=True, slots=True)
class Odds:
    """An attack's strengths, their modifiers and their ratio, as the combat uses them."""

    attack: Fraction
    attack_mods: tuple[str, ...]
    defence: Fraction
    defence_mods: tuple[str, ...]

    @property
    def ratio(self) -> Fraction:
        return self.attack / self.defence


def odds(state: GameState, h: int, side: str, attackers: list[Unit], supports: list[Unit]) -> Odds:
    """The odds of ``side``'s attack on hex ``h`` by ``attackers`` with ``supports``: what
    :func:`resolve` rolls against, and what a player is shown before attacking
    (:mod:`engine.inspect`), so the two never differ.  The defenders must hold strength
    (a stack of supply units alone is eliminated without odds)."""
    enemy = other(side)
    defenders = land_defenders(state, h, side)
    # Units by id, whatever order they were named or found in: the modifiers read the same.
    attackers, supports = sorted(attackers, key=lambda u: u.id), sorted(supports, key=lambda u: u.id)
    attack, a_notes = attack_strength(state, attackers, supports)
    # The rulebook gives supporting aircraft and ships their strength and nothing else: standing
    # in the defender's hex, they do not cut its supply line (docs/rules-decisions.md).
    # A search out from the defenders' hex answers as the whole supply map would, and stops
    # at the first source: a roll of many combats need not build the map.
    d_supply = HexSupply(state, enemy, h, ignoring=frozenset(u.id for u in supports))
    defence, d_notes = defence_strength(state, h, defenders, d_supply)
    return Odds(attack, tuple(a_notes), defence, tuple(d_notes))


def loss_split(units: list[Unit], points: int) -> dict[int, int]:
    """Points each unit loses when ``points`` are taken one at a time, always from the
    strongest unit (lowest id on ties); supply units have none to lose."""
    left = {u.id: u.strength for u in units if u.type != UnitType.SUPPLY}
    hit: dict[int, int] = {}
    for _ in range(points):
        alive = [i for i, s in left.items() if s > 0]
        if not alive:
            break
        i = max(alive, key=lambda x: (left[x], -x))
        left[i] -= 1
        hit[i] = hit.get(i, 0) + 1
    return hit


def take_losses(state: GameState, units: list[Unit], points: int) -> list[Hit]:
    """Take ``points`` strength points one at a time, always from the strongest unit (lowest
    id on ties); units reduced to nothing are eliminated.  Returns what each unit lost."""
    hit = loss_split(units, points)
    out = []
    for u in units:
        if u.id in hit:
            lose_points(state, u, hit[u.id])
            out.append(Hit(u.id, hit[u.id], u.id not in state.units))
    return out


def _retreat_ok(state: GameState, side: str, u: Unit, frm: int, to: int) -> bool:
    if not _crossing(state, frm, to, u.type == UnitType.ARMOR):
        return False
    if barred_terrain(state.world.map, u.type, to):
        return False
    if not may_enter_country(state, u, to):
        return False
    return not any(
        state.side_of(x.country) not in (side, "neutral") and x.carrier == NO_UNIT for x in state.units_at(to)
    )


def retreat_plan(
    state: GameState, side: str, h: int, units: list[Unit], attackers: list[Unit]
) -> dict[int, int] | None:
    """Where each of ``units`` retreats from ``h``, or None if they cannot all retreat.

    A retreat goes one hex, into a hex free of enemy units and of enemy control zones
    unless friendly land units are there, within stacking, never into neutral hexes.
    The defender's ``retreat`` order ranks the hexes first: nearest its first hex, then
    its next.  Among hexes it ranks alike (all of them without the order) the engine
    picks: hexes with friendly land units first, then cities, then hexes farther from the
    attackers, then the lowest hex number.  The whole stack goes to the first hex that
    takes it; otherwise unit by unit, strongest first, in that order of hexes
    (docs/rules-decisions.md)."""
    hexmap = state.world.map
    grid = hexmap.grid
    near = sorted(set(hexmap.land_neighbours[h]) | set(hexmap.frozen_neighbours[h]))
    toward = state.toward.get(side, ())
    options = []
    for o in near:
        friends = bool(_land_units_of(state, o, side))
        if not friends and in_enemy_land_zoc(state, side, o):
            continue
        distance = min((grid.distance(o, a.hex) for a in attackers if a.on_map), default=0)
        chosen = tuple(grid.distance(o, t) for t in toward)
        options.append(((chosen, not friends, o not in hexmap.city_at, -distance, o), o))
    dests = [o for _, o in sorted(options)]
    for o in dests:
        if all(_retreat_ok(state, side, u, h, o) for u in units) and can_stack_land(state, o, units):
            return {u.id: o for u in units}
    plan: dict[int, int] = {}
    order = sorted(units, key=lambda u: (u.type == UnitType.SUPPLY, -u.strength, u.id))
    for u in order:
        for o in dests:
            going = [x for x in units if plan.get(x.id) == o] + [u]
            if _retreat_ok(state, side, u, h, o) and can_stack_land(state, o, going):
                plan[u.id] = o
                break
        else:
            return None
    return plan


def resolve(state: GameState, rng: Rng, entry: DeclaredAttack) -> CombatReport:
    """Resolve one declared attack or overrun; returns everything it did."""
    what, h, ids, support_ids = entry.kind, entry.hex, entry.attackers, entry.supports
    overrun = what == "overrun"
    attackers = [state.units[i] for i in ids if i in state.units and state.units[i].on_map]
    side = state.side_of(state.units[ids[0]].country) if ids and ids[0] in state.units else ""
    if not attackers:
        return CombatReport(what, h, side, "no attackers")
    side = state.side_of(attackers[0].country)
    defenders = land_defenders(state, h, side)
    if not defenders:
        return CombatReport(what, h, side, "no defenders")
    labels = tuple(u.label() for u in attackers), tuple(u.label() for u in defenders)
    if all(u.type == UnitType.SUPPLY for u in defenders):
        # "Supply Units in Combat": a stack of supply units alone is always eliminated.
        for u in defenders:
            eliminate(state, u)
        hits = tuple(Hit(u.id, 0, True) for u in defenders)
        taken, advance = _after_combat(state, h, side, attackers, overrun, lost=0)
        return CombatReport(what, h, side, "supply only", *labels, defender_hits=hits, hex_taken=taken, advance=advance)
    supports = [state.units[i] for i in support_ids if i in state.units]
    o = odds(state, h, side, attackers, supports)
    ratio = o.ratio
    total = sum(u.strength for u in defenders if u.type != UnitType.SUPPLY)
    u1, loss, u2, a_loss = combat_math.roll_land_combat(rng, ratio, total)
    # the attacker's losses first: an eliminated attacker exerts no control zone on the retreat
    a_hits: list[Hit] = []
    if a_loss is None:
        for u in attackers:
            a_hits.append(Hit(u.id, u.strength, True))
            eliminate(state, u)
    elif a_loss:
        a_hits = take_losses(state, attackers, a_loss)
    attackers = [u for u in attackers if u.id in state.units]
    before = total
    points, doubled, d_hits, retreats = (
        _defender_losses(state, h, side, defenders, attackers, loss) if loss else (0, "", [], [])
    )
    survivors = [u for u in defenders if u.id in state.units]
    lost = before - sum(u.strength for u in survivors if u.type != UnitType.SUPPLY)
    taken, advance = _after_combat(state, h, side, attackers, overrun, lost)
    return CombatReport(
        what,
        h,
        side,
        "resolved",
        *labels,
        supports=tuple(u.label() for u in supports),
        attack=o.attack,
        attack_mods=o.attack_mods,
        defence=o.defence,
        defence_mods=o.defence_mods,
        odds=ratio,
        defender_draw=u1,
        attacker_draw=u2,
        defender_loss=loss,
        defender_points=points,
        doubled=doubled,
        defender_hits=tuple(d_hits),
        attacker_loss=a_loss,
        attacker_hits=tuple(a_hits),
        retreats=tuple(retreats),
        hex_taken=taken,
        advance=advance,
    )


def _defender_losses(
    state: GameState, h: int, side: str, defenders: list[Unit], attackers: list[Unit], loss: int
) -> tuple[int, str, list[Hit], list[tuple[int, int]]]:
    """Apply ``loss`` (doubled if the stack will not or cannot retreat) and the retreat:
    the points taken, why they were doubled, each unit's loss and where each unit retreated."""
    enemy = other(side)
    total = sum(u.strength for u in defenders if u.type != UnitType.SUPPLY)
    willing = state.stands.get(h) != enemy
    if willing and loss < total:
        # who would survive single losses, and can they all retreat?
        hit = loss_split(defenders, loss)
        left = [u for u in defenders if u.type == UnitType.SUPPLY or hit.get(u.id, 0) < u.strength]
        plan = retreat_plan(state, enemy, h, left, attackers)
        if plan is not None:
            hits = take_losses(state, defenders, loss)
            moves = []
            for u in defenders:
                if u.id in state.units and u.id in plan:
                    state.place(u, plan[u.id])
                    pass_to_side(state, plan[u.id], u.country)
                    moves.append((u.id, plan[u.id]))
            state.stands.pop(h, None)
            return loss, "", hits, moves
        reason = "cannot retreat"
    elif willing:
        reason = ""
    else:
        reason = "will not retreat"
    points = loss * 2 if reason else loss
    hits = take_losses(state, defenders, points)
    if not any(u.id in state.units and u.type != UnitType.SUPPLY for u in defenders):
        # "Supply Units in Combat": supply units fall with the rest of their stack.
        for u in defenders:
            if u.id in state.units:
                eliminate(state, u)
                hits.append(Hit(u.id, 0, True))
        state.stands.pop(h, None)
    return points, reason, hits, []


def _after_combat(
    state: GameState, h: int, side: str, attackers: list[Unit], overrun: bool, lost: int
) -> tuple[bool, tuple[int, ...]]:
    """Hex control, pockets, overrun success and the advance that may follow; returns
    whether the hex passed to the attacker and which attackers may advance into it."""
    alive = [u for u in attackers if u.id in state.units]
    if overrun and lost > 0:
        for u in alive:
            u.overran = True
    if land_defenders(state, h, side) or not alive:
        return False, ()
    take_control(state, h, alive[0].country)
    resolve_pockets(state)
    # units that landed in the hex by an assault are there already
    alive = [u for u in alive if u.hex != h]
    if overrun or not alive:
        return True, ()
    if state.memo.advances is None:
        state.memo.advances = []
    for right in state.memo.advances:
        if right.hex == h:
            right.eligible = sorted(set(right.eligible) | {u.id for u in alive})
            break
    else:
        state.memo.advances.append(AdvanceRight(h, sorted(u.id for u in alive)))
    return True, tuple(sorted(u.id for u in alive))


# --- the phases -------------------------------------------------------------------------------


class _Declare(Phase):
    """Shared by the overrun and combat phases: declare attacks, give standing orders."""

    overrun = False

    def needed(self, state: GameState, side: str) -> bool:
        return may_attack(state, side, self.overrun)

    def legal(self, state: GameState, side: str) -> list[Action]:
        actions = attack_actions(state, side, self.overrun)
        if not self.overrun:
            actions += support_actions(state, side)
        return [PASS, *_sorted(actions)]

    def check(self, state: GameState, side: str, action: Action) -> None:
        verb = "overrun" if self.overrun else "attack"
        if action.kind == verb:
            check_attack(state, side, action, self.overrun)
        elif action.kind == "support" and not self.overrun:
            h, uid = action.args
            assert isinstance(h, int) and isinstance(uid, int)
            on_map = 0 <= h < state.world.map.size
            why = support_refusal(state, side, uid, h) if on_map else f"hex {h} is not on the map"
            if why:
                raise IllegalAction(why)
        else:
            super().check(state, side, action)

    def apply(self, state: GameState, side: str, action: Action) -> None:
        if action.kind == "support":
            h, uid = action.args
            target = _support_target(state, int(h))
            assert target is not None
            target.supports.append(int(uid))
        else:
            apply_attack(state, action, self.overrun)


class _Roll(Phase):
    kind = "chance"

    def needed(self, state: GameState, side: str) -> bool:
        return bool(state.combats)

    def roll(self, state: GameState, rng: Rng) -> list[str]:
        return [e.text(state.world.map) for e in self.roll_events(state, rng)]

    def roll_events(self, state: GameState, rng: Rng) -> list[Event]:
        # In declaration order, whatever the kind: each draws from the one Rng in turn.
        events = [e for entry in list(state.combats) for e in self.resolve_events(state, rng, entry)]
        state.combats = []
        prune_stands(state)
        return events

    def resolve_events(self, state: GameState, rng: Rng, entry: DeclaredAttack) -> list[Event]:
        """One declared combat resolved: a land attack's full report, or an air rule's lines."""
        rule = air_war.rule_for_entry(entry)
        if rule is not None:
            return [Event("chance", what=line) for line in rule.resolve(state, rng, entry)]
        r = resolve(state, rng, entry)
        return [Event("combat", r.side, units=(), hexes=(r.hex,), combat=r)]

    def leave(self, state: GameState) -> None:
        state.combats = []


class Overrun(_Declare):
    name = "overrun"
    prompt = "declare overrun attacks with armor, or pass"
    orders = (OVERRUN,)
    overrun = True


class OverrunRoll(_Roll):
    name = "overrun_roll"


class Combat(_Declare):
    """Land attacks, and the air orders of :mod:`engine.air_war` (air combat, bombing)."""

    name = "combat"
    prompt = "declare attacks, or pass"
    orders: ClassVar[tuple[KindSpec, ...]] = (ATTACK, SUPPORT, *air_war.ORDERS)

    def _in_supply(self, state: GameState, side: str) -> Callable[[Unit], bool]:
        return lambda u: side_supply(state, side).in_supply(u)

    def needed(self, state: GameState, side: str) -> bool:
        return super().needed(state, side) or bool(air_war.actions(state, side, self._in_supply(state, side)))

    def legal(self, state: GameState, side: str) -> list[Action]:
        air = air_war.actions(state, side, self._in_supply(state, side))
        return [PASS, *_sorted([*super().legal(state, side)[1:], *air])]

    def check(self, state: GameState, side: str, action: Action) -> None:
        rule = air_war.rule_for_order(action.kind)
        if rule is None:
            super().check(state, side, action)
        else:
            rule.check(state, side, action, self._in_supply(state, side))

    def apply(self, state: GameState, side: str, action: Action) -> None:
        rule = air_war.rule_for_order(action.kind)
        if rule is None:
            super().apply(state, side, action)
        else:
            rule.apply(state, action)


class CombatRoll(_Roll):
    name = "combat_roll"

    def leave(self, state: GameState) -> None:
        super().leave(state)
        assaults.settle(state)  # the combat phase is over: landed assaults hold or fail


def advance_refusal(state: GameState, side: str, action: Action) -> str:
    h = action.args[0]
    assert isinstance(h, int)
    ids = [int(x) for x in action.args[1:]]
    rights = [r for r in state.memo.advances or () if r.hex == h]
    where = _hex(state, h) if 0 <= h < state.world.map.size else str(h)
    if not rights:
        return Refusal("advance.no-right", f"no attack of yours emptied hex {where} in this phase")
    eligible, done = rights[0].eligible, rights[0].taken
    if not ids:
        return Refusal("advance.no-units", f"name the units that advance into hex {where}")
    if len(set(ids)) != len(ids):
        return Refusal("advance.named-twice", f"a unit is named twice in the advance into hex {where}")
    if done + len(ids) > MAX_ADVANCE:
        return Refusal("advance.too-many", f"at most {MAX_ADVANCE} units may advance into hex {where}")
    if land_defenders(state, h, side):
        return Refusal("advance.enemy", f"hex {where} holds enemy land units")
    units = []
    for uid in ids:
        u = state.units.get(uid)
        if u is None:
            return no_unit(uid)
        if uid not in eligible:
            return Refusal("advance.not-eligible", f"{u.label()} did not attack hex {where} or has already advanced")
        if barred := barred_terrain(state.world.map, u.type, h):
            return Refusal("terrain.armor", f"{u.label()} may not enter {barred} hex {where}")
        if why := japan_soviet_refusal(state, u, h, "advance into"):
            return prefixed(f"{u.label()} ", why)
        if not may_enter_country(state, u, h):
            return Refusal("war.neutral-territory", f"{u.label()} may not enter hex {where}")
        units.append(u)
    if not can_stack_land(state, h, units):
        return Refusal("stacking.land", f"hex {where} has no room for these units (stacking limit: {LAND_LIMIT_TEXT})")
    return ""


class Advance(Phase):
    name = "advance"
    prompt = "advance into hexes emptied by your attacks, or pass"
    orders = (ADVANCE,)

    def needed(self, state: GameState, side: str) -> bool:
        return next(self._actions(state, side), None) is not None

    def _actions(self, state: GameState, side: str) -> Iterator[Action]:
        for right in state.memo.advances or ():
            for n in range(1, MAX_ADVANCE - right.taken + 1):
                for group in combinations(sorted(right.eligible), n):
                    action = Action("advance", (right.hex, *group))
                    if not advance_refusal(state, side, action):
                        yield action

    def legal(self, state: GameState, side: str) -> list[Action]:
        return [PASS, *_sorted(self._actions(state, side))]

    def check(self, state: GameState, side: str, action: Action) -> None:
        if action.kind == "advance":
            why = advance_refusal(state, side, action)
            if why:
                raise IllegalAction(why)
        else:
            super().check(state, side, action)

    def apply(self, state: GameState, side: str, action: Action) -> None:
        h = int(action.args[0])
        ids = [int(x) for x in action.args[1:]]
        right = next(r for r in state.memo.advances or () if r.hex == h)
        for uid in ids:
            u = state.units[uid]
            state.place(u, h)
            pass_to_side(state, h, u.country)
        right.eligible = [i for i in right.eligible if i not in ids]
        right.taken += len(ids)

    def leave(self, state: GameState) -> None:
        state.memo.advances = None
