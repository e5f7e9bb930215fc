"""Naval combat (rulebook: "Naval and Air Combat", "Damaged Units", "Terrain"; supplement:
"Naval and air combat").

Order of the moving side in the combat phase:

* ``naval HEX UNIT [UNIT ...]``: its ships attack the enemy naval stack in the adjacent
  hex HEX (never across an all-land hexside or a canal).

Naval attacks are declared beside land attacks and resolved by the same chance step, in
the order declared.  Ships inside a major port are out of their reach (rulebook "Terrain").
Both sides hit each other at the same odds: each unit is damaged
with probability ``1 - 2^(-k)`` and, separately, eliminated with probability
``1 - 0.95^k``, where ``k`` is the enemy's total strength over the unit's own defence
times the number of units on its side.  Surviving defenders may then retreat one hex.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations
from typing import TYPE_CHECKING, ClassVar

from engine import combat, combat_math, losses, sea_room
from engine.actions import PASS, Action, IllegalAction, KindSpec, Refusal
from engine.events import Event, number_text
from engine.ownership import owned
from engine.sides import other
from engine.stacking import friendly_port, inside_major_port
from engine.state import DeclaredAttack, GameState, Unit
from engine.supply import SupplyMap, unsupplied
from engine.units import UnitType
from engine.war import at_war_with

if TYPE_CHECKING:
    from engine.rng import Rng

NAVAL = KindSpec(
    "naval",
    ("hex", "unit"),
    variadic=True,
    help="attack the enemy naval stack in HEX with ships",
    words=("HEX", "UNIT"),
    example="naval 150,60 #118 #119",
)


def enemy_ships(state: GameState, h: int, side: str) -> list[Unit]:
    """Ships of ``side``'s enemies in hex ``h``, in port or not, by id."""
    enemy = other(side)
    return sorted(
        (u for u in state.units_at(h) if u.is_naval and state.side_of(u.country) == enemy), key=lambda u: u.id
    )


def naval_defenders(state: GameState, h: int, side: str) -> list[Unit]:
    """The enemy naval stack in hex ``h`` that ``side``'s ships may attack: every enemy ship
    there but those inside a major port (rulebook "Terrain"), by id."""
    return [u for u in enemy_ships(state, h, side) if not inside_major_port(state, u)]


def strength_against(u: Unit, enemies: list[Unit]) -> Fraction:
    """What ``u`` hits ``enemies`` with: its submarine attack against submarines, its surface
    attack otherwise (the first enemy, the lowest id, decides); half if damaged."""
    if not enemies:
        return Fraction(0)
    value = Fraction(u.sub_attack if enemies[0].type == UnitType.SUBMARINE else u.attack)
    return value / 2 if u.damaged else value


def defence(u: Unit) -> Fraction:
    return Fraction(u.defense, 2) if u.damaged else Fraction(u.defense)


def attacker_refusal(
    state: GameState, side: str, uid: int, h: int, declared: set[int] | None = None, smap: SupplyMap | None = None
) -> str:
    """Why ship ``uid`` may not attack the naval stack in hex ``h`` now ('' if it may).
    ``declared`` and ``smap`` may be passed in when many ships are asked about."""
    where = state.world.map.grid.label(h)
    u = owned(state, side, uid, state.units.get(uid))
    if isinstance(u, Refusal):
        return u
    label = u.label()
    if not u.is_naval:
        return Refusal("naval.not-naval", f"{label} is not a naval unit")
    if not u.on_map:
        return Refusal("unit.not-on-map", f"{label} is not on the map and cannot attack")
    if u.in_port:
        return Refusal("naval.in-port", f"{label} is inside a port and cannot attack; it must put to sea first")
    if u.id in (combat.declared_units(state) if declared is None else declared):
        return Refusal("attack.already", f"{label} already attacks in this phase")
    if h not in state.world.map.naval_zoc_neighbours[u.hex]:
        return Refusal(
            "naval.not-adjacent",
            f"{label} in hex {state.world.map.grid.label(u.hex)} is not adjacent to hex {where} "
            "across water (canals excepted)",
        )
    defenders = naval_defenders(state, h, side)
    for d in defenders:
        if not at_war_with(state, u.country, d.country):
            return Refusal("war.not-at-war", f"{label} is not at war with {d.country}, whose ships are in hex {where}")
    if strength_against(u, defenders) <= 0:
        return Refusal("naval.no-attack", f"{label} has no attack strength against the ships in hex {where}")
    if not (smap or combat.side_supply(state, side)).in_supply(u):
        return unsupplied(label)
    return ""


