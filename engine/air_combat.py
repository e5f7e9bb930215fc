"""Air combat in the combat phase (rulebook: "Naval and Air Combat", "Damaged Units",
"Kamikaze", "Terrain"; supplement: "Naval and air combat").

Orders of the moving side in the combat phase:

* ``air_attack TARGET UNIT [UNIT ...]``: fighters in the hex of the enemy air unit TARGET
  attack it (air units are attacked one by one);
* ``bomb_ships HEX UNIT [UNIT ...]``: bombers in HEX attack the enemy naval stack there;
* ``kamikaze HEX UNIT [UNIT ...]``: Japanese bombers attack the Allied naval stack in HEX
  with tripled strength, and are always lost.

They are declared like land attacks (``GameState.combats``, kinds ``air``, ``ships`` and
``kamikaze``; an air attack's target is the one entry of ``supports``) and resolved by the
combat roll in the order declared.  Both sides hit each other with the same odds; a side
that cannot hit back (a non-fighter attacked by fighters, ships attacked by bombers) puts
the attacker at no risk.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from engine import combat_math
from engine.actions import Action, IllegalAction, KindSpec, Refusal
from engine.hexgrid import NO_HEX
from engine.losses import eliminate, hit
from engine.ownership import no_unit, owned
from engine.rng import Rng
from engine.sides import other
from engine.stacking import inside_major_port
from engine.state import NO_UNIT, DeclaredAttack, GameState, Unit
from engine.supply import unsupplied
from engine.units import UnitType
from engine.war import at_war_with, counted_cities

AIR_ATTACK = KindSpec(
    "air_attack",
    ("unit", "unit"),
    variadic=True,
    help="fighters attack the enemy air unit TARGET in their hex",
    words=("TARGET", "UNIT"),
    example="air_attack #812 #97 #98",
)
BOMB_SHIPS = KindSpec(
    "bomb_ships",
    ("hex", "unit"),
    variadic=True,
    help="bombers attack the enemy naval stack in HEX",
    words=("HEX", "UNIT"),
    example="bomb_ships 150,60 #120 #121",
)
KAMIKAZE = KindSpec(
    "kamikaze",
    ("hex", "unit"),
    variadic=True,
    help="Japanese bombers attack the Allied ships in HEX, strength x3, bombers lost",
    words=("HEX", "UNIT"),
    example="kamikaze [Okinawa] #640",
)
ORDERS = (AIR_ATTACK, BOMB_SHIPS, KAMIKAZE)
KINDS = {"air_attack": "air", "bomb_ships": "ships", "kamikaze": "kamikaze"}
RESOLVED = frozenset(KINDS.values())

KAMIKAZE_COUNTRY = "Japan"
KAMIKAZE_FACTOR = 3

#: Is a unit in supply (the combat step's supply map of its side)?
InSupply = Callable[[Unit], bool]


def _hex(state: GameState, h: int) -> str:
    return state.world.map.grid.label(h)


def _num(x: Fraction) -> str:
    if x.denominator == 1:
        return str(x.numerator)
    return f"{float(x):.2f}".rstrip("0").rstrip(".")


def is_fighter(u: Unit) -> bool:
    return u.is_air and u.attack > 0 and u.type != UnitType.AIR_TRANSPORT


def is_bomber(u: Unit) -> bool:
    return u.is_air and u.bomber > 0


def fighter_strength(u: Unit) -> Fraction:
    """Fighter strength, halved when damaged (rulebook "Damaged Units")."""
    return Fraction(u.attack, 2) if u.damaged else Fraction(u.attack)


def bomber_strength(u: Unit) -> Fraction:
    return Fraction(u.bomber, 2) if u.damaged else Fraction(u.bomber)


def defence(u: Unit) -> Fraction:
    # A unit printed with no defence still has some chance to live: it counts as 1.
    d = Fraction(max(u.defense, 1))
    return d / 2 if u.damaged else d


def flying(u: Unit) -> bool:
    """On the map and not carried (an air unit on a carrier fights with its carrier)."""
    return u.hex != NO_HEX and u.carrier == NO_UNIT


def enemy_ships(state: GameState, h: int, side: str) -> list[Unit]:
    enemy = other(side)
    return sorted(
        (u for u in state.units_at(h) if u.is_naval and u.carrier == NO_UNIT and state.side_of(u.country) == enemy),
        key=lambda u: u.id,
    )


def enemy_air(state: GameState, h: int, side: str) -> list[Unit]:
    enemy = other(side)
    return sorted(
        (u for u in state.units_at(h) if u.is_air and flying(u) and state.side_of(u.country) == enemy),
        key=lambda u: u.id,
    )


def kamikaze_allowed(state: GameState) -> bool:
    """Rulebook "Kamikaze": only once the Allies control a city of Japan or its colonies."""
    if KAMIKAZE_COUNTRY not in state.countries:
        return False
    allies = other(state.countries[KAMIKAZE_COUNTRY].side)
    cities = state.world.cities_of.get(KAMIKAZE_COUNTRY, ()) or counted_cities(state, KAMIKAZE_COUNTRY)
    return any(state.side_controlling(h) == allies for h in cities)


def declared_units(state: GameState) -> set[int]:
    out: set[int] = set()
    for entry in state.combats:
        out.update(entry.attackers)
        if entry.kind not in RESOLVED:
            out.update(entry.supports)
    return out


def _unit_refusal(
    state: GameState, side: str, kind: str, uid: int, h: int, in_supply: InSupply, declared: set[int]
) -> str:
    """Why unit ``uid`` may not take part in an air order of ``kind`` against hex ``h``."""
    u = owned(state, side, uid, state.units.get(uid))
    if isinstance(u, Refusal):
        return u
    label = u.label()
    if not u.is_air:
        return Refusal("air.not-air", f"{label} is not an air unit")
    if not flying(u) or u.hex != h:
        return Refusal("air.not-in-hex", f"{label} is not flying in hex {_hex(state, h)}")
    if uid in declared:
        return Refusal("attack.already", f"{label} already attacks in this phase")
    if kind == "air_attack" and not is_fighter(u):
        return Refusal("air.not-fighter", f"{label} has no fighter strength; only fighters attack air units")
    if kind in ("bomb_ships", "kamikaze") and not is_bomber(u):
        return Refusal("air.not-bomber", f"{label} has no bomber strength; only bombers attack naval units")
    if kind == "bomb_ships" and u.kamikaze:
        return Refusal("air.kamikaze-only", f"{label} can only make kamikaze attacks")
    if kind == "kamikaze" and u.country != KAMIKAZE_COUNTRY:
        return Refusal("kamikaze.not-japanese", f"{label} is not Japanese; only Japanese bombers make kamikaze attacks")
    if not in_supply(u):
        return unsupplied(label)
    return ""


def check(state: GameState, side: str, action: Action, in_supply: InSupply) -> None:
    """Raise IllegalAction if the air order ``action`` may not be given now."""
    first, *ids = action.args
    assert isinstance(first, int)
    if not ids:
        raise IllegalAction("name the air units that attack", rule="attack.no-units")
    if len(set(ids)) != len(ids):
        raise IllegalAction("a unit is named twice in the attack", rule="attack.named-twice")
    if action.kind == "air_attack":
        target = state.units.get(first)
        if target is None:
            raise IllegalAction(no_unit(first))
        if state.side_of(target.country) == side or not target.is_air or not flying(target):
            raise IllegalAction(
                f"{target.label()} is not an enemy air unit on the map (outside a carrier)", rule="air.no-enemy-air"
            )
        h = target.hex
        enemies = [target]
    else:
        h = first
        if not 0 <= h < state.world.map.size:
            raise IllegalAction(f"hex {h} is not on the map", rule="hex.off-map")
        enemies = enemy_ships(state, h, side)
        if not enemies:
            raise IllegalAction(f"there are no enemy naval units in hex {_hex(state, h)}", rule="air.no-enemy-ships")
    declared = declared_units(state)
    for uid in ids:
        assert isinstance(uid, int)
        why = _unit_refusal(state, side, action.kind, uid, h, in_supply, declared)
        if why:
            raise IllegalAction(why)
        u = state.units[uid]
        for e in enemies:
            if not at_war_with(state, u.country, e.country):
                raise IllegalAction(f"{u.label()} is not at war with {e.country}", rule="war.not-at-war")
    if action.kind == "kamikaze" and not kamikaze_allowed(state):
        raise IllegalAction(
            "kamikaze attacks are allowed only once the Allies control a city of Japan or its colonies",
            rule="kamikaze.not-yet",
        )


def apply(state: GameState, action: Action) -> None:
    first, *ids = action.args
    attackers = sorted(int(i) for i in ids)
    if action.kind == "air_attack":
        target = state.units[int(first)]
        state.combats.append(DeclaredAttack("air", target.hex, attackers, [target.id]))
    else:
        state.combats.append(DeclaredAttack(KINDS[action.kind], int(first), attackers))
    for uid in attackers:
        state.units[uid].attacked = True


def actions(state: GameState, side: str, in_supply: InSupply) -> list[Action]:
    """The air orders ``side`` may give now: all its able units together against each target."""
    out: list[Action] = []
    declared = declared_units(state)
    allowed = kamikaze_allowed(state)
    by_hex: dict[int, list[Unit]] = {}
    for u in state.units.values():
        if u.is_air and flying(u) and state.side_of(u.country) == side and u.id not in declared:
            by_hex.setdefault(u.hex, []).append(u)
    for h in sorted(by_hex):
        mine = sorted(by_hex[h], key=lambda u: u.id)
        for target in enemy_air(state, h, side):
            ids = [u.id for u in mine if is_fighter(u) and at_war_with(state, u.country, target.country)]
            ids = [i for i in ids if in_supply(state.units[i])]
            out.extend(Action("air_attack", (target.id, i)) for i in ids)
            if len(ids) > 1:
                out.append(Action("air_attack", (target.id, *ids)))
        ships = enemy_ships(state, h, side)
        if not ships:
            continue
        for kind in ("bomb_ships", "kamikaze"):
            if kind == "kamikaze" and not allowed:
                continue
            ids = [
                u.id
                for u in mine
                if not _unit_refusal(state, side, kind, u.id, h, in_supply, declared)
                and all(at_war_with(state, u.country, s.country) for s in ships)
            ]
            out.extend(Action(kind, (h, i)) for i in ids)
            if len(ids) > 1:
                out.append(Action(kind, (h, *ids)))
    return out


# --- resolution ------------------------------------------------------------------


def ship_defence(state: GameState, u: Unit) -> Fraction:
    """A ship's defence against aircraft: doubled inside a major port (rulebook "Terrain")."""
    d = defence(u)
    return d * 2 if inside_major_port(state, u) else d


