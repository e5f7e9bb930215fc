"""Installation and strategic bombing in the combat phase (rulebook: "Bombing";
supplement: "Bombing and assaults").  Repairs are deployment orders
(:mod:`engine.deployment`, ``repair_site``).

``bomb HEX TARGET UNIT [UNIT ...]``: bombers in the enemy-controlled HEX bomb TARGET, one of

* ``installation``: the city or resource hex gives no airbase capacity and no port;
* ``strategic``: the resource hex gives its controller no income;
* ``airfield`` or ``fortification``: the installation is destroyed.

Declared in ``GameState.combats`` (kind ``bomb:TARGET``) and resolved by the combat roll:
success with probability ``1 - 2^(-S/5)``, then a 20 % chance that one bomber (the first
named) is damaged.
"""

from __future__ import annotations

from fractions import Fraction

from engine import combat_math
from engine.actions import Action, IllegalAction, KindSpec, Refusal
from engine.air_combat import InSupply, bomber_strength, declared_units, flying, is_bomber
from engine.losses import hit
from engine.ownership import owned
from engine.rng import Rng
from engine.sides import other
from engine.state import DeclaredAttack, GameState
from engine.supply import unsupplied
from engine.war import at_war_with

BOMB = KindSpec(
    "bomb",
    ("hex", "str", "unit"),
    variadic=True,
    help="bombers in HEX bomb it",
    words=("HEX", "WHAT", "UNIT"),
    example="bomb [Essen] strategic #301 #302",
)
ORDERS = (BOMB,)
TARGETS = ("installation", "strategic", "airfield", "fortification")
PREFIX = "bomb:"


def _hex(state: GameState, h: int) -> str:
    return state.world.map.grid.label(h)


def target_refusal(state: GameState, side: str, h: int, target: str) -> str:
    """Why hex ``h`` offers no ``target`` to ``side``'s bombers ('' if it does)."""
    hexmap = state.world.map
    where = _hex(state, h)
    if target not in TARGETS:
        return Refusal("bomb.target", f"'{target}' is not a bombing target: say {', '.join(TARGETS)}")
    owner = state.world.country_names[state.controller[h]]
    if not owner or state.countries[owner].side != other(side):
        return Refusal("bomb.not-enemy", f"hex {where} is not controlled by your enemy")
    if h in state.atomized and target in ("installation", "strategic"):
        return Refusal("bomb.destroyed", f"hex {where} was destroyed by an atomic bomb")
    is_site = h in hexmap.city_at or h in hexmap.resources
    if target == "installation" and (not is_site or h in state.bombed):
        return Refusal("bomb.nothing", f"hex {where} has no undamaged city or resource hex to bomb")
    if target == "strategic" and (h not in hexmap.resources or h in state.strategic):
        return Refusal("bomb.nothing", f"hex {where} has no producing resource hex to bomb")
    if target == "airfield" and h not in state.airfields:
        return Refusal("bomb.nothing", f"hex {where} has no airfield")
    if target == "fortification" and h not in state.forts:
        return Refusal("bomb.nothing", f"hex {where} has no fortification")
    return ""


def bomber_refusal(state: GameState, side: str, uid: int, h: int, in_supply: InSupply, declared: set[int]) -> str:
    u = owned(state, side, uid, state.units.get(uid))
    if isinstance(u, Refusal):
        return u
    label = u.label()
    if not is_bomber(u):
        return Refusal("air.not-bomber", f"{label} has no bomber strength")
    if u.kamikaze:
        return Refusal("air.kamikaze-only", f"{label} can only make kamikaze attacks")
    if not flying(u) or u.hex != h:
        return Refusal("air.not-in-hex", f"{label} is not flying in hex {_hex(state, h)}")
    if uid in declared:
        return Refusal("attack.already", f"{label} already attacks in this phase")
    owner = state.world.country_names[state.controller[h]]
    if owner and not at_war_with(state, u.country, owner):
        return Refusal("war.not-at-war", f"{label} is not at war with {owner}")
    if not in_supply(u):
        return unsupplied(label)
    return ""