def check_naval(state: GameState, side: str, action: Action) -> None:
    h = action.args[0]
    assert isinstance(h, int)
    ids = action.args[1:]
    if not 0 <= h < state.world.map.size:
        raise IllegalAction(f"hex {h} is not on the map", rule="hex.off-map")
    where = state.world.map.grid.label(h)
    if not ids:
        raise IllegalAction(f"name the ships that attack hex {where}", rule="attack.no-units")
    if len(set(ids)) != len(ids):
        raise IllegalAction(f"a unit is named twice in the attack on hex {where}", rule="attack.named-twice")
    if not naval_defenders(state, h, side):
        if enemy_ships(state, h, side):
            raise IllegalAction(
                f"the enemy ships in hex {where} are inside a major port, where no naval unit can attack them",
                rule="naval.major-port",
            )
        raise IllegalAction(f"there are no enemy ships in hex {where} to attack", rule="naval.no-enemy")
    declared, smap = combat.declared_units(state), combat.side_supply(state, side)
    for uid in ids:
        assert isinstance(uid, int)
        why = attacker_refusal(state, side, uid, h, declared, smap)
        if why:
            raise IllegalAction(why)


def apply_naval(state: GameState, action: Action) -> None:
    h, *ids = action.args
    state.combats.append(DeclaredAttack("naval", int(h), sorted(int(i) for i in ids)))
    for uid in ids:
        state.units[int(uid)].attacked = True


def candidates(state: GameState, side: str) -> dict[int, list[int]]:
    """Enemy naval stacks ``side`` may attack now, with the ships that may attack each."""
    nbr = state.world.map.naval_zoc_neighbours
    units = state.units
    mine = [u for u in state.side_units(side) if u.is_naval and u.on_map and not u.in_port]
    if not mine:
        return {}
    enemy = other(side)
    enemy_hexes = {
        u.hex for u in state.side_units(enemy) if u.is_naval and u.on_map and not inside_major_port(state, u)
    }
    if not enemy_hexes:
        return {}
    declared = combat.declared_units(state)
    smap: SupplyMap | None = None
    out: dict[int, list[int]] = {}
    for u in mine:
        for h in nbr[u.hex]:
            if h not in enemy_hexes:
                continue
            smap = smap or combat.side_supply(state, side)
            if not attacker_refusal(state, side, u.id, h, declared, smap):
                out.setdefault(h, []).append(u.id)
    return {h: sorted(v) for h, v in sorted(out.items()) if all(i in units for i in v)}


def actions(state: GameState, side: str) -> list[Action]:
    out: list[Action] = []
    for h, ids in candidates(state, side).items():
        if len(ids) <= combat.MAX_LISTED_SUBSETS:
            groups = [c for n in range(1, len(ids) + 1) for c in combinations(ids, n)]
        else:
            groups = [(i,) for i in ids] + [tuple(ids)]
        out.extend(Action("naval", (h, *g)) for g in groups)
    return out


# --- resolution ---------------------------------------------------------------------------


def _hits(rng: Rng, units: list[Unit], enemy_strength: Fraction) -> list[tuple[Unit, str, float]]:
    """Both draws for every unit of a side, by id: ('eliminated' | 'damaged' | '', chance of damage)."""
    out = []
    for u in units:
        if enemy_strength <= 0:
            out.append((u, "", 0.0))
            continue
        k = combat_math.unit_k(enemy_strength, defence(u), len(units))
        hurt = combat_math.damaged(rng.uniform(), k)
        sunk = combat_math.eliminated(rng.uniform(), k)
        out.append((u, "eliminated" if sunk else "damaged" if hurt else "", combat_math.probability(Fraction(2), k)))
    return out


def _apply_hits(state: GameState, results: list[tuple[Unit, str, float]]) -> list[str]:
    text = []
    for u, what, _ in results:
        if what == "eliminated":
            losses.eliminate(state, u)
            text.append(f"#{u.id} sunk")
        elif what == "damaged":
            # A convoy is sunk by its first hit, never damaged.
            twice = u.damaged
            if losses.hit(state, u):
                text.append(f"#{u.id} sunk ({'already damaged' if twice else 'cannot be damaged'})")
            else:
                text.append(f"#{u.id} damaged")
    return text


