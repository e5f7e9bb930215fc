"""Amphibious assaults and paradrops (rulebook: "Amphibious Assaults and Paradrops",
"Japanese/Soviet Relations"; supplement: "Bombing and assaults", "Stacking").

Order of the amphibious and paradrop phase::

    assault 41,17 #12 #13     embarked land units assault enemy-held hex 41,17

Units on a transport ship in the hex or next to it make an amphibious assault;
paratroopers on a transport aircraft in the hex make a paradrop; one order with both
is a combined assault.  The roll succeeds with probability 50 %, +25 % when combined,
+25 % with marines landing from the sea (:func:`engine.combat_math.assault_chance`).
A failed assault eliminates every unit in it.  A successful one puts them in the hex:
an empty hex is taken at once, and those units may not attack this turn; on a defended
hex they must clear it in the combat phase, attacking only the enemy in their own hex,
and are eliminated if enemy land units are still there when the combat phase ends.
Units that landed do not move in the second movement phase, except armor.
"""

from __future__ import annotations

from fractions import Fraction

from engine import combat_math
from engine.actions import PASS, Action, IllegalAction, KindSpec, Refusal
from engine.control import resolve_pockets, take_control
from engine.hexgrid import NO_HEX
from engine.losses import eliminate
from engine.ownership import owned
from engine.phase import Phase
from engine.rng import Rng
from engine.sides import other
from engine.stacking import LAND_LIMIT_TEXT, can_stack_land
from engine.state import NO_UNIT, Assault, GameState, Unit
from engine.terrain import barred_terrain
from engine.units import UnitType
from engine.war import at_war_with, japan_soviet_refusal, may_enter_country
from engine.zoc import has_enemy_land_unit

ASSAULT = KindSpec(
    "assault",
    ("hex", "unit"),
    variadic=True,
    help="embarked land units land in an enemy hex from the sea or the air",
    words=("HEX", "UNIT"),
    example="assault 41,17 #12 #13",
)

_EDGE = 3  # hexside value of an all-land edge (engine.hexmap): no landing across it


def _hex(state: GameState, h: int) -> str:
    return state.world.map.grid.label(h)


def assaults(state: GameState) -> list[Assault]:
    return state.memo.assaults or []


def assault_of(state: GameState, uid: int) -> Assault | None:
    return next((a for a in assaults(state) if uid in a.units), None)


def _carrier(state: GameState, u: Unit) -> Unit | None:
    c = state.units.get(u.carrier) if u.carrier != NO_UNIT else None
    return c if c is not None and c.hex != NO_HEX else None


def _reaches(state: GameState, c: Unit, h: int) -> bool:
    """A ship lands its cargo in its own hex or a hex next to it (not across an all-land
    edge); an aircraft drops it in its own hex."""
    if c.hex == h:
        return True
    if c.is_air:
        return False
    grid = state.world.map.grid
    if grid.distance(c.hex, h) != 1:
        return False
    return bool(state.world.map.sides[c.hex * 6 + grid.direction_to(c.hex, h)] != _EDGE)


def unit_refusal(state: GameState, side: str, u: Unit | None, uid: int, h: int) -> str:
    """Why unit ``uid`` may not take part in an assault on hex ``h`` ('' if it may)."""
    found = owned(state, side, uid, u, on_map=True)
    if isinstance(found, Refusal):
        return found
    u = found
    label = u.label()
    if not u.is_land:
        return Refusal("assault.not-land", f"{label} is not a land unit")
    c = _carrier(state, u)
    if c is None:
        return Refusal("assault.not-embarked", f"{label} is not embarked on a ship or aircraft")
    if assault_of(state, uid) is not None:
        return Refusal("assault.already", f"{label} already takes part in an assault")
    if c.is_air and u.type != UnitType.PARATROOPER:
        return Refusal("paradrop.not-paratrooper", f"{label} is not a paratrooper; only paratroopers make paradrops")
    if not _reaches(state, c, h):
        where = "from its own hex" if c.is_air else "in its hex or an adjacent one"
        return Refusal("assault.unreachable", f"{label} on {c.label()} can land only {where}, not in {_hex(state, h)}")
    if why := japan_soviet_refusal(state, u, h, "attack into"):
        return why
    if barred := barred_terrain(state.world.map, u.type, h):
        return Refusal("terrain.armor", f"{label} may not enter {barred} hex {_hex(state, h)}")
    owner = state.controller_of(h)
    if owner and not at_war_with(state, u.country, owner):
        return Refusal("war.not-at-war", f"{label} is not at war with {owner}, which holds {_hex(state, h)}")
    if not may_enter_country(state, u, h):
        return Refusal("war.neutral-territory", f"{label} may not enter hex {_hex(state, h)}")
    return ""