def take_hits(
    state: GameState,
    rng: Rng,
    units: list[Unit],
    enemy_strength: Fraction,
    defence_of: Callable[[Unit], Fraction] = defence,
) -> list[str]:
    """Supplement "Naval and air combat": each unit, with ``k`` = the enemy's strength /
    (its defence x the units on its side), is damaged with probability ``1 - 2^-k`` and,
    separately, eliminated with probability ``1 - 0.95^k``.  ``defence_of`` gives a unit's
    defence in this combat.  Returns one text per unit."""
    out = []
    if enemy_strength <= 0:
        return [f"{u.label()} unharmed (no enemy strength)" for u in units]
    n = len(units)
    for u in units:
        d = defence_of(u)
        k = combat_math.unit_k(enemy_strength, d, n)
        u1, u2 = rng.uniform(), rng.uniform()
        dmg, gone = combat_math.damaged(u1, k), combat_math.eliminated(u2, k)
        pd = combat_math.probability(Fraction(2), k)
        pe = combat_math.probability(Fraction(20, 19), k)
        draws = f"k {float(k):.2f}, damage {float(u1):.3f} vs {pd:.3f}, elimination {float(u2):.3f} vs {pe:.3f}"
        if d != defence(u):
            draws = f"defence {_num(d)} inside a major port, {draws}"
        if gone:
            eliminate(state, u)
            result = "eliminated"
        elif dmg:
            # A convoy, a Me 262 or an Ohka is eliminated by its first hit, never damaged.
            twice = u.damaged
            if hit(state, u):
                result = "eliminated (damaged twice)" if twice else "eliminated (cannot be damaged)"
            else:
                result = "damaged"
        else:
            result = "unharmed"
        out.append(f"{u.label()} {result} ({draws})")
    return out