def resolve(state: GameState, rng: Rng, entry: DeclaredAttack) -> list[str]:
    """Resolve one declared naval attack; returns its log line."""
    h = entry.hex
    where = state.world.map.grid.label(h)
    attackers = [state.units[i] for i in entry.attackers if i in state.units and state.units[i].on_map]
    if not attackers:
        return [f"naval attack on {where}: no attacker is left"]
    side = state.side_of(attackers[0].country)
    defenders = naval_defenders(state, h, side)
    if not defenders:
        return [f"naval attack on {where}: no enemy ships are left there"]
    a_strength = sum((strength_against(u, defenders) for u in attackers), Fraction(0))
    d_strength = sum((strength_against(u, attackers) for u in defenders), Fraction(0))
    d_total = sum((defence(u) for u in defenders), Fraction(0))
    head = (
        f"naval attack on {where} by {', '.join(u.label() for u in attackers)} against "
        f"{', '.join(u.label() for u in defenders)}: attack {number_text(a_strength)}, "
        f"return fire {number_text(d_strength)}, defence {number_text(d_total)}"
    )
    d_results = _hits(rng, defenders, a_strength)
    a_results = _hits(rng, attackers, d_strength)
    d_text = _apply_hits(state, d_results) or ["no losses"]
    a_text = _apply_hits(state, a_results) or ["no losses"]
    parts = [head, "defender: " + ", ".join(d_text), "attacker: " + ", ".join(a_text)]
    survivors = [u for u in defenders if u.id in state.units]
    if survivors and d_total > 0:
        u = rng.uniform()
        chance = combat_math.probability(Fraction(2), a_strength / d_total)
        if combat_math.draw_below(u, 2, a_strength / d_total):
            parts.append(f"retreat draw {float(u):.3f} below {chance:.2f}: " + _retreat(state, h, survivors, attackers))
        else:
            parts.append(f"retreat draw {float(u):.3f}, needed below {chance:.2f}: the defenders hold")
    return ["; ".join(parts)]


def _retreat(state: GameState, h: int, units: list[Unit], attackers: list[Unit]) -> str:
    plan = sea_room.way_out(state, state.side_of(units[0].country), h, units, [a.hex for a in attackers if a.on_map])
    moved = []
    for u in units:
        if u.id in plan:
            state.place(u, plan[u.id])
            u.in_port = friendly_port(state, plan[u.id], state.side_of(u.country))
            moved.append(f"#{u.id} to {state.world.map.grid.label(plan[u.id])}")
    stayed = [f"#{u.id}" for u in units if u.id not in plan]
    text = "retreats " + ", ".join(moved) if moved else "no retreat is possible"
    if moved and stayed:
        text += "; " + ", ".join(stayed) + " cannot retreat and stay"
    return text


# --- the combat phase with naval attacks -----------------------------------------------------


class Combat(combat.Combat):
    """The combat phase: land attacks, their support, and naval attacks."""

    orders: ClassVar[tuple[KindSpec, ...]] = (*combat.Combat.orders, NAVAL)

    def needed(self, state: GameState, side: str) -> bool:
        return super().needed(state, side) or bool(candidates(state, side))

    def legal(self, state: GameState, side: str) -> list[Action]:
        rest = super().legal(state, side)[1:]
        return [PASS, *sorted([*rest, *actions(state, side)], key=lambda a: (a.kind, a.args))]

    def check(self, state: GameState, side: str, action: Action) -> None:
        if action.kind == "naval":
            check_naval(state, side, action)
        else:
            super().check(state, side, action)

    def apply(self, state: GameState, side: str, action: Action) -> None:
        if action.kind == "naval":
            apply_naval(state, action)
        else:
            super().apply(state, side, action)


class CombatRoll(combat.CombatRoll):
    def resolve_events(self, state: GameState, rng: Rng, entry: DeclaredAttack) -> list[Event]:
        if entry.kind == "naval":
            return [Event("chance", what=line) for line in resolve(state, rng, entry)]
        return super().resolve_events(state, rng, entry)