def target_refusal(state: GameState, side: str, h: int) -> str:
    if not 0 <= h < state.world.map.size:
        return Refusal("hex.off-map", f"hex {h} is not on the map")
    if not state.world.map.has_land(h):
        return Refusal("assault.sea", f"hex {_hex(state, h)} is all sea")
    if state.side_controlling(h) != other(side):
        return Refusal("assault.not-enemy", f"hex {_hex(state, h)} is not held by the enemy; assaults go only there")
    if any(a.hex == h for a in assaults(state)):
        return Refusal("assault.hex-taken", f"an assault on hex {_hex(state, h)} is already declared")
    return ""


def check(state: GameState, side: str, action: Action) -> None:
    h, *ids = (int(a) for a in action.args)
    if why := target_refusal(state, side, h):
        raise IllegalAction(why)
    if not ids:
        raise IllegalAction(f"name the embarked units that assault hex {_hex(state, h)}", rule="attack.no-units")
    if len(set(ids)) != len(ids):
        raise IllegalAction("a unit is named twice in the assault", rule="attack.named-twice")
    for uid in ids:
        if why := unit_refusal(state, side, state.units.get(uid), uid, h):
            raise IllegalAction(why)
    units = [state.units[i] for i in ids]
    if not can_stack_land(state, h, units):
        raise IllegalAction(
            f"only as many units as could stack in hex {_hex(state, h)} may land there ({LAND_LIMIT_TEXT})",
            rule="stacking.land",
        )


def apply(state: GameState, action: Action) -> None:
    h, *ids = (int(a) for a in action.args)
    carriers = [state.units[state.units[i].carrier] for i in ids]
    by_sea = any(c.is_naval for c in carriers)
    by_air = any(c.is_air for c in carriers)
    state.memo.assaults = [*assaults(state), Assault(h, sorted(ids), by_sea, by_air)]


def actions(state: GameState, side: str) -> list[Action]:
    """Each embarked unit alone against each hex it may assault, and all of them together
    when they may stack there."""
    by_hex: dict[int, list[int]] = {}
    hexmap = state.world.map
    for u in sorted(state.side_units(side), key=lambda x: x.id):
        if not u.is_land or u.carrier == NO_UNIT:
            continue
        c = _carrier(state, u)
        if c is None:
            continue
        near = [c.hex] if c.is_air else [c.hex, *(o for o in hexmap.neighbours[c.hex * 6 : c.hex * 6 + 6])]
        for h in near:
            if h == NO_HEX or target_refusal(state, side, h) or unit_refusal(state, side, u, u.id, h):
                continue
            if can_stack_land(state, h, [u]):
                by_hex.setdefault(h, []).append(u.id)
    out: list[Action] = []
    for h, ids in sorted(by_hex.items()):
        out.extend(Action("assault", (h, i)) for i in ids)
        if len(ids) > 1 and can_stack_land(state, h, [state.units[i] for i in ids]):
            out.append(Action("assault", (h, *ids)))
    return out


def success_chance(state: GameState, a: Assault) -> Fraction:
    marines = any(state.units[i].type == UnitType.MARINE for i in a.units if i in state.units)
    return combat_math.assault_chance(a.by_sea, a.by_air, marines)