def resolve(state: GameState, rng: Rng, entry: DeclaredAttack) -> list[str]:
    """Resolve one declared air attack; returns its log lines."""
    where = _hex(state, entry.hex)
    attackers = [state.units[i] for i in entry.attackers if i in state.units and state.units[i].hex == entry.hex]
    what = {"air": "air combat", "ships": "bombing of ships", "kamikaze": "kamikaze attack"}[entry.kind]
    if not attackers:
        return [f"{what} in {where}: no attacker is left"]
    side = state.side_of(attackers[0].country)
    if entry.kind == "air":
        target = state.units.get(entry.supports[0])
        if target is None or target.hex != entry.hex or not flying(target):
            return [f"{what} in {where}: the target is gone"]
        defenders = [target]
        attack = sum((fighter_strength(u) for u in attackers), Fraction(0))
        # Only a fighter hits back, with its fighter strength (rulebook "Naval and Air Combat").
        back = fighter_strength(target) if is_fighter(target) else Fraction(0)
    else:
        defenders = enemy_ships(state, entry.hex, side)
        if not defenders:
            return [f"{what} in {where}: no enemy naval units are left there"]
        attack = sum((bomber_strength(u) for u in attackers), Fraction(0))
        if entry.kind == "kamikaze":
            attack *= KAMIKAZE_FACTOR
        back = Fraction(0)
    head = (
        f"{what} in {where} by {', '.join(u.label() for u in attackers)} against "
        f"{', '.join(u.label() for u in defenders)}: attack {_num(attack)}, strength back {_num(back)}"
    )
    if entry.kind == "air":
        hits = take_hits(state, rng, defenders, attack)
    else:
        hits = take_hits(state, rng, defenders, attack, lambda u: ship_defence(state, u))
    lines = [head, *hits]
    if entry.kind == "kamikaze":
        for u in attackers:
            eliminate(state, u)
        lines.append("the kamikaze bombers are lost: " + ", ".join(f"#{u.id}" for u in attackers))
    elif back > 0:
        lines += take_hits(state, rng, attackers, back)
    else:
        lines.append("no risk to the attackers: the defender cannot hit back")
    return ["; ".join(lines)]