def check(state: GameState, side: str, action: Action, in_supply: InSupply) -> None:
    h, target, *ids = action.args
    assert isinstance(h, int) and isinstance(target, str)
    if not 0 <= h < state.world.map.size:
        raise IllegalAction(f"hex {h} is not on the map", rule="hex.off-map")
    if not ids:
        raise IllegalAction("name the bombers", rule="attack.no-units")
    if len(set(ids)) != len(ids):
        raise IllegalAction("a unit is named twice in the bombing", rule="attack.named-twice")
    why = target_refusal(state, side, h, target)
    if why:
        raise IllegalAction(why)
    if any(e.hex == h and e.kind == PREFIX + target for e in state.combats):
        raise IllegalAction(f"the {target} bombing of hex {_hex(state, h)} is already declared", rule="bomb.twice")
    declared = declared_units(state)
    for uid in ids:
        assert isinstance(uid, int)
        why = bomber_refusal(state, side, uid, h, in_supply, declared)
        if why:
            raise IllegalAction(why)


def apply(state: GameState, action: Action) -> None:
    h, target, *ids = action.args
    state.combats.append(DeclaredAttack(PREFIX + str(target), int(h), [int(i) for i in ids]))
    for uid in ids:
        state.units[int(uid)].attacked = True


def actions(state: GameState, side: str, in_supply: InSupply) -> list[Action]:
    """Each target of each hex where ``side`` has bombers, with all of them together."""
    out: list[Action] = []
    declared = declared_units(state)
    hexes = sorted({u.hex for u in state.units.values() if u.is_air and flying(u) and is_bomber(u)})
    for h in hexes:
        targets = [t for t in TARGETS if not target_refusal(state, side, h, t)]
        if not targets:
            continue
        ids = [u.id for u in state.units_at(h) if not bomber_refusal(state, side, u.id, h, in_supply, declared)]
        if not ids:
            continue
        for target in targets:
            if not any(e.hex == h and e.kind == PREFIX + target for e in state.combats):
                out.append(Action("bomb", (h, target, *sorted(ids))))
    return out


def resolve(state: GameState, rng: Rng, entry: DeclaredAttack) -> list[str]:
    target = entry.kind.removeprefix(PREFIX)
    h, where = entry.hex, _hex(state, entry.hex)
    bombers = [state.units[i] for i in entry.attackers if i in state.units and state.units[i].hex == h]
    if not bombers:
        return [f"{target} bombing of {where}: no bomber is left"]
    strength = sum((bomber_strength(u) for u in bombers), Fraction(0))
    u1 = rng.uniform()
    success = combat_math.bombing_succeeds(u1, strength)
    chance = combat_math.probability(Fraction(2), strength / 5)
    head = (
        f"{target} bombing of {where} by {', '.join(u.label() for u in bombers)}: strength {float(strength):g}, "
        f"draw {float(u1):.3f} vs {chance:.3f}"
    )
    if not success:
        result = "fails"
    else:
        result = "succeeds"
        if target == "installation":
            state.bombed.add(h)
        elif target == "strategic":
            state.strategic.add(h)
        elif target == "airfield":
            state.airfields.pop(h, None)
            state.airfield_owner.pop(h, None)
        else:
            state.forts.pop(h, None)
            state.fort_owner.pop(h, None)
    u2 = rng.uniform()
    if u2 < combat_math.BOMBER_DAMAGE_CHANCE:
        first = bombers[0]
        gone = hit(state, first)
        damage = f"{first.label()} {'eliminated' if gone else 'damaged'} (draw {float(u2):.3f} < 0.2)"
    else:
        damage = f"no bomber damaged (draw {float(u2):.3f})"
    return [f"{head}: {result}; {damage}"]