def resolve(state: GameState, rng: Rng, a: Assault) -> str:
    where = _hex(state, a.hex)
    units = [state.units[i] for i in a.units if i in state.units and state.units[i].carrier != NO_UNIT]
    what = "combined assault" if a.by_sea and a.by_air else "amphibious assault" if a.by_sea else "paradrop"
    if not units:
        a.stage = "failed"
        return f"{what} on {where}: no unit is left to land"
    side = state.side_of(units[0].country)
    chance = success_chance(state, a)
    draw = rng.uniform()
    names = ", ".join(u.label() for u in units)
    head = f"{what} on {where} by {names}: success chance {float(chance):.0%}, draw {float(draw):.3f}"
    if draw >= chance:
        for u in units:
            eliminate(state, u)
        a.stage = "failed"
        return f"{head}: failed, the units are eliminated"
    for u in units:
        u.carrier = NO_UNIT
        state.place(u, a.hex)
        u.mp_used = u.move
        u.moved = u.type != UnitType.ARMOR  # armor alone may move in the second movement phase
    if has_enemy_land_unit(state, side, a.hex):
        a.stage = "landed"
        return f"{head}: landed; they must clear the enemy from {where} in the combat phase or be eliminated"
    take_control(state, a.hex, units[0].country)
    resolve_pockets(state)
    a.stage = "taken"
    return f"{head}: landed, hex {where} taken"


def attack_refusal(state: GameState, u: Unit, h: int) -> str | None:
    """The combat phase asks here about a unit that came by assault this turn: ``None``
    if it did not, '' if it may attack ``h`` (its own hex, which it must clear), else why not."""
    a = assault_of(state, u.id)
    if a is None or a.stage not in ("landed", "taken"):
        return None
    if a.stage == "taken":
        return Refusal("assault.no-attack", f"{u.label()} landed in an empty hex this turn and may not attack")
    if h != a.hex:
        return Refusal(
            "assault.own-hex", f"{u.label()} landed on a defended hex; it may attack only in {_hex(state, a.hex)}"
        )
    return ""


def landed_targets(state: GameState, side: str) -> dict[int, list[int]]:
    """Defended hexes where ``side``'s assaulting units landed: hex -> those units."""
    out: dict[int, list[int]] = {}
    for a in assaults(state):
        if a.stage == "landed":
            ids = [i for i in a.units if i in state.units and state.side_of(state.units[i].country) == side]
            if ids and has_enemy_land_unit(state, side, a.hex):
                out[a.hex] = ids
    return out


def settle(state: GameState) -> list[str]:
    """The end of the combat phase: an assault whose hex still holds enemy land units
    fails and its units are eliminated; one whose hex is clear takes it."""
    lines = []
    for a in assaults(state):
        if a.stage != "landed":
            continue
        alive = [state.units[i] for i in a.units if i in state.units and state.units[i].hex == a.hex]
        if not alive:
            continue
        side = state.side_of(alive[0].country)
        if has_enemy_land_unit(state, side, a.hex):
            for u in alive:
                eliminate(state, u)
            lines.append(f"the assault on {_hex(state, a.hex)} failed: enemy land units hold it")
        elif state.side_controlling(a.hex) != side:
            take_control(state, a.hex, alive[0].country)
            resolve_pockets(state)
    state.memo.assaults = None
    return lines


class Amphibious(Phase):
    name = "amphibious"
    prompt = "make amphibious assaults and paradrops with embarked units, or pass"
    orders = (ASSAULT,)

    def enter(self, state: GameState) -> None:
        state.memo.assaults = None

    def needed(self, state: GameState, side: str) -> bool:
        return bool(actions(state, side))

    def legal(self, state: GameState, side: str) -> list[Action]:
        return [PASS, *sorted(actions(state, side), key=lambda a: a.args)]

    def check(self, state: GameState, side: str, action: Action) -> None:
        check(state, side, action)

    def apply(self, state: GameState, side: str, action: Action) -> None:
        apply(state, action)


class AmphibiousRoll(Phase):
    name = "amphibious_roll"
    kind = "chance"

    def needed(self, state: GameState, side: str) -> bool:
        return any(a.stage == "declared" for a in assaults(state))

    def roll(self, state: GameState, rng: Rng) -> list[str]:
        lines = [resolve(state, rng, a) for a in assaults(state) if a.stage == "declared"]
        kept = [a for a in assaults(state) if a.stage in ("landed", "taken")]
        state.memo.assaults = kept or None
        return lines
